import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangeSupportRoleRequest,
  InviteMemberResponse,
  InviteSupportUserRequest,
  SUPPORT_TEAM_STREAM,
  TeamMember,
  TeamMemberList,
  type Permission,
  type SupportRole,
} from '@claims/contracts';
import { supportTeamDecider, type RecordSupportChange, type SupportChangeInput } from '@claims/domain';
import type { Alongside } from '@claims/event-store';
import type { FastifyRequest } from 'fastify';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { authorizeGlobal } from '../http/authorizedStore.js';
import { awaitsFirstPassword, findOrCreateInvitee } from '../auth/index.js';
import { loadGrants } from '../http/principal.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { metaOf } from '../http/requestMeta.js';
import { insertInvitation } from './teamRepository.js';
import {
  countOtherActiveSupportAdmins,
  listSupportUsers,
  removeSupportRoles,
  replaceSupportRole,
} from './supportTeamRepository.js';
import { INVITATION_TTL_MS } from './teamRoutes.js';
import { withInvitationMail } from '../notifications/index.js';
import { errorResponses } from '../http/errorResponses.js';

const MemberParams = z.object({ userId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409);
const memberNotFound = () => new AppError('not_found', 'No support member matches that reference.');

/** The signed-in staff member holding `permission` on every store (support-user rights are internal only). */
function staffCaller(request: FastifyRequest, permission: Permission) {
  const principal = authorizeGlobal(request, permission);
  if (principal.kind !== 'user') throw new AppError('forbidden', 'Support members are managed by signed-in staff.');
  return principal;
}

async function supportMember(ctx: AppContext, userId: string): Promise<TeamMember> {
  const [member] = await listSupportUsers(ctx.database.db, userId);
  if (!member) throw memberNotFound();
  return member;
}

/**
 * An address invited before and removed before it set a password (no grant left, nobody ever signed in as
 * it) is invited afresh; any other existing user is refused, their consent being theirs to give.
 */
async function unclaimed(ctx: AppContext, userId: string): Promise<boolean> {
  return (
    (await awaitsFirstPassword(ctx.database.db, userId)) && (await loadGrants(ctx.database.db, userId)).length === 0
  );
}

async function rulesFor(
  ctx: AppContext,
  member: TeamMember,
  change: SupportChangeInput['change'],
  newRole: SupportRole | null,
): Promise<SupportChangeInput> {
  return {
    change,
    newRole,
    targetRoles: member.grants.map((g) => g.role),
    targetActive: member.status === 'active',
    otherActiveAdmins: await countOtherActiveSupportAdmins(ctx.database.db, member.userId),
  };
}

/**
 * A change through the support team's one stream: the rules are judged on rows read for each attempt and the
 * grants change in the append's transaction, so two concurrent changes never both pass on the same count.
 */
function recordSupportChange(
  ctx: AppContext,
  meta: RequestMeta,
  build: () => Promise<RecordSupportChange>,
  alongside: Alongside,
) {
  return handleCommand(ctx, {
    decider: supportTeamDecider,
    streamId: SUPPORT_TEAM_STREAM,
    storeId: null,
    meta,
    command: build,
    alongside,
  });
}

/**
 * Order Protection's support staff (`support-user`, docs/product.md#support-staff, held by the support admin and the admin): list,
 * invite with the team's invitation (accepted on the same page), change between the two support roles,
 * remove. Grants are rows; each change is an event of the `support-team` stream with its actor.
 */
export const supportUserRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/support-users',
      {
        config: { auth: 'user', permission: 'support-user:read' },
        schema: {
          tags: ['back-office'],
          summary: "Order Protection's support staff: everyone holding a support role",
          response: { 200: TeamMemberList, ...errors },
        },
      },
      async (request) => {
        staffCaller(request, 'support-user:read');
        return { data: await withInvitationMail(ctx, await listSupportUsers(ctx.database.db)) };
      },
    );

    app.post(
      '/api/admin/support-users',
      {
        config: { auth: 'user', permission: 'support-user:create' },
        schema: {
          tags: ['back-office'],
          summary:
            'Invite a support member by email: a one-time token goes to them by mail (never in this answer); accepting it sets their password',
          body: InviteSupportUserRequest,
          response: { 201: InviteMemberResponse, ...errors },
        },
      },
      async (request, reply) => {
        const principal = staffCaller(request, 'support-user:create');
        const { email, name, role } = request.body;
        const invitee = await findOrCreateInvitee(ctx.database.db, email, name);
        if (!invitee.created && !(await unclaimed(ctx, invitee.id))) {
          if ((await listSupportUsers(ctx.database.db, invitee.id)).length > 0)
            throw new AppError('already_member', `${email} is already a support member.`);
          throw new AppError(
            'already_exists',
            `${email} already has an account: support roles go to a staff address that has none yet.`,
          );
        }
        const now = ctx.now();
        const expiresAt = new Date(Date.parse(now) + INVITATION_TTL_MS).toISOString();
        const userId = invitee.id;
        // Mailed after this request by the `mail-invitations` reaction, with a token only the mail carries.
        const invitationId = randomUUID();
        await recordSupportChange(
          ctx,
          metaOf(principal, request.id),
          async () => ({
            type: 'RecordSupportChange',
            rules: null,
            change: { type: 'SupportUserInvited', data: { userId, email: invitee.email, role, invitationId } },
          }),
          async (trx) => {
            // Nobody can sign in as the invitee before they set a password with the token only they receive.
            await replaceSupportRole(trx, userId, role);
            await insertInvitation(trx, {
              userId,
              invitationId,
              accountId: null,
              storeId: null,
              invitedBy: principal.user.id,
              createdAt: now,
              expiresAt,
            });
          },
        );
        request.log.info({ userId, role }, 'support member invited');
        return reply
          .code(201)
          .header('cache-control', 'no-store')
          .send({ member: await supportMember(ctx, userId), pending: false, expiresAt });
      },
    );

    app.post(
      '/api/admin/support-users/:userId/role',
      {
        config: { auth: 'user', permission: 'support-user:update' },
        schema: {
          tags: ['back-office'],
          summary: 'Move a support member between support and support admin (the last support admin stays one)',
          params: MemberParams,
          body: ChangeSupportRoleRequest,
          response: { 200: TeamMember, ...errors },
        },
      },
      async (request) => {
        const principal = staffCaller(request, 'support-user:update');
        const { userId } = request.params;
        const { role } = request.body;
        const before = await supportMember(ctx, userId);
        if (before.grants.length === 1 && before.grants[0]?.role === role) return before;
        await recordSupportChange(
          ctx,
          metaOf(principal, request.id),
          async () => {
            const member = await supportMember(ctx, userId);
            return {
              type: 'RecordSupportChange',
              rules: await rulesFor(ctx, member, 'change-role', role),
              change: {
                type: 'SupportUserRoleChanged',
                data: { userId, email: member.email, from: member.grants.map((g) => g.role), to: role },
              },
            };
          },
          (trx) => replaceSupportRole(trx, userId, role),
        );
        return supportMember(ctx, userId);
      },
    );

    app.delete(
      '/api/admin/support-users/:userId',
      {
        config: { auth: 'user', permission: 'support-user:delete' },
        schema: {
          tags: ['back-office'],
          summary: "Take a member's support roles (their other grants stay); never the last support admin",
          params: MemberParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const principal = staffCaller(request, 'support-user:delete');
        const { userId } = request.params;
        await recordSupportChange(
          ctx,
          metaOf(principal, request.id),
          async () => {
            const member = await supportMember(ctx, userId);
            const roles = member.grants.map((g) => g.role);
            return {
              type: 'RecordSupportChange',
              rules: await rulesFor(ctx, member, 'remove', null),
              change: { type: 'SupportUserRemoved', data: { userId, email: member.email, roles } },
            };
            // Their open sessions lose these grants at once: grants are read on every request.
          },
          (trx) => removeSupportRoles(trx, userId),
        );
        return reply.code(204).send(null);
      },
    );
  };
