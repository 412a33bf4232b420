import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_NAMES, ROLES, isPermission, type Permission, type RoleName } from '@claims/contracts';
import { seedDemoUsers } from '../src/auth/users.js';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { DEMO_PASSWORD, json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

/**
 * Every operation of the OpenAPI document that declares a permission (`x-permission`, or `x-permission-any-of`
 * when what is asked picks one), walked with every role of the permission table and with another tenant's ids.
 * The expectations come from the table (contracts' ROLES), not from a list here: a new route is covered the day it is added.
 */

type Slug = 'acme' | 'kumo';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One user per role: where the role lives (its home store) decides which ids are its own. */
const ROLE_USERS: Record<RoleName, { email: string; home: Slug; scope: { account?: string; store?: string } }> = {
  account_owner: { email: 'owner@acme.test', home: 'acme', scope: {} },
  account_admin: { email: 'route-account-admin@acme.test', home: 'acme', scope: { account: 'acme-group' } },
  account_user: { email: 'route-account-user@acme.test', home: 'acme', scope: { account: 'acme-group' } },
  store_owner: { email: 'owner@kumo.test', home: 'kumo', scope: {} },
  store_admin: { email: 'route-store-admin@acme.test', home: 'acme', scope: { store: 'acme' } },
  store_support: { email: 'agent@acme.test', home: 'acme', scope: {} },
  store_user: { email: 'viewer@acme.test', home: 'acme', scope: {} },
  orderprotection_admin: { email: 'admin@orderprotection.test', home: 'acme', scope: {} },
  orderprotection_support: { email: 'support@orderprotection.test', home: 'acme', scope: {} },
  orderprotection_support_admin: { email: 'route-support-admin@orderprotection.test', home: 'acme', scope: {} },
  orderprotection_finance: { email: 'finance@orderprotection.test', home: 'acme', scope: {} },
  orderprotection_implementation: { email: 'route-implementation@orderprotection.test', home: 'acme', scope: {} },
};
const OTHER: Record<Slug, Slug> = { acme: 'kumo', kumo: 'acme' };

/** `permissions`: the operation is allowed to a caller holding any of them (none: to nobody). */
interface Operation {
  method: Method;
  path: string;
  permissions: Permission[];
  /** Taken with an API token (`security` names `bearer`). */
  bearer: boolean;
  /** Taken with a back-office session: every operation that declares no security, and those naming `cookie`. */
  cookie: boolean;
  stream: boolean;
}
type DeclaredOperation = {
  'x-permission'?: string;
  'x-permission-any-of'?: string[];
  'x-event-stream'?: boolean;
  security?: Array<Record<string, unknown>>;
};

function operationsOf(document: { paths: Record<string, Record<string, DeclaredOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const single = operation['x-permission'];
      const declared = operation['x-permission-any-of'] ?? (single && isPermission(single) ? [single] : null);
      if (!declared) continue;
      const permissions = declared.filter(isPermission);
      expect(permissions, `${method} ${path} declares permissions of the table`).toEqual(declared);
      const bearer = operation.security?.some((scheme) => 'bearer' in scheme) ?? false;
      const cookie = operation.security?.some((scheme) => 'cookie' in scheme) ?? true;
      operations.push({
        method: method.toUpperCase() as Method,
        path,
        permissions,
        bearer,
        cookie,
        stream: operation['x-event-stream'] === true,
      });
    }
  }
  return operations.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

const scopedToTenant = (path: string) => ['{storeId}', '{claimId}', '{orderId}'].some((param) => path.includes(param));

describe('every route answers as the permission table says', () => {
  let h: Harness;
  let operations: Operation[];
  const cookies = new Map<RoleName, string>();
  const storeIds = new Map<Slug, string>();
  const claimIds = new Map<Slug, string>();
  const orderIds = new Map<Slug, string>();

  /** The path with the tenant's store, claim and order, and fresh ids for everything else (which then does not exist). */
  const urlOf = (path: string, tenant: Slug) =>
    path
      .replaceAll('{storeId}', storeIds.get(tenant)!)
      .replaceAll('{claimId}', claimIds.get(tenant)!)
      .replaceAll('{orderId}', orderIds.get(tenant)!)
      .replace(/\{[^}]+\}/g, () => randomUUID());

  const call = (operation: Operation, tenant: Slug, auth: { cookie?: string; token?: string }) =>
    h.call({ method: operation.method, url: urlOf(operation.path, tenant), ...auth });

  beforeAll(async () => {
    h = await startHarness();
    await seedDemoUsers(
      h.runtime.ctx,
      Object.entries(ROLE_USERS)
        .filter(([, user]) => user.email.startsWith('route-'))
        .map(([role, user]) => ({
          email: user.email,
          name: `Route ${role}`,
          password: DEMO_PASSWORD,
          roles: [{ role, ...user.scope }],
        })),
    );
    for (const role of ROLE_NAMES) {
      const response = await h.call({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: ROLE_USERS[role].email, password: DEMO_PASSWORD },
      });
      expect(response.statusCode, `login as ${role}`).toBe(200);
      cookies.set(role, String(response.headers['set-cookie']).split(';')[0]!);
    }
    for (const slug of ['acme', 'kumo'] as const) {
      storeIds.set(slug, await h.storeId(slug));
      const number = `ROUTES-${slug.toUpperCase()}`;
      const input = testOrder(number);
      orderIds.set(
        slug,
        (await upsertOrder(h.runtime.ctx.database.db, storeIds.get(slug)!, `src-${number}`, input)).id,
      );
      claimIds.set(
        slug,
        (await h.fileClaim(`src-${number}`, oneItemClaim(input.customerEmail, `${number}-f`, `${number}-li`))).claimId,
      );
    }
    operations = operationsOf(json(await h.call({ method: 'GET', url: '/api/openapi.json' })));
  });
  afterAll(() => h.stop());

  it('finds the declared routes in the OpenAPI document', () => {
    expect(operations.filter((o) => o.cookie).length).toBeGreaterThan(60);
    expect(operations.filter((o) => o.bearer).length).toBeGreaterThan(10);
    // Routes taken both ways (the rules of contract §Automation) are walked with sessions and with tokens.
    expect(operations.filter((o) => o.bearer && o.cookie).map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(['GET /api/stores/{storeId}/rules', 'POST /api/stores/{storeId}/rules/backtests']),
    );
    // Routes whose permission depends on what is asked are walked too (settings groups, status moves, onboarding steps).
    expect(operations.filter((o) => o.permissions.length !== 1).map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/admin/stores',
        'POST /api/admin/stores/{storeId}/onboarding/steps',
        'GET /api/admin/stores/{storeId}/settings',
        'PUT /api/admin/stores/{storeId}/settings/general',
        'POST /api/admin/claims/{claimId}/status',
      ]),
    );
  });

  it('answers 401 to a caller who sent no credentials, on every declared route', async () => {
    const answers = await Promise.all(
      operations.map(async (o) => `${o.method} ${o.path} ${(await call(o, 'acme', {})).statusCode}`),
    );
    expect(answers).toEqual(operations.map((o) => `${o.method} ${o.path} 401`));
  });

  it.each(ROLE_NAMES)(
    '%s: allowed where the table grants the permission, 403 where it does not, 404 for another tenant',
    async (role) => {
      const user = ROLE_USERS[role];
      const cookie = cookies.get(role)!;
      const held = new Set<string>(ROLES[role].permissions);
      const wrong: string[] = [];
      for (const operation of operations.filter((o) => o.cookie)) {
        const allowed = operation.permissions.some((permission) => held.has(permission));
        // An event stream that is allowed never ends: only its refusals are walked (they come before it opens).
        if (!(operation.stream && allowed)) {
          const own = (await call(operation, user.home, { cookie })).statusCode;
          const ownOk = allowed ? own !== 401 && own !== 403 : own === 403;
          if (!ownOk)
            wrong.push(
              `${operation.method} ${operation.path} (${operation.permissions.join(' or ')}) on its own store answered ${own}`,
            );
        }
        if (ROLES[role].level !== 'internal' && scopedToTenant(operation.path)) {
          const other = (await call(operation, OTHER[user.home], { cookie })).statusCode;
          if (other !== 404)
            wrong.push(`${operation.method} ${operation.path} on another tenant answered ${other}, not 404`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it("answers 404 for another tenant's store, claim or order on every route, signed-in ones too, before it reads the body", async () => {
    const document = json<{ paths: Record<string, Record<string, DeclaredOperation>> }>(
      await h.call({ method: 'GET', url: '/api/openapi.json' }),
    );
    // Every cookie route that declares what it needs ('signed-in' included) and names a tenant's id, with a body of no route's shape.
    const writes = Object.entries(document.paths)
      .flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(
            ([method, o]) =>
              method !== 'get' &&
              (o['x-permission'] ?? o['x-permission-any-of']) &&
              (o.security?.some((scheme) => 'cookie' in scheme) ?? true),
          )
          .map(([method]) => ({ method: method.toUpperCase() as Method, path })),
      )
      .filter((o) => scopedToTenant(o.path));
    expect(writes.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'PUT /api/admin/stores/{storeId}/notification-preferences',
        'POST /api/stores/{storeId}/rules/backtests',
      ]),
    );
    const wrong: string[] = [];
    for (const role of ['account_owner', 'store_owner'] as const) {
      const user = ROLE_USERS[role];
      for (const operation of writes) {
        for (const body of [{ '\ud800': [-1e308] }, 'not an object']) {
          const other = await h.call({
            method: operation.method,
            url: urlOf(operation.path, OTHER[user.home]),
            cookie: cookies.get(role)!,
            body,
          });
          if (other.statusCode !== 404)
            wrong.push(
              `${role}: ${operation.method} ${operation.path} with ${JSON.stringify(body)} answered ${other.statusCode}, not 404`,
            );
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("API tokens: allowed with the permission, 403 without it, 404 on another store's objects", async () => {
    const tokenFor = async (slug: Slug, permission: Permission) => {
      const owner = slug === 'acme' ? 'account_owner' : 'store_owner';
      const created = await h.call({
        method: 'POST',
        url: `/api/stores/${storeIds.get(slug)}/api-tokens`,
        cookie: cookies.get(owner)!,
        body: { name: `routes ${permission}`, permissions: [permission] },
      });
      expect(created.statusCode, `token with ${permission} for ${slug}`).toBe(201);
      return json<{ token: string }>(created).token;
    };
    const wrong: string[] = [];
    for (const operation of operations.filter((o) => o.bearer)) {
      const [permission] = operation.permissions;
      expect(permission, `${operation.method} ${operation.path} is open to some token`).toBeDefined();
      const unrelated: Permission = operation.permissions.includes('claim:read') ? 'order:create' : 'claim:read';
      const granted = (await call(operation, 'acme', { token: await tokenFor('acme', permission!) })).statusCode;
      if (granted === 401 || granted === 403)
        wrong.push(`${operation.method} ${operation.path} with ${permission} answered ${granted}`);
      const denied = (await call(operation, 'acme', { token: await tokenFor('acme', unrelated) })).statusCode;
      if (denied !== 403)
        wrong.push(`${operation.method} ${operation.path} without ${permission} answered ${denied}, not 403`);
      if (scopedToTenant(operation.path)) {
        const other = (await call(operation, 'acme', { token: await tokenFor('kumo', permission!) })).statusCode;
        if (other !== 404)
          wrong.push(`${operation.method} ${operation.path} with another store's token answered ${other}, not 404`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
