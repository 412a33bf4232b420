import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import { WebhookEndpoint, type WebhookEndpointStatus, type WebhookEventType } from '@claims/contracts';
import { cancelPendingDeliveries, lockProjection, WEBHOOK_OUTBOX } from '@claims/projections';
import type { AppContext } from '../context.js';
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

/** 410 Gone: the receiver says the endpoint is no more; nothing is sent to it until it is enabled again. */
export async function disableGoneEndpoint(db: QueryExecutorProvider, id: string, at: Date): Promise<void> {
  await sql`
    update webhook_endpoints set status = 'disabled', disabled_at = ${at.toISOString()}::timestamptz,
      disabled_reason = 'The receiver answered 410 Gone; enable the endpoint again once it accepts deliveries.'
    where id = ${id}::uuid and status = 'enabled'`.execute(db);
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
    await cancelPendingDeliveries(trx, id);
    return true;
  });
}
