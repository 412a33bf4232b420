import { z } from 'zod';
import { ITEMS_RESOLVED_WEBHOOK, WEBHOOK_EVENT_TYPES } from './events.js';

/**
 * Contract §Webhooks: endpoints a store registers through the public API, the deliveries made to
 * them (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) and every attempt.
 */

// A decision on some items only comes beside the whole claim's: both are ClaimResolved events.
const [firstType, ...otherTypes] = Object.values(WEBHOOK_EVENT_TYPES).flatMap((type) =>
  type === WEBHOOK_EVENT_TYPES.ClaimResolved ? [type, ITEMS_RESOLVED_WEBHOOK] : [type],
);
if (firstType === undefined) throw new Error('WEBHOOK_EVENT_TYPES is empty');

/** A dotted event type a webhook endpoint can subscribe to (`claim.filed`, `claim.resolved`, `claim.items_resolved`, …). */
export const WebhookEventType = z.enum([firstType, ...otherTypes]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** The type of the test delivery sent on request from the back-office: never an event of the store. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** What a delivery carries: an event type, or the test delivery. */
export const DeliveredEventType = z.enum([...WebhookEventType.options, WEBHOOK_TEST_EVENT_TYPE]);
export type DeliveredEventType = z.infer<typeof DeliveredEventType>;

export const CreateWebhookEndpointRequest = z.object({
  /** http or https; loopback, private and link-local hosts are refused (422) unless WEBHOOK_ALLOW_PRIVATE_URLS=true. */
  url: z.url({ protocol: /^https?$/ }).max(2000),
  /** The event types to deliver; omitted or null: every type. */
  eventTypes: z.array(WebhookEventType).min(1).max(50).nullable().optional(),
  /** What the endpoint is for, for people reading the back-office. */
  description: z.string().trim().max(500).nullable().optional(),
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
  description: z.string().nullable(),
  createdAt: z.iso.datetime(),
  status: WebhookEndpointStatus,
  /** Why it is disabled (null while enabled). */
  disabledReason: z.string().nullable(),
  /** While a rotated-out secret still signs deliveries beside the new one: until when. */
  previousSecretExpiresAt: z.iso.datetime().nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The signing secret (`whsec_` + base64 of 32 random bytes) is in this answer only. */
export const CreateWebhookEndpointResponse = WebhookEndpoint.extend({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/),
});
export type CreateWebhookEndpointResponse = z.infer<typeof CreateWebhookEndpointResponse>;

export const WebhookEndpointList = z.object({ data: z.array(WebhookEndpoint) });

/** Contract: the old secret keeps signing beside the new one for this long unless `overlapSeconds` says otherwise. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 3_600;

export const RotateWebhookSecretRequest = z
  .object({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3_600)
      .default(DEFAULT_SECRET_OVERLAP_SECONDS),
  })
  .default({ overlapSeconds: DEFAULT_SECRET_OVERLAP_SECONDS });
export const RotateWebhookSecretResponse = z.object({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/),
  previousSecretExpiresAt: z.iso.datetime(),
});
export type RotateWebhookSecretResponse = z.infer<typeof RotateWebhookSecretResponse>;

/** `PATCH /api/v1/webhook-endpoints/{id}`: turn deliveries back on (or off). */
export const UpdateWebhookEndpointRequest = z.object({ status: WebhookEndpointStatus });
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequest>;

export const WebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'cancelled']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** One attempt to deliver one event to one endpoint. */
export const WebhookDeliveryAttempt = z.object({
  id: z.uuid(),
  /** The delivery (event × endpoint) this attempt belongs to; replay it by this id. */
  deliveryId: z.uuid(),
  /** The `webhook-id` header: the same on every attempt and replay of a delivery. */
  webhookId: z.string(),
  /** The event delivered (a random id for a test delivery). */
  eventId: z.uuid(),
  eventType: DeliveredEventType,
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
  /** The start of the receiver's answer body (up to 1,000 characters); null when none came. */
  responseExcerpt: z.string().nullable(),
  /** Where the delivery stands now (not only after this attempt). */
  deliveryStatus: WebhookDeliveryStatus,
  /** When the delivery is tried next: null once it succeeded, failed for good or was cancelled, or while an attempt is under way. */
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>;

export const WebhookDeliveryAttemptQuery = z.object({
  deliveryId: z.uuid().optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type WebhookDeliveryAttemptQuery = z.infer<typeof WebhookDeliveryAttemptQuery>;

/** Every attempt to the endpoint, newest first, cursor-paginated. */
export const WebhookDeliveryAttemptPage = z.object({
  data: z.array(WebhookDeliveryAttempt),
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveryAttemptPage = z.infer<typeof WebhookDeliveryAttemptPage>;

/** Answer of a replay: the delivery is due again at once, with the same `webhook-id`. */
export const WebhookReplayResponse = z.object({
  deliveryId: z.uuid(),
  webhookId: z.string(),
  status: WebhookDeliveryStatus,
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type WebhookReplayResponse = z.infer<typeof WebhookReplayResponse>;

/** Replays every delivery to the endpoint of an event that occurred in `[from, to)`, succeeded ones included. */
export const ReplayWebhookRangeRequest = z
  .object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
  .refine((range) => Date.parse(range.from) < Date.parse(range.to), {
    message: 'from must be before to',
    path: ['to'],
  });
export type ReplayWebhookRangeRequest = z.infer<typeof ReplayWebhookRangeRequest>;
export const ReplayWebhookRangeResponse = z.object({ replayed: z.number().int().nonnegative() });
export type ReplayWebhookRangeResponse = z.infer<typeof ReplayWebhookRangeResponse>;

/** Answer of a test delivery: due at once, like any delivery (see the endpoint's deliveries for its attempts). */
export const WebhookTestResponse = z.object({ deliveryId: z.uuid(), webhookId: z.string() });
export type WebhookTestResponse = z.infer<typeof WebhookTestResponse>;

/** The JSON body of every delivery: `data` is the event's data (without secrets) plus claimId and storeId. */
export const WebhookPayload = z.object({
  type: DeliveredEventType,
  timestamp: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;
