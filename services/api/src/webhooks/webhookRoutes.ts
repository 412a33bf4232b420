import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  ApiError,
  CreateWebhookEndpointRequest,
  CreateWebhookEndpointResponse,
  ReplayWebhookRangeRequest,
  ReplayWebhookRangeResponse,
  WebhookDeliveryAttemptPage,
  WebhookDeliveryAttemptQuery,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookReplayResponse,
  WebhookTestResponse,
  RotateWebhookSecretRequest,
  RotateWebhookSecretResponse,
  UpdateWebhookEndpointRequest,
  type Permission,
} from '@claims/contracts';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { installIdempotency } from '../http/idempotency.js';
import { listEndpoints } from './endpointRepository.js';
import {
  changeEndpointStatus,
  endpointAttempts,
  endpointOf,
  registerEndpoint,
  removeEndpoint,
  replayOne,
  replayRange,
  rotateEndpointSecret,
  sendTestDelivery,
} from './endpointOperations.js';
import { errorResponses } from '../http/errorResponses.js';

const EndpointParams = z.object({ endpointId: z.string().min(1).max(100) });
const DeliveryParams = EndpointParams.extend({ deliveryId: z.string().min(1).max(100) });
const IdempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(255).optional() });
const errors = errorResponses(400, 401, 403, 404);
const tags = ['webhooks'];
const security = [{ bearer: [] }];
/** A change to one endpoint: the endpoint in the path, and an Idempotency-Key so that sending it again is safe. */
const endpointChange = { tags, security, params: EndpointParams, headers: IdempotencyHeaders };

/** The bearer token's store, once the token holds `permission` on it. */
function tokenStore(request: FastifyRequest, permission: Permission): { storeId: string; tokenId: string } {
  const principal = request.requirePrincipal();
  if (principal.kind !== 'token') throw new AppError('unauthenticated', 'Send an API token.');
  request.authorize(permission, principal.token.storeId);
  return { storeId: principal.token.storeId, tokenId: principal.token.id };
}

/**
 * Contract §Webhooks through the public API v1: a store's endpoints, every attempt made to them
 * and replays. Deliveries themselves are made by the delivery worker from the webhook outbox.
 */
export const webhookRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    installIdempotency(ctx, app);

    app.post(
      '/api/v1/webhook-endpoints',
      {
        config: { auth: 'token', permission: 'webhook:create' },
        schema: {
          tags,
          security,
          headers: IdempotencyHeaders,
          body: CreateWebhookEndpointRequest,
          summary: 'Register a webhook endpoint (webhook:create); the signing secret is in this answer only',
          description:
            "Events of the token's store whose type is in `eventTypes` (all when omitted) are POSTed to `url` following " +
            'Standard Webhooks: headers `webhook-id` (the same on every retry), `webhook-timestamp` (unix seconds) and ' +
            '`webhook-signature` = `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the ' +
            'base64-decoded part of the secret after `whsec_`; body `{type, timestamp, data}`. A failed delivery (non-2xx, ' +
            'no answer within 10 s, refused connection) is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h ' +
            'and then every 8 h until 24 h have passed. Hosts resolving to loopback, private or link-local addresses answer 422.',
          response: { 201: CreateWebhookEndpointResponse, ...errors, 422: ApiError },
        },
      },
      async (request, reply) => {
        const { storeId, tokenId } = tokenStore(request, 'webhook:create');
        const created = await registerEndpoint(ctx, storeId, request.body, tokenId, request.log);
        return reply.code(201).header('cache-control', 'no-store').send(created);
      },
    );

    app.get(
      '/api/v1/webhook-endpoints',
      {
        config: { auth: 'token', permission: 'webhook:read' },
        schema: {
          tags,
          security,
          summary: "The store's webhook endpoints (webhook:read), never their secrets",
          response: { 200: WebhookEndpointList, ...errors },
        },
      },
      async (request) => {
        const { storeId } = tokenStore(request, 'webhook:read');
        return { data: await listEndpoints(ctx.database.db, storeId) };
      },
    );

    app.get(
      '/api/v1/webhook-endpoints/:endpointId',
      {
        config: { auth: 'token', permission: 'webhook:read' },
        schema: {
          tags,
          security,
          summary: 'One webhook endpoint (webhook:read)',
          params: EndpointParams,
          response: { 200: WebhookEndpoint, ...errors },
        },
      },
      async (request) => {
        const { storeId } = tokenStore(request, 'webhook:read');
        return endpointOf(ctx, storeId, request.params.endpointId);
      },
    );

    app.patch(
      '/api/v1/webhook-endpoints/:endpointId',
      {
        config: { auth: 'token', permission: 'webhook:update' },
        schema: {
          ...endpointChange,
          body: UpdateWebhookEndpointRequest,
          response: { 200: WebhookEndpoint, ...errors },
          summary:
            "Turn an endpoint's deliveries on or off (webhook:update); what it was owed while off is sent once it is on",
        },
      },
      async (request) => {
        const { storeId } = tokenStore(request, 'webhook:update');
        const endpoint = await changeEndpointStatus(
          ctx,
          storeId,
          request.params.endpointId,
          request.body.status,
          'Turned off through the API.',
          request.log,
        );
        return endpoint;
      },
    );

    app.post(
      '/api/v1/webhook-endpoints/:endpointId/rotate-secret',
      {
        config: { auth: 'token', permission: 'webhook:update' },
        schema: {
          ...endpointChange,
          body: RotateWebhookSecretRequest,
          response: { 200: RotateWebhookSecretResponse, ...errors },
          summary:
            'A new signing secret (webhook:update), in this answer only; until the old one expires (24 h, or overlapSeconds) every delivery carries both signatures, new first',
        },
      },
      async (request, reply) => {
        const { storeId } = tokenStore(request, 'webhook:update');
        const rotated = await rotateEndpointSecret(
          ctx,
          storeId,
          request.params.endpointId,
          request.body.overlapSeconds,
          request.log,
        );
        return reply.header('cache-control', 'no-store').send(rotated);
      },
    );

    app.delete(
      '/api/v1/webhook-endpoints/:endpointId',
      {
        config: { auth: 'token', permission: 'webhook:delete' },
        schema: {
          ...endpointChange,
          response: { 204: z.null(), ...errors },
          summary:
            'Delete a webhook endpoint (webhook:delete): nothing more is sent to it; pending retries are cancelled',
        },
      },
      async (request, reply) => {
        const { storeId } = tokenStore(request, 'webhook:delete');
        await removeEndpoint(ctx, storeId, request.params.endpointId, request.log);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/v1/webhook-endpoints/:endpointId/deliveries',
      {
        config: { auth: 'token', permission: 'webhook:read' },
        schema: {
          tags,
          security,
          params: EndpointParams,
          querystring: WebhookDeliveryAttemptQuery,
          response: { 200: WebhookDeliveryAttemptPage, ...errors },
          summary:
            'Every delivery attempt to the endpoint (webhook:read), newest first: status code, error, time, attempt number, webhook-id',
        },
      },
      async (request) => {
        const { storeId } = tokenStore(request, 'webhook:read');
        return endpointAttempts(ctx, storeId, request.params.endpointId, request.query);
      },
    );

    app.post(
      '/api/v1/webhook-endpoints/:endpointId/deliveries/:deliveryId/replay',
      {
        config: { auth: 'token', permission: 'webhook:update' },
        schema: {
          ...endpointChange,
          params: DeliveryParams,
          response: { 202: WebhookReplayResponse, ...errors, 429: ApiError },
          summary:
            'Replay a delivery (webhook:update): sent again at once with the same webhook-id, retried on failure like a new one',
        },
      },
      async (request, reply) => {
        const { storeId } = tokenStore(request, 'webhook:update');
        const replayed = await replayOne(
          ctx,
          storeId,
          request.params.endpointId,
          request.params.deliveryId,
          request.log,
        );
        return reply.code(202).send(replayed);
      },
    );

    app.post(
      '/api/v1/webhook-endpoints/:endpointId/replays',
      {
        config: { auth: 'token', permission: 'webhook:update' },
        schema: {
          ...endpointChange,
          body: ReplayWebhookRangeRequest,
          response: { 202: ReplayWebhookRangeResponse, ...errors, 429: ApiError },
          summary:
            'Replay every delivery of an event that occurred in [from, to) (webhook:update), succeeded ones too, each with its own webhook-id',
        },
      },
      async (request, reply) => {
        const { storeId } = tokenStore(request, 'webhook:update');
        const replayed = await replayRange(ctx, storeId, request.params.endpointId, request.body, request.log);
        return reply.code(202).send(replayed);
      },
    );

    app.post(
      '/api/v1/webhook-endpoints/:endpointId/test',
      {
        config: { auth: 'token', permission: 'webhook:update' },
        schema: {
          ...endpointChange,
          response: { 202: WebhookTestResponse, ...errors, 429: ApiError },
          summary:
            'Send a test delivery (webhook:update): type webhook.test, signed and retried like any delivery, listed among the attempts',
        },
      },
      async (request, reply) => {
        const { storeId } = tokenStore(request, 'webhook:update');
        const sent = await sendTestDelivery(ctx, storeId, request.params.endpointId, request.log);
        return reply.code(202).send(sent);
      },
    );
  };
