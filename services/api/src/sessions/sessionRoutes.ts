import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, ClaimSession, UpdateSessionRequest } from '@claims/contracts';
import type { AppContext, RequestMeta } from '../context.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { executeSessionCommand, loadSession, sessionIdOf, toSessionView } from '../commands/sessionCommands.js';
import { AppError } from '../platform/errors.js';

const noSession = () => new AppError('session_not_found', 'No saved claim for this order.');

export const sessionRoutes = (ctx: AppContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/api/sessions', {
    schema: {
      tags: ['customer'], summary: 'The saved claim session of an order',
      querystring: z.object({ orderId: z.uuid() }), response: { 200: ClaimSession, 404: ApiError },
    },
  }, async (request) => {
    const { state, updatedAt } = await loadSession(ctx, sessionIdOf(request.query.orderId));
    if (!state) throw noSession();
    return toSessionView(state, updatedAt, ctx.now());
  });

  app.put('/api/sessions', {
    schema: {
      tags: ['customer'], summary: 'Save the claim session: its step status or its draft claim',
      body: UpdateSessionRequest, response: { 200: ClaimSession, 404: ApiError },
    },
  }, async (request) => {
    const body = request.body;
    const order = await findOrderById(ctx.database.db, body.orderId);
    if (!order || order.customerEmail.toLowerCase() !== body.email.toLowerCase()) throw noSession();
    const meta: RequestMeta = { actor: { type: 'customer', id: order.id }, correlationId: request.id, causationId: null };
    const session = await executeSessionCommand(ctx, {
      type: 'UpdateSession',
      sessionId: sessionIdOf(order.id),
      orderId: order.id,
      email: order.customerEmail,
      ...('status' in body ? { status: body.status } : { metadata: body.metadata }),
    }, meta, order.storeId);
    if (!session) throw noSession();
    return session;
  });

  app.delete('/api/sessions/:id', {
    schema: { tags: ['customer'], summary: 'Delete a claim session', params: z.object({ id: z.uuid() }), response: { 204: z.null(), 404: ApiError } },
  }, async (request, reply) => {
    const meta: RequestMeta = { actor: { type: 'customer', id: request.params.id }, correlationId: request.id, causationId: null };
    await executeSessionCommand(ctx, { type: 'DeleteSession', sessionId: request.params.id, reason: 'shopper' }, meta, null);
    return reply.code(204).send(null);
  });
};
