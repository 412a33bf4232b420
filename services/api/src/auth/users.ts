import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import { ROLES, RoleName, type DemoData, type MeResponse, type Permission } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { hashPassword, randomSecret, verifyPassword } from './passwords.js';
import { permissionsAt, visibleStores, type UserPrincipal } from './principal.js';

export interface UserRow { id: string; email: string; name: string; password_hash: string }

export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | null> {
  const { rows } = await sql<UserRow>`
    select id, email, name, password_hash from users where email_lower = ${email.trim().toLowerCase()} and disabled_at is null`.execute(ctx.database.db);
  return rows[0] ?? null;
}

/** `GET /api/auth/me`: who the user is, their roles, and what they may do where. */
export async function describeUser(ctx: AppContext, principal: UserPrincipal): Promise<MeResponse> {
  const visible = visibleStores(principal);
  const { rows } = await sql<{ id: string; slug: string; name: string }>`
    select id, slug, name from stores
    where ${visible === 'all'}::boolean or id::text = any(${visible === 'all' ? [] : visible}::text[]) order by name, id`.execute(ctx.database.db);
  const stores = rows.map((store) => ({ ...store, permissions: [...(permissionsAt(principal, store.id) ?? [])].sort() }));
  const permissions = new Set<Permission>();
  for (const grant of principal.grants) for (const p of ROLES[grant.role].permissions) permissions.add(p);
  return {
    user: principal.user,
    roles: [...new Set(principal.grants.map((g) => g.role))],
    permissions: [...permissions].sort(),
    stores,
    grants: principal.grants.map(({ stores: _stores, ...grant }) => grant),
  };
}

/**
 * Seeds the fixture's users with their roles; safe on every start. A user's password is set when
 * the user is created (or no longer matches the fixture's demo password); roles follow the fixture.
 */
export async function seedDemoUsers(ctx: AppContext, users: DemoData['users']): Promise<number> {
  const db = ctx.database.db;
  for (const user of users) {
    const emailLower = user.email.trim().toLowerCase();
    const existing = await findUserByEmail(ctx, emailLower);
    let userId = existing?.id;
    if (!existing || !(await verifyPassword(user.password, existing.password_hash))) {
      const hash = await hashPassword(user.password);
      const { rows } = await sql<{ id: string }>`
        insert into users (id, email, email_lower, name, password_hash) values (${randomUUID()}::uuid, ${user.email.trim()}, ${emailLower}, ${user.name}, ${hash})
        on conflict (email_lower) do update set name = excluded.name, password_hash = excluded.password_hash, disabled_at = null
        returning id`.execute(db);
      userId = rows[0]!.id;
    } else {
      await sql`update users set name = ${user.name} where id = ${existing.id}::uuid`.execute(db);
    }
    await sql`delete from user_roles where user_id = ${userId}::uuid`.execute(db);
    for (const [index, grant] of user.roles.entries()) {
      const role = RoleName.safeParse(grant.role);
      if (!role.success) throw new Error(`Demo user ${user.email} has unknown role ${grant.role}`);
      const level = ROLES[role.data].level;
      let accountId: string | null = null;
      let storeId: string | null = null;
      if (level === 'account') {
        const { rows } = await sql<{ id: string }>`select id from accounts where slug = ${grant.account ?? ''}`.execute(db);
        accountId = rows[0]?.id ?? null;
        if (!accountId) throw new Error(`Demo user ${user.email}: role ${grant.role} names unknown account ${grant.account ?? '(none)'}`);
      } else if (level === 'store') {
        const { rows } = await sql<{ id: string }>`select id from stores where slug = ${grant.store ?? ''}`.execute(db);
        storeId = rows[0]?.id ?? null;
        if (!storeId) throw new Error(`Demo user ${user.email}: role ${grant.role} names unknown store ${grant.store ?? '(none)'}`);
      }
      await sql`
        insert into user_roles (id, user_id, role, account_id, store_id, created_at)
        values (${randomUUID()}::uuid, ${userId}::uuid, ${role.data}, ${accountId}::uuid, ${storeId}::uuid, now() + ${index} * interval '1 microsecond')`.execute(db);
    }
  }
  return users.length;
}

/** The user an invitation names: an existing one by email, or a new one no password matches until they accept. */
export async function findOrCreateInvitee(db: QueryExecutorProvider, email: string, name: string): Promise<{ id: string; created: boolean }> {
  const unusable = `invited$${randomSecret()}`;
  const inserted = await sql<{ id: string }>`
    insert into users (id, email, email_lower, name, password_hash) values (${randomUUID()}::uuid, ${email}, ${email.toLowerCase()}, ${name}, ${unusable})
    on conflict (email_lower) do nothing returning id`.execute(db);
  if (inserted.rows[0]) return { id: inserted.rows[0].id, created: true };
  const { rows } = await sql<{ id: string }>`select id from users where email_lower = ${email.toLowerCase()}`.execute(db);
  return { id: rows[0]!.id, created: false };
}

/** Sets a user's password (and name, when given): accepting an invitation. */
export async function setPassword(db: QueryExecutorProvider, userId: string, passwordHash: string, name: string | null): Promise<void> {
  await sql`update users set password_hash = ${passwordHash}, name = coalesce(${name}, name) where id = ${userId}::uuid`.execute(db);
}
