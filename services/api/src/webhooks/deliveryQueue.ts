import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { DELIVERIES_DUE_CHANNEL } from '@claims/projections';
import {
  DomainFailure,
  type ParkedWebhookDelivery,
  WEBHOOK_TEST_EVENT_TYPE,
  WebhookDeliveryAttempt,
  WebhookReplayResponse,
  type WebhookDeliveryAttemptPage,
  type WebhookDeliveryAttemptQuery,
} from '@claims/contracts';

/**
 * The webhook delivery queue, beside the endpoints it delivers to (endpointRepository.ts): every statement on
 * `webhook_deliveries` after the outbox projection has enqueued a delivery, on `webhook_delivery_attempts` and on
 * `webhook_delivery_parked`, and the end of an endpoint's run of failures. The delivery worker, the webhook routes and
 * the operations page go through it.
 */

/** Wakes the listening delivery workers (inside a transaction, at its commit): a delivery asked for by a person is due now. */
async function notifyDeliveriesDue(db: QueryExecutorProvider): Promise<void> {
  await sql`select pg_notify(${DELIVERIES_DUE_CHANNEL}, '')`.execute(db);
}

/** A delivery claimed by a worker, with what it takes to send it. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  webhookId: string;
  payload: string;
  url: string;
  /** The endpoint's secret, and a rotated-out one still within its overlap: each signs the delivery, new first. */
  secrets: string[];
  claimToken: string;
  /** The retry schedule as claimed: only the claim's holder changes it, so it is still current when the attempt is recorded. */
  scheduleAttempts: number;
  scheduleStartedAt: Date | null;
}

/** What one attempt came to. */
export type DeliveryOutcome = Pick<
  WebhookDeliveryAttempt,
  'statusCode' | 'error' | 'succeeded' | 'durationMs' | 'responseExcerpt'
>;

/** The retry policy: when to try again after a failure of a schedule, or null to give up. */
export type NextAttemptAfterFailure = (input: {
  failedAttempts: number;
  firstAttemptAt: Date;
  failedAt: Date;
}) => Date | null;

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  webhook_id: string;
  payload: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  claim_token: string;
  schedule_attempts: number;
  schedule_started_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * Claims due deliveries, at most `perEndpoint` under way per endpoint (counting every worker's leases),
 * so one slow or dead receiver holds at most that many senders and every other endpoint's deliveries go
 * on. Claims are taken one worker at a time (a transaction-scoped advisory lock: the statement is short),
 * so the count of leases each sees is exact; `FOR UPDATE SKIP LOCKED` keeps off rows a replay or a
 * recording holds. A lease (`next_attempt_at` moved ahead, a `claim_token`) keeps a delivery sent outside
 * any transaction from being taken again; a worker that dies holding one loses nothing: when the lease
 * runs out, the delivery is due again, with the same webhook-id.
 */
export async function claimDueDeliveries<DB>(
  db: Kysely<DB>,
  now: Date,
  limit: number,
  leaseMs: number,
  perEndpoint: number = Number.MAX_SAFE_INTEGER,
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const token = randomUUID();
  const at = now.toISOString();
  const rows = await db.transaction().execute(async (trx) => {
    // Plain index scans, which mark the dead entries they pass (bitmap scans do not): without vacuum, updates leave many.
    await sql`select pg_advisory_xact_lock(hashtextextended('webhook-delivery-claims', 0)), set_config('enable_bitmapscan', 'off', true)`.execute(
      trx,
    );
    const { rows: claimed } = await sql<ClaimedRow>`
      with in_flight as (
        select endpoint_id, count(*)::int as n from webhook_deliveries
        where status = 'pending' and claim_token is not null and next_attempt_at > ${at}::timestamptz
        group by endpoint_id
      ),
      -- Per endpoint, its earliest due deliveries up to its free places: an index probe each, however long a dead one's
      -- backlog (1.7 ms for 500 endpoints, one owed 100,000; ranking every due row with a window function took 350-680 ms).
      candidates as (
        select d.id, d.next_attempt_at
        from webhook_endpoints e
        left join in_flight f on f.endpoint_id = e.id
        cross join lateral (
          select d.id, d.next_attempt_at from webhook_deliveries d
          where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= ${at}::timestamptz
          order by d.next_attempt_at, d.id
          limit greatest(${perEndpoint}::bigint - coalesce(f.n, 0), 0)
        ) d
        where e.deleted_at is null and e.status = 'enabled'
      ),
      chosen as (
        select id from candidates order by next_attempt_at, id limit ${limit}
      ),
      due as (
        select d.id, e.url, e.secret,
               case when e.previous_secret_expires_at > ${at}::timestamptz then e.previous_secret end as previous_secret
        from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where d.id in (select id from chosen) and d.status = 'pending' and d.next_attempt_at <= ${at}::timestamptz
        for update of d skip locked
      )
      update webhook_deliveries d
      set next_attempt_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz, claim_token = ${token}::uuid
      from due e
      where d.id = e.id
      returning d.id, d.endpoint_id, d.webhook_id, d.payload, e.url, e.secret, e.previous_secret, d.claim_token, d.schedule_attempts, d.schedule_started_at`.execute(
      trx,
    );
    return claimed;
  });
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    webhookId: r.webhook_id,
    payload: r.payload,
    url: r.url,
    secrets: r.previous_secret ? [r.secret, r.previous_secret] : [r.secret],
    claimToken: r.claim_token,
    scheduleAttempts: r.schedule_attempts,
    scheduleStartedAt: r.schedule_started_at ? new Date(r.schedule_started_at) : null,
  }));
}

/** One attempt that ended, to record. */
export interface EndedAttempt {
  delivery: ClaimedDelivery;
  outcome: DeliveryOutcome;
  attemptedAt: Date;
}

/**
 * Records attempts and decides what comes next for each: done on a 2xx, else the retry policy's next
 * attempt, or `failed` once it gives up. Only the holder of the claim reschedules: an attempt that
 * outlived its lease (or was overtaken by a replay) is recorded and changes nothing else. One statement
 * for any number of attempts (one commit), so a worker records together what ended meanwhile. With
 * `clearFailing`, an endpoint whose attempts here all succeeded ends its run of failures in the same
 * statement (one with a failure here is left to the caller: the order of its outcomes matters).
 * Each delivery at most once per call.
 */
export async function recordDeliveryAttempts<A extends EndedAttempt>(
  db: QueryExecutorProvider,
  attempts: readonly A[],
  nextAttemptAfterFailure: (input: Parameters<NextAttemptAfterFailure>[0], attempt: A) => Date | null,
  clearFailing = false,
): Promise<void> {
  if (attempts.length === 0) return;
  const rows = attempts.map((ended) => {
    const { delivery, outcome, attemptedAt } = ended;
    // What the holder writes; computed from the claimed schedule, which only the holder changes.
    const firstAttemptAt = delivery.scheduleStartedAt ?? attemptedAt;
    const scheduleAttempts = delivery.scheduleAttempts + 1;
    // Delays count from when the attempt ended, so a 10 s timeout does not eat into a 5 s delay.
    const failedAt = new Date(attemptedAt.getTime() + outcome.durationMs);
    const next = outcome.succeeded
      ? null
      : nextAttemptAfterFailure({ failedAttempts: scheduleAttempts, firstAttemptAt, failedAt }, ended);
    return {
      id: delivery.id,
      endpoint_id: delivery.endpointId,
      claim_token: delivery.claimToken,
      attempt_id: randomUUID(),
      attempted_at: attemptedAt.toISOString(),
      status_code: outcome.statusCode,
      error: outcome.error,
      succeeded: outcome.succeeded,
      duration_ms: outcome.durationMs,
      response_excerpt: outcome.responseExcerpt,
      schedule_attempts: scheduleAttempts,
      schedule_started_at: firstAttemptAt.toISOString(),
      status: outcome.succeeded ? 'succeeded' : next ? 'pending' : 'failed',
      next_attempt_at: next ? next.toISOString() : null,
    };
  });
  await sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as i(
        id uuid, endpoint_id uuid, claim_token uuid, attempt_id uuid, attempted_at timestamptz, status_code int, error text, succeeded boolean,
        duration_ms int, response_excerpt text, schedule_attempts int, schedule_started_at timestamptz, status text, next_attempt_at timestamptz)
    ),
    -- Locked in id order, so two batches never wait on each other in a circle.
    locked as (
      select d.id, d.attempts + 1 as attempt, d.claim_token is not distinct from i.claim_token as holder, d.replay_requested
      from webhook_deliveries d join input i on i.id = d.id
      order by d.id
      for update of d
    ),
    recorded as (
      insert into webhook_delivery_attempts (id, delivery_id, endpoint_id, attempt, replay, attempted_at, status_code, error, succeeded, duration_ms, response_excerpt)
      select i.attempt_id, i.id, i.endpoint_id, l.attempt, l.holder and l.replay_requested, i.attempted_at, i.status_code, i.error, i.succeeded,
             i.duration_ms, i.response_excerpt
      from locked l join input i on i.id = l.id
    ),
    rescheduled as (
      update webhook_deliveries d
      set attempts = l.attempt, last_attempt_at = i.attempted_at,
          schedule_attempts = case when l.holder then i.schedule_attempts else d.schedule_attempts end,
          schedule_started_at = case when l.holder then i.schedule_started_at else d.schedule_started_at end,
          status = case when l.holder then i.status else d.status end,
          next_attempt_at = case when l.holder then i.next_attempt_at else d.next_attempt_at end,
          claim_token = case when l.holder then null else d.claim_token end,
          replay_requested = case when l.holder then false else d.replay_requested end
      from locked l join input i on i.id = l.id
      where d.id = l.id
    )
    ${
      clearFailing
        ? sql`
      update webhook_endpoints set failing_since = null
      where failing_since is not null and id in (select endpoint_id from input group by endpoint_id having bool_and(succeeded))`
        : sql`select 1`
    }`.execute(db);
}

/** Records one attempt: {@link recordDeliveryAttempts} of one. */
export async function recordDeliveryAttempt(
  db: QueryExecutorProvider,
  delivery: ClaimedDelivery,
  outcome: DeliveryOutcome,
  attemptedAt: Date,
  nextAttemptAfterFailure: NextAttemptAfterFailure,
): Promise<void> {
  await recordDeliveryAttempts(db, [{ delivery, outcome, attemptedAt }], nextAttemptAfterFailure);
}

/** Hands an unsent claim back (its worker is stopping): due again at once rather than after the lease. */
export async function releaseDelivery(db: QueryExecutorProvider, delivery: ClaimedDelivery, now: Date): Promise<void> {
  await sql`
    update webhook_deliveries set next_attempt_at = ${now.toISOString()}::timestamptz, claim_token = null
    where id = ${delivery.id}::uuid and claim_token = ${delivery.claimToken}::uuid`.execute(db);
}

/**
 * Cancels what a deleted endpoint was still owed. Call it under the outbox projection's lock, in the
 * endpoint's deletion transaction, so no batch adds a delivery for it afterwards.
 */
export async function cancelPendingDeliveries(trx: QueryExecutorProvider, endpointId: string): Promise<void> {
  await sql`
    update webhook_deliveries set status = 'cancelled', next_attempt_at = null, claim_token = null
    where endpoint_id = ${endpointId}::uuid and status = 'pending'`.execute(trx);
}

/**
 * An endpoint turned back on: what it is still owed is due at once, each on a fresh retry schedule
 * (its failures while the receiver was broken do not count against the day it is retried for).
 */
export async function resumePendingDeliveries(
  trx: QueryExecutorProvider,
  endpointId: string,
  now: string,
): Promise<void> {
  await sql`
    update webhook_deliveries set next_attempt_at = ${now}::timestamptz, schedule_started_at = null, schedule_attempts = 0
    where endpoint_id = ${endpointId}::uuid and status = 'pending' and claim_token is null`.execute(trx);
  await notifyDeliveriesDue(trx);
}

/**
 * Makes a delivery due now, whatever its state, with the same `webhook-id`; if that attempt fails
 * the retry schedule starts over. An attempt in flight at this moment no longer reschedules it.
 * Null when the endpoint has no such delivery.
 */
export async function replayDelivery(
  db: QueryExecutorProvider,
  endpointId: string,
  deliveryId: string,
  now: string,
): Promise<WebhookReplayResponse | null> {
  const { rows } = await sql<{ id: string; webhook_id: string; status: string; next_attempt_at: Date | string | null }>`
    update webhook_deliveries
    set status = 'pending', next_attempt_at = ${now}::timestamptz, schedule_started_at = null, schedule_attempts = 0,
        replay_requested = true, claim_token = null
    where endpoint_id = ${endpointId}::uuid and id::text = ${deliveryId}
    returning id, webhook_id, status, next_attempt_at`.execute(db);
  const row = rows[0];
  if (!row) return null;
  await notifyDeliveriesDue(db);
  return WebhookReplayResponse.parse({
    deliveryId: row.id,
    webhookId: row.webhook_id,
    status: row.status,
    nextAttemptAt: row.next_attempt_at ? iso(row.next_attempt_at) : null,
  });
}

/**
 * Replays every delivery to the endpoint of an event that occurred in `[from, to)`, whatever its state
 * (succeeded ones too: a receiver that lost what it stored asks for it again), each with its own
 * `webhook-id`, as {@link replayDelivery} does one. Answers how many.
 */
export async function replayDeliveriesBetween(
  db: QueryExecutorProvider,
  endpointId: string,
  from: string,
  to: string,
  now: string,
): Promise<number> {
  const { rows } = await sql<{ replayed: number }>`
    with replayed as (
      update webhook_deliveries
      set status = 'pending', next_attempt_at = ${now}::timestamptz, schedule_started_at = null, schedule_attempts = 0,
          replay_requested = true, claim_token = null
      where endpoint_id = ${endpointId}::uuid and occurred_at >= ${from}::timestamptz and occurred_at < ${to}::timestamptz
      returning 1
    )
    select count(*)::int as replayed from replayed`.execute(db);
  const replayed = rows[0]?.replayed ?? 0;
  if (replayed > 0) await notifyDeliveriesDue(db);
  return replayed;
}

/**
 * A test delivery to one endpoint (`webhook.test`, asked for from the back-office): a delivery like any
 * other (signed, retried, in the log), of no event of the store, so its event id is new.
 */
export async function enqueueTestDelivery(
  db: QueryExecutorProvider,
  endpoint: { id: string; storeId: string },
  now: string,
): Promise<{ deliveryId: string; webhookId: string }> {
  const deliveryId = randomUUID();
  const eventId = randomUUID();
  const webhookId = `msg_${createHash('sha256').update(`${endpoint.id}:${eventId}`).digest('hex').slice(0, 32)}`;
  const body = JSON.stringify({
    type: WEBHOOK_TEST_EVENT_TYPE,
    timestamp: now,
    data: {
      endpointId: endpoint.id,
      storeId: endpoint.storeId,
      message: 'A test delivery from the back-office: no event happened.',
    },
  });
  await sql`
    insert into webhook_deliveries (id, endpoint_id, store_id, event_id, event_type, webhook_id, payload, status, next_attempt_at, occurred_at)
    values (${deliveryId}::uuid, ${endpoint.id}::uuid, ${endpoint.storeId}::uuid, ${eventId}::uuid, ${WEBHOOK_TEST_EVENT_TYPE}, ${webhookId},
            ${body}, 'pending', ${now}::timestamptz, ${now}::timestamptz)`.execute(db);
  await notifyDeliveriesDue(db);
  return { deliveryId, webhookId };
}

interface AttemptRow {
  id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  replay: boolean;
  attempted_at: Date | string;
  status_code: number | null;
  error: string | null;
  succeeded: boolean;
  duration_ms: number;
  response_excerpt: string | null;
  delivery_status: string;
  next_attempt_at: Date | string | null;
}

const encodeCursor = (row: AttemptRow) => Buffer.from(`${iso(row.attempted_at)}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): { attemptedAt: string; id: string } {
  const [attemptedAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!attemptedAt || !id || Number.isNaN(Date.parse(attemptedAt)) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new DomainFailure('validation_failed', 'The cursor is not one this API gave out.');
  }
  return { attemptedAt, id };
}

/** Every attempt to the endpoint, newest first. */
export async function listDeliveryAttempts(
  db: QueryExecutorProvider,
  endpointId: string,
  query: WebhookDeliveryAttemptQuery,
): Promise<WebhookDeliveryAttemptPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const { rows } = await sql<AttemptRow>`
    select a.id, a.delivery_id, d.webhook_id, d.event_id, d.event_type, a.attempt, a.replay, a.attempted_at,
           a.status_code, a.error, a.succeeded, a.duration_ms, a.response_excerpt, d.status as delivery_status,
           -- While an attempt is under way next_attempt_at is its lease, not a retry.
           case when d.status = 'pending' and d.claim_token is null then d.next_attempt_at end as next_attempt_at
    from webhook_delivery_attempts a join webhook_deliveries d on d.id = a.delivery_id
    where a.endpoint_id = ${endpointId}::uuid
      ${query.deliveryId ? sql`and a.delivery_id = ${query.deliveryId}::uuid` : sql``}
      ${after ? sql`and (a.attempted_at, a.id) < (${after.attemptedAt}::timestamptz, ${after.id}::uuid)` : sql``}
    order by a.attempted_at desc, a.id desc
    limit ${query.limit + 1}`.execute(db);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) =>
      WebhookDeliveryAttempt.parse({
        id: row.id,
        deliveryId: row.delivery_id,
        webhookId: row.webhook_id,
        eventId: row.event_id,
        eventType: row.event_type,
        attempt: row.attempt,
        replay: row.replay,
        attemptedAt: iso(row.attempted_at),
        statusCode: row.status_code,
        error: row.error,
        succeeded: row.succeeded,
        durationMs: row.duration_ms,
        responseExcerpt: row.response_excerpt,
        deliveryStatus: row.delivery_status,
        nextAttemptAt: row.next_attempt_at ? iso(row.next_attempt_at) : null,
      }),
    ),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
  };
}

/** Deliveries still to be sent, due or not (a figure of the outbox for metrics). */
export async function countPendingDeliveries(db: QueryExecutorProvider): Promise<number> {
  const { rows } = await sql<{
    pending: number;
  }>`select count(*)::int as pending from webhook_deliveries where status = 'pending'`.execute(db);
  return rows[0]?.pending ?? 0;
}

/**
 * Deliveries whose processing kept failing inside our code (an exception, not a receiver's answer: those are attempts on
 * the retry schedule), set aside until a person retries or skips them. A parked delivery stays `pending` with no next
 * attempt, so no worker claims it; its row keeps who decided what, and when.
 */
export const webhookDeliveryFaultMigrations: Record<string, Migration> = {
  '2720_webhook_delivery_parked': sqlMigration(
    sql`
      create table webhook_delivery_parked (
        delivery_id uuid primary key references webhook_deliveries(id) on delete cascade,
        error text not null,
        failures int not null,
        parked_at timestamptz not null default now(),
        resolution text check (resolution in ('retried', 'skipped')),
        resolved_by text,
        resolved_at timestamptz
      )`,
  ),
};

/** Hands a claimed delivery back after its processing failed: due again at `at`, unless another claim took it meanwhile. */
export async function releaseDeliveryUntil(
  db: QueryExecutorProvider,
  delivery: ClaimedDelivery,
  at: Date,
): Promise<void> {
  await sql`
    update webhook_deliveries set next_attempt_at = ${at.toISOString()}::timestamptz, claim_token = null
    where id = ${delivery.id}::uuid and claim_token = ${delivery.claimToken}::uuid`.execute(db);
}

/** Parks a claimed delivery (no worker claims it until a person retries it); false when its claim was no longer this one's. */
export async function parkDelivery<DB>(
  db: Kysely<DB>,
  delivery: ClaimedDelivery,
  error: string,
  failures: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql`
      update webhook_deliveries set next_attempt_at = null, claim_token = null
      where id = ${delivery.id}::uuid and claim_token = ${delivery.claimToken}::uuid and status = 'pending' returning id`.execute(
      trx,
    );
    if (rows.length === 0) return false;
    await sql`
      insert into webhook_delivery_parked (delivery_id, error, failures) values (${delivery.id}::uuid, ${error}, ${failures})
      on conflict (delivery_id) do update
      set error = excluded.error, failures = excluded.failures, parked_at = now(), resolution = null, resolved_by = null, resolved_at = null`.execute(
      trx,
    );
    return true;
  });
}

interface ParkedDeliveryRow {
  delivery_id: string;
  endpoint_id: string;
  store_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  error: string;
  failures: number;
  parked_at: Date | string;
}

/** Parked deliveries not yet retried or skipped (nor replayed or cancelled from the endpoint's page since), oldest first. */
export async function listParkedDeliveries(db: QueryExecutorProvider): Promise<ParkedWebhookDelivery[]> {
  const { rows } = await sql<ParkedDeliveryRow>`
    select p.delivery_id, d.endpoint_id, d.store_id, d.webhook_id, d.event_id, d.event_type, p.error, p.failures, p.parked_at
    from webhook_delivery_parked p join webhook_deliveries d on d.id = p.delivery_id
    where p.resolution is null and d.status = 'pending' and d.next_attempt_at is null order by p.parked_at, p.delivery_id`.execute(
    db,
  );
  return rows.map((r) => ({
    deliveryId: r.delivery_id,
    endpointId: r.endpoint_id,
    storeId: r.store_id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    eventType: r.event_type,
    error: r.error,
    failures: r.failures,
    parkedAt: iso(r.parked_at),
  }));
}

/**
 * A person's decision on a parked delivery, kept on its row: `retried` makes it due now with the same webhook-id (a
 * failure then is handled as any other), `skipped` cancels it. False when it was not parked (or already decided).
 */
export async function resolveParkedDelivery<DB>(
  db: Kysely<DB>,
  deliveryId: string,
  resolution: 'retried' | 'skipped',
  operator: string,
  now: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql`
      update webhook_delivery_parked set resolution = ${resolution}, resolved_by = ${operator}, resolved_at = now()
      where delivery_id = ${deliveryId}::uuid and resolution is null returning delivery_id`.execute(trx);
    if (rows.length === 0) return false;
    if (resolution === 'skipped') {
      await sql`update webhook_deliveries set status = 'cancelled', next_attempt_at = null, claim_token = null where id = ${deliveryId}::uuid`.execute(
        trx,
      );
      return true;
    }
    await sql`
      update webhook_deliveries set next_attempt_at = ${now}::timestamptz, schedule_started_at = null, schedule_attempts = 0, claim_token = null
      where id = ${deliveryId}::uuid`.execute(trx);
    await notifyDeliveriesDue(trx);
    return true;
  });
}
