import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApiError,
  CreateWebhookEndpointRequest,
  CreateWebhookEndpointResponse,
  ReplayWebhookRangeRequest,
  ReplayWebhookRangeResponse,
  RotateWebhookSecretRequest,
  RotateWebhookSecretResponse,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryAttemptPage,
  WebhookDeliveryAttemptQuery,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookReplayResponse,
  WebhookTestResponse,
  StoreParams,
} from '@claims/contracts';
import type { AppContext } from '../context.js';
import { authorizedStore } from '../http/authorizedStore.js';
import type { Principal } from '../http/principal.js';
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

const EndpointParams = StoreParams.extend({ endpointId: z.string().min(1).max(100) });
const DeliveryParams = EndpointParams.extend({ deliveryId: z.string().min(1).max(100) });
const errors = errorResponses(400, 401, 403, 404);
const tags = ['back-office'];
const base = '/api/admin/stores/:storeId/webhook-endpoints';

const pausedBy = (principal: Principal) =>
  `Paused in the back-office by ${principal.kind === 'user' ? principal.user.name : principal.token.name}; resume it to receive what it is owed.`;

/**
 * The back-office's webhooks page (signed-in users holding `webhook:*` on the store): the same
 * operations as the public API v1's, on the store named in the path; another tenant's store or
 * endpoint is a 404.
 */
export const webhookAdminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      base,
      {
        config: { auth: 'user', permission: 'webhook:read' },
        schema: {
          tags,
          summary: "The store's webhook endpoints, never their secrets",
          params: StoreParams,
          response: { 200: WebhookEndpointList, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:read', request.params.storeId);
        return { data: await listEndpoints(ctx.database.db, store.id) };
      },
    );

    app.post(
      base,
      {
        config: { auth: 'user', permission: 'webhook:create' },
        schema: {
          tags,
          summary: 'Add a webhook endpoint; its signing secret is in this answer only',
          params: StoreParams,
          body: CreateWebhookEndpointRequest,
          response: { 201: CreateWebhookEndpointResponse, ...errors, 422: ApiError },
        },
      },
      async (request, reply) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:create', request.params.storeId);
        const created = await registerEndpoint(ctx, store.id, request.body, null, request.log);
        return reply.code(201).header('cache-control', 'no-store').send(created);
      },
    );

    app.get(
      `${base}/:endpointId`,
      {
        config: { auth: 'user', permission: 'webhook:read' },
        schema: {
          tags,
          summary: 'One webhook endpoint',
          params: EndpointParams,
          response: { 200: WebhookEndpoint, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:read', request.params.storeId);
        return endpointOf(ctx, store.id, request.params.endpointId);
      },
    );

    app.patch(
      `${base}/:endpointId`,
      {
        config: { auth: 'user', permission: 'webhook:update' },
        schema: {
          tags,
          summary: 'Pause or resume an endpoint; what it is owed while paused is sent once it is resumed',
          params: EndpointParams,
          body: UpdateWebhookEndpointRequest,
          response: { 200: WebhookEndpoint, ...errors },
        },
      },
      async (request) => {
        const { store, principal } = await authorizedStore(ctx, request, 'webhook:update', request.params.storeId);
        const endpoint = await changeEndpointStatus(
          ctx,
          store.id,
          request.params.endpointId,
          request.body.status,
          pausedBy(principal),
          request.log,
        );
        return endpoint;
      },
    );

    app.delete(
      `${base}/:endpointId`,
      {
        config: { auth: 'user', permission: 'webhook:delete' },
        schema: {
          tags,
          summary: 'Delete an endpoint: nothing more is sent to it; pending retries are cancelled',
          params: EndpointParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:delete', request.params.storeId);
        await removeEndpoint(ctx, store.id, request.params.endpointId, request.log);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${base}/:endpointId/rotate-secret`,
      {
        config: { auth: 'user', permission: 'webhook:update' },
        schema: {
          tags,
          summary: 'A new signing secret, in this answer only; the old one keeps signing beside it until it expires',
          params: EndpointParams,
          body: RotateWebhookSecretRequest,
          response: { 200: RotateWebhookSecretResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:update', request.params.storeId);
        const rotated = await rotateEndpointSecret(
          ctx,
          store.id,
          request.params.endpointId,
          request.body.overlapSeconds,
          request.log,
        );
        return reply.header('cache-control', 'no-store').send(rotated);
      },
    );

    app.post(
      `${base}/:endpointId/test`,
      {
        config: { auth: 'user', permission: 'webhook:update' },
        schema: {
          tags,
          summary: 'Send a test delivery (webhook.test)',
          params: EndpointParams,
          response: { 202: WebhookTestResponse, ...errors, 429: ApiError },
        },
      },
      async (request, reply) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:update', request.params.storeId);
        const sent = await sendTestDelivery(ctx, store.id, request.params.endpointId, request.log);
        return reply.code(202).send(sent);
      },
    );

    app.get(
      `${base}/:endpointId/deliveries`,
      {
        config: { auth: 'user', permission: 'webhook:read' },
        schema: {
          tags,
          summary: 'The delivery log: every attempt, newest first, with where its delivery stands',
          params: EndpointParams,
          querystring: WebhookDeliveryAttemptQuery,
          response: { 200: WebhookDeliveryAttemptPage, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:read', request.params.storeId);
        return endpointAttempts(ctx, store.id, request.params.endpointId, request.query);
      },
    );

    app.post(
      `${base}/:endpointId/deliveries/:deliveryId/replay`,
      {
        config: { auth: 'user', permission: 'webhook:update' },
        schema: {
          tags,
          summary: 'Send a delivery again at once, with the same webhook-id',
          params: DeliveryParams,
          response: { 202: WebhookReplayResponse, ...errors, 429: ApiError },
        },
      },
      async (request, reply) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:update', request.params.storeId);
        const replayed = await replayOne(
          ctx,
          store.id,
          request.params.endpointId,
          request.params.deliveryId,
          request.log,
        );
        return reply.code(202).send(replayed);
      },
    );

    app.post(
      `${base}/:endpointId/replays`,
      {
        config: { auth: 'user', permission: 'webhook:update' },
        schema: {
          tags,
          summary: 'Send again every delivery of an event that occurred in [from, to)',
          params: EndpointParams,
          body: ReplayWebhookRangeRequest,
          response: { 202: ReplayWebhookRangeResponse, ...errors, 429: ApiError },
        },
      },
      async (request, reply) => {
        const { store } = await authorizedStore(ctx, request, 'webhook:update', request.params.storeId);
        const replayed = await replayRange(ctx, store.id, request.params.endpointId, request.body, request.log);
        return reply.code(202).send(replayed);
      },
    );
  };
