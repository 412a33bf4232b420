import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, ClaimSession, UpdateSessionRequest, type Order } from '@claims/contracts';
import { sessionDecider } from '@claims/domain';
import type { AppContext } from '../context.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { customerMeta } from '../http/requestMeta.js';
import { AppError } from '../platform/errors.js';
import { loadSession, sessionIdOf, toSessionView } from './draftSessions.js';

const noSession = () => new AppError('session_not_found', 'No saved claim for this order.');
const sameEmail = (a: string, b: string | undefined) =>
  b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
/** Optional in the schema so that a missing email is the contract's 404, like a wrong one. */
const Email = z.string().trim().min(1).max(320).optional();

/** The order, when the caller proved its email; a wrong email and an unknown order are the same 404. */
async function provenOrder(ctx: AppContext, orderId: string, email: string | undefined): Promise<Order> {
  const order = await findOrderById(ctx.database.db, orderId);
  if (!order || !sameEmail(order.customerEmail, email)) throw noSession();
  return order;
}

/**
 * A shopper's draft claim (docs/product.md#draft-claim): it holds their email, address and drawn signature, so every
 * read, save and delete proves the order's email (contract: the `email` query parameter on GET and DELETE).
 */
export const sessionRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/sessions',
      {
        schema: {
          tags: ['customer'],
          summary: "The saved claim session of an order (proved by the order's email)",
          querystring: z.object({ orderId: z.uuid(), email: Email }),
          response: { 200: ClaimSession, 404: ApiError },
        },
      },
      async (request) => {
        const order = await provenOrder(ctx, request.query.orderId, request.query.email);
        const session = toSessionView(await loadSession(ctx, sessionIdOf(order.id)), ctx.now());
        if (!session) throw noSession();
        return session;
      },
    );

    app.put(
      '/api/sessions',
      {
        schema: {
          tags: ['customer'],
          summary: 'Save the claim session: its step status or its draft claim',
          body: UpdateSessionRequest,
          response: { 200: ClaimSession, 404: ApiError },
        },
      },
      async (request) => {
        const body = request.body;
        const order = await provenOrder(ctx, body.orderId, body.email);
        const sessionId = sessionIdOf(order.id);
        const handled = await handleCommand(ctx, {
          decider: sessionDecider,
          streamId: sessionId,
          storeId: order.storeId,
          meta: customerMeta(request.id, order.id),
          command: {
            type: 'UpdateSession',
            sessionId,
            orderId: order.id,
            email: order.customerEmail,
            ...('status' in body ? { status: body.status } : { metadata: body.metadata }),
          },
        });
        const session = toSessionView(handled, ctx.now());
        if (!session) throw noSession();
        return session;
      },
    );

    app.delete(
      '/api/sessions/:id',
      {
        schema: {
          tags: ['customer'],
          summary: "Delete a claim session (proved by the order's email)",
          params: z.object({ id: z.uuid() }),
          querystring: z.object({ email: Email }),
          response: { 204: z.null(), 404: ApiError },
        },
      },
      async (request, reply) => {
        const loaded = await loadSession(ctx, request.params.id);
        if (!loaded.state || !sameEmail(loaded.state.email, request.query.email)) throw noSession();
        await handleCommand(ctx, {
          decider: sessionDecider,
          streamId: request.params.id,
          storeId: null,
          meta: customerMeta(request.id, loaded.state.orderId),
          command: { type: 'DeleteSession', sessionId: request.params.id, reason: 'shopper' },
        });
        return reply.code(204).send(null);
      },
    );
  };
