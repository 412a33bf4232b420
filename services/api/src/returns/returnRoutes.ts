import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  ApiError,
  ChangeReturnStatusRequest,
  ClaimReturn,
  ClaimReturnList,
  ReturnList,
  ReturnListQuery,
  StartReturnRequest,
  type Claim,
  ClaimParams,
} from '@claims/contracts';
import { returnDecider, type ClaimReturnsState } from '@claims/domain';
import { returnRows } from '@claims/projections';
import type { AppContext } from '../context.js';
import { findStore } from '../catalog/storeRepository.js';
import { foldRecorded, handleCommand, type Loaded } from '../eventsourcing/commandHandler.js';
import { actorOf, storesWith } from '../http/principal.js';
import { authorizedClaim, type LoadedClaim } from '../http/authorizedClaim.js';
import { authorizedStore } from '../http/authorizedStore.js';
import { openClaimLink } from '../http/claimLinks.js';
import { customerMeta, metaOf } from '../http/requestMeta.js';
import { AppError } from '../platform/errors.js';
import { claimReturnView, storeReturnsPortal } from './claimReturnView.js';
import { errorResponses } from '../http/errorResponses.js';

const TokenParams = z.object({ id: z.string().min(1).max(100) });
const ReturnParams = ClaimParams.extend({ returnId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409, 422);
const claimLinkNotFound = () =>
  new AppError('claim_not_found', 'No claim matches that link. Check the link in your email.');
const returnNotFound = () => new AppError('not_found', 'No return matches that reference.');

/** The returns of a loaded claim, folded from the events already read. */
const returnsOf = (loaded: LoadedClaim): ClaimReturnsState => foldRecorded(returnDecider, loaded.events);

const viewsOf = (claim: Claim, state: ClaimReturnsState): ClaimReturn[] =>
  state.returns.map((r) => claimReturnView(claim, r));

/** The one return a command decided on, as it stands after it. */
function returnAfter(claim: Claim, handled: Loaded<ClaimReturnsState>, returnId: string): ClaimReturn {
  const record = handled.state.returns.find((r) => r.id === returnId);
  if (!record) throw returnNotFound();
  return claimReturnView(claim, record);
}

/** The stores a desk list covers: the one asked for (404 another tenant's, 403 without the right), else every store the caller may read returns of. */
async function readableStores(
  ctx: AppContext,
  request: FastifyRequest,
  storeId: string | undefined,
): Promise<string[] | null> {
  if (storeId) return [(await authorizedStore(ctx, request, 'returns:read', storeId)).store.id];
  const stores = storesWith(request.requirePrincipal(), 'returns:read');
  if (stores !== 'all' && stores.length === 0)
    throw new AppError('forbidden', 'You need the returns:read permission for this.');
  return stores === 'all' ? null : stores;
}

/**
 * Returns (docs/decisions/returns.md): the shopper starts one from their claim (by its token) and prints its
 * label; the desk lists them (`returns:read`) and moves them along (`returns:update`). Each is a record on the
 * claim's stream.
 */
export const returnRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/claims/:id/returns',
      {
        schema: {
          tags: ['customer'],
          summary: 'The returns of a claim, by its token',
          params: TokenParams,
          response: { 200: z.array(ClaimReturn), 404: ApiError },
        },
      },
      async (request) => {
        const loaded = await openClaimLink(ctx, request.params.id);
        if (!loaded) throw claimLinkNotFound();
        return viewsOf(loaded.state, returnsOf(loaded));
      },
    );

    app.post(
      '/api/claims/:id/returns',
      {
        schema: {
          tags: ['customer'],
          summary:
            "Start a return: handled by the store's returns portal when it runs one (the answer's portalUrl), else here with a label",
          params: TokenParams,
          body: StartReturnRequest,
          response: { 201: ClaimReturn, ...errors },
        },
      },
      async (request, reply) => {
        const loaded = await openClaimLink(ctx, request.params.id);
        const store = loaded && (await findStore(ctx.database.db, loaded.state.storeId));
        if (!loaded || !store) throw claimLinkNotFound();
        const claim = loaded.state;
        const returnId = randomUUID();
        const handled = await handleCommand(ctx, {
          decider: returnDecider,
          streamId: claim.id,
          storeId: claim.storeId,
          meta: customerMeta(request.id, claim.id),
          command: {
            type: 'StartReturn',
            claimId: claim.id,
            returnId,
            storePortalUrl: storeReturnsPortal(store),
            request: request.body,
            actor: { type: 'customer', id: claim.id },
            now: ctx.now(),
          },
        });
        request.log.info({ claimId: claim.id, returnId }, 'return started');
        return reply.code(201).send(returnAfter(claim, handled, returnId));
      },
    );

    app.get(
      '/api/admin/returns',
      {
        config: { auth: 'user', permission: 'returns:read' },
        schema: {
          tags: ['back-office'],
          summary: "Returns of the caller's stores, newest first",
          querystring: ReturnListQuery,
          response: { 200: ReturnList, ...errors },
        },
      },
      async (request) => {
        const storeIds = await readableStores(ctx, request, request.query.storeId);
        return {
          data: await returnRows(ctx.database.db, {
            storeIds,
            status: request.query.status,
            limit: request.query.limit,
          }),
        };
      },
    );

    app.get(
      '/api/admin/claims/:claimId/returns',
      {
        config: { auth: 'user', permission: 'returns:read' },
        schema: {
          tags: ['back-office'],
          summary: 'The returns of a claim, oldest first',
          params: ClaimParams,
          response: { 200: ClaimReturnList, ...errors },
        },
      },
      async (request) => {
        const loaded = await authorizedClaim(ctx, request, 'returns:read', request.params.claimId);
        return { data: viewsOf(loaded.state, returnsOf(loaded)), version: loaded.version };
      },
    );

    app.post(
      '/api/admin/claims/:claimId/returns/:returnId/status',
      {
        config: { auth: 'user', permission: 'returns:update' },
        schema: {
          tags: ['back-office'],
          summary: 'Move a return (approve, reject, cancel, mark received, complete)',
          params: ReturnParams,
          body: ChangeReturnStatusRequest,
          response: { 200: ClaimReturn, ...errors },
        },
      },
      async (request) => {
        const { state: claim } = await authorizedClaim(ctx, request, 'returns:update', request.params.claimId);
        const principal = request.requirePrincipal();
        const handled = await handleCommand(ctx, {
          decider: returnDecider,
          streamId: claim.id,
          storeId: claim.storeId,
          meta: metaOf(principal, request.id),
          expectedVersion: request.body.expectedVersion,
          command: {
            type: 'ChangeReturnStatus',
            claimId: claim.id,
            returnId: request.params.returnId,
            to: request.body.to,
            note: request.body.note || null,
            actor: actorOf(principal),
            now: ctx.now(),
          },
        });
        return returnAfter(claim, handled, request.params.returnId);
      },
    );
  };
