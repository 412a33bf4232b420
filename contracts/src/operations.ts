import { z } from 'zod';

/**
 * Contract §Operations, as the back-office's operations page reads it (`GET /api/admin/operations`):
 * where each projector, the relay and each reaction stands against the event store's head, what
 * each set aside, and the readiness of every component. `GET /api/metrics` carries the same figures
 * in Prometheus' text format.
 */

/**
 * `running`: well in this process; `waiting`/`failing`: in this process, with the reason; `elsewhere`:
 * not a worker of this process (WORKERS), so only its position is known here; `stopped`: its Kafka
 * consumer group has no member.
 */
export const WorkerState = z.enum(['running', 'waiting', 'failing', 'elsewhere', 'stopped']);
export type WorkerState = z.infer<typeof WorkerState>;

/** How far a reader is: its position, and how many events (and seconds of them) lie beyond it. */
export const ReaderProgress = z.object({
  /** Store readers: the global position of their checkpoint; Kafka consumers: their committed offsets summed over partitions. */
  position: z.number().int().nonnegative(),
  lagEvents: z.number().int().nonnegative(),
  /** The age of the oldest event not yet handled (Kafka: since this process last saw the group caught up); 0 when caught up. */
  lagSeconds: z.number().nonnegative(),
  state: WorkerState,
  /** Why it waits or fails (null when running). */
  reason: z.string().nullable(),
});
export type ReaderProgress = z.infer<typeof ReaderProgress>;

/** An event a projector could not apply after every try, set aside in `projection_parked`. */
export const ParkedEvent = z.object({
  projection: z.string(),
  eventId: z.uuid(),
  streamId: z.string(),
  streamVersion: z.number().int().positive(),
  type: z.string(),
  error: z.string(),
  attempts: z.number().int().nonnegative(),
  parkedAt: z.iso.datetime(),
});
export type ParkedEvent = z.infer<typeof ParkedEvent>;

/** An event the broker refused for good, set aside by the relay in `relay_quarantine`. */
export const QuarantinedEvent = z.object({
  eventId: z.uuid(),
  globalPosition: z.number().int().positive(),
  streamId: z.string(),
  type: z.string(),
  bytes: z.number().int().nonnegative(),
  error: z.string(),
  quarantinedAt: z.iso.datetime(),
});
export type QuarantinedEvent = z.infer<typeof QuarantinedEvent>;

/**
 * A projection's last rebuild: its new version built beside the live one (which queries keep reading),
 * caught up, and switched in; `done` of `total` events of the types it handles applied so far.
 */
export const ProjectionRebuild = z.object({
  status: z.enum(['running', 'done', 'failed']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  error: z.string().nullable(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
});
export type ProjectionRebuild = z.infer<typeof ProjectionRebuild>;

export const ProjectorOperations = ReaderProgress.extend({
  name: z.string(),
  /** Where it reads: the event store directly, or its Kafka consumer group. */
  source: z.enum(['store', 'kafka']),
  parked: z.array(ParkedEvent),
  /** Its last rebuild (null: never rebuilt from the operations page or `make replay`). */
  rebuild: ProjectionRebuild.nullable(),
});
export type ProjectorOperations = z.infer<typeof ProjectorOperations>;

export const RelayOperations = ReaderProgress.extend({ quarantined: z.array(QuarantinedEvent) });
export type RelayOperations = z.infer<typeof RelayOperations>;

/**
 * An event a reaction could not handle after every try, set aside in `reaction_parked` (the reaction moved on past
 * it) until a person retries it (the reaction runs on it again) or skips it.
 */
export const ParkedReactionEvent = ParkedEvent.omit({ projection: true }).extend({ reaction: z.string() });
export type ParkedReactionEvent = z.infer<typeof ParkedReactionEvent>;

export const ReactionOperations = ReaderProgress.extend({ name: z.string(), parked: z.array(ParkedReactionEvent) });
export type ReactionOperations = z.infer<typeof ReactionOperations>;

/**
 * A webhook delivery whose processing kept failing inside our code (not a receiver's answer), set aside in
 * `webhook_delivery_parked`: no worker sends it until a person retries or skips it.
 */
export const ParkedWebhookDelivery = z.object({
  deliveryId: z.uuid(),
  endpointId: z.uuid(),
  storeId: z.uuid(),
  webhookId: z.string(),
  eventId: z.uuid(),
  eventType: z.string(),
  error: z.string(),
  failures: z.number().int().nonnegative(),
  parkedAt: z.iso.datetime(),
});
export type ParkedWebhookDelivery = z.infer<typeof ParkedWebhookDelivery>;

/** One component of `GET /api/health`'s readiness. */
export const ComponentReadiness = z.object({
  name: z.string(),
  status: z.enum(['ok', 'failing']),
  reason: z.string().nullable(),
});
export type ComponentReadiness = z.infer<typeof ComponentReadiness>;

export const OperationsView = z.object({
  /** When these figures were read. */
  at: z.iso.datetime(),
  /** The event store's newest global position (0 when empty). */
  headPosition: z.number().int().nonnegative(),
  projectors: z.array(ProjectorOperations),
  /** Null without Kafka: there is nothing to relay. */
  relay: RelayOperations.nullable(),
  reactions: z.array(ReactionOperations),
  /** Webhook deliveries still to be sent (the outbox). */
  pendingWebhookDeliveries: z.number().int().nonnegative(),
  parkedWebhookDeliveries: z.array(ParkedWebhookDelivery),
  /** Shopper mail due to be tried again now. */
  notificationRetriesDue: z.number().int().nonnegative(),
  readiness: z.array(ComponentReadiness),
});
export type OperationsView = z.infer<typeof OperationsView>;

/** `POST /api/admin/operations/parked/{projection}/{eventId}/retry` and `…/skip`. */
export const ParkedEventParams = z.object({ projection: z.string().min(1).max(100), eventId: z.uuid() });
export type ParkedEventParams = z.infer<typeof ParkedEventParams>;

/** What retrying or skipping a parked event came to: the event is no longer parked. */
export const ParkedEventOutcome = z.object({
  projection: z.string(),
  eventId: z.uuid(),
  outcome: z.enum(['applied', 'skipped']),
});
export type ParkedEventOutcome = z.infer<typeof ParkedEventOutcome>;

/** `POST /api/admin/operations/reactions/{reaction}/parked/{eventId}/retry` and `…/skip`. */
export const ParkedReactionParams = z.object({ reaction: z.string().min(1).max(100), eventId: z.uuid() });
export type ParkedReactionParams = z.infer<typeof ParkedReactionParams>;

/** What retrying or skipping a reaction's parked event came to: handled now, or given up; either way no longer parked. */
export const ParkedReactionOutcome = z.object({
  reaction: z.string(),
  eventId: z.uuid(),
  outcome: z.enum(['handled', 'skipped']),
});
export type ParkedReactionOutcome = z.infer<typeof ParkedReactionOutcome>;

/** `POST /api/admin/operations/webhook-deliveries/{deliveryId}/retry` and `…/skip`. */
export const ParkedDeliveryParams = z.object({ deliveryId: z.uuid() });
export type ParkedDeliveryParams = z.infer<typeof ParkedDeliveryParams>;

export const ParkedDeliveryOutcome = z.object({ deliveryId: z.uuid(), outcome: z.enum(['retried', 'skipped']) });
export type ParkedDeliveryOutcome = z.infer<typeof ParkedDeliveryOutcome>;

/** `POST /api/admin/operations/projections/{projection}/rebuild`: 202 with the rebuild just started; 409 `rebuild_running`. */
export const ProjectionParams = z.object({ projection: z.string().min(1).max(100) });
export type ProjectionParams = z.infer<typeof ProjectionParams>;

export const RebuildStarted = z.object({ projection: z.string(), rebuild: ProjectionRebuild });
export type RebuildStarted = z.infer<typeof RebuildStarted>;
