import { sql, type QueryExecutorProvider } from 'kysely';
import { ROLES, RoleName, type Actor, type Permission, type RoleGrant, type RoleLevel } from '@claims/contracts';

/** A role grant with the stores it reaches: 'all' for internal roles. */
export interface Grant extends RoleGrant {
  readonly stores: 'all' | readonly string[];
}

export interface UserPrincipal {
  readonly kind: 'user';
  readonly user: { id: string; email: string; name: string };
  readonly sessionHash: string;
  readonly grants: readonly Grant[];
}

export interface TokenPrincipal {
  readonly kind: 'token';
  readonly token: { id: string; name: string; storeId: string };
  readonly permissions: readonly Permission[];
}

/** Who is calling: a signed-in user (cookie) or an API token (bearer). */
export type Principal = UserPrincipal | TokenPrincipal;

/**
 * The permissions the principal holds on one store, or null when the store is not theirs to see
 * at all (another tenant: answered 404, never 403).
 */
export function permissionsAt(principal: Principal, storeId: string): ReadonlySet<Permission> | null {
  if (principal.kind === 'token') return principal.token.storeId === storeId ? new Set(principal.permissions) : null;
  return grantedAt(principal.grants, storeId);
}

/** The permissions role grants give on one store, or null when none of them reaches it. */
export function grantedAt(grants: readonly Grant[], storeId: string): ReadonlySet<Permission> | null {
  let found: Set<Permission> | null = null;
  for (const grant of grants) {
    if (grant.stores !== 'all' && !grant.stores.includes(storeId)) continue;
    found ??= new Set();
    for (const permission of ROLES[grant.role].permissions) found.add(permission);
  }
  return found;
}

/** The stores on which the principal holds a permission: 'all' for a global grant. */
export function storesWith(principal: Principal, permission: Permission): 'all' | string[] {
  if (principal.kind === 'token') return principal.permissions.includes(permission) ? [principal.token.storeId] : [];
  const stores = new Set<string>();
  for (const grant of principal.grants) {
    if (!ROLES[grant.role].permissions.includes(permission)) continue;
    if (grant.stores === 'all') return 'all';
    for (const id of grant.stores) stores.add(id);
  }
  return [...stores];
}

/** Every store the principal can see (any grant reaching it). */
export function visibleStores(principal: Principal): 'all' | string[] {
  if (principal.kind === 'token') return [principal.token.storeId];
  const stores = new Set<string>();
  for (const grant of principal.grants) {
    if (grant.stores === 'all') return 'all';
    for (const id of grant.stores) stores.add(id);
  }
  return [...stores];
}

export const isInternal = (principal: Principal): boolean =>
  principal.kind === 'user' && principal.grants.some((g) => g.level === 'internal');

/** The actor stamped on the events a principal causes. */
export function actorOf(principal: Principal): Actor {
  return principal.kind === 'user'
    ? { type: 'user', id: principal.user.id, name: principal.user.name }
    : { type: 'api-token', id: principal.token.id, name: principal.token.name };
}

export interface RoleRow {
  role: string;
  account_id: string | null;
  store_id: string | null;
  account_stores: string[] | null;
}

/**
 * A user's role rows as one json array, for a statement that reads the caller and their grants in one round
 * trip: `userId` is the SQL expression of the user's id (e.g. a column of the outer query).
 */
export const rolesJsonOf = (userId: string) => `
  (select coalesce(json_agg(json_build_object(
     'role', r.role, 'account_id', r.account_id, 'store_id', r.store_id,
     'account_stores', (select coalesce(array_agg(s.id::text order by s.slug), '{}') from stores s where s.account_id = r.account_id)
   ) order by r.created_at, r.id), '[]'::json)
   from user_roles r where r.user_id = ${userId})`;

/** The grants role rows give, with account roles expanded to the account's stores; unknown roles are skipped. */
export function grantsOf(rows: readonly RoleRow[]): Grant[] {
  const grants: Grant[] = [];
  for (const row of rows) {
    const role = RoleName.safeParse(row.role);
    if (!role.success) continue;
    const level: RoleLevel = ROLES[role.data].level;
    const stores =
      level === 'internal'
        ? 'all'
        : level === 'account'
          ? (row.account_stores ?? [])
          : row.store_id
            ? [row.store_id]
            : [];
    grants.push({ role: role.data, level, accountId: row.account_id, storeId: row.store_id, stores });
  }
  return grants;
}

/** A user's role rows, with account roles expanded to the account's stores as they are now. */
export async function loadGrants(db: QueryExecutorProvider, userId: string): Promise<Grant[]> {
  const { rows } = await sql<RoleRow>`
    select r.role, r.account_id, r.store_id,
           (select coalesce(array_agg(s.id::text order by s.slug), '{}') from stores s where s.account_id = r.account_id) as account_stores
    from user_roles r where r.user_id = ${userId}::uuid order by r.created_at, r.id`.execute(db);
  return grantsOf(rows);
}
