import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ParkedDeliveryOutcome, ParkedDeliveryParams } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { authorizeGlobal } from '../http/authorizedStore.js';
import { AppError } from '../platform/errors.js';
import { resolveParkedDelivery } from './deliveryQueue.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(401, 403, 404);

/**
 * The operations page's decisions on a parked webhook delivery (a delivery whose processing kept failing inside the
 * product), for Order Protection's admin (`admin-stores:update`). As a parked reaction event's, its row keeps the decision.
 */
export const parkedDeliveryRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    for (const action of ['retry', 'skip'] as const) {
      app.post(
        `/api/admin/operations/webhook-deliveries/:deliveryId/${action}`,
        {
          config: { auth: 'user', permission: 'admin-stores:update' },
          schema: {
            tags: ['operations'],
            summary:
              action === 'retry'
                ? 'Makes a parked webhook delivery due now, with the same webhook-id; a failure then is handled as any other'
                : 'Gives a parked webhook delivery up: it is cancelled, never sent',
            params: ParkedDeliveryParams,
            response: { 200: ParkedDeliveryOutcome, ...errors },
          },
        },
        async (request) => {
          const principal = authorizeGlobal(request, 'admin-stores:update');
          const { deliveryId } = request.params;
          const by = principal.kind === 'user' ? principal.user.id : principal.token.id;
          const outcome = action === 'retry' ? ('retried' as const) : ('skipped' as const);
          if (!(await resolveParkedDelivery(ctx.database.db, deliveryId, outcome, by, ctx.now()))) {
            throw new AppError('not_found', 'That webhook delivery is not parked (or was already retried or skipped).');
          }
          ctx.log.warn({ deliveryId, by, outcome }, 'parked webhook delivery decided by an operator');
          return { deliveryId, outcome };
        },
      );
    }
  };
