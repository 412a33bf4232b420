import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiError,
  CLAIM_LINK_RECOVERY_ANSWER,
  ClaimLinkRecoveryRequest,
  ClaimLinkRecoveryResponse,
  orderNotificationsStreamOf,
} from '@claims/contracts';
import { claimLinksRequestDecider } from '@claims/domain';
import type { AppContext } from '../context.js';
import { findOrderByNumberAndEmail } from '../catalog/orderRepository.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { customerMeta } from '../http/requestMeta.js';

/**
 * A shopper who lost their claim links asks for them with the order number and email: when both match an order, a
 * request is recorded and the `send-claim-links` reaction mails the links to the order's email after this request.
 * The answer is the same 202 whether anything matched or not, so it tells nobody whether an order or email exists;
 * it is rate-limited like the order lookup.
 */
export const claimLinkRecoveryRoute =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/claim-links',
      {
        schema: {
          tags: ['customer'],
          summary:
            "Mail the links to an order's claims to the order's email (the same answer whether or not anything matched)",
          body: ClaimLinkRecoveryRequest,
          response: { 202: ClaimLinkRecoveryResponse, 400: ApiError, 429: ApiError },
        },
      },
      async (request, reply) => {
        const order = await findOrderByNumberAndEmail(ctx.database.db, request.body.order, request.body.email);
        if (order) {
          await handleCommand(ctx, {
            decider: claimLinksRequestDecider,
            streamId: orderNotificationsStreamOf(order.id),
            storeId: order.storeId,
            meta: customerMeta(request.id, order.id),
            command: {
              type: 'RequestClaimLinks',
              scope: { orderId: order.id, storeId: order.storeId, requestId: randomUUID() },
              now: ctx.now(),
            },
          });
        }
        return reply.code(202).send({ message: CLAIM_LINK_RECOVERY_ANSWER });
      },
    );
  };
