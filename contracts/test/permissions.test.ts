import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, isPermission, Permission, roleAllows, ROLES, type RoleName } from '../src/permissions.js';
import { SETTINGS_GROUP_ACCESS } from '../src/storeSettings.js';

describe('Permission', () => {
  it("is the union of the table's strings, so a misspelt permission does not compile", () => {
    const known: Permission = 'macro:read';
    // @ts-expect-error 'macro:raed' is no permission; this line stops compiling if Permission ever widens to string.
    const misspelt: Permission = 'macro:raed';
    expect(Permission.safeParse(known).success).toBe(true);
    expect(Permission.safeParse(misspelt).success).toBe(false);
    expect(isPermission('macro:raed')).toBe(false);
  });

  it('lists every permission once, sorted, and every role holds only listed ones', () => {
    expect([...ALL_PERMISSIONS]).toEqual([...new Set(ALL_PERMISSIONS)].sort());
    expect(ALL_PERMISSIONS).toContain('settings-general:read');
    expect(ALL_PERMISSIONS).not.toContain('settings-general:update');
    for (const role of Object.keys(ROLES) as RoleName[]) {
      for (const permission of ROLES[role].permissions) expect(isPermission(permission)).toBe(true);
    }
    expect(roleAllows('store_support', 'claim:resolve')).toBe(true);
    expect(roleAllows('store_user', 'claim:resolve')).toBe(false);
  });
});

describe('settings groups', () => {
  it('guard each settings permission (docs/product.md#settings-groups) with exactly one group, and only general has no update', () => {
    const used = Object.values(SETTINGS_GROUP_ACCESS)
      .flatMap((access) => [access.read, access.update])
      .filter((p) => p !== null);
    const settingsPermissions = ALL_PERMISSIONS.filter((p) => p.startsWith('settings-'));
    expect(used.filter((p) => p.startsWith('settings-')).sort()).toEqual(settingsPermissions);
    expect(new Set(used).size).toBe(used.length);
    expect(
      Object.entries(SETTINGS_GROUP_ACCESS)
        .filter(([, access]) => access.update === null)
        .map(([group]) => group),
    ).toEqual(['general', 'branding']);
  });
});
