import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcceptInvitationRequest, ApiError, ChangeRoleRequest, GrantOwnershipRequest, InviteMemberRequest, InviteMemberResponse, ROLES,
  TeamMember, TeamMemberList, type Permission, type RoleName, type Store,
} from '@claims/contracts';
import { checkTeamChange, type TeamChange } from '@claims/domain';
import type { FastifyRequest } from 'fastify';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { actorOf, permissionsAt, type Principal } from '../auth/principal.js';
import { hashPassword, randomSecret, sha256 } from '../auth/passwords.js';
import { authorizedStore } from '../admin/adminStores.js';
import { insertGrant, listMembers, recordTeamChange, removeGrants, replaceGrant, rolesInAccount } from './teamRepository.js';

const StoreParams = z.object({ storeId: z.uuid() });
const MemberParams = StoreParams.extend({ userId: z.uuid() });
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 422: ApiError } as const;
const memberNotFound = () => new AppError('not_found', 'No member of this store matches that reference.');

/** An invitation is good for 7 days (decision: a working week and a weekend). */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

const metaOf = (principal: Principal, correlationId: string): RequestMeta => ({ actor: actorOf(principal), correlationId, causationId: null });

/** The caller holds `permission` through an account grant of this account, or an internal one. */
function hasAccountScope(principal: Principal, accountId: string, permission: Permission): boolean {
  return principal.kind === 'user' && principal.grants.some((g) =>
    (g.level === 'internal' || (g.level === 'account' && g.accountId === accountId)) && ROLES[g.role].permissions.includes(permission));
}

function callerId(principal: Principal): string {
  if (principal.kind !== 'user') throw new AppError('forbidden', 'Team members are managed by signed-in users.');
  return principal.user.id;
}

/** Checks the team rules of the domain for one change; throws their answer. */
function checkChange(principal: Principal, store: Store, change: TeamChange, targetUserId: string | null, targetRoles: RoleName[], newRole: RoleName | null): void {
  const permission: Permission = change === 'grant-ownership' ? 'team-member:grant-ownership' : `team-member:${change}`;
  const verdict = checkTeamChange({
    change, callerId: callerId(principal), callerPermissions: permissionsAt(principal, store.id) ?? new Set(),
    callerHasAccountScope: hasAccountScope(principal, store.accountId, permission), targetUserId, targetRoles, newRole,
  });
  if (!verdict.ok) throw AppError.from(verdict.error);
}

async function memberOf(ctx: AppContext, store: Store, userId: string): Promise<TeamMember> {
  const [member] = await listMembers(ctx.database.db, store, userId);
  if (!member) throw memberNotFound();
  return member;
}

/** The roles a change replaces: all of the account's for an account role (or an account member), else this store's grant. */
async function affectedRoles(ctx: AppContext, store: Store, member: TeamMember, newRole: RoleName | null): Promise<RoleName[]> {
  const accountWide = (newRole && ROLES[newRole].level === 'account') || member.grants.some((g) => g.level === 'account');
  return accountWide ? rolesInAccount(ctx.database.db, member.userId, store.accountId) : member.grants.map((g) => g.role);
}

/** Gives `role` to a member (change-role and grant-ownership), recording the change in the account's stream. */
async function giveRole(ctx: AppContext, request: FastifyRequest, principal: Principal, store: Store, userId: string, role: RoleName, change: 'change-role' | 'grant-ownership') {
  const member = await memberOf(ctx, store, userId);
  const from = await affectedRoles(ctx, store, member, role);
  checkChange(principal, store, change, userId, from, role);
  if (from.length === 1 && from[0] === role) return member;
  await ctx.database.db.transaction().execute(async (trx) => {
    await replaceGrant(trx, userId, store, role);
    const data = { accountId: store.accountId, storeId: store.id, userId, email: member.email, from };
    await recordTeamChange(trx, change === 'grant-ownership'
      ? { type: 'TeamOwnershipGranted', data: { ...data, role } }
      : { type: 'TeamMemberRoleChanged', data: { ...data, to: role } }, metaOf(principal, request.id));
  });
  ctx.notifyAppended();
  return memberOf(ctx, store, userId);
}

/**
 * A store's team (spec §6 team-member permissions): users and role grants are rows; every change is
 * also an event in the account's `account-team` stream (stream id = the account id), with the actor.
 */
export const teamRoutes = (ctx: AppContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/api/admin/stores/:storeId/team-members', {
    config: { auth: 'user' },
    schema: { tags: ['back-office'], summary: 'The members whose roles reach this store', params: StoreParams, response: { 200: TeamMemberList, ...errors } },
  }, async (request) => {
    const { store } = await authorizedStore(ctx, request, 'team-member:read', request.params.storeId);
    return { data: await listMembers(ctx.database.db, store) };
  });

  app.post('/api/admin/stores/:storeId/team-members', {
    config: { auth: 'user' },
    schema: {
      tags: ['back-office'], summary: 'Invite a member: a new user gets a one-time invitation token (in this answer only)',
      params: StoreParams, body: InviteMemberRequest, response: { 201: InviteMemberResponse, ...errors },
    },
  }, async (request, reply) => {
    const { store, principal } = await authorizedStore(ctx, request, 'team-member:invite', request.params.storeId);
    const { email, name, role } = request.body;
    checkChange(principal, store, 'invite', null, [], role);
    const emailLower = email.toLowerCase();
    const level = ROLES[role].level;
    const token = randomSecret();
    const now = ctx.now();
    const expiresAt = new Date(Date.parse(now) + INVITATION_TTL_MS).toISOString();
    const { userId, newUser } = await ctx.database.db.transaction().execute(async (trx) => {
      // A hash no password matches until the invitation is accepted.
      const unusable = `invited$${randomSecret()}`;
      const inserted = await sql<{ id: string }>`
        insert into users (id, email, email_lower, name, password_hash) values (${randomUUID()}::uuid, ${email}, ${emailLower}, ${name}, ${unusable})
        on conflict (email_lower) do nothing returning id`.execute(trx);
      let id = inserted.rows[0]?.id;
      const created = Boolean(id);
      if (!id) {
        const { rows } = await sql<{ id: string }>`select id from users where email_lower = ${emailLower} for update`.execute(trx);
        id = rows[0]!.id;
        if ((await listMembers(trx, store, id)).length > 0) throw new AppError('already_member', `${email} is already a member of ${store.name}.`);
      }
      await insertGrant(trx, id, role, level === 'account' ? store.accountId : null, level === 'account' ? null : store.id);
      if (created) {
        await sql`insert into team_invitations (user_id, token_hash, account_id, store_id, invited_by, created_at, expires_at)
          values (${id}::uuid, ${sha256(token)}, ${store.accountId}::uuid, ${store.id}::uuid, ${callerId(principal)}::uuid, ${now}, ${expiresAt})`.execute(trx);
      }
      await recordTeamChange(trx, {
        type: 'TeamMemberInvited', data: { accountId: store.accountId, storeId: store.id, userId: id, email, role, newUser: created },
      }, metaOf(principal, request.id));
      return { userId: id, newUser: created };
    });
    ctx.notifyAppended();
    request.log.info({ userId, storeId: store.id, role }, 'team member invited');
    return reply.code(201).header('cache-control', 'no-store').send({
      member: await memberOf(ctx, store, userId), invitationToken: newUser ? token : null, expiresAt: newUser ? expiresAt : null,
    });
  });

  app.post('/api/admin/stores/:storeId/team-members/:userId/role', {
    config: { auth: 'user' },
    schema: {
      tags: ['back-office'], summary: 'Change a member\'s role (owner roles need team-member:grant-ownership)',
      params: MemberParams, body: ChangeRoleRequest, response: { 200: TeamMember, ...errors },
    },
  }, async (request) => {
    const { store, principal } = await authorizedStore(ctx, request, 'team-member:change-role', request.params.storeId);
    return giveRole(ctx, request, principal, store, request.params.userId, request.body.role, 'change-role');
  });

  app.post('/api/admin/stores/:storeId/team-members/:userId/ownership', {
    config: { auth: 'user' },
    schema: {
      tags: ['back-office'], summary: 'Make a member an owner of this store (or of its account); owners only',
      params: MemberParams, body: GrantOwnershipRequest, response: { 200: TeamMember, ...errors },
    },
  }, async (request) => {
    const { store, principal } = await authorizedStore(ctx, request, 'team-member:grant-ownership', request.params.storeId);
    const role: RoleName = request.body.level === 'account' ? 'account_owner' : 'store_owner';
    return giveRole(ctx, request, principal, store, request.params.userId, role, 'grant-ownership');
  });

  app.delete('/api/admin/stores/:storeId/team-members/:userId', {
    config: { auth: 'user' },
    schema: {
      tags: ['back-office'], summary: 'Remove a member from this store (an account member leaves the account)',
      params: MemberParams, response: { 204: z.null(), ...errors },
    },
  }, async (request, reply) => {
    const { store, principal } = await authorizedStore(ctx, request, 'team-member:remove', request.params.storeId);
    const member = await memberOf(ctx, store, request.params.userId);
    const roles = await affectedRoles(ctx, store, member, null);
    checkChange(principal, store, 'remove', member.userId, roles, null);
    const accountMember = member.grants.some((g) => g.level === 'account');
    await ctx.database.db.transaction().execute(async (trx) => {
      await removeGrants(trx, member.userId, store, accountMember);
      // Their open sessions lose these grants at once: grants are read on every request.
      await recordTeamChange(trx, {
        type: 'TeamMemberRemoved', data: { accountId: store.accountId, storeId: store.id, userId: member.userId, email: member.email, roles },
      }, metaOf(principal, request.id));
    });
    ctx.notifyAppended();
    return reply.code(204).send(null);
  });

  app.post('/api/auth/invitations/accept', {
    schema: {
      tags: ['back-office'], summary: 'Accept an invitation: set a password with the one-time token (then sign in)',
      body: AcceptInvitationRequest, response: { 200: z.object({ userId: z.uuid(), email: z.string() }), 400: ApiError, 404: ApiError },
    },
  }, async (request) => {
    const hash = await hashPassword(request.body.password);
    const accepted = await ctx.database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ user_id: string; email: string; account_id: string; store_id: string | null }>`
        update team_invitations i set accepted_at = ${ctx.now()}
        from users u
        where i.token_hash = ${sha256(request.body.token)} and i.accepted_at is null and i.expires_at > ${ctx.now()}::timestamptz and u.id = i.user_id
        returning i.user_id, u.email, i.account_id, i.store_id`.execute(trx);
      const row = rows[0];
      if (!row) return null;
      await sql`update users set password_hash = ${hash}, name = coalesce(${request.body.name ?? null}, name) where id = ${row.user_id}::uuid`.execute(trx);
      await recordTeamChange(trx, {
        type: 'TeamInvitationAccepted', data: { accountId: row.account_id, storeId: row.store_id, userId: row.user_id, email: row.email },
      }, { actor: { type: 'user', id: row.user_id }, correlationId: request.id, causationId: null });
      return row;
    });
    if (!accepted) throw new AppError('invitation_not_found', 'This invitation is unknown, used or expired; ask for a new one.');
    ctx.notifyAppended();
    return { userId: accepted.user_id, email: accepted.email };
  });
};
