import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import { ROLES, RoleName, type PendingMembership, type RoleGrant, type TeamMember } from '@claims/contracts';

interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: string;
  account_id: string | null;
  store_id: string | null;
  invited: boolean;
}

/** The members whose grants reach this store: account roles of its account and store roles on it. */
export function listMembers(
  db: QueryExecutorProvider,
  store: { id: string; accountId: string },
  userId?: string,
): Promise<TeamMember[]> {
  return membersWithGrants(
    db,
    sql`(r.store_id = ${store.id}::uuid or r.account_id = ${store.accountId}::uuid)`,
    userId,
  );
}

/** Active users with the grants `which` selects (only those grants), or the one user asked for, with their open invitation. */
export async function membersWithGrants(
  db: QueryExecutorProvider,
  which: RawBuilder<unknown>,
  userId?: string,
): Promise<TeamMember[]> {
  const { rows } = await sql<MemberRow>`
    select u.id as user_id, u.email, u.name, r.role, r.account_id, r.store_id,
           (i.user_id is not null and i.accepted_at is null) as invited
    from user_roles r
      join users u on u.id = r.user_id
      left join team_invitations i on i.user_id = u.id
    where ${which} and u.disabled_at is null
      and (${userId ?? null}::uuid is null or u.id = ${userId ?? null}::uuid)
    order by u.email_lower, r.created_at, r.id`.execute(db);
  return membersOf(rows);
}

/** One member per user, with their grants in the rows' order; a role the product no longer knows is left out. */
function membersOf(rows: readonly MemberRow[]): TeamMember[] {
  const members = new Map<string, TeamMember>();
  for (const row of rows) {
    const role = RoleName.safeParse(row.role);
    if (!role.success) continue;
    const member = members.get(row.user_id) ?? {
      userId: row.user_id,
      email: row.email,
      name: row.name,
      status: row.invited ? 'invited' : 'active',
      grants: [],
    };
    const grant: RoleGrant = {
      role: role.data,
      level: ROLES[role.data].level,
      accountId: row.account_id,
      storeId: row.store_id,
    };
    member.grants.push(grant);
    members.set(row.user_id, member);
  }
  return [...members.values()];
}

/** The roles a user holds in an account: its account grants and its store grants on the account's stores. */
export async function rolesInAccount(
  db: QueryExecutorProvider,
  userId: string,
  accountId: string,
): Promise<RoleName[]> {
  const { rows } = await sql<{ role: string }>`
    select r.role from user_roles r left join stores s on s.id = r.store_id
    where r.user_id = ${userId}::uuid and (r.account_id = ${accountId}::uuid or s.account_id = ${accountId}::uuid)
    order by r.created_at`.execute(db);
  return rows
    .map((r) => RoleName.safeParse(r.role))
    .filter((r) => r.success)
    .map((r) => r.data);
}

/**
 * Replaces the user's grants reaching this store with `role`: an account role replaces every grant of
 * the user in the account (it covers all its stores); a store role replaces the grant on this store and
 * an account grant (the member narrows to this store).
 */
export async function replaceGrant(
  db: QueryExecutorProvider,
  userId: string,
  store: { id: string; accountId: string },
  role: RoleName,
): Promise<void> {
  if (ROLES[role].level === 'account') {
    await sql`delete from user_roles where user_id = ${userId}::uuid and (account_id = ${store.accountId}::uuid
      or store_id in (select id from stores where account_id = ${store.accountId}::uuid))`.execute(db);
    await insertGrant(db, userId, role, store.accountId, null);
  } else {
    await sql`delete from user_roles where user_id = ${userId}::uuid and (store_id = ${store.id}::uuid or account_id = ${store.accountId}::uuid)`.execute(
      db,
    );
    await insertGrant(db, userId, role, null, store.id);
  }
}

/**
 * The account's stores an active owner reaches: an account owner of the account or a store owner of the
 * store, signed up (an invitation not yet accepted makes nobody an owner) and not disabled.
 */
export async function storesWithOwner(
  db: QueryExecutorProvider,
  accountId: string,
): Promise<Array<{ id: string; name: string }>> {
  const { rows } = await sql<{ id: string; name: string }>`
    select s.id, s.name from stores s
    where s.account_id = ${accountId}::uuid and exists (
      select 1 from user_roles r join users u on u.id = r.user_id
      where u.disabled_at is null
        and ((r.role = 'account_owner' and r.account_id = s.account_id) or (r.role = 'store_owner' and r.store_id = s.id))
        and not exists (select 1 from team_invitations i where i.user_id = u.id and i.accepted_at is null))
    order by s.name`.execute(db);
  return rows;
}

/** Removes the member from this store; an account member leaves the whole account. */
export async function removeGrants(
  db: QueryExecutorProvider,
  userId: string,
  store: { id: string; accountId: string },
  accountMember: boolean,
): Promise<void> {
  if (accountMember) {
    await sql`delete from user_roles where user_id = ${userId}::uuid and (account_id = ${store.accountId}::uuid
      or store_id in (select id from stores where account_id = ${store.accountId}::uuid))`.execute(db);
  } else {
    await sql`delete from user_roles where user_id = ${userId}::uuid and store_id = ${store.id}::uuid`.execute(db);
  }
}

export async function insertGrant(
  db: QueryExecutorProvider,
  userId: string,
  role: RoleName,
  accountId: string | null,
  storeId: string | null,
): Promise<void> {
  await sql`insert into user_roles (id, user_id, role, account_id, store_id) values (${randomUUID()}::uuid, ${userId}::uuid, ${role}, ${accountId}::uuid, ${storeId}::uuid)`.execute(
    db,
  );
}

/** `accountId` and `storeId` null: an invitation to the support team. */
export interface NewInvitation {
  userId: string;
  invitationId: string;
  accountId: string | null;
  storeId: string | null;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * A user's invitation, with no link yet: each of its mails issues one (`issueInvitationLink`). One who never set a
 * password may be invited again, the new invitation replacing the old, whose links then open nothing.
 */
export async function insertInvitation(db: QueryExecutorProvider, i: NewInvitation): Promise<void> {
  await sql`insert into team_invitations (user_id, invitation_id, token_hash, account_id, store_id, invited_by, created_at, expires_at)
    values (${i.userId}::uuid, ${i.invitationId}::uuid, null, ${i.accountId}::uuid, ${i.storeId}::uuid, ${i.invitedBy}::uuid, ${i.createdAt}, ${i.expiresAt})
    on conflict (user_id) do update set invitation_id = excluded.invitation_id, token_hash = null, account_id = excluded.account_id,
      store_id = excluded.store_id, invited_by = excluded.invited_by, created_at = excluded.created_at, expires_at = excluded.expires_at, accepted_at = null`.execute(
    db,
  );
}

/** What an invitation's mail says: to whom, from whom, until when. */
export interface MailedInvitation {
  email: string;
  name: string;
  inviterName: string | null;
  expiresAt: string;
}

/**
 * Adds a link (its token's hash) to the invitation while it is open: unaccepted, unexpired and still the one named
 * (`invitationId`; undefined for an invitation made before they were named: the user's open one). Every link issued
 * works until the invitation is accepted, so a second mail never breaks the first. Null: nothing to mail.
 */
export async function issueInvitationLink(
  db: QueryExecutorProvider,
  invitation: { userId: string; invitationId: string | undefined },
  tokenHash: string,
  now: string,
): Promise<MailedInvitation | null> {
  const invitationId = invitation.invitationId ?? null;
  const { rows } = await sql<{ email: string; name: string; inviter_name: string | null; expires_at: Date }>`
    with open as (
      select i.user_id, i.invitation_id, u.email, u.name, inviter.name as inviter_name, i.expires_at
      from team_invitations i join users u on u.id = i.user_id left join users inviter on inviter.id = i.invited_by
      where i.user_id = ${invitation.userId}::uuid and i.accepted_at is null and i.expires_at > ${now}::timestamptz
        and (${invitationId}::uuid is null or i.invitation_id = ${invitationId}::uuid)
    ), issued as (
      insert into team_invitation_links (token_hash, user_id, invitation_id, issued_at)
      select ${tokenHash}, user_id, invitation_id, ${now}::timestamptz from open returning user_id
    )
    select open.email, open.name, open.inviter_name, open.expires_at from open join issued using (user_id)`.execute(db);
  const row = rows[0];
  return row
    ? {
        email: row.email,
        name: row.name,
        inviterName: row.inviter_name,
        expiresAt: new Date(row.expires_at).toISOString(),
      }
    : null;
}

export interface OpenInvitation {
  userId: string;
  email: string;
  accountId: string | null;
  storeId: string | null;
}

/** A token opens its invitation through one of the links mailed for it (or the token an older invitation was made with). */
const OPENED_BY = (tokenHash: string) => sql`(i.token_hash = ${tokenHash} or exists (
  select 1 from team_invitation_links l where l.token_hash = ${tokenHash} and l.user_id = i.user_id and l.invitation_id is not distinct from i.invitation_id))`;

/** The invitation a token opens, while unused and unexpired. */
export async function findOpenInvitation(
  db: QueryExecutorProvider,
  tokenHash: string,
  now: string,
): Promise<OpenInvitation | null> {
  const { rows } = await sql<{ user_id: string; email: string; account_id: string | null; store_id: string | null }>`
    select i.user_id, u.email, i.account_id, i.store_id from team_invitations i join users u on u.id = i.user_id
    where ${OPENED_BY(tokenHash)} and i.accepted_at is null and i.expires_at > ${now}::timestamptz`.execute(db);
  const row = rows[0];
  return row ? { userId: row.user_id, email: row.email, accountId: row.account_id, storeId: row.store_id } : null;
}

/** Marks the invitation used; false when another request used it first. */
export async function markInvitationAccepted(
  db: QueryExecutorProvider,
  tokenHash: string,
  now: string,
): Promise<boolean> {
  const { rows } = await sql<{ user_id: string }>`
    update team_invitations i set accepted_at = ${now} where ${OPENED_BY(tokenHash)} and i.accepted_at is null returning user_id`.execute(
    db,
  );
  return rows.length > 0;
}

export interface NewPendingGrant {
  id: string;
  userId: string;
  accountId: string;
  storeId: string;
  role: RoleName;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Offers a grant to an existing user; inviting again to the same store renews the offer. */
export async function upsertPendingGrant(db: QueryExecutorProvider, g: NewPendingGrant): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into team_pending_grants (id, user_id, account_id, store_id, role, invited_by, created_at, expires_at)
    values (${g.id}::uuid, ${g.userId}::uuid, ${g.accountId}::uuid, ${g.storeId}::uuid, ${g.role}, ${g.invitedBy}::uuid, ${g.createdAt}, ${g.expiresAt})
    on conflict (user_id, store_id) do update set role = excluded.role, invited_by = excluded.invited_by,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    returning id`.execute(db);
  return rows[0]!.id;
}

/** The user's open offers (unexpired), newest first. */
export async function listPendingGrants(
  db: QueryExecutorProvider,
  userId: string,
  now: string,
  id?: string,
): Promise<PendingMembership[]> {
  const { rows } = await sql<{
    id: string;
    account_id: string;
    store_id: string;
    store_name: string;
    role: string;
    created_at: Date;
    expires_at: Date;
  }>`
    select p.id, p.account_id, p.store_id, s.name as store_name, p.role, p.created_at, p.expires_at
    from team_pending_grants p join stores s on s.id = p.store_id
    where p.user_id = ${userId}::uuid and p.expires_at > ${now}::timestamptz and (${id ?? null}::uuid is null or p.id = ${id ?? null}::uuid)
    order by p.created_at desc, p.id`.execute(db);
  return rows.flatMap((row) => {
    const role = RoleName.safeParse(row.role);
    return role.success
      ? [
          {
            id: row.id,
            accountId: row.account_id,
            storeId: row.store_id,
            storeName: row.store_name,
            role: role.data,
            invitedAt: new Date(row.created_at).toISOString(),
            expiresAt: new Date(row.expires_at).toISOString(),
          },
        ]
      : [];
  });
}

/** Takes the user's open offer; false when it is gone (accepted by a concurrent request, or expired). */
export async function takePendingGrant(
  db: QueryExecutorProvider,
  userId: string,
  id: string,
  now: string,
): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    delete from team_pending_grants where id = ${id}::uuid and user_id = ${userId}::uuid and expires_at > ${now}::timestamptz returning id`.execute(
    db,
  );
  return rows.length > 0;
}

/** Drops offers nobody accepted in time (the sweep). */
export async function deleteExpiredPendingGrants(db: QueryExecutorProvider, now: string): Promise<number> {
  const { rows } = await sql<{
    id: string;
  }>`delete from team_pending_grants where expires_at <= ${now}::timestamptz returning id`.execute(db);
  return rows.length;
}
