import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import { WebhookEndpoint, type WebhookEventType } from '@claims/contracts';
import { cancelPendingDeliveries, lockProjection, WEBHOOK_OUTBOX } from '@claims/projections';
import type { AppContext } from '../context.js';
import { newWebhookSecret } from './signature.js';

interface EndpointRow { id: string; store_id: string; url: string; event_types: string[] | null; created_at: Date | string }

const iso = (value: Date | string) => new Date(value).toISOString();

const toEndpoint = (row: EndpointRow): WebhookEndpoint => WebhookEndpoint.parse({
  id: row.id, storeId: row.store_id, url: row.url, eventTypes: row.event_types, createdAt: iso(row.created_at),
});

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
      returning id, store_id, url, event_types, created_at`.execute(trx);
    return rows[0]!;
  });
  return { endpoint: toEndpoint(row), secret };
}

const selectEndpoints = sql`select id, store_id, url, event_types, created_at from webhook_endpoints`;

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
