import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, CustomerOrder } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { findOrderByNumberAndEmail } from '../catalog/orderRepository.js';
import { findStore } from '../catalog/storeRepository.js';
import { orderClaimsDecider } from '@claims/domain';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { AppError } from '../platform/errors.js';
import { toCustomerOrder } from './customerOrder.js';
import { loadSession, sessionIdOf } from './draftSessions.js';

export const orderLookupRoute =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/order-lookup',
      {
        schema: {
          tags: ['customer'],
          summary: 'Find an order by its number and the customer email',
          querystring: z.object({ email: z.string().trim().min(1).max(320), order: z.string().trim().min(1).max(64) }),
          response: { 200: CustomerOrder, 404: ApiError },
        },
      },
      async (request) => {
        const order = await findOrderByNumberAndEmail(ctx.database.db, request.query.order, request.query.email);
        const store = order && (await findStore(ctx.database.db, order.storeId));
        if (!order || !store)
          throw new AppError('order_not_found', 'We could not find an order with that number and email address.');
        const [ledger, draft] = await Promise.all([
          loadAggregate(ctx, orderClaimsDecider, order.id),
          loadSession(ctx, sessionIdOf(order.id)),
        ]);
        return toCustomerOrder(order, store, ledger.state, ctx.now(), draft.state !== null);
      },
    );
  };
