import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PaymentMethodsView, SetPaymentMethodRequest, StoreParams } from '@claims/contracts';
import { paymentMethodRows } from '@claims/projections';
import type { AppContext } from '../context.js';
import { actorOf, permissionsAt } from '../http/principal.js';
import { findStore } from '../catalog/storeRepository.js';
import { authorizedStore, storeNotFound } from '../http/authorizedStore.js';
import { AppError } from '../platform/errors.js';
import { handleBillingCommand } from './storeBillingCommands.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404, 409);

/**
 * How a store pays Order Protection (its billing method: `billing-method` and `payment-method`, the card or
 * account charged) and how it is paid (its payout method: `payout-method`). Only a kind, a brand, bank or
 * provider, and the last four digits or a provider's reference are kept; a full number is refused.
 */
export const paymentMethodRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/finance/stores/:storeId/payment-methods',
      {
        config: {
          auth: 'user',
          permission: { anyOf: ['billing-method:read', 'payment-method:read', 'payout-method:read'] },
        },
        schema: {
          tags: ['finance'],
          summary: "A store's billing and payout methods (each as far as the caller may read it)",
          params: StoreParams,
          response: { 200: PaymentMethodsView, ...errors },
        },
      },
      async (request) => {
        const principal = request.requirePrincipal();
        const store = await findStore(ctx.database.db, request.params.storeId);
        const held = store && permissionsAt(principal, store.id);
        if (!store || !held) throw storeNotFound();
        const billing = held.has('billing-method:read') || held.has('payment-method:read');
        const payout = held.has('payout-method:read');
        if (!billing && !payout)
          throw new AppError(
            'forbidden',
            'You need the billing-method:read or payout-method:read permission for this.',
          );
        const rows = await paymentMethodRows(ctx.database.db, store.id);
        return {
          storeId: store.id,
          ...(billing ? { billing: rows.billing } : {}),
          ...(payout ? { payout: rows.payout } : {}),
        };
      },
    );

    for (const purpose of ['billing', 'payout'] as const) {
      app.put(
        `/api/finance/stores/:storeId/${purpose}-method`,
        {
          config: {
            auth: 'user',
            permission: purpose === 'billing' ? 'billing-method:update' : 'payout-method:update',
          },
          schema: {
            tags: ['finance'],
            summary:
              purpose === 'billing'
                ? 'Set how the store pays Order Protection'
                : 'Set how Order Protection pays the store',
            params: StoreParams,
            body: SetPaymentMethodRequest,
            response: { 200: SetPaymentMethodRequest, ...errors },
          },
        },
        async (request) => {
          const { store, principal } = await authorizedStore(
            ctx,
            request,
            purpose === 'billing' ? 'billing-method:update' : 'payout-method:update',
            request.params.storeId,
          );
          if (purpose === 'billing') request.authorize('payment-method:update', store.id, storeNotFound);
          const handled = await handleBillingCommand(
            ctx,
            store.id,
            { principal, requestId: request.id },
            {
              type: purpose === 'billing' ? 'SetBillingMethod' : 'SetPayoutMethod',
              storeId: store.id,
              method: request.body.method,
              actorId: actorOf(principal).id,
              now: ctx.now(),
            },
          );
          const method = purpose === 'billing' ? handled.state.billingMethod : handled.state.payoutMethod;
          if (!method) throw new AppError('internal_error', 'The method was not recorded.');
          return { method };
        },
      );
    }
  };
