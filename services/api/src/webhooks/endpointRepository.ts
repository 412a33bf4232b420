import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import { WebhookEndpoint, type WebhookEndpointStatus, type WebhookEventType } from '@claims/contracts';
import { lockProjection, WEBHOOK_OUTBOX } from '@claims/projections';
import { cancelPendingDeliveries, resumePendingDeliveries } from './deliveryQueue.js';
import type { AppContext } from '../context.js';
import { newWebhookSecret } from './signature.js';

interface EndpointRow {
  id: string;
  store_id: string;
  url: string;
  event_types: string[] | null;
  description: string | null;
  created_at: Date | string;
  status: string;
  disabled_reason: string | null;
  previous_secret_expires_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

const toEndpoint = (row: EndpointRow): WebhookEndpoint =>
  WebhookEndpoint.parse({
    id: row.id,
    storeId: row.store_id,
    url: row.url,
    eventTypes: row.event_types,
    description: row.description,
    createdAt: iso(row.created_at),
    status: row.status,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt:
      row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > new Date()
        ? iso(row.previous_secret_expires_at)
        : null,
  });

const ENDPOINT_COLUMNS = sql`id, store_id, url, event_types, description, created_at, status, disabled_reason, previous_secret_expires_at`;

/**
 * Registers an endpoint. Its `created_at` is taken under the webhook-outbox projection's lock: every
 * batch applied before it saw no endpoint and held only events older than it, every batch after it
 * sees the endpoint, so no event that occurs after the creation is missed, and a rebuild agrees.
 */
export async function createEndpoint(
  ctx: AppContext,
  input: {
    storeId: string;
    url: string;
    eventTypes: readonly WebhookEventType[] | null;
    description: string | null;
    tokenId: string | null;
  },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const id = randomUUID();
  const secret = newWebhookSecret();
  const row = await ctx.database.db.transaction().execute(async (trx) => {
    await lockProjection(trx, WEBHOOK_OUTBOX);
    const { rows } = await sql<EndpointRow>`
      insert into webhook_endpoints (id, store_id, url, secret, event_types, description, created_by_token, created_at)
      values (${id}::uuid, ${input.storeId}::uuid, ${input.url}, ${secret},
              ${input.eventTypes ? [...new Set(input.eventTypes)] : null}::text[], ${input.description || null}, ${input.tokenId}::uuid,
              date_trunc('milliseconds', clock_timestamp()))
      returning ${ENDPOINT_COLUMNS}`.execute(trx);
    return rows[0]!;
  });
  return { endpoint: toEndpoint(row), secret };
}

const selectEndpoints = sql`select ${ENDPOINT_COLUMNS} from webhook_endpoints`;

export async function listEndpoints(db: QueryExecutorProvider, storeId: string): Promise<WebhookEndpoint[]> {
  const { rows } =
    await sql<EndpointRow>`${selectEndpoints} where store_id = ${storeId}::uuid and deleted_at is null order by created_at, id`.execute(
      db,
    );
  return rows.map(toEndpoint);
}

/** The store's live endpoint, or null (another store's endpoint is as unknown as a made-up id). */
export async function findEndpoint(
  db: QueryExecutorProvider,
  storeId: string,
  id: string,
): Promise<WebhookEndpoint | null> {
  const { rows } = await sql<EndpointRow>`
    ${selectEndpoints} where store_id = ${storeId}::uuid and id::text = ${id} and deleted_at is null`.execute(db);
  return rows[0] ? toEndpoint(rows[0]) : null;
}

/**
 * A new signing secret; the old one keeps signing beside it (Standard Webhooks: several signatures,
 * space-separated, new first) until `overlapSeconds` have passed, then expires on its own.
 */
export async function rotateSecret(
  ctx: AppContext,
  storeId: string,
  id: string,
  overlapSeconds: number,
): Promise<{ secret: string; previousSecretExpiresAt: string } | null> {
  const secret = newWebhookSecret();
  const expiresAt = new Date(Date.parse(ctx.now()) + overlapSeconds * 1000).toISOString();
  const { rows } = await sql<{ id: string }>`
    update webhook_endpoints set previous_secret = secret, previous_secret_expires_at = ${expiresAt}::timestamptz, secret = ${secret}
    where store_id = ${storeId}::uuid and id::text = ${id} and deleted_at is null returning id`.execute(
    ctx.database.db,
  );
  return rows.length > 0 ? { secret, previousSecretExpiresAt: expiresAt } : null;
}

/**
 * Turns deliveries to an endpoint on or off (`reason`: what its page says while off); what it was owed
 * while off is due at once when it is on again, and a run of failures starts afresh.
 */
export async function setEndpointStatus(
  ctx: AppContext,
  storeId: string,
  id: string,
  status: WebhookEndpointStatus,
  reason: string,
): Promise<WebhookEndpoint | null> {
  return ctx.database.db.transaction().execute(async (trx) => {
    const { rows } = await sql<EndpointRow>`
      update webhook_endpoints
      set status = ${status},
          disabled_reason = case when ${status} = 'disabled' then ${reason} else null end,
          disabled_at = case when ${status} = 'disabled' then ${ctx.now()}::timestamptz else null end,
          failing_since = null
      where store_id = ${storeId}::uuid and id::text = ${id} and deleted_at is null
      returning ${ENDPOINT_COLUMNS}`.execute(trx);
    const row = rows[0];
    if (!row) return null;
    if (status === 'enabled') await resumePendingDeliveries(trx, row.id, ctx.now());
    return toEndpoint(row);
  });
}

/** An endpoint as its delivery health sees it after an attempt. */
export interface EndpointHealth {
  storeId: string;
  url: string;
  status: WebhookEndpointStatus;
  /** The first failed attempt since the last success or resume. */
  failingSince: string | null;
}

/**
 * Counts an attempt into the endpoint's run of failures: a success ends the run (and needs nothing more),
 * a failure starts one if none is under way and answers the endpoint as it now stands. Each writes only
 * when the run starts or ends, not on every attempt.
 */
export async function noteAttemptOutcome(
  db: QueryExecutorProvider,
  id: string,
  succeeded: boolean,
  at: Date,
): Promise<EndpointHealth | null> {
  if (succeeded) {
    await sql`update webhook_endpoints set failing_since = null where id = ${id}::uuid and failing_since is not null`.execute(
      db,
    );
    return null;
  }
  await sql`update webhook_endpoints set failing_since = ${at.toISOString()}::timestamptz where id = ${id}::uuid and failing_since is null`.execute(
    db,
  );
  const { rows } = await sql<{
    store_id: string;
    url: string;
    status: WebhookEndpointStatus;
    failing_since: Date | string | null;
  }>`
    select store_id, url, status, failing_since from webhook_endpoints where id = ${id}::uuid and deleted_at is null`.execute(
    db,
  );
  const row = rows[0];
  return row
    ? {
        storeId: row.store_id,
        url: row.url,
        status: row.status,
        failingSince: row.failing_since ? iso(row.failing_since) : null,
      }
    : null;
}

/**
 * Turns an endpoint off on the product's own decision (410, persistent failure), in the transaction of
 * the event that records it; false when it was already off or is gone (someone else decided first).
 */
export async function disableEndpointRow(
  db: QueryExecutorProvider,
  id: string,
  reason: string,
  at: string,
): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    update webhook_endpoints set status = 'disabled', disabled_at = ${at}::timestamptz, disabled_reason = ${reason}
    where id = ${id}::uuid and status = 'enabled' and deleted_at is null returning id`.execute(db);
  return rows.length > 0;
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
