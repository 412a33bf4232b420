import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiClaim, ApiClaimListQuery, ApiClaimPage, ApiError, OrderInput, ResolveClaimRequest, UpsertOrderResponse } from '@claims/contracts';
import { listClaims } from '@claims/projections';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { upsertOrder } from '../catalog/orderRepository.js';
import { loadClaim } from '../commands/claimStream.js';
import { executeClaimCommand } from '../commands/executeClaimCommand.js';
import { AppError } from '../platform/errors.js';
import { actorOf } from '../auth/principal.js';
import { authorizedClaim } from '../admin/claimViews.js';
import { toApiClaim } from '../claims/apiClaim.js';
import { metaOf, resolutionIdsFor } from '../admin/adminClaimRoutes.js';
import { installIdempotency } from './idempotency.js';

const ClaimParams = z.object({ claimId: z.string().min(1).max(100) });
const OrderParams = z.object({ sourceOrderId: z.string().trim().min(1).max(100) });
const IdempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(255).optional() });
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 422: ApiError } as const;

/** The public API for merchants' systems: bearer API tokens scoped to one store. */
export const v1Routes = (ctx: AppContext): FastifyPluginAsyncZod => async (app) => {
  installIdempotency(ctx, app);

  app.put('/api/v1/orders/:sourceOrderId', {
    config: { auth: 'token' },
    schema: {
      tags: ['public API v1'], summary: 'Create or replace an order of the token\'s store (decimal money, ISO-8601 times)',
      security: [{ bearer: [] }], params: OrderParams, headers: IdempotencyHeaders, body: OrderInput,
      response: { 200: UpsertOrderResponse, 201: UpsertOrderResponse, ...errors },
    },
  }, async (request, reply) => {
    const principal = request.requirePrincipal();
    if (principal.kind !== 'token') throw new AppError('unauthenticated', 'Send an API token.');
    const storeId = principal.token.storeId;
    request.authorize('order:create', storeId);
    const { sourceOrderId } = request.params;
    const existed = await sql<{ id: string }>`select id from orders where store_id = ${storeId}::uuid and source_order_id = ${sourceOrderId}`.execute(ctx.database.db);
    const order = await upsertOrder(ctx.database.db, storeId, sourceOrderId, request.body);
    const created = existed.rows.length === 0;
    return reply.code(created ? 201 : 200).send({ id: order.id, storeId, sourceOrderId, orderNumber: order.orderNumber, created });
  });

  app.get('/api/v1/claims', {
    config: { auth: 'token' },
    schema: {
      tags: ['public API v1'], summary: 'The store\'s claims, newest first; filter by status and creation time; cursor-paginated',
      security: [{ bearer: [] }], querystring: ApiClaimListQuery, response: { 200: ApiClaimPage, ...errors },
    },
  }, async (request) => {
    const principal = request.requirePrincipal();
    if (principal.kind !== 'token') throw new AppError('unauthenticated', 'Send an API token.');
    request.authorize('claim:read', principal.token.storeId);
    const q = request.query;
    const page = await listClaims(ctx.database.db, {
      storeIds: [principal.token.storeId], status: q.status, createdFrom: q.createdFrom, createdTo: q.createdTo, cursor: q.cursor, limit: q.limit,
    });
    const data = await Promise.all(page.rows.map(async (row) => {
      const { claim, version } = await loadClaim(ctx, row.claim_id);
      return claim ? toApiClaim(claim, version) : null;
    }));
    return { data: data.filter((c) => c !== null), nextCursor: page.nextCursor };
  });

  app.get('/api/v1/claims/:claimId', {
    config: { auth: 'token' },
    schema: { tags: ['public API v1'], summary: 'One claim with its items, resolutions and version', security: [{ bearer: [] }], params: ClaimParams, response: { 200: ApiClaim, ...errors } },
  }, async (request) => {
    const { claim, version } = await authorizedClaim(ctx, request, 'claim:read', request.params.claimId);
    return toApiClaim(claim, version);
  });

  app.post('/api/v1/claims/:claimId/resolve', {
    config: { auth: 'token' },
    schema: {
      tags: ['public API v1'],
      summary: 'Resolve a claim: 409 already_resolved when it has a resolution, 409 version_conflict on a stale expectedVersion',
      security: [{ bearer: [] }], params: ClaimParams, headers: IdempotencyHeaders, body: ResolveClaimRequest,
      response: { 200: ApiClaim, ...errors, 409: ApiError },
    },
  }, async (request) => {
    const { claim } = await authorizedClaim(ctx, request, 'claim:resolve', request.params.claimId);
    const principal = request.requirePrincipal();
    const result = await executeClaimCommand(ctx, {
      type: 'ResolveClaim', claimId: claim.id, resolutionIds: resolutionIdsFor(request.body.items?.length ?? claim.items.length),
      actor: actorOf(principal), now: ctx.now(), request: request.body,
    }, metaOf(principal, request.id), request.body.expectedVersion);
    return toApiClaim(result.claim, result.version);
  });
};
