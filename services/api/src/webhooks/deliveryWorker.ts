import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import { nextAttemptAfterFailure } from './retrySchedule.js';
import { sendWebhook, DELIVERY_TIMEOUT_MS, type WebhookOutcome } from './sendWebhook.js';

export interface DeliveryWorker {
  wake(): void;
  /** Resolves once every delivery due at the call has been attempted. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface DeliveryWorkerOptions {
  pollMs?: number;
  batchSize?: number;
  /** A claimed delivery is not claimed again for this long: longer than any attempt can take. */
  leaseMs?: number;
  timeoutMs?: number;
}

/** A delivery claimed by this worker, with what it takes to send it. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  webhookId: string;
  payload: string;
  url: string;
  /** The endpoint's secret, and a rotated-out one still within its overlap: each signs the delivery, new first. */
  secrets: string[];
  claimToken: string;
}

interface ClaimedRow { id: string; endpoint_id: string; webhook_id: string; payload: string; url: string; secret: string; previous_secret: string | null; claim_token: string }

/**
 * Claims due deliveries: one statement, `FOR UPDATE SKIP LOCKED` so concurrent workers (API
 * processes, `npm run worker`) take disjoint rows, and a lease (`next_attempt_at` moved ahead) so
 * nobody else takes them while they are sent outside any transaction. A worker that dies holding a
 * lease loses nothing: when the lease runs out, the delivery is due again, with the same webhook-id.
 */
export async function claimDueDeliveries<DB>(db: Kysely<DB>, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const token = randomUUID();
  const { rows } = await sql<ClaimedRow>`
    with due as (
      select d.id, e.url, e.secret,
             case when e.previous_secret_expires_at > ${now.toISOString()}::timestamptz then e.previous_secret end as previous_secret
      from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id and e.deleted_at is null and e.status = 'enabled'
      where d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz
      order by d.next_attempt_at
      limit ${limit}
      for update of d skip locked
    )
    update webhook_deliveries d
    set next_attempt_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz, claim_token = ${token}::uuid
    from due e
    where d.id = e.id
    returning d.id, d.endpoint_id, d.webhook_id, d.payload, e.url, e.secret, e.previous_secret, d.claim_token`.execute(db);
  return rows.map((r) => ({
    id: r.id, endpointId: r.endpoint_id, webhookId: r.webhook_id, payload: r.payload, url: r.url,
    secrets: r.previous_secret ? [r.secret, r.previous_secret] : [r.secret], claimToken: r.claim_token,
  }));
}

/**
 * Records one attempt and decides what comes next: done on a 2xx, else the next retry of the
 * schedule, or `failed` once the schedule has run 24 h. Only the holder of the claim reschedules:
 * an attempt that outlived its lease (or was overtaken by a replay) is recorded and changes nothing else.
 */
export async function recordAttempt<DB>(db: Kysely<DB>, delivery: ClaimedDelivery, outcome: WebhookOutcome, attemptedAt: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ attempts: number; schedule_attempts: number; schedule_started_at: Date | string | null; claim_token: string | null; replay_requested: boolean }>`
      select attempts, schedule_attempts, schedule_started_at, claim_token, replay_requested
      from webhook_deliveries where id = ${delivery.id}::uuid for update`.execute(trx);
    const row = rows[0];
    if (!row) return;
    const attempt = row.attempts + 1;
    const holder = row.claim_token === delivery.claimToken;
    await sql`
      insert into webhook_delivery_attempts (id, delivery_id, endpoint_id, attempt, replay, attempted_at, status_code, error, succeeded, duration_ms)
      values (${randomUUID()}::uuid, ${delivery.id}::uuid, ${delivery.endpointId}::uuid, ${attempt}, ${holder && row.replay_requested},
              ${attemptedAt.toISOString()}::timestamptz, ${outcome.statusCode}, ${outcome.error}, ${outcome.succeeded}, ${outcome.durationMs})`.execute(trx);
    if (!holder) {
      await sql`update webhook_deliveries set attempts = ${attempt}, last_attempt_at = ${attemptedAt.toISOString()}::timestamptz where id = ${delivery.id}::uuid`.execute(trx);
      return;
    }
    const firstAttemptAt = row.schedule_started_at ? new Date(row.schedule_started_at) : attemptedAt;
    const scheduleAttempts = row.schedule_attempts + 1;
    // Delays count from when the attempt ended, so a 10 s timeout does not eat into a 5 s delay.
    const failedAt = new Date(attemptedAt.getTime() + outcome.durationMs);
    const scheduled = outcome.succeeded ? null : nextAttemptAfterFailure({ failedAttempts: scheduleAttempts, firstAttemptAt, failedAt });
    // A receiver that asks for time (429 or 503 with Retry-After) is not tried again sooner than it asked.
    const asked = outcome.retryAfterMs === null ? null : new Date(failedAt.getTime() + outcome.retryAfterMs);
    const next = scheduled && asked && asked > scheduled ? asked : scheduled;
    const status = outcome.succeeded ? 'succeeded' : next ? 'pending' : 'failed';
    await sql`
      update webhook_deliveries
      set attempts = ${attempt}, schedule_attempts = ${scheduleAttempts}, schedule_started_at = ${firstAttemptAt.toISOString()}::timestamptz,
          last_attempt_at = ${attemptedAt.toISOString()}::timestamptz, status = ${status},
          next_attempt_at = ${next ? next.toISOString() : null}::timestamptz, claim_token = null, replay_requested = false
      where id = ${delivery.id}::uuid`.execute(trx);
    // 410 Gone: the receiver says the endpoint is no more; nothing is sent to it until it is enabled again.
    if (outcome.statusCode === 410) {
      await sql`
        update webhook_endpoints set status = 'disabled', disabled_at = ${attemptedAt.toISOString()}::timestamptz,
          disabled_reason = 'The receiver answered 410 Gone; enable the endpoint again once it accepts deliveries.'
        where id = ${delivery.endpointId}::uuid and status = 'enabled'`.execute(trx);
    }
  });
}

/** Hands an unsent claim back (the worker is stopping): due again at once rather than after the lease. */
async function release<DB>(db: Kysely<DB>, delivery: ClaimedDelivery, now: Date): Promise<void> {
  await sql`
    update webhook_deliveries set next_attempt_at = ${now.toISOString()}::timestamptz, claim_token = null
    where id = ${delivery.id}::uuid and claim_token = ${delivery.claimToken}::uuid`.execute(db);
}

/**
 * The webhook sender: polls for due deliveries (they appear within a poll of the outbox
 * projection), sends each batch concurrently outside any transaction, records every attempt.
 * Any number of workers may run against one PostgreSQL; they never send the same claim twice.
 */
export function startDeliveryWorker(ctx: AppContext, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const pollMs = options.pollMs ?? 250;
  const batchSize = options.batchSize ?? 20;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? timeoutMs * 6;
  const db = ctx.database.db;
  const now = () => new Date(ctx.now());
  const aborter = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = now();
    const outcome = await sendWebhook(
      { url: delivery.url, secrets: delivery.secrets, webhookId: delivery.webhookId, timestampSeconds: Math.floor(attemptedAt.getTime() / 1000), body: delivery.payload },
      { allowPrivate: ctx.config.webhookAllowPrivateUrls, timeoutMs, signal: aborter.signal },
    );
    if (aborter.signal.aborted) {
      await release(db, delivery, now());
      return;
    }
    await recordAttempt(db, delivery, outcome, attemptedAt);
    ctx.log.debug({ webhookId: delivery.webhookId, statusCode: outcome.statusCode, error: outcome.error }, 'webhook attempt');
  }

  async function step(): Promise<void> {
    while (!stopped) {
      const claimed = await claimDueDeliveries(db, now(), batchSize, leaseMs);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((delivery) => deliver(delivery).catch((error: unknown) => {
        ctx.log.error({ err: error, webhookId: delivery.webhookId }, 'recording a webhook attempt failed; the lease will expire and it is retried');
      })));
    }
  }

  function tick(): Promise<void> {
    running = running.then(step).catch((error: unknown) => ctx.log.error({ err: error }, 'webhook delivery step failed; retrying'));
    return running;
  }
  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void tick().then(schedule), pollMs);
  }
  schedule();

  return {
    wake: () => void tick(),
    catchUp: () => tick(),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      aborter.abort();
      await running;
    },
  };
}
