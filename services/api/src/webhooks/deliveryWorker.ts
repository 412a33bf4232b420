import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { claimDueDeliveries, recordDeliveryAttempt, releaseDelivery, type ClaimedDelivery } from '@claims/projections';
import type { AppContext } from '../context.js';
import { nextAttemptAfterFailure } from './retrySchedule.js';
import { sendWebhook, DELIVERY_TIMEOUT_MS, type WebhookOutcome } from './sendWebhook.js';
import { disableGoneEndpoint } from './endpointRepository.js';

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

/**
 * Records an attempt of a claimed delivery, retried on this worker's schedule when it failed, but never
 * sooner than a receiver's Retry-After (429 or 503) asked; a 410 Gone disables the endpoint at once.
 */
export async function recordAttempt<DB>(db: Kysely<DB>, delivery: ClaimedDelivery, outcome: WebhookOutcome, attemptedAt: Date): Promise<void> {
  await recordDeliveryAttempt(db, delivery, outcome, attemptedAt, (input) => {
    const scheduled = nextAttemptAfterFailure(input);
    const asked = outcome.retryAfterMs === null ? null : new Date(input.failedAt.getTime() + outcome.retryAfterMs);
    return scheduled && asked && asked > scheduled ? asked : scheduled;
  });
  if (outcome.statusCode === 410) await disableGoneEndpoint(db, delivery.endpointId, attemptedAt);
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
      await releaseDelivery(db, delivery, now());
      return;
    }
    await recordSurvivingRestarts(delivery, outcome, attemptedAt);
    ctx.log.debug({ webhookId: delivery.webhookId, statusCode: outcome.statusCode, error: outcome.error }, 'webhook attempt');
  }

  /**
   * The receiver has had its attempt: an attempt left unrecorded is sent again once the lease runs
   * out, a repeated webhook-id. So a database that is restarting (or a dropped connection) is waited
   * for, within half the lease, before giving up to that repeat.
   */
  async function recordSurvivingRestarts(delivery: ClaimedDelivery, outcome: WebhookOutcome, attemptedAt: Date): Promise<void> {
    const giveUpAt = Date.now() + leaseMs / 2;
    for (let waitMs = 250; ; waitMs = Math.min(waitMs * 2, 2_000)) {
      try {
        await recordAttempt(db, delivery, outcome, attemptedAt);
        return;
      } catch (error) {
        if (stopped || Date.now() + waitMs > giveUpAt) throw error;
        ctx.log.warn({ err: error, webhookId: delivery.webhookId }, 'recording a webhook attempt failed; trying again');
        await sleep(waitMs, undefined, { signal: aborter.signal }).catch(() => undefined);
      }
    }
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
