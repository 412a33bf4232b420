import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PayoutBatch,
  PayoutBatchActionRequest,
  PayoutBatchList,
  PayPayoutBatchRequest,
  PayoutEntriesQuery,
  storePayoutsStreamOf,
  toDecimal,
  type PayoutBatch as PayoutBatchView,
  type Permission,
  type Store,
  StoreParams,
} from '@claims/contracts';
import { storePayoutsDecider, type PayoutBatchState, type StorePayoutsCommand } from '@claims/domain';
import { payoutBatches, payoutEntries } from '@claims/projections';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { actorOf, type Principal } from '../http/principal.js';
import { userNames } from '../auth/index.js';
import { findStore } from '../catalog/storeRepository.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { authorizeGlobal, storeNotFound } from '../http/authorizedStore.js';
import { metaOf } from '../http/requestMeta.js';
import { AppError } from '../platform/errors.js';
import { errorResponses } from '../http/errorResponses.js';

const BatchParams = StoreParams.extend({ batchId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409, 422);

type BatchFacts = Omit<PayoutBatchState, 'entryIds'> & { entryIds: readonly string[] };

/** Batches as the API shows them, with the names of the people behind each step. */
async function toViews(
  ctx: AppContext,
  batches: ReadonlyArray<{ batch: BatchFacts; version: number }>,
): Promise<PayoutBatchView[]> {
  const names = await userNames(
    ctx.database.db,
    batches.flatMap(({ batch: b }) => [b.createdBy, b.approvedBy ?? '', b.paidBy ?? '']),
  );
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? null) : null);
  return batches.map(({ batch, version }) => ({
    ...batch,
    entryIds: [...batch.entryIds],
    total: toDecimal(batch.total, batch.currency),
    version,
    createdByName: nameOf(batch.createdBy),
    approvedByName: nameOf(batch.approvedBy),
    paidByName: nameOf(batch.paidBy),
  }));
}

/** Finance acts on a known store only (payouts are internal resources, held on every store). */
async function financeStore(
  ctx: AppContext,
  request: FastifyRequest,
  permission: Permission,
  storeId: string,
): Promise<{ store: Store; principal: Principal }> {
  const principal = authorizeGlobal(request, permission);
  const store = await findStore(ctx.database.db, storeId);
  if (!store) throw storeNotFound();
  return { store, principal };
}

/** One step of a batch's life on the store's payouts stream; the answer is the batch as the step left it. */
async function batchStep(
  ctx: AppContext,
  request: FastifyRequest,
  principal: Principal,
  store: Store,
  command: StorePayoutsCommand,
  batchId: string,
  expectedVersion: number | undefined,
) {
  const handled = await handleCommand(ctx, {
    decider: storePayoutsDecider,
    streamId: storePayoutsStreamOf(store.id),
    storeId: store.id,
    meta: metaOf(principal, request.id),
    command,
    expectedVersion,
  });
  const batch = handled.state.batches.get(batchId);
  if (!batch) throw new AppError('not_found', 'No payout batch of this store matches that reference.');
  return (await toViews(ctx, [{ batch, version: handled.version }]))[0]!;
}

/**
 * Payout batches: finance gathers a store's pending entries into a batch (`payout:create`), someone else
 * approves it (`finance-admin:update`), and it is marked paid with the transfer's reference (`payout:update`).
 */
export const payoutBatchRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    /** Approves or pays the batch the request names, as its principal, at the version the caller saw. */
    const moveBatch = (
      request: FastifyRequest<{ Params: { batchId: string }; Body: { expectedVersion?: number | undefined } }>,
      principal: Principal,
      store: Store,
      step: { type: 'ApprovePayoutBatch' } | { type: 'PayPayoutBatch'; reference: string },
    ) => {
      const { batchId } = request.params;
      return batchStep(
        ctx,
        request,
        principal,
        store,
        { ...step, storeId: store.id, batchId, actorId: actorOf(principal).id, now: ctx.now() },
        batchId,
        request.body.expectedVersion,
      );
    };

    app.get(
      '/api/finance/stores/:storeId/payout-batches',
      {
        config: { auth: 'user', permission: 'payout:read' },
        schema: {
          tags: ['finance'],
          summary: "A store's payout batches, newest first",
          params: StoreParams,
          response: { 200: PayoutBatchList, ...errors },
        },
      },
      async (request) => {
        const { store } = await financeStore(ctx, request, 'payout:read', request.params.storeId);
        const rows = await payoutBatches(ctx.database.db, store.id);
        return {
          data: await toViews(
            ctx,
            rows.map(({ version, ...batch }) => ({ batch, version })),
          ),
        };
      },
    );

    app.post(
      '/api/finance/stores/:storeId/payout-batches',
      {
        config: { auth: 'user', permission: 'payout:create' },
        schema: {
          tags: ['finance'],
          summary: 'Gather every pending payout entry of the store not yet in a batch into a new batch',
          params: StoreParams,
          querystring: PayoutEntriesQuery.pick({ to: true }),
          body: PayoutBatchActionRequest,
          response: { 201: PayoutBatch, ...errors },
        },
      },
      async (request, reply) => {
        const { store, principal } = await financeStore(ctx, request, 'payout:create', request.params.storeId);
        const batchId = randomUUID();
        const pending = await payoutEntries(ctx.database.db, {
          storeIds: [store.id],
          status: 'pending',
          to: request.query.to,
        });
        const entries = pending
          .filter((e) => e.currency === store.currency)
          .map((e) => ({ id: e.id, amount: e.amount }));
        const batch = await batchStep(
          ctx,
          request,
          principal,
          store,
          {
            type: 'CreatePayoutBatch',
            storeId: store.id,
            batchId,
            currency: store.currency,
            entries,
            actorId: actorOf(principal).id,
            now: ctx.now(),
          },
          batchId,
          request.body.expectedVersion,
        );
        return reply.code(201).send(batch);
      },
    );

    app.post(
      '/api/finance/stores/:storeId/payout-batches/:batchId/approve',
      {
        config: { auth: 'user', permission: 'finance-admin:update' },
        schema: {
          tags: ['finance'],
          summary: 'Approve a batch (not its maker)',
          params: BatchParams,
          body: PayoutBatchActionRequest,
          response: { 200: PayoutBatch, ...errors },
        },
      },
      async (request) => {
        const { store, principal } = await financeStore(ctx, request, 'finance-admin:update', request.params.storeId);
        return moveBatch(request, principal, store, { type: 'ApprovePayoutBatch' });
      },
    );

    app.post(
      '/api/finance/stores/:storeId/payout-batches/:batchId/pay',
      {
        config: { auth: 'user', permission: 'payout:update' },
        schema: {
          tags: ['finance'],
          summary: "Mark an approved batch paid, with the transfer's reference",
          params: BatchParams,
          body: PayPayoutBatchRequest,
          response: { 200: PayoutBatch, ...errors },
        },
      },
      async (request) => {
        const { store, principal } = await financeStore(ctx, request, 'payout:update', request.params.storeId);
        return moveBatch(request, principal, store, { type: 'PayPayoutBatch', reference: request.body.reference });
      },
    );
  };
