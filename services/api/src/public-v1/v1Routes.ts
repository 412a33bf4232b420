import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiClaim,
  ApiClaimListQuery,
  ApiClaimPage,
  ApiError,
  OrderInput,
  ResolveClaimRequest,
  UpsertOrderResponse,
  ClaimParams,
} from '@claims/contracts';
import { listClaims } from '@claims/projections';
import type { AppContext } from '../context.js';
import { ingestOrder } from '../catalog/ingestOrder.js';
import { AppError } from '../platform/errors.js';
import { handleClaimCommand } from '../http/claimCommand.js';
import { authorizedClaim, claimNotFound, loadClaim } from '../http/authorizedClaim.js';
import { toApiClaim } from '../http/apiClaim.js';
import { metaOf } from '../http/requestMeta.js';
import { resolveCommand } from '../resolutions/index.js';
import { installIdempotency } from '../http/idempotency.js';
import { errorResponses } from '../http/errorResponses.js';

const OrderParams = z.object({ sourceOrderId: z.string().trim().min(1).max(100) });
const IdempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(255).optional() });
const errors = errorResponses(400, 401, 403, 404, 422);

/** The public API for merchants' systems: bearer API tokens scoped to one store. */
export const v1Routes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    installIdempotency(ctx, app);

    app.put(
      '/api/v1/orders/:sourceOrderId',
      {
        config: { auth: 'token', permission: 'order:create' },
        schema: {
          tags: ['public API v1'],
          summary: "Create or replace an order of the token's store (decimal money, ISO-8601 times)",
          security: [{ bearer: [] }],
          params: OrderParams,
          headers: IdempotencyHeaders,
          body: OrderInput,
          response: { 200: UpsertOrderResponse, 201: UpsertOrderResponse, ...errors },
        },
      },
      async (request, reply) => {
        const principal = request.requirePrincipal();
        if (principal.kind !== 'token') throw new AppError('unauthenticated', 'Send an API token.');
        const storeId = principal.token.storeId;
        request.authorize('order:create', storeId);
        const { sourceOrderId } = request.params;
        const { order, created } = await ingestOrder(
          ctx,
          storeId,
          sourceOrderId,
          request.body,
          metaOf(principal, request.id),
        );
        return reply
          .code(created ? 201 : 200)
          .send({ id: order.id, storeId, sourceOrderId, orderNumber: order.orderNumber, created });
      },
    );

    app.get(
      '/api/v1/claims',
      {
        config: { auth: 'token', permission: 'claim:read' },
        schema: {
          tags: ['public API v1'],
          summary: "The store's claims, newest first; filter by status and creation time; cursor-paginated",
          security: [{ bearer: [] }],
          querystring: ApiClaimListQuery,
          response: { 200: ApiClaimPage, ...errors },
        },
      },
      async (request) => {
        const principal = request.requirePrincipal();
        if (principal.kind !== 'token') throw new AppError('unauthenticated', 'Send an API token.');
        request.authorize('claim:read', principal.token.storeId);
        const q = request.query;
        const page = await listClaims(ctx.database.db, {
          storeIds: [principal.token.storeId],
          status: q.status,
          createdFrom: q.createdFrom,
          createdTo: q.createdTo,
          cursor: q.cursor,
          limit: q.limit,
        });
        const data = await Promise.all(
          page.rows.map(async (row) => {
            const loaded = await loadClaim(ctx, row.claim_id);
            return loaded ? toApiClaim(loaded.state, loaded.version) : null;
          }),
        );
        return { data: data.filter((c) => c !== null), nextCursor: page.nextCursor };
      },
    );

    app.get(
      '/api/v1/claims/:claimId',
      {
        config: { auth: 'token', permission: 'claim:read' },
        schema: {
          tags: ['public API v1'],
          summary: 'One claim with its items, resolutions and version',
          security: [{ bearer: [] }],
          params: ClaimParams,
          response: { 200: ApiClaim, ...errors },
        },
      },
      async (request) => {
        const { state: claim, version } = await authorizedClaim(ctx, request, 'claim:read', request.params.claimId);
        return toApiClaim(claim, version);
      },
    );

    app.post(
      '/api/v1/claims/:claimId/resolve',
      {
        config: { auth: 'token', permission: 'claim:resolve' },
        schema: {
          tags: ['public API v1'],
          summary:
            "Resolve a claim, whole or item by item: 409 already_resolved for an item already decided, 409 version_conflict on a stale expectedVersion, 422 for a type the store does not offer, 422 exceeds_claimed_value or exceeds_claim_ceiling past what the claim is worth or the store's ceiling on one claim",
          security: [{ bearer: [] }],
          params: ClaimParams,
          headers: IdempotencyHeaders,
          body: ResolveClaimRequest,
          response: { 200: ApiClaim, ...errors, 409: ApiError },
        },
      },
      async (request) => {
        const loaded = await authorizedClaim(ctx, request, 'claim:resolve', request.params.claimId);
        const { state: claim } = loaded;
        const principal = request.requirePrincipal();
        const { state, version } = await handleClaimCommand(
          ctx,
          request,
          loaded,
          await resolveCommand(ctx, claim, principal, request.body),
          request.body.expectedVersion,
        );
        if (!state) throw claimNotFound();
        return toApiClaim(state, version);
      },
    );
  };
