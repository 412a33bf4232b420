import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import {
  EVENT_REGISTRY,
  eventTypesIn,
  ITEMS_RESOLVED_WEBHOOK,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SOURCE_TYPES,
  type EventReader,
  type WebhookSourceType,
} from '@claims/contracts';
import { riskOfFiled, wholeDecisionOf } from '@claims/domain';
import { defineProjection, type ProjectedEvent } from '../runtime/projection.js';
import { recordset } from '../runtime/bulkRows.js';

export const WEBHOOK_OUTBOX = 'webhook-outbox';

/** Notified when a commit adds deliveries due at once, so delivery workers claim them without waiting for their poll. */
export const DELIVERIES_DUE_CHANNEL = 'webhook_deliveries_due';

/**
 * One row per event × matching endpoint: the delivery the webhook worker owes. Rows are written in
 * the projection's transaction together with its per-stream offsets, so an event is turned into
 * deliveries exactly once, and a crash anywhere loses none. This projection only enqueues: the queue
 * (the worker's columns, from `status` on, the attempts, the parked deliveries) belongs to the API's
 * webhooks feature (services/api/src/webhooks/deliveryQueue.ts), beside `webhook_endpoints`, which
 * this projection only reads to fan an event out.
 */
const migrations: Record<string, Migration> = {
  '0510_webhook_deliveries': sqlMigration(
    sql`
      create table webhook_deliveries (
        id uuid primary key,
        endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
        store_id uuid not null,
        event_id uuid not null,
        event_type text not null,
        webhook_id text not null,
        payload text not null,
        status text not null default 'pending',
        attempts int not null default 0,
        schedule_attempts int not null default 0,
        schedule_started_at timestamptz,
        next_attempt_at timestamptz,
        claim_token uuid,
        replay_requested boolean not null default false,
        last_attempt_at timestamptz,
        created_at timestamptz not null default now(),
        unique (endpoint_id, event_id)
      )`,
    sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`,
  ),
  '0520_webhook_delivery_attempts': sqlMigration(
    sql`
      create table webhook_delivery_attempts (
        id uuid primary key,
        delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
        endpoint_id uuid not null,
        attempt int not null,
        replay boolean not null,
        attempted_at timestamptz not null,
        status_code int,
        error text,
        succeeded boolean not null,
        duration_ms int not null
      )`,
    sql`create index webhook_attempts_endpoint on webhook_delivery_attempts (endpoint_id, attempted_at desc, id desc)`,
    sql`create index webhook_attempts_delivery on webhook_delivery_attempts (delivery_id, attempt)`,
  ),
  // The back-office's delivery log: when the event occurred (to replay a time range) and the start of each answer.
  '1310_webhook_delivery_log': sqlMigration(
    sql`alter table webhook_deliveries add column occurred_at timestamptz`,
    sql`update webhook_deliveries set occurred_at = (payload::jsonb ->> 'timestamp')::timestamptz`,
    sql`alter table webhook_deliveries alter column occurred_at set not null`,
    sql`create index webhook_deliveries_endpoint_occurred on webhook_deliveries (endpoint_id, occurred_at)`,
    // Attempts under way per endpoint, and each endpoint's due deliveries: what a claim reads to keep one endpoint from taking every sender.
    sql`create index webhook_deliveries_in_flight on webhook_deliveries (endpoint_id) where status = 'pending' and claim_token is not null`,
    sql`create index webhook_deliveries_endpoint_due on webhook_deliveries (endpoint_id, next_attempt_at, id) where status = 'pending'`,
    sql`alter table webhook_delivery_attempts add column response_excerpt text`,
  ),
};

type WebhookSourceEvent = ProjectedEvent<WebhookSourceType>;

/**
 * The event as a receiver sees it: its webhook type and data, nothing secret (the claim token's hash stays home). A
 * decision is `claim.resolved` once it decides the claim as a whole, with every standing resolution and their outcome,
 * and `claim.items_resolved` with its own lines while items are left undecided (contract §Webhooks).
 */
function publicMessage(event: WebhookSourceEvent): { type: string; data: Record<string, unknown> } {
  switch (event.type) {
    case 'ClaimFiled': {
      // The shopper's keyed hash and the facts behind the risk (their claims at other stores) stay inside the product.
      const { tokenHash: _secret, shopperKey: _shopper, riskFacts: _facts, ...data } = event.data;
      return { type: WEBHOOK_EVENT_TYPES.ClaimFiled, data: { ...data, risk: riskOfFiled(event.data) } };
    }
    case 'ClaimResolved': {
      const { claimResolutions: _whole, ...data } = event.data;
      const whole = wholeDecisionOf(event.data);
      return whole
        ? {
            type: WEBHOOK_EVENT_TYPES.ClaimResolved,
            data: { ...data, outcome: whole.outcome, resolutions: whole.resolutions },
          }
        : { type: ITEMS_RESOLVED_WEBHOOK, data };
    }
    // Who reversed it and the payout entries that take the money back are the back-office's.
    case 'ClaimResolutionReversed':
      return {
        type: WEBHOOK_EVENT_TYPES.ClaimResolutionReversed,
        data: {
          resolutionIds: event.data.lines.map((l) => l.resolutionId),
          reason: event.data.reason,
          reversedAt: event.data.reversedAt,
        },
      };
    case 'ClaimStatusChanged':
    case 'ClaimMessageSent':
    case 'ClaimReviewed':
      return { type: WEBHOOK_EVENT_TYPES[event.type], data: { ...event.data } };
  }
}

/** Integrators read claim events: each says in the registry what they receive of it (its webhook name or null). */
const webhookReader: EventReader<WebhookSourceType> = {
  streams: ['claim'],
  decisions: Object.fromEntries(
    eventTypesIn(['claim']).map((type) => [type, EVENT_REGISTRY[type].webhook === null ? 'ignore' : 'handle']),
  ),
  handles: WEBHOOK_SOURCE_TYPES,
};

/** The exact bytes every attempt of the event's deliveries sends (and signs). */
function webhookBody(event: WebhookSourceEvent, storeId: string): { type: string; body: string } {
  const message = publicMessage(event);
  const data = { ...message.data, claimId: event.data.claimId, storeId };
  return { type: message.type, body: JSON.stringify({ type: message.type, timestamp: event.occurredAt, data }) };
}

/**
 * Turns claim events into pending deliveries for every live endpoint of the event's store that
 * subscribes to its type and existed when the event occurred (so a replay of old events never
 * reaches endpoints created since). The `webhook-id` is derived from endpoint and event, stable
 * across retries, replays and rebuilds; a rebuild inserts nothing twice.
 */
export const webhookOutboxProjection = defineProjection({
  name: WEBHOOK_OUTBOX,
  ...webhookReader,
  migrations,
  // Deliveries and their attempts are history, not a derived view: a rebuild must not empty them.
  tables: [],
  async applyBatch(trx, events) {
    const messages = events.flatMap((event) => {
      if (!event.storeId) return [];
      const message = webhookBody(event, event.storeId);
      return [
        {
          event_id: event.eventId,
          event_key: event.eventId,
          store_id: event.storeId,
          type: message.type,
          body: message.body,
          occurred_at: event.occurredAt,
        },
      ];
    });
    if (messages.length === 0) return;
    // The notification goes out at the batch's commit, and only when it added a delivery: the workers' wake-up.
    await sql`
      with inserted as (
        insert into webhook_deliveries (id, endpoint_id, store_id, event_id, event_type, webhook_id, payload, status, next_attempt_at, occurred_at)
        select gen_random_uuid(), e.id, e.store_id, r.event_id, r.type,
               'msg_' || left(encode(sha256(convert_to(e.id::text || ':' || r.event_key, 'UTF8')), 'hex'), 32),
               r.body, 'pending', r.occurred_at, r.occurred_at
        from ${recordset(messages, 'event_id uuid, event_key text, store_id uuid, type text, body text, occurred_at timestamptz')}
        join webhook_endpoints e on e.store_id = r.store_id
          and e.deleted_at is null
          and e.created_at <= r.occurred_at
          and (e.event_types is null or r.type = any(e.event_types))
        on conflict (endpoint_id, event_id) do nothing
        returning 1
      )
      select pg_notify(${DELIVERIES_DUE_CHANNEL}, '') where exists (select 1 from inserted)`.execute(trx);
  },
});
