import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcceptInvitationRequest,
  AcceptInvitationResponse,
  ApiError,
  PendingMembershipList,
  ChangeRoleRequest,
  GrantOwnershipRequest,
  InviteMemberRequest,
  InviteMemberResponse,
  OWNER_ROLES,
  ROLES,
  SUPPORT_TEAM_STREAM,
  TeamMember,
  TeamMemberList,
  type Permission,
  type RoleName,
  type Store,
  StoreParams,
} from '@claims/contracts';
import {
  checkTeamChange,
  supportTeamDecider,
  teamDecider,
  type RecordTeamChange,
  type TeamChange,
  type TeamChangeInput,
} from '@claims/domain';
import type { Alongside } from '@claims/event-store';
import type { FastifyRequest } from 'fastify';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { permissionsAt, type Principal } from '../http/principal.js';
import {
  findOrCreateInvitee,
  setPassword,
  clientOf,
  countInvitationAttempt,
  forgetInvitationAttempt,
  tooManyAttempts,
  hashPassword,
} from '../auth/index.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { metaOf } from '../http/requestMeta.js';
import { sha256 } from '../platform/secrets.js';
import { authorizedStore } from '../http/authorizedStore.js';
import {
  findOpenInvitation,
  insertGrant,
  insertInvitation,
  listMembers,
  listPendingGrants,
  markInvitationAccepted,
  removeGrants,
  replaceGrant,
  rolesInAccount,
  storesWithOwner,
  takePendingGrant,
  upsertPendingGrant,
} from './teamRepository.js';
import { withInvitationMail } from '../notifications/index.js';
import { errorResponses } from '../http/errorResponses.js';

const MemberParams = StoreParams.extend({ userId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409, 422);
const memberNotFound = () => new AppError('not_found', 'No member of this store matches that reference.');

/** An invitation is good for 7 days (decision: a working week and a weekend). */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

/** The caller holds `permission` through an account grant of this account, or an internal one. */
function hasAccountScope(principal: Principal, accountId: string, permission: Permission): boolean {
  return (
    principal.kind === 'user' &&
    principal.grants.some(
      (g) =>
        (g.level === 'internal' || (g.level === 'account' && g.accountId === accountId)) &&
        ROLES[g.role].permissions.includes(permission),
    )
  );
}

function callerId(principal: Principal): string {
  if (principal.kind !== 'user') throw new AppError('forbidden', 'Team members are managed by signed-in users.');
  return principal.user.id;
}

async function memberOf(ctx: AppContext, store: Store, userId: string): Promise<TeamMember> {
  const [member] = await listMembers(ctx.database.db, store, userId);
  if (!member) throw memberNotFound();
  return member;
}

/** The roles a change replaces: all of the account's for an account role (or an account member), else this store's grant. */
async function affectedRoles(
  ctx: AppContext,
  store: Store,
  member: TeamMember,
  newRole: RoleName | null,
): Promise<RoleName[]> {
  const accountWide =
    (newRole && ROLES[newRole].level === 'account') || member.grants.some((g) => g.level === 'account');
  return accountWide
    ? rolesInAccount(ctx.database.db, member.userId, store.accountId)
    : member.grants.map((g) => g.role);
}

/** The facts the team rules of the domain judge a change on, read from the rows now. */
async function rulesFor(
  ctx: AppContext,
  principal: Principal,
  store: Store,
  change: TeamChange,
  target: TeamMember | null,
  targetRoles: RoleName[],
  newRole: RoleName | null,
): Promise<TeamChangeInput> {
  const permission: Permission = change === 'grant-ownership' ? 'team-member:grant-ownership' : `team-member:${change}`;
  const members = await listMembers(ctx.database.db, store);
  const otherOwners = members.filter(
    (m) => m.userId !== target?.userId && m.status === 'active' && m.grants.some((g) => OWNER_ROLES.includes(g.role)),
  ).length;
  return {
    change,
    callerId: callerId(principal),
    callerPermissions: permissionsAt(principal, store.id) ?? new Set(),
    callerHasAccountScope: hasAccountScope(principal, store.accountId, permission),
    targetUserId: target?.userId ?? null,
    targetRoles,
    newRole,
    otherOwners,
  };
}

/**
 * Changes grants and then checks, in the same transaction, that every store of the account that had an
 * owner still has one. The domain's rule sees the store the change is made from; an account member's
 * change also reaches the account's other stores (a removal takes them out of all of them, a store role
 * replaces their account role), which only the rows after the change show.
 */
const keepingOwners =
  (accountId: string, change: Alongside): Alongside =>
  async (trx) => {
    const before = await storesWithOwner(trx, accountId);
    await change(trx);
    const after = new Set((await storesWithOwner(trx, accountId)).map((s) => s.id));
    const ownerless = before.filter((s) => !after.has(s.id));
    if (ownerless.length > 0) {
      throw new AppError(
        'last_owner',
        `${ownerless.map((s) => s.name).join(', ')} would be left without an owner: make someone else an owner there first.`,
      );
    }
  };

/**
 * A team change through the account's team stream: the rules are judged on rows read for each attempt,
 * and the grants change in the append's transaction at the stream's version, so two concurrent changes
 * in one account never both pass on the same facts (the second decides again on the first's outcome).
 */
function recordTeamChange(
  ctx: AppContext,
  store: Store,
  meta: RequestMeta,
  build: () => Promise<RecordTeamChange>,
  alongside: Alongside,
) {
  return handleCommand(ctx, {
    decider: teamDecider,
    streamId: store.accountId,
    storeId: store.id,
    meta,
    command: build,
    alongside,
  });
}

/**
 * A change to one member of the store: the member and the roles the change touches are read again for each attempt
 * of {@link recordTeamChange}, the rules judged on them, and `event` says what changed.
 */
function recordMemberChange(
  ctx: AppContext,
  principal: Principal,
  store: Store,
  meta: RequestMeta,
  target: { userId: string; change: TeamChange; newRole: RoleName | null },
  event: (member: TeamMember, roles: RoleName[]) => RecordTeamChange['change'],
  alongside: Alongside,
) {
  const { userId, change, newRole } = target;
  return recordTeamChange(
    ctx,
    store,
    meta,
    async () => {
      const member = await memberOf(ctx, store, userId);
      const roles = await affectedRoles(ctx, store, member, newRole);
      return {
        type: 'RecordTeamChange',
        rules: await rulesFor(ctx, principal, store, change, member, roles, newRole),
        change: event(member, roles),
      };
    },
    alongside,
  );
}

/**
 * Gives `role` to the member in the path (change-role and grant-ownership, each its own `team-member:` permission on the
 * path's store), recording the change in the account's stream.
 */
async function giveRole(
  ctx: AppContext,
  request: FastifyRequest & { params: { storeId: string; userId: string } },
  role: RoleName,
  change: 'change-role' | 'grant-ownership',
) {
  const { store, principal } = await authorizedStore(
    ctx,
    request,
    `team-member:${change}` as const,
    request.params.storeId,
  );
  const { userId } = request.params;
  const before = await memberOf(ctx, store, userId);
  const current = await affectedRoles(ctx, store, before, role);
  if (current.length === 1 && current[0] === role) {
    const verdict = checkTeamChange(await rulesFor(ctx, principal, store, change, before, current, role));
    if (!verdict.ok) throw AppError.from(verdict.error);
    return before;
  }
  await recordMemberChange(
    ctx,
    principal,
    store,
    metaOf(principal, request.id),
    { userId, change, newRole: role },
    (member, from) => {
      const data = { accountId: store.accountId, storeId: store.id, userId, email: member.email, from };
      return change === 'grant-ownership'
        ? { type: 'TeamOwnershipGranted', data: { ...data, role } }
        : { type: 'TeamMemberRoleChanged', data: { ...data, to: role } };
    },
    keepingOwners(store.accountId, (trx) => replaceGrant(trx, userId, store, role)),
  );
  return memberOf(ctx, store, userId);
}

/**
 * A store's team (its team-member permissions, docs/product.md#roles-and-permissions): users and role grants are rows; every change is
 * also an event in the account's `account-team` stream (stream id = the account id), with the actor.
 */
export const teamRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/stores/:storeId/team-members',
      {
        config: { auth: 'user', permission: 'team-member:read' },
        schema: {
          tags: ['back-office'],
          summary: 'The members whose roles reach this store',
          params: StoreParams,
          response: { 200: TeamMemberList, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'team-member:read', request.params.storeId);
        return { data: await withInvitationMail(ctx, await listMembers(ctx.database.db, store)) };
      },
    );

    app.post(
      '/api/admin/stores/:storeId/team-members',
      {
        config: { auth: 'user', permission: 'team-member:invite' },
        schema: {
          tags: ['back-office'],
          summary:
            'Invite a member: a new user gets a one-time token by mail (never in this answer); an existing user accepts the offer signed in',
          params: StoreParams,
          body: InviteMemberRequest,
          response: { 201: InviteMemberResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { store, principal } = await authorizedStore(ctx, request, 'team-member:invite', request.params.storeId);
        const { email, name, role } = request.body;
        const verdict = checkTeamChange(await rulesFor(ctx, principal, store, 'invite', null, [], role));
        if (!verdict.ok) throw AppError.from(verdict.error);
        const level = ROLES[role].level;
        const now = ctx.now();
        const expiresAt = new Date(Date.parse(now) + INVITATION_TTL_MS).toISOString();
        const invitee = await findOrCreateInvitee(ctx.database.db, email, name);
        if ((await listMembers(ctx.database.db, store, invitee.id)).length > 0)
          throw new AppError('already_member', `${email} is already a member of ${store.name}.`);
        const userId = invitee.id;
        const newUser = invitee.created;
        const grant = {
          accountId: level === 'account' ? store.accountId : null,
          storeId: level === 'account' ? null : store.id,
        };
        // A new user's invitation is mailed after this request by the `mail-invitations` reaction, with a token only the mail carries.
        const invitationId = randomUUID();
        await recordTeamChange(
          ctx,
          store,
          metaOf(principal, request.id),
          async () => ({
            type: 'RecordTeamChange',
            rules: null,
            change: {
              type: 'TeamMemberInvited',
              data: {
                accountId: store.accountId,
                storeId: store.id,
                userId,
                email,
                role,
                newUser,
                ...(newUser ? { invitationId } : {}),
              },
            },
          }),
          async (trx) => {
            if (newUser) {
              // Nobody can sign in as a new invitee before they set a password with the token only they receive.
              await insertGrant(trx, userId, role, grant.accountId, grant.storeId);
              await insertInvitation(trx, {
                userId,
                invitationId,
                accountId: store.accountId,
                storeId: store.id,
                invitedBy: callerId(principal),
                createdAt: now,
                expiresAt,
              });
            } else {
              // Users are global: a grant to someone who already has an account waits for them to accept it.
              await upsertPendingGrant(trx, {
                id: randomUUID(),
                userId,
                accountId: store.accountId,
                storeId: store.id,
                role,
                invitedBy: callerId(principal),
                createdAt: now,
                expiresAt,
              });
            }
          },
        );
        request.log.info({ userId, storeId: store.id, role, pending: !newUser }, 'team member invited');
        const member: TeamMember = newUser
          ? await memberOf(ctx, store, userId)
          : {
              userId,
              email: invitee.email,
              name: invitee.name,
              status: 'invited',
              grants: [{ role, level, ...grant }],
            };
        return reply.code(201).header('cache-control', 'no-store').send({ member, pending: !newUser, expiresAt });
      },
    );

    app.post(
      '/api/admin/stores/:storeId/team-members/:userId/role',
      {
        config: { auth: 'user', permission: 'team-member:change-role' },
        schema: {
          tags: ['back-office'],
          summary: "Change a member's role (owner roles need team-member:grant-ownership)",
          params: MemberParams,
          body: ChangeRoleRequest,
          response: { 200: TeamMember, ...errors },
        },
      },
      async (request) => giveRole(ctx, request, request.body.role, 'change-role'),
    );

    app.post(
      '/api/admin/stores/:storeId/team-members/:userId/ownership',
      {
        config: { auth: 'user', permission: 'team-member:grant-ownership' },
        schema: {
          tags: ['back-office'],
          summary: 'Make a member an owner of this store (or of its account); owners only',
          params: MemberParams,
          body: GrantOwnershipRequest,
          response: { 200: TeamMember, ...errors },
        },
      },
      async (request) => {
        const role: RoleName = request.body.level === 'account' ? 'account_owner' : 'store_owner';
        return giveRole(ctx, request, role, 'grant-ownership');
      },
    );

    app.delete(
      '/api/admin/stores/:storeId/team-members/:userId',
      {
        config: { auth: 'user', permission: 'team-member:remove' },
        schema: {
          tags: ['back-office'],
          summary: 'Remove a member from this store (an account member leaves the account)',
          params: MemberParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const { store, principal } = await authorizedStore(ctx, request, 'team-member:remove', request.params.storeId);
        const { userId } = request.params;
        let accountMember = false;
        await recordMemberChange(
          ctx,
          principal,
          store,
          metaOf(principal, request.id),
          { userId, change: 'remove', newRole: null },
          (member, roles) => {
            accountMember = member.grants.some((g) => g.level === 'account');
            return {
              type: 'TeamMemberRemoved',
              data: { accountId: store.accountId, storeId: store.id, userId, email: member.email, roles },
            };
          },
          // Their open sessions lose these grants at once: grants are read on every request.
          keepingOwners(store.accountId, (trx) => removeGrants(trx, userId, store, accountMember)),
        );
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/auth/invitations/accept',
      {
        schema: {
          tags: ['back-office'],
          summary: 'Accept an invitation: set a password with the one-time token (then sign in)',
          body: AcceptInvitationRequest,
          response: { 200: AcceptInvitationResponse, 400: ApiError, 404: ApiError, 429: ApiError },
        },
      },
      async (request) => {
        // Counted, then looked up, then hashed: a guessed token costs one statement and never an scrypt.
        const client = clientOf(request);
        const attempt = await countInvitationAttempt(ctx, client);
        if (attempt.refusedUntil) throw tooManyAttempts('invitation attempts', attempt.refusedUntil, ctx.now());
        const tokenHash = sha256(request.body.token);
        const unknown = () =>
          new AppError('invitation_not_found', 'This invitation is unknown, used or expired; ask for a new one.');
        const invitation = await findOpenInvitation(ctx.database.db, tokenHash, ctx.now());
        if (!invitation) {
          if (attempt.lastUntil) throw tooManyAttempts('invitation attempts', attempt.lastUntil, ctx.now());
          throw unknown();
        }
        const hash = await hashPassword(request.body.password, ctx.config.passwordCost);
        const { userId, email, accountId, storeId } = invitation;
        const meta: RequestMeta = { actor: { type: 'user', id: userId }, correlationId: request.id, causationId: null };
        const alongside: Alongside = async (trx) => {
          if (!(await markInvitationAccepted(trx, tokenHash, ctx.now()))) throw unknown();
          await setPassword(trx, userId, hash, request.body.name ?? null);
        };
        // An invitation naming no account is the support team's (its grant, internal, was given with it).
        await (accountId === null
          ? handleCommand(ctx, {
              decider: supportTeamDecider,
              streamId: SUPPORT_TEAM_STREAM,
              storeId: null,
              meta,
              alongside,
              command: {
                type: 'RecordSupportChange',
                rules: null,
                change: { type: 'SupportInvitationAccepted', data: { userId, email } },
              },
            })
          : handleCommand(ctx, {
              decider: teamDecider,
              streamId: accountId,
              storeId,
              meta,
              alongside,
              command: {
                type: 'RecordTeamChange',
                rules: null,
                change: { type: 'TeamInvitationAccepted', data: { accountId, storeId, userId, email } },
              },
            }));
        await forgetInvitationAttempt(ctx, client);
        return { userId, email };
      },
    );

    app.get(
      '/api/auth/memberships/pending',
      {
        config: { auth: 'user', permission: 'signed-in' },
        schema: {
          tags: ['back-office'],
          summary: 'Roles other stores have offered the signed-in user, waiting for them to accept',
          response: { 200: PendingMembershipList, 401: ApiError },
        },
      },
      async (request, reply) => {
        const userId = callerId(request.requirePrincipal());
        return reply
          .header('cache-control', 'no-store')
          .send({ data: await listPendingGrants(ctx.database.db, userId, ctx.now()) });
      },
    );

    app.post(
      '/api/auth/memberships/:membershipId/accept',
      {
        config: { auth: 'user', permission: 'signed-in' },
        schema: {
          tags: ['back-office'],
          summary: 'Accept a role offered to the signed-in user: the grant takes effect now',
          params: z.object({ membershipId: z.uuid() }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const principal = request.requirePrincipal();
        if (principal.kind !== 'user') throw new AppError('forbidden', 'Memberships are accepted by signed-in users.');
        const { id: userId, email } = principal.user;
        const unknown = () =>
          new AppError('not_found', 'No open invitation of yours matches that reference; it may have expired.');
        const [offer] = await listPendingGrants(ctx.database.db, userId, ctx.now(), request.params.membershipId);
        if (!offer) throw unknown();
        const store = { id: offer.storeId, accountId: offer.accountId };
        if ((await listMembers(ctx.database.db, store, userId)).length > 0)
          throw new AppError('already_member', `You are already a member of ${offer.storeName}.`);
        const level = ROLES[offer.role].level;
        await handleCommand(ctx, {
          decider: teamDecider,
          streamId: offer.accountId,
          storeId: offer.storeId,
          meta: metaOf(principal, request.id),
          command: {
            type: 'RecordTeamChange',
            rules: null,
            change: {
              type: 'TeamInvitationAccepted',
              data: { accountId: offer.accountId, storeId: offer.storeId, userId, email },
            },
          },
          alongside: async (trx) => {
            if (!(await takePendingGrant(trx, userId, offer.id, ctx.now()))) throw unknown();
            await insertGrant(
              trx,
              userId,
              offer.role,
              level === 'account' ? offer.accountId : null,
              level === 'account' ? null : offer.storeId,
            );
          },
        });
        request.log.info({ userId, storeId: offer.storeId, role: offer.role }, 'membership accepted');
        return reply.code(204).send(null);
      },
    );
  };
