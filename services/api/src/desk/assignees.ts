import { sql, type QueryExecutorProvider } from 'kysely';
import { ROLES, RoleName } from '@claims/contracts';

export interface Assignable {
  id: string;
  name: string;
  email: string;
}

/**
 * Who may be given a claim of this store: active users whose roles let them update claims there (the
 * account's and the store's members; Order Protection's staff too when `withStaff`, so a merchant is
 * never shown the platform's people). A read of the identity tables, which the team feature owns.
 */
export async function assignableUsers(
  db: QueryExecutorProvider,
  store: { id: string; accountId: string },
  withStaff: boolean,
): Promise<Assignable[]> {
  const { rows } = await sql<{ id: string; name: string; email: string; role: string }>`
    select u.id, u.name, u.email, r.role
    from user_roles r join users u on u.id = r.user_id
    where u.disabled_at is null
      and (r.store_id = ${store.id}::uuid or r.account_id = ${store.accountId}::uuid or (${withStaff} and r.store_id is null and r.account_id is null))
    order by u.name, u.email_lower`.execute(db);
  const people = new Map<string, Assignable>();
  for (const row of rows) {
    const role = RoleName.safeParse(row.role);
    if (!role.success || !ROLES[role.data].permissions.includes('claim:update')) continue;
    people.set(row.id, { id: row.id, name: row.name, email: row.email });
  }
  return [...people.values()];
}
