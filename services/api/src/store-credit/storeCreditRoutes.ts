import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdjustStoreCreditRequest,
  RedeemStoreCreditRequest,
  StoreCreditBalanceList,
  StoreCreditLedger,
  toDecimal,
  toMinor,
  StoreParams,
} from '@claims/contracts';
import { storeCreditDecider, type StoreCreditCommand } from '@claims/domain';
import type { FastifyRequest } from 'fastify';
import { storeCreditBalances } from '@claims/projections';
import type { AppContext } from '../context.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { authorizedStore } from '../http/authorizedStore.js';
import { metaOf } from '../http/requestMeta.js';
import { creditStreamOf, customerKeyOf, storeCreditLedger } from './storeCreditLedger.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404, 409);

type CreditScope = Pick<StoreCreditCommand, 'storeId' | 'customerEmail' | 'customerKey' | 'currency' | 'now'>;

/** Store credit, per customer and store: balances, each customer's ledger, redemptions and adjustments (docs/product.md#claim-records). */
export const storeCreditRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/stores/:storeId/store-credit',
      {
        config: { auth: 'user', permission: 'store-credit:read' },
        schema: {
          tags: ['back-office'],
          summary: "The store's customers with store credit",
          params: StoreParams,
          response: { 200: StoreCreditBalanceList, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'store-credit:read', request.params.storeId);
        return {
          data: (await storeCreditBalances(ctx.database.db, store.id)).map((b) => ({
            ...b,
            balance: toDecimal(b.balance, b.currency),
            issued: toDecimal(b.issued, b.currency),
          })),
        };
      },
    );

    app.get(
      '/api/admin/stores/:storeId/store-credit/ledger',
      {
        config: { auth: 'user', permission: 'store-credit:read' },
        schema: {
          tags: ['back-office'],
          summary: "One customer's store credit, entry by entry",
          params: StoreParams,
          querystring: z.object({ email: z.email().max(320) }),
          response: { 200: StoreCreditLedger, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'store-credit:read', request.params.storeId);
        return storeCreditLedger(ctx, store.id, request.query.email, store.currency);
      },
    );

    /** Redeems or adjusts one customer's credit (store-credit:update); the answer is their ledger after it. */
    async function changeCredit(
      request: FastifyRequest,
      storeId: string,
      email: string,
      expectedVersion: number | undefined,
      build: (scope: CreditScope, currency: string) => StoreCreditCommand,
    ) {
      const { store, principal } = await authorizedStore(ctx, request, 'store-credit:update', storeId);
      const scope = {
        storeId: store.id,
        customerEmail: email,
        customerKey: customerKeyOf(email),
        currency: store.currency,
        now: ctx.now(),
      };
      await handleCommand(ctx, {
        decider: storeCreditDecider,
        streamId: creditStreamOf(store.id, email),
        storeId: store.id,
        meta: metaOf(principal, request.id),
        command: build(scope, store.currency),
        expectedVersion,
      });
      return storeCreditLedger(ctx, store.id, email, store.currency);
    }

    app.post(
      '/api/admin/stores/:storeId/store-credit/redeem',
      {
        config: { auth: 'user', permission: 'store-credit:update' },
        schema: {
          tags: ['back-office'],
          summary: 'Redeem store credit (never beyond the balance)',
          params: StoreParams,
          body: RedeemStoreCreditRequest,
          response: { 200: StoreCreditLedger, ...errors },
        },
      },
      async (request) => {
        const { email, amount, reference, expectedVersion } = request.body;
        return changeCredit(request, request.params.storeId, email, expectedVersion, (scope, currency) => ({
          ...scope,
          type: 'RedeemStoreCredit',
          amount: toMinor(amount, currency),
          reference,
        }));
      },
    );

    app.post(
      '/api/admin/stores/:storeId/store-credit/adjust',
      {
        config: { auth: 'user', permission: 'store-credit:update' },
        schema: {
          tags: ['back-office'],
          summary: 'Adjust store credit up or down (never below zero), with a reason',
          params: StoreParams,
          body: AdjustStoreCreditRequest,
          response: { 200: StoreCreditLedger, ...errors },
        },
      },
      async (request) => {
        const { email, amount, reason, expectedVersion } = request.body;
        return changeCredit(request, request.params.storeId, email, expectedVersion, (scope, currency) => ({
          ...scope,
          type: 'AdjustStoreCredit',
          amount: toMinor(amount, currency),
          reason,
        }));
      },
    );
  };
