import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddReviewRequest, ApiError, CustomerClaimView, FileClaimRequest, FileClaimResponse, Message, Review, SendMessageRequest,
  type Claim,
} from '@claims/contracts';
import type { AppContext, RequestMeta } from '../context.js';
import { findOrderBySourceIdAndEmail } from '../catalog/orderRepository.js';
import { findStore } from '../catalog/storeRepository.js';
import { claimIdOfToken, tokenMatches } from '../commands/claimToken.js';
import { loadClaim } from '../commands/claimStream.js';
import { executeClaimCommand } from '../commands/executeClaimCommand.js';
import { fileClaim } from '../commands/fileClaim.js';
import { AppError } from '../platform/errors.js';
import { toCustomerClaimView } from './customerClaimView.js';

const TokenParams = z.object({ id: z.string().min(1).max(100) });
const notFound = () => new AppError('claim_not_found', 'No claim matches that link. Check the link in your email.');

/** Opens a claim by its token; a wrong or unknown token is the same 404. */
async function claimByToken(ctx: AppContext, token: string) {
  const claimId = claimIdOfToken(token);
  if (!claimId) throw notFound();
  const loaded = await loadClaim(ctx, claimId);
  if (!loaded.claim || !tokenMatches(token, loaded.claim.tokenHash)) throw notFound();
  return loaded as { claim: Claim; version: number; events: typeof loaded.events };
}

const customerMeta = (correlationId: string, subject: string): RequestMeta => ({
  actor: { type: 'customer', id: subject }, correlationId, causationId: null,
});

export const claimRoutes = (ctx: AppContext): FastifyPluginAsyncZod => async (app) => {
  app.post('/api/claims/:id', {
    schema: {
      tags: ['customer'],
      summary: 'File a claim on an order (the id is the order\'s sourceOrderId)',
      params: TokenParams,
      body: FileClaimRequest,
      response: { 201: FileClaimResponse, 404: ApiError, 409: ApiError, 422: ApiError },
    },
  }, async (request, reply) => {
    const order = await findOrderBySourceIdAndEmail(ctx.database.db, request.params.id, request.body.email);
    const store = order && (await findStore(ctx.database.db, order.storeId));
    if (!order || !store) throw new AppError('order_not_found', 'We could not find an order with that number and email address.');
    const filed = await fileClaim(ctx, order, store, request.body, customerMeta(request.id, order.id));
    request.log.info({ claimId: filed.claimId, claimNumber: filed.claimNumber }, 'claim filed');
    return reply.code(201).send(filed);
  });

  app.get('/api/claims/:id', {
    schema: { tags: ['customer'], summary: 'A claim as the shopper sees it, by its token', params: TokenParams, response: { 200: CustomerClaimView, 404: ApiError } },
  }, async (request) => toCustomerClaimView((await claimByToken(ctx, request.params.id)).claim));

  app.get('/api/claims/:id/messages', {
    schema: { tags: ['customer'], summary: 'Messages between shopper and store', params: TokenParams, response: { 200: z.array(Message), 404: ApiError } },
  }, async (request) => {
    const { events } = await claimByToken(ctx, request.params.id);
    return events.filter((e) => e.type === 'ClaimMessageSent').map((e) => Message.parse(e.data));
  });

  app.post('/api/claims/:id/messages', {
    schema: {
      tags: ['customer'], summary: 'Send a message to the store', params: TokenParams, body: SendMessageRequest,
      response: { 201: Message, 404: ApiError, 400: ApiError },
    },
  }, async (request, reply) => {
    const { claim } = await claimByToken(ctx, request.params.id);
    const messageId = randomUUID();
    const result = await executeClaimCommand(ctx, {
      type: 'SendMessage', claimId: claim.id, messageId, actor: { type: 'customer', id: claim.id },
      senderType: 'customer', senderName: request.body.senderName || claim.customer.name,
      messageContent: request.body.messageContent, medias: request.body.medias, now: ctx.now(),
    }, customerMeta(request.id, claim.id));
    const { events } = await loadClaim(ctx, result.claim.id);
    const sent = events.find((e) => e.type === 'ClaimMessageSent' && (e.data as { id: string }).id === messageId);
    return reply.code(201).send(Message.parse(sent?.data));
  });

  app.get('/api/claims/:id/reviews', {
    schema: { tags: ['customer'], summary: 'The shopper\'s review of the claim', params: TokenParams, response: { 200: z.array(Review), 404: ApiError } },
  }, async (request) => {
    const { events } = await claimByToken(ctx, request.params.id);
    return events.filter((e) => e.type === 'ClaimReviewed').map((e) => Review.parse(e.data));
  });

  app.post('/api/claims/:id/reviews', {
    schema: {
      tags: ['customer'], summary: 'Rate how the claim was handled (1–5)', params: TokenParams, body: AddReviewRequest,
      response: { 201: Review, 404: ApiError, 422: ApiError },
    },
  }, async (request, reply) => {
    const { claim } = await claimByToken(ctx, request.params.id);
    const reviewId = randomUUID();
    await executeClaimCommand(ctx, { type: 'AddReview', claimId: claim.id, reviewId, now: ctx.now(), review: request.body }, customerMeta(request.id, claim.id));
    const { events } = await loadClaim(ctx, claim.id);
    return reply.code(201).send(Review.parse(events.find((e) => e.type === 'ClaimReviewed')?.data));
  });
};
