import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddReviewRequest,
  ApiError,
  CustomerClaimView,
  FileClaimRequest,
  FilingIdempotencyKey,
  FileClaimResponse,
  Message,
  Review,
  SendMessageRequest,
  type ClaimCommand,
} from '@claims/contracts';
import { claimDecider, shopperStatusHistory } from '@claims/domain';
import { storedDomainEvent } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { findFilingTarget } from '../catalog/orderRepository.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import type { LoadedClaim } from '../http/authorizedClaim.js';
import { created, messagesOf, reviewsOf } from '../http/claimEvents.js';
import { customerMeta } from '../http/requestMeta.js';
import { AppError } from '../platform/errors.js';
import { openClaimLink } from '../http/claimLinks.js';
import { fileClaim } from './fileClaim.js';
import { toCustomerClaimView } from './customerClaimView.js';
import { claimStoreCredits } from '../store-credit/index.js';
import { assertOwnAttachments, assertOwnPhotos } from '../media/index.js';

const TokenParams = z.object({ id: z.string().min(1).max(100) });
const notFound = () => new AppError('claim_not_found', 'No claim matches that link. Check the link in your email.');

/** Opens a claim by its token; a wrong or unknown token is the same 404. */
async function claimByToken(ctx: AppContext, token: string): Promise<LoadedClaim> {
  const loaded = await openClaimLink(ctx, token);
  if (!loaded) throw notFound();
  return loaded;
}

/** The shopper's own command on their claim (as its link just loaded it), stamped with the claim as its subject. */
const shopperCommand = (ctx: AppContext, loaded: LoadedClaim, correlationId: string, command: ClaimCommand) =>
  handleCommand(ctx, {
    decider: claimDecider,
    streamId: loaded.state.id,
    storeId: loaded.state.storeId,
    meta: customerMeta(correlationId, loaded.state.id),
    command,
    loaded,
  });

export const claimRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/claims/:id',
      {
        schema: {
          tags: ['customer'],
          summary: "File a claim on an order (the id is the order's sourceOrderId)",
          params: TokenParams,
          headers: z.object({ 'idempotency-key': FilingIdempotencyKey.optional() }),
          body: FileClaimRequest,
          response: { 201: FileClaimResponse, 400: ApiError, 404: ApiError, 409: ApiError, 422: ApiError },
        },
      },
      async (request, reply) => {
        const target = await findFilingTarget(ctx.database.db, request.params.id, request.body.email);
        if (!target)
          throw new AppError('order_not_found', 'We could not find an order with that number and email address.');
        const { order, store } = target;
        await assertOwnPhotos(ctx, request, request.body, order.id);
        const filed = await fileClaim(ctx, order, store, request.body, customerMeta(request.id, order.id), {
          idempotencyKey: request.headers['idempotency-key'],
        });
        request.log.info({ claimId: filed.claimId, claimNumber: filed.claimNumber }, 'claim filed');
        return reply.code(201).send(filed);
      },
    );

    app.get(
      '/api/claims/:id',
      {
        schema: {
          tags: ['customer'],
          summary: 'A claim as the shopper sees it, by its token',
          params: TokenParams,
          response: { 200: CustomerClaimView, 404: ApiError },
        },
      },
      async (request) => {
        const { state, events } = await claimByToken(ctx, request.params.id);
        const history = shopperStatusHistory(events.map((e) => ({ event: storedDomainEvent(e), at: e.occurredAt })));
        return toCustomerClaimView(state, await claimStoreCredits(ctx, state, events), history);
      },
    );

    app.get(
      '/api/claims/:id/messages',
      {
        schema: {
          tags: ['customer'],
          summary: 'Messages between shopper and store',
          params: TokenParams,
          response: { 200: z.array(Message), 404: ApiError },
        },
      },
      async (request) => {
        return messagesOf((await claimByToken(ctx, request.params.id)).events);
      },
    );

    app.post(
      '/api/claims/:id/messages',
      {
        schema: {
          tags: ['customer'],
          summary: 'Send a message to the store',
          params: TokenParams,
          body: SendMessageRequest,
          response: { 201: Message, 404: ApiError, 400: ApiError },
        },
      },
      async (request, reply) => {
        const loaded = await claimByToken(ctx, request.params.id);
        const claim = loaded.state;
        await assertOwnAttachments(ctx, request, request.body.medias, [`claim:${claim.id}`, `order:${claim.orderId}`]);
        const { decided } = await shopperCommand(ctx, loaded, request.id, {
          type: 'SendMessage',
          claimId: claim.id,
          messageId: randomUUID(),
          actor: { type: 'customer', id: claim.id },
          senderType: 'customer',
          senderName: request.body.senderName || claim.customer.name,
          messageContent: request.body.messageContent,
          medias: request.body.medias,
          now: ctx.now(),
        });
        return reply.code(201).send(created(messagesOf(decided), 'message'));
      },
    );

    app.get(
      '/api/claims/:id/reviews',
      {
        schema: {
          tags: ['customer'],
          summary: "The shopper's review of the claim",
          params: TokenParams,
          response: { 200: z.array(Review), 404: ApiError },
        },
      },
      async (request) => {
        return reviewsOf((await claimByToken(ctx, request.params.id)).events);
      },
    );

    app.post(
      '/api/claims/:id/reviews',
      {
        schema: {
          tags: ['customer'],
          summary: 'Rate how the claim was handled (1–5)',
          params: TokenParams,
          body: AddReviewRequest,
          response: { 201: Review, 404: ApiError, 422: ApiError },
        },
      },
      async (request, reply) => {
        const loaded = await claimByToken(ctx, request.params.id);
        const { decided } = await shopperCommand(ctx, loaded, request.id, {
          type: 'AddReview',
          claimId: loaded.state.id,
          reviewId: randomUUID(),
          now: ctx.now(),
          review: request.body,
        });
        return reply.code(201).send(created(reviewsOf(decided), 'review'));
      },
    );
  };
