import { sql, type QueryExecutorProvider } from 'kysely';
import { SUPPORT_ADMIN_ROLE, SUPPORT_ROLES, type SupportRole, type TeamMember } from '@claims/contracts';
import { insertGrant, membersWithGrants } from './teamRepository.js';

const supportRoles: readonly string[] = SUPPORT_ROLES;

/** Order Protection's support staff: every user holding a support role (only those grants), or the one user asked for. */
export function listSupportUsers(db: QueryExecutorProvider, userId?: string): Promise<TeamMember[]> {
  return membersWithGrants(db, sql`r.role = any(${supportRoles}::text[])`, userId);
}

/** Support admins other than `userId` who can act: signed up (invitation accepted) and not disabled. */
export async function countOtherActiveSupportAdmins(db: QueryExecutorProvider, userId: string): Promise<number> {
  const { rows } = await sql<{ admins: number }>`
    select count(distinct u.id)::int as admins from user_roles r join users u on u.id = r.user_id
    where r.role = ${SUPPORT_ADMIN_ROLE} and u.disabled_at is null and u.id <> ${userId}::uuid
      and not exists (select 1 from team_invitations i where i.user_id = u.id and i.accepted_at is null)`.execute(db);
  return rows[0]?.admins ?? 0;
}

/** Replaces the user's support grant with `role`; their other grants stay. */
export async function replaceSupportRole(db: QueryExecutorProvider, userId: string, role: SupportRole): Promise<void> {
  await sql`delete from user_roles where user_id = ${userId}::uuid and role = any(${supportRoles}::text[])`.execute(db);
  await insertGrant(db, userId, role, null, null);
}

/** Takes the user's support grants, and their support invitation if it is still open (its link then fails). */
export async function removeSupportRoles(db: QueryExecutorProvider, userId: string): Promise<void> {
  await sql`delete from user_roles where user_id = ${userId}::uuid and role = any(${supportRoles}::text[])`.execute(db);
  await sql`delete from team_invitations where user_id = ${userId}::uuid and account_id is null and accepted_at is null`.execute(
    db,
  );
}
