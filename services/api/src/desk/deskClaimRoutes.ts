import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminClaimDetail,
  AdminClaimListQuery,
  AdminClaimQuery,
  AdminClaimPage,
  ApiError,
  AssignClaimRequest,
  AssigneeList,
  ChangeStatusRequest,
  CLAIM_STATUS_LABELS,
  Message,
  ResolveClaimRequest,
  RuleActivityList,
  SendMessageRequest,
  TimelineResponse,
  toDecimal,
  ClaimParams,
} from '@claims/contracts';
import { claimTimeline, queueClaims, queueCounts, type AssigneeCondition } from '@claims/projections';
import { statusChangePermission } from '@claims/domain';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { actorOf, isInternal, storesWith } from '../http/principal.js';
import { findStore, storeRefs } from '../catalog/storeRepository.js';
import { handleClaimCommand } from '../http/claimCommand.js';
import { authorizedClaim, loadClaim } from '../http/authorizedClaim.js';
import { resolveCommand } from '../resolutions/index.js';
import { afterCommand, commandOnClaim, toAdminClaimDetail } from './claimDetail.js';
import { created, messagesOf } from '../http/claimEvents.js';
import { assignableUsers } from './assignees.js';
import { assertOwnAttachments } from '../media/index.js';
import { ruleActivity } from '../automation/index.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404);
const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** `me` is whoever asks; `none` the claims nobody works. */
function assigneeCondition(value: string | undefined, userId: string): AssigneeCondition | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return { kind: 'none' };
  return { kind: 'user', id: value === 'me' ? userId : value };
}

/**
 * The back-office's claim endpoints (signed-in users). Reads of the list come from the claim-list
 * read model; a single claim is rebuilt from its stream, so it is never behind.
 */
export const adminClaimRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/claims',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary:
            "The claim queue of the stores the user may read: searched, filtered, sorted on the server, keyset-paginated; with counts=true the status tabs' counts",
          querystring: AdminClaimListQuery,
          response: { 200: AdminClaimPage, ...errors },
        },
      },
      async (request) => {
        const principal = request.requirePrincipal();
        const q = request.query;
        const readable = storesWith(principal, 'claim:read');
        let storeIds: string[] | null = readable === 'all' ? null : readable;
        if (q.store) {
          request.authorize('claim:read', q.store);
          storeIds = [q.store];
        }
        const filter = {
          storeIds,
          claimType: q.type,
          protectionStatus: q.protection,
          riskLevel: q.risk,
          createdFrom: q.from,
          createdTo: q.to,
          search: q.search || undefined,
          assignee: assigneeCondition(q.assignee, actorOf(principal).id),
        };
        const db = ctx.database.db;
        const page = await queueClaims(db, {
          ...filter,
          status: q.status,
          sort: q.sort,
          order: q.order,
          cursor: q.cursor,
          limit: q.limit,
        });
        const counts = q.counts ? await queueCounts(db, filter, page.searched) : undefined;
        const stores = await storeRefs(db);
        return {
          nextCursor: page.nextCursor,
          match: page.match,
          ...(counts ? { counts } : {}),
          data: page.rows.map((row) => ({
            id: row.claim_id,
            claimNumber: row.claim_number,
            status: row.status,
            statusLabel: CLAIM_STATUS_LABELS[row.status],
            claimType: row.claim_type,
            store: stores.get(row.store_id) ?? { id: row.store_id, slug: '', name: '' },
            sourceOrderId: row.source_order_id,
            orderNumber: row.order_number,
            customerEmail: row.customer_email,
            customerName: row.customer_name,
            protectionStatus: row.protection_status,
            requestedResolution: row.requested_resolution,
            currency: row.currency,
            claimedValue: toDecimal(Number(row.claimed_value), row.currency),
            itemCount: Number(row.item_count),
            messageCount: Number(row.message_count),
            resolutionType: row.resolution_type,
            resolvedAt: iso(row.resolved_at),
            createdAt: iso(row.created_at)!,
            updatedAt: iso(row.updated_at)!,
            version: Number(row.version),
            assignee: row.assignee_id ? { id: row.assignee_id, name: row.assignee_name ?? '' } : null,
            lastCustomerReplyAt: iso(row.customer_activity_at)!,
            customerReplied: row.customer_replied,
            risk:
              row.risk_level === null || row.risk_score === null
                ? null
                : { level: row.risk_level, score: Number(row.risk_score) },
          })),
        };
      },
    );

    app.get(
      '/api/admin/claims/:claimId',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary:
            'One claim with items, resolutions, messages and its stream version; ?asOf=N folds only its first N events',
          params: ClaimParams,
          querystring: AdminClaimQuery,
          response: { 200: AdminClaimDetail, ...errors },
        },
      },
      async (request) => {
        const current = await authorizedClaim(ctx, request, 'claim:read', request.params.claimId);
        const { asOf } = request.query;
        const principal = request.requirePrincipal();
        if (asOf === undefined || asOf === current.version) return toAdminClaimDetail(ctx, current, principal);
        if (asOf > current.version)
          throw new AppError(
            'validation_failed',
            `Claim #${current.state.claimNumber} is at version ${current.version}; asOf cannot be later.`,
          );
        const past = await loadClaim(ctx, current.state.id, asOf);
        return toAdminClaimDetail(ctx, past ?? current, principal);
      },
    );

    app.get(
      '/api/admin/claims/:claimId/timeline',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary: "The claim's history, oldest first",
          params: ClaimParams,
          response: { 200: TimelineResponse, ...errors },
        },
      },
      async (request) => {
        const { state: claim } = await authorizedClaim(ctx, request, 'claim:read', request.params.claimId);
        return { data: await claimTimeline(ctx.database.db, claim.id) };
      },
    );

    app.get(
      '/api/admin/claims/:claimId/rule-activity',
      {
        config: { auth: 'user', permission: 'claim:read' },
        schema: {
          tags: ['back-office'],
          summary:
            "What the store's rules did to the claim (live) or would have done (shadow), newest first: a shadow rule records here only",
          params: ClaimParams,
          response: { 200: RuleActivityList, ...errors },
        },
      },
      async (request) => {
        const { state: claim } = await authorizedClaim(ctx, request, 'claim:read', request.params.claimId);
        return { entries: await ruleActivity(ctx, { storeId: claim.storeId, claimId: claim.id, limit: 100 }) };
      },
    );

    app.post(
      '/api/admin/claims/:claimId/resolve',
      {
        config: { auth: 'user', permission: 'claim:resolve' },
        schema: {
          tags: ['back-office'],
          summary: 'Resolve (or deny) a claim; 409 when it already has a resolution or the version is stale',
          params: ClaimParams,
          body: ResolveClaimRequest,
          response: { 200: AdminClaimDetail, ...errors, 409: ApiError, 422: ApiError },
        },
      },
      async (request) => {
        return commandOnClaim(ctx, request, 'claim:resolve', (claim, principal) =>
          resolveCommand(ctx, claim, principal, request.body),
        );
      },
    );

    app.post(
      '/api/admin/claims/:claimId/status',
      {
        config: { auth: 'user', permission: { anyOf: ['claim:update', 'claim:resolve'] } },
        schema: {
          tags: ['back-office'],
          summary: 'Move a claim to another status (see docs/permissions.md for the allowed moves)',
          params: ClaimParams,
          body: ChangeStatusRequest,
          response: { 200: AdminClaimDetail, ...errors, 409: ApiError, 422: ApiError },
        },
      },
      async (request) => {
        // Closing decides a claim's fate: it takes the resolver's permission, not only claim:update.
        return commandOnClaim(ctx, request, statusChangePermission(request.body.status), (claim) => ({
          type: 'ChangeClaimStatus',
          claimId: claim.id,
          to: request.body.status,
          note: request.body.note || null,
          reason: request.body.reason ?? null,
        }));
      },
    );

    app.post(
      '/api/admin/claims/:claimId/messages',
      {
        config: { auth: 'user', permission: 'message:create' },
        schema: {
          tags: ['back-office'],
          summary: 'Send the shopper a message from the store (or from Order Protection staff)',
          params: ClaimParams,
          body: SendMessageRequest,
          response: { 201: Message, ...errors },
        },
      },
      async (request, reply) => {
        const loaded = await authorizedClaim(ctx, request, 'message:create', request.params.claimId);
        const { state: claim } = loaded;
        await assertOwnAttachments(ctx, request, request.body.medias, [`claim:${claim.id}`]);
        const principal = request.requirePrincipal();
        const senderName =
          request.body.senderName || (principal.kind === 'user' ? principal.user.name : principal.token.name);
        const { decided } = await handleClaimCommand(ctx, request, loaded, {
          type: 'SendMessage',
          claimId: claim.id,
          messageId: randomUUID(),
          actor: actorOf(principal),
          senderType: isInternal(principal) ? 'staff' : 'merchant',
          senderName,
          messageContent: request.body.messageContent,
          medias: request.body.medias,
          now: ctx.now(),
        });
        return reply.code(201).send(created(messagesOf(decided), 'message'));
      },
    );

    app.get(
      '/api/admin/claims/:claimId/assignees',
      {
        config: { auth: 'user', permission: 'claim:update' },
        schema: {
          tags: ['back-office'],
          summary: 'The teammates the claim may be given to: those who can update claims of its store',
          params: ClaimParams,
          response: { 200: AssigneeList, ...errors },
        },
      },
      async (request) => {
        const { state: claim } = await authorizedClaim(ctx, request, 'claim:update', request.params.claimId);
        return {
          data: await assignableUsers(
            ctx.database.db,
            await storeOf(claim.storeId),
            isInternal(request.requirePrincipal()),
          ),
        };
      },
    );

    app.post(
      '/api/admin/claims/:claimId/assignee',
      {
        config: { auth: 'user', permission: 'claim:update' },
        schema: {
          tags: ['back-office'],
          summary:
            'Give the claim to a teammate (or to yourself), or to nobody with null; 409 when the version is stale',
          params: ClaimParams,
          body: AssignClaimRequest,
          response: { 200: AdminClaimDetail, ...errors, 409: ApiError },
        },
      },
      async (request) => {
        const loaded = await authorizedClaim(ctx, request, 'claim:update', request.params.claimId);
        const { state: claim } = loaded;
        const principal = request.requirePrincipal();
        const { assigneeId, expectedVersion } = request.body;
        let assignee: { id: string; name: string } | null = null;
        if (assigneeId) {
          const found = (
            await assignableUsers(ctx.database.db, await storeOf(claim.storeId), isInternal(principal))
          ).find((u) => u.id === assigneeId);
          if (!found) throw new AppError('validation_failed', 'That person cannot work claims of this store.');
          assignee = { id: found.id, name: found.name };
        }
        const handled = await handleClaimCommand(
          ctx,
          request,
          loaded,
          { type: 'AssignClaim', claimId: claim.id, assignee },
          expectedVersion,
        );
        return toAdminClaimDetail(ctx, afterCommand(handled), principal);
      },
    );

    async function storeOf(storeId: string) {
      const store = await findStore(ctx.database.db, storeId);
      if (!store) throw new AppError('not_found', "The claim's store is gone.");
      return store;
    }
  };
