import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import {
  WebhookDeliveryAttempt, WebhookEndpoint, WebhookReplayResponse,
  type WebhookDeliveryAttemptPage, type WebhookDeliveryAttemptQuery, type WebhookEndpointStatus, type WebhookEventType,
} from '@claims/contracts';
import { lockProjection, WEBHOOK_OUTBOX } from '@claims/projections';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { newWebhookSecret } from './signature.js';

interface EndpointRow {
  id: string; store_id: string; url: string; event_types: string[] | null; created_at: Date | string;
  status: string; disabled_reason: string | null; previous_secret_expires_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

const toEndpoint = (row: EndpointRow): WebhookEndpoint => WebhookEndpoint.parse({
  id: row.id, storeId: row.store_id, url: row.url, eventTypes: row.event_types, createdAt: iso(row.created_at),
  status: row.status, disabledReason: row.disabled_reason,
  previousSecretExpiresAt: row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > new Date() ? iso(row.previous_secret_expires_at) : null,
});

const ENDPOINT_COLUMNS = sql`id, store_id, url, event_types, created_at, status, disabled_reason, previous_secret_expires_at`;

/**
 * Registers an endpoint. Its `created_at` is taken under the webhook-outbox projection's lock: every
 * batch applied before it saw no endpoint and held only events older than it, every batch after it
 * sees the endpoint, so no event that occurs after the creation is missed, and a rebuild agrees.
 */
export async function createEndpoint(
  ctx: AppContext,
  input: { storeId: string; url: string; eventTypes: readonly WebhookEventType[] | null; tokenId: string | null },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const id = randomUUID();
  const secret = newWebhookSecret();
  const row = await ctx.database.db.transaction().execute(async (trx) => {
    await lockProjection(trx, WEBHOOK_OUTBOX);
    const { rows } = await sql<EndpointRow>`
      insert into webhook_endpoints (id, store_id, url, secret, event_types, created_by_token, created_at)
      values (${id}::uuid, ${input.storeId}::uuid, ${input.url}, ${secret},
              ${input.eventTypes ? [...new Set(input.eventTypes)] : null}::text[], ${input.tokenId}::uuid,
              date_trunc('milliseconds', clock_timestamp()))
      returning ${ENDPOINT_COLUMNS}`.execute(trx);
    return rows[0]!;
  });
  return { endpoint: toEndpoint(row), secret };
}

const selectEndpoints = sql`select ${ENDPOINT_COLUMNS} from webhook_endpoints`;

export async function listEndpoints(db: QueryExecutorProvider, storeId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await sql<EndpointRow>`${selectEndpoints} where store_id = ${storeId}::uuid and deleted_at is null order by created_at, id`.execute(db);
  return rows.map(toEndpoint);
}

/** The store's live endpoint, or null (another store's endpoint is as unknown as a made-up id). */
export async function findEndpoint(db: QueryExecutorProvider, storeId: string, id: string): Promise<WebhookEndpoint | null> {
  const { rows } = await sql<EndpointRow>`
    ${selectEndpoints} where store_id = ${storeId}::uuid and id::text = ${id} and deleted_at is null`.execute(db);
  return rows[0] ? toEndpoint(rows[0]) : null;
}

/**
 * A new signing secret; the old one keeps signing beside it (Standard Webhooks: several signatures,
 * space-separated, new first) until `overlapSeconds` have passed, then expires on its own.
 */
export async function rotateSecret(ctx: AppContext, storeId: string, id: string, overlapSeconds: number): Promise<{ secret: string; previousSecretExpiresAt: string } | null> {
  const secret = newWebhookSecret();
  const expiresAt = new Date(Date.parse(ctx.now()) + overlapSeconds * 1000).toISOString();
  const { rows } = await sql<{ id: string }>`
    update webhook_endpoints set previous_secret = secret, previous_secret_expires_at = ${expiresAt}::timestamptz, secret = ${secret}
    where store_id = ${storeId}::uuid and id::text = ${id} and deleted_at is null returning id`.execute(ctx.database.db);
  return rows.length > 0 ? { secret, previousSecretExpiresAt: expiresAt } : null;
}

/** Turns deliveries to an endpoint on or off; what it was owed while off is sent once it is on again. */
export async function setEndpointStatus(ctx: AppContext, storeId: string, id: string, status: WebhookEndpointStatus): Promise<WebhookEndpoint | null> {
  const { rows } = await sql<EndpointRow>`
    update webhook_endpoints
    set status = ${status},
        disabled_reason = case when ${status} = 'disabled' then 'Turned off through the API.' else null end,
        disabled_at = case when ${status} = 'disabled' then ${ctx.now()}::timestamptz else null end
    where store_id = ${storeId}::uuid and id::text = ${id} and deleted_at is null
    returning ${ENDPOINT_COLUMNS}`.execute(ctx.database.db);
  return rows[0] ? toEndpoint(rows[0]) : null;
}

/** Deletes (keeps the history of) an endpoint and cancels what it was still owed. */
export async function deleteEndpoint(ctx: AppContext, storeId: string, id: string): Promise<boolean> {
  return ctx.database.db.transaction().execute(async (trx) => {
    // Under the projection's lock, so no batch adds a delivery for it after the cancellation below.
    await lockProjection(trx, WEBHOOK_OUTBOX);
    const { rows } = await sql<{ id: string }>`
      update webhook_endpoints set deleted_at = ${ctx.now()}::timestamptz
      where store_id = ${storeId}::uuid and id::text = ${id} and deleted_at is null returning id`.execute(trx);
    if (rows.length === 0) return false;
    await sql`
      update webhook_deliveries set status = 'cancelled', next_attempt_at = null, claim_token = null
      where endpoint_id = ${id}::uuid and status = 'pending'`.execute(trx);
    return true;
  });
}

interface AttemptRow {
  id: string; delivery_id: string; webhook_id: string; event_id: string; event_type: string; attempt: number; replay: boolean;
  attempted_at: Date | string; status_code: number | null; error: string | null; succeeded: boolean; duration_ms: number;
}

const encodeCursor = (row: AttemptRow) => Buffer.from(`${iso(row.attempted_at)}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): { attemptedAt: string; id: string } {
  const [attemptedAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!attemptedAt || !id || Number.isNaN(Date.parse(attemptedAt)) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new AppError('validation_failed', 'The cursor is not one this API gave out.');
  }
  return { attemptedAt, id };
}

/** Every attempt to the endpoint, newest first. */
export async function listAttempts(db: QueryExecutorProvider, endpointId: string, query: WebhookDeliveryAttemptQuery): Promise<WebhookDeliveryAttemptPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const { rows } = await sql<AttemptRow>`
    select a.id, a.delivery_id, d.webhook_id, d.event_id, d.event_type, a.attempt, a.replay, a.attempted_at,
           a.status_code, a.error, a.succeeded, a.duration_ms
    from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id
    where a.endpoint_id = ${endpointId}::uuid
      ${query.deliveryId ? sql`and a.delivery_id = ${query.deliveryId}::uuid` : sql``}
      ${after ? sql`and (a.attempted_at, a.id) < (${after.attemptedAt}::timestamptz, ${after.id}::uuid)` : sql``}
    order by a.attempted_at desc, a.id desc
    limit ${query.limit + 1}`.execute(db);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => WebhookDeliveryAttempt.parse({
      id: row.id, deliveryId: row.delivery_id, webhookId: row.webhook_id, eventId: row.event_id, eventType: row.event_type,
      attempt: row.attempt, replay: row.replay, attemptedAt: iso(row.attempted_at), statusCode: row.status_code,
      error: row.error, succeeded: row.succeeded, durationMs: row.duration_ms,
    })),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
  };
}

/**
 * Makes a delivery due now, whatever its state, with the same `webhook-id`; if that attempt fails
 * the retry schedule starts over. An attempt in flight at this moment no longer reschedules it.
 */
export async function replayDelivery(ctx: AppContext, endpointId: string, deliveryId: string): Promise<WebhookReplayResponse | null> {
  const { rows } = await sql<{ id: string; webhook_id: string; status: string; next_attempt_at: Date | string | null }>`
    update webhook_deliveries
    set status = 'pending', next_attempt_at = ${ctx.now()}::timestamptz, schedule_started_at = null, schedule_attempts = 0,
        replay_requested = true, claim_token = null
    where endpoint_id = ${endpointId}::uuid and id::text = ${deliveryId}
    returning id, webhook_id, status, next_attempt_at`.execute(ctx.database.db);
  const row = rows[0];
  if (!row) return null;
  return WebhookReplayResponse.parse({
    deliveryId: row.id, webhookId: row.webhook_id, status: row.status, nextAttemptAt: row.next_attempt_at ? iso(row.next_attempt_at) : null,
  });
}
