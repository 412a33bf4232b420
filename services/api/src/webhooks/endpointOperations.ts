import type { FastifyBaseLogger } from 'fastify';
import type {
  CreateWebhookEndpointRequest,
  CreateWebhookEndpointResponse,
  ReplayWebhookRangeRequest,
  ReplayWebhookRangeResponse,
  WebhookDeliveryAttemptPage,
  WebhookDeliveryAttemptQuery,
  WebhookEndpoint,
  WebhookEndpointStatus,
  WebhookReplayResponse,
  WebhookTestResponse,
} from '@claims/contracts';
import { enqueueTestDelivery, listDeliveryAttempts, replayDeliveriesBetween, replayDelivery } from './deliveryQueue.js';
import type { AppContext } from '../context.js';
import type { Config } from '../config.js';
import { AppError } from '../platform/errors.js';
import { hitWindow, retryAfterSeconds } from '../platform/rateWindows.js';
import { refusalOf } from './addressPolicy.js';
import { createEndpoint, deleteEndpoint, findEndpoint, rotateSecret, setEndpointStatus } from './endpointRepository.js';

/**
 * What can be done to a store's webhook endpoints, the same through the public API v1 (a token's store)
 * and the back-office (a signed-in user's chosen store): the routes only authenticate and authorise. Each change
 * is logged on the request's logger (`log`), so the line carries the request's id.
 * Another store's endpoint is as unknown as a made-up id (404).
 */

const endpointNotFound = () => new AppError('not_found', 'No webhook endpoint of this store matches that reference.');

export async function endpointOf(ctx: AppContext, storeId: string, endpointId: string): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(ctx.database.db, storeId, endpointId);
  if (!endpoint) throw endpointNotFound();
  return endpoint;
}

/** Registers an endpoint after checking its address (422 for a private one); the secret is in this answer only. */
export async function registerEndpoint(
  ctx: AppContext,
  storeId: string,
  body: CreateWebhookEndpointRequest,
  tokenId: string | null,
  log: FastifyBaseLogger,
): Promise<CreateWebhookEndpointResponse> {
  const refusal = await refusalOf(body.url, ctx.config.webhookAllowPrivateUrls);
  if (refusal) throw new AppError('webhook_url_not_allowed', refusal);
  const { endpoint, secret } = await createEndpoint(ctx, {
    storeId,
    url: body.url,
    eventTypes: body.eventTypes ?? null,
    description: body.description ?? null,
    tokenId,
  });
  log.info({ endpointId: endpoint.id, storeId }, 'webhook endpoint created');
  return { ...endpoint, secret };
}

/** Pauses or resumes deliveries; `reason` is what the endpoint shows while paused. */
export async function changeEndpointStatus(
  ctx: AppContext,
  storeId: string,
  endpointId: string,
  status: WebhookEndpointStatus,
  reason: string,
  log: FastifyBaseLogger,
): Promise<WebhookEndpoint> {
  const endpoint = await setEndpointStatus(ctx, storeId, endpointId, status, reason);
  if (!endpoint) throw endpointNotFound();
  log.info({ endpointId: endpoint.id, status: endpoint.status }, 'webhook endpoint status set');
  return endpoint;
}

export async function rotateEndpointSecret(
  ctx: AppContext,
  storeId: string,
  endpointId: string,
  overlapSeconds: number,
  log: FastifyBaseLogger,
) {
  const rotated = await rotateSecret(ctx, storeId, endpointId, overlapSeconds);
  if (!rotated) throw endpointNotFound();
  log.info({ endpointId }, 'webhook secret rotated');
  return rotated;
}

export async function removeEndpoint(
  ctx: AppContext,
  storeId: string,
  endpointId: string,
  log: FastifyBaseLogger,
): Promise<void> {
  if (!(await deleteEndpoint(ctx, storeId, endpointId))) throw endpointNotFound();
  log.info({ endpointId }, 'webhook endpoint deleted');
}

/** Every attempt to the endpoint, newest first, with where each delivery stands now. */
export async function endpointAttempts(
  ctx: AppContext,
  storeId: string,
  endpointId: string,
  query: WebhookDeliveryAttemptQuery,
): Promise<WebhookDeliveryAttemptPage> {
  const endpoint = await endpointOf(ctx, storeId, endpointId);
  return listDeliveryAttempts(ctx.database.db, endpoint.id, query);
}

const SENDS = {
  test: (l: Config['webhookSendLimits']) => ({ max: l.testsPerMinute, windowSeconds: 60, what: 'test deliveries' }),
  replay: (l: Config['webhookSendLimits']) => ({ max: l.replaysPerMinute, windowSeconds: 60, what: 'replays' }),
  rangeReplay: (l: Config['webhookSendLimits']) => ({
    max: l.rangeReplaysPerHour,
    windowSeconds: 3_600,
    what: 'range replays',
  }),
};

/**
 * Sends on request are counted per endpoint, in PostgreSQL (every process counts together), after the endpoint is
 * known to be the store's (another store's is 404, not 429): a loop of them must not flood the receiver.
 */
async function countSend(ctx: AppContext, endpointId: string, kind: keyof typeof SENDS): Promise<void> {
  const limit = SENDS[kind](ctx.config.webhookSendLimits);
  const now = ctx.now();
  const { hits, windowEndsAt } = await hitWindow(
    ctx.database.db,
    `webhook-${kind}:${endpointId}`,
    limit.windowSeconds * 1000,
    now,
  );
  if (hits > limit.max) {
    throw new AppError(
      'rate_limited',
      `This endpoint has had its ${limit.max} ${limit.what} of this window; try again after ${windowEndsAt}.`,
      undefined,
      { 'retry-after': String(retryAfterSeconds(windowEndsAt, now)) },
    );
  }
}

export async function replayOne(
  ctx: AppContext,
  storeId: string,
  endpointId: string,
  deliveryId: string,
  log: FastifyBaseLogger,
): Promise<WebhookReplayResponse> {
  const endpoint = await endpointOf(ctx, storeId, endpointId);
  await countSend(ctx, endpoint.id, 'replay');
  const replayed = await replayDelivery(ctx.database.db, endpoint.id, deliveryId, ctx.now());
  if (!replayed) throw new AppError('not_found', 'No delivery of this endpoint matches that reference.');
  log.info({ endpointId, deliveryId: replayed.deliveryId }, 'webhook delivery replayed');
  return replayed;
}

export async function replayRange(
  ctx: AppContext,
  storeId: string,
  endpointId: string,
  range: ReplayWebhookRangeRequest,
  log: FastifyBaseLogger,
): Promise<ReplayWebhookRangeResponse> {
  const endpoint = await endpointOf(ctx, storeId, endpointId);
  await countSend(ctx, endpoint.id, 'rangeReplay');
  const replayed = await replayDeliveriesBetween(ctx.database.db, endpoint.id, range.from, range.to, ctx.now());
  log.info({ endpointId, replayed }, 'webhook deliveries replayed');
  return { replayed };
}

/** A `webhook.test` delivery, sent like any other (also to a paused endpoint once it is resumed). */
export async function sendTestDelivery(
  ctx: AppContext,
  storeId: string,
  endpointId: string,
  log: FastifyBaseLogger,
): Promise<WebhookTestResponse> {
  const endpoint = await endpointOf(ctx, storeId, endpointId);
  await countSend(ctx, endpoint.id, 'test');
  const sent = await enqueueTestDelivery(ctx.database.db, endpoint, ctx.now());
  log.info({ endpointId, deliveryId: sent.deliveryId }, 'webhook test delivery queued');
  return sent;
}
