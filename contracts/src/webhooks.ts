import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './events.js';

/**
 * Contract §Webhooks: endpoints a store registers through the public API, the deliveries made to
 * them (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) and every attempt.
 */

const [firstType, ...otherTypes] = Object.values(WEBHOOK_EVENT_TYPES);
if (firstType === undefined) throw new Error('WEBHOOK_EVENT_TYPES is empty');

/** A dotted event type a webhook endpoint can subscribe to (`claim.filed`, `claim.resolved`, …). */
export const WebhookEventType = z.enum([firstType, ...otherTypes]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const CreateWebhookEndpointRequest = z.object({
  /** http or https; loopback, private and link-local hosts are refused (422) unless WEBHOOK_ALLOW_PRIVATE_URLS=true. */
  url: z.url({ protocol: /^https?$/ }).max(2000),
  /** The event types to deliver; omitted or null: every type. */
  eventTypes: z.array(WebhookEventType).min(1).max(50).nullable().optional(),
});
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

/** `enabled` receives deliveries; `disabled` receives none (a 410 from the receiver, or turned off) until enabled again. */
export const WebhookEndpointStatus = z.enum(['enabled', 'disabled']);
export type WebhookEndpointStatus = z.infer<typeof WebhookEndpointStatus>;

export const WebhookEndpoint = z.object({
  id: z.uuid(),
  storeId: z.uuid(),
  url: z.string(),
  /** null: every event type. */
  eventTypes: z.array(WebhookEventType).nullable(),
  createdAt: z.iso.datetime(),
  status: WebhookEndpointStatus,
  /** Why it is disabled (null while enabled). */
  disabledReason: z.string().nullable(),
  /** While a rotated-out secret still signs deliveries beside the new one: until when. */
  previousSecretExpiresAt: z.iso.datetime().nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The signing secret (`whsec_` + base64 of 32 random bytes) is in this answer only. */
export const CreateWebhookEndpointResponse = WebhookEndpoint.extend({ secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/) });
export type CreateWebhookEndpointResponse = z.infer<typeof CreateWebhookEndpointResponse>;

export const WebhookEndpointList = z.object({ data: z.array(WebhookEndpoint) });

/** Contract: the old secret keeps signing beside the new one for this long unless `overlapSeconds` says otherwise. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 3_600;

export const RotateWebhookSecretRequest = z.object({
  overlapSeconds: z.number().int().min(0).max(7 * 24 * 3_600).default(DEFAULT_SECRET_OVERLAP_SECONDS),
}).default({ overlapSeconds: DEFAULT_SECRET_OVERLAP_SECONDS });
export const RotateWebhookSecretResponse = z.object({ secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/), previousSecretExpiresAt: z.iso.datetime() });

/** `PATCH /api/v1/webhook-endpoints/{id}`: turn deliveries back on (or off). */
export const UpdateWebhookEndpointRequest = z.object({ status: WebhookEndpointStatus });

/** One attempt to deliver one event to one endpoint. */
export const WebhookDeliveryAttempt = z.object({
  id: z.uuid(),
  /** The delivery (event × endpoint) this attempt belongs to; replay it by this id. */
  deliveryId: z.uuid(),
  /** The `webhook-id` header: the same on every attempt and replay of a delivery. */
  webhookId: z.string(),
  eventId: z.uuid(),
  eventType: WebhookEventType,
  /** 1 for the first attempt of a delivery, counting on through retries and replays. */
  attempt: z.number().int().positive(),
  /** true when a replay asked for this attempt. */
  replay: z.boolean(),
  attemptedAt: z.iso.datetime(),
  /** The receiver's HTTP status; null when no answer came (refused connection, timeout, DNS). */
  statusCode: z.number().int().nullable(),
  /** Why the attempt failed; null when it succeeded (2xx). */
  error: z.string().nullable(),
  succeeded: z.boolean(),
  durationMs: z.number().int().nonnegative(),
});
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

export const WebhookDeliveryAttemptQuery = z.object({
  deliveryId: z.uuid().optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type WebhookDeliveryAttemptQuery = z.infer<typeof WebhookDeliveryAttemptQuery>;

/** Every attempt to the endpoint, newest first, cursor-paginated. */
export const WebhookDeliveryAttemptPage = z.object({ data: z.array(WebhookDeliveryAttempt), nextCursor: z.string().nullable() });
export type WebhookDeliveryAttemptPage = z.infer<typeof WebhookDeliveryAttemptPage>;

export const WebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'cancelled']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** Answer of a replay: the delivery is due again at once, with the same `webhook-id`. */
export const WebhookReplayResponse = z.object({
  deliveryId: z.uuid(),
  webhookId: z.string(),
  status: WebhookDeliveryStatus,
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type WebhookReplayResponse = z.infer<typeof WebhookReplayResponse>;

/** The JSON body of every delivery: `data` is the event's data (without secrets) plus claimId and storeId. */
export const WebhookPayload = z.object({
  type: WebhookEventType,
  timestamp: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;
