import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import { ROLES, RoleName, type DemoData, type MeResponse, type Permission } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { hashPassword } from './passwords.js';
import { randomSecret } from '../platform/secrets.js';
import { permissionsAt, visibleStores, type UserPrincipal } from '../http/principal.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
}

export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | null> {
  const { rows } = await sql<UserRow>`
    select id, email, name, password_hash from users where email_lower = ${email.trim().toLowerCase()} and disabled_at is null`.execute(
    ctx.database.db,
  );
  return rows[0] ?? null;
}

/** `GET /api/auth/me`: who the user is, their roles, and what they may do where. */
export async function describeUser(ctx: AppContext, principal: UserPrincipal): Promise<MeResponse> {
  const visible = visibleStores(principal);
  const { rows } = await sql<{ id: string; slug: string; name: string }>`
    select id, slug, name from stores
    where ${visible === 'all'}::boolean or id::text = any(${visible === 'all' ? [] : visible}::text[]) order by name, id`.execute(
    ctx.database.db,
  );
  const stores = rows.map((store) => ({
    ...store,
    permissions: [...(permissionsAt(principal, store.id) ?? [])].sort(),
  }));
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
 * Seeds the fixture's users that do not exist yet, each with its roles, in one transaction. An existing
 * user is left alone: its password, disabled flag and roles are whatever was set since (a restart must
 * never undo a password change or re-enable a disabled account).
 */
export async function seedDemoUsers(ctx: AppContext, users: DemoData['users']): Promise<number> {
  // The demo users share one published password: hashing it once keeps start-up at one scrypt.
  const hashes = new Map<string, Promise<string>>();
  let created = 0;
  for (const user of users) {
    const emailLower = user.email.trim().toLowerCase();
    const { rows: existing } = await sql<{
      id: string;
    }>`select id from users where email_lower = ${emailLower}`.execute(ctx.database.db);
    if (existing.length > 0) continue;
    if (!hashes.has(user.password)) hashes.set(user.password, hashPassword(user.password, ctx.config.passwordCost));
    const hash = await hashes.get(user.password)!;
    await ctx.database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`
        insert into users (id, email, email_lower, name, password_hash) values (${randomUUID()}::uuid, ${user.email.trim()}, ${emailLower}, ${user.name}, ${hash})
        on conflict (email_lower) do nothing returning id`.execute(trx);
      const userId = rows[0]?.id;
      if (!userId) return;
      for (const [index, grant] of user.roles.entries()) {
        const { accountId, storeId, role } = await demoGrantScope(trx, user.email, grant);
        await sql`
          insert into user_roles (id, user_id, role, account_id, store_id, created_at)
          values (${randomUUID()}::uuid, ${userId}::uuid, ${role}, ${accountId}::uuid, ${storeId}::uuid, now() + ${index} * interval '1 microsecond')`.execute(
          trx,
        );
      }
      created++;
    });
  }
  return created;
}

/** A fixture grant's role and the account or store it names, by slug. */
async function demoGrantScope(
  db: QueryExecutorProvider,
  email: string,
  grant: DemoData['users'][number]['roles'][number],
) {
  const role = RoleName.safeParse(grant.role);
  if (!role.success) throw new Error(`Demo user ${email} has unknown role ${grant.role}`);
  const level = ROLES[role.data].level;
  let accountId: string | null = null;
  let storeId: string | null = null;
  if (level === 'account') {
    const { rows } = await sql<{ id: string }>`select id from accounts where slug = ${grant.account ?? ''}`.execute(db);
    accountId = rows[0]?.id ?? null;
    if (!accountId)
      throw new Error(`Demo user ${email}: role ${grant.role} names unknown account ${grant.account ?? '(none)'}`);
  } else if (level === 'store') {
    const { rows } = await sql<{ id: string }>`select id from stores where slug = ${grant.store ?? ''}`.execute(db);
    storeId = rows[0]?.id ?? null;
    if (!storeId)
      throw new Error(`Demo user ${email}: role ${grant.role} names unknown store ${grant.store ?? '(none)'}`);
  }
  return { role: role.data, accountId, storeId };
}

/** The user an invitation names: an existing one by email, or a new one no password matches until they accept. */
export async function findOrCreateInvitee(
  db: QueryExecutorProvider,
  email: string,
  name: string,
): Promise<{ id: string; email: string; name: string; created: boolean }> {
  const unusable = `invited$${randomSecret()}`;
  const inserted = await sql<{ id: string }>`
    insert into users (id, email, email_lower, name, password_hash) values (${randomUUID()}::uuid, ${email}, ${email.toLowerCase()}, ${name}, ${unusable})
    on conflict (email_lower) do nothing returning id`.execute(db);
  if (inserted.rows[0]) return { id: inserted.rows[0].id, email, name, created: true };
  const { rows } = await sql<{
    id: string;
    email: string;
    name: string;
  }>`select id, email, name from users where email_lower = ${email.toLowerCase()}`.execute(db);
  return { ...rows[0]!, created: false };
}

/** The user was invited and never set a password (accepted no invitation): nobody has ever signed in as them. */
export async function awaitsFirstPassword(db: QueryExecutorProvider, userId: string): Promise<boolean> {
  const { rows } = await sql<{
    id: string;
  }>`select id from users where id = ${userId}::uuid and starts_with(password_hash, 'invited$')`.execute(db);
  return rows.length > 0;
}

/** Sets a user's password (and name, when given): accepting an invitation. */
export async function setPassword(
  db: QueryExecutorProvider,
  userId: string,
  passwordHash: string,
  name: string | null,
): Promise<void> {
  await sql`update users set password_hash = ${passwordHash}, name = coalesce(${name}, name) where id = ${userId}::uuid`.execute(
    db,
  );
}

/** Replaces a hash made with older parameters, unless the password changed meanwhile. */
export async function rehashPassword(
  db: QueryExecutorProvider,
  userId: string,
  oldHash: string,
  newHash: string,
): Promise<void> {
  await sql`update users set password_hash = ${newHash} where id = ${userId}::uuid and password_hash = ${oldHash}`.execute(
    db,
  );
}

/** The names of users by id (a disabled user keeps their name; an id that is no user is left out). */
export async function userNames(db: QueryExecutorProvider, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)].filter((id) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id),
  );
  if (wanted.length === 0) return new Map();
  const { rows } = await sql<{
    id: string;
    name: string;
  }>`select id, name from users where id = any(${wanted}::uuid[])`.execute(db);
  return new Map(rows.map((r) => [r.id, r.name]));
}
