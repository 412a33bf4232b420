import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AbTestsResponse,
  ApiError,
  OfferRequest,
  OfferResponse,
  StartAbTestRequest,
  storeAbTestsStreamOf,
  abAssignmentsStreamOf,
  type AbTestCommand,
  type AbTestView,
  type Store,
  StoreParams,
} from '@claims/contracts';
import {
  abAssignmentsDecider,
  abTestResults,
  abTestsDecider,
  assignVariant,
  runningTest,
  type AbTestDefinition,
  type AbTestsState,
} from '@claims/domain';
import { abTestCounts } from '@claims/projections';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { authorizedStore } from '../http/authorizedStore.js';
import { customerMeta, metaOf } from '../http/requestMeta.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { findStore } from '../catalog/storeRepository.js';
import { sessionIdOf } from '../customer/index.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404);

const loadTests = async (ctx: AppContext, storeId: string): Promise<AbTestsState> =>
  (await loadAggregate(ctx, abTestsDecider, storeAbTestsStreamOf(storeId))).state;

/** Decides a change to the store's A/B tests on their stream. */
const changeTests = (ctx: AppContext, store: Store, meta: RequestMeta, command: AbTestCommand) =>
  handleCommand(ctx, {
    decider: abTestsDecider,
    streamId: storeAbTestsStreamOf(store.id),
    storeId: store.id,
    meta,
    command,
  });

/** One test with its results: the projection's counts per variant, take rates, and the z-test of the two busiest variants. */
async function resultsOf(ctx: AppContext, store: Store, test: AbTestDefinition): Promise<AbTestView> {
  const { variants, significance } = abTestResults(test.variants, await abTestCounts(ctx.database.db, test.testId));
  return {
    testId: test.testId,
    storeId: store.id,
    name: test.name,
    status: test.stoppedAt === null ? 'running' : 'stopped',
    startedAt: test.startedAt,
    stoppedAt: test.stoppedAt,
    variants,
    significance,
  };
}

async function testsView(ctx: AppContext, store: Store): Promise<AbTestsResponse> {
  const state = await loadTests(ctx, store.id);
  return {
    storeId: store.id,
    tests: await Promise.all([...state.tests].reverse().map((test) => resultsOf(ctx, store, test))),
  };
}

/**
 * A/B tests of the resolution offer (the `ab-tests` permissions, docs/product.md#roles-and-permissions), and the shopper's offer: the claim session's
 * variant, assigned by a hash of its id and recorded once as an event.
 */
export const abTestRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/stores/:storeId/ab-tests',
      {
        config: { auth: 'user', permission: 'ab-tests:read' },
        schema: {
          tags: ['back-office'],
          summary: "The store's A/B tests with their results (ab-tests:read)",
          params: StoreParams,
          response: { 200: AbTestsResponse, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'ab-tests:read', request.params.storeId);
        return testsView(ctx, store);
      },
    );

    app.post(
      '/api/admin/stores/:storeId/ab-tests',
      {
        config: { auth: 'user', permission: 'ab-tests:create' },
        schema: {
          tags: ['back-office'],
          summary: 'Start an A/B test of the store-credit bonus (ab-tests:create); one test runs at a time',
          params: StoreParams,
          body: StartAbTestRequest,
          response: { 201: AbTestsResponse, ...errors, 409: ApiError, 422: ApiError },
        },
      },
      async (request, reply) => {
        const { store, principal } = await authorizedStore(ctx, request, 'ab-tests:create', request.params.storeId);
        await changeTests(ctx, store, metaOf(principal, request.id), {
          type: 'StartAbTest',
          storeId: store.id,
          testId: randomUUID(),
          name: request.body.name,
          variants: request.body.variants,
          now: ctx.now(),
        });
        return reply.code(201).send(await testsView(ctx, store));
      },
    );

    app.post(
      '/api/admin/stores/:storeId/ab-tests/:testId/stop',
      {
        config: { auth: 'user', permission: 'ab-tests:update' },
        schema: {
          tags: ['back-office'],
          summary: "Stop an A/B test (ab-tests:update): shoppers see the store's own offer again",
          params: StoreParams.extend({ testId: z.uuid() }),
          response: { 200: AbTestsResponse, ...errors },
        },
      },
      async (request) => {
        const { store, principal } = await authorizedStore(ctx, request, 'ab-tests:update', request.params.storeId);
        await changeTests(ctx, store, metaOf(principal, request.id), {
          type: 'StopAbTest',
          storeId: store.id,
          testId: request.params.testId,
          now: ctx.now(),
        });
        return testsView(ctx, store);
      },
    );

    app.post(
      '/api/sessions/offer',
      {
        schema: {
          tags: ['customer'],
          summary:
            "The resolution offer of a looked-up order (proved by its email): the store's, or its A/B test variant's",
          body: OfferRequest,
          response: { 200: OfferResponse, 404: ApiError },
        },
      },
      async (request) => {
        const order = await findOrderById(ctx.database.db, request.body.orderId);
        if (!order || order.customerEmail.trim().toLowerCase() !== request.body.email.toLowerCase())
          throw new AppError('order_not_found', 'No order matches.');
        const store = await findStore(ctx.database.db, order.storeId);
        if (!store) throw new AppError('order_not_found', 'No order matches.');
        const test = runningTest(await loadTests(ctx, store.id));
        if (!test || !store.settings.capabilities.credit) return { credit: store.settings.credit, test: null };
        const sessionId = sessionIdOf(order.id);
        const variant = assignVariant(test.testId, sessionId, test.variants);
        await handleCommand(ctx, {
          decider: abAssignmentsDecider,
          streamId: abAssignmentsStreamOf(sessionId),
          storeId: store.id,
          meta: customerMeta(request.id, order.id),
          command: {
            type: 'AssignAbVariant',
            storeId: store.id,
            testId: test.testId,
            sessionId,
            orderId: order.id,
            variantId: variant.id,
            now: ctx.now(),
          },
        });
        return {
          credit: { bonus: variant.creditBonus, bonusType: variant.creditBonusType },
          test: { testId: test.testId, variantId: variant.id },
        };
      },
    );
  };
