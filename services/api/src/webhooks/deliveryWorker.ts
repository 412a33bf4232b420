import { setTimeout as sleep } from 'node:timers/promises';
import { claimDueDeliveries, recordDeliveryAttempt, releaseDelivery, type ClaimedDelivery } from '@claims/projections';
import type { AppContext } from '../context.js';
import { nextAttemptAfterFailure } from './retrySchedule.js';
import { sendWebhook, DELIVERY_TIMEOUT_MS, type WebhookOutcome } from './sendWebhook.js';
import { recordEndpointHealth } from './endpointHealth.js';

export interface DeliveryWorker {
  wake(): void;
  /** Resolves once every delivery due at the call has been attempted. */
  catchUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface DeliveryWorkerOptions {
  pollMs?: number;
  /** Attempts under way in this worker at once, over every endpoint. */
  maxInFlight?: number;
  /** Attempts under way to one endpoint at once, over every worker (default: the configuration's). */
  perEndpoint?: number;
  /** A claimed delivery is not claimed again for this long: longer than any attempt can take. */
  leaseMs?: number;
  timeoutMs?: number;
}

/**
 * Records an attempt of a claimed delivery, retried on this worker's schedule when it failed, but never
 * sooner than a receiver's Retry-After (429 or 503) asked; then the endpoint's health: a 410 Gone, or
 * failures for the whole persistent-failure window, turn the endpoint off.
 */
export async function recordAttempt(ctx: AppContext, delivery: ClaimedDelivery, outcome: WebhookOutcome, attemptedAt: Date): Promise<void> {
  await recordDeliveryAttempt(ctx.database.db, delivery, outcome, attemptedAt, (input) => {
    const scheduled = nextAttemptAfterFailure(input);
    const asked = outcome.retryAfterMs === null ? null : new Date(input.failedAt.getTime() + outcome.retryAfterMs);
    return scheduled && asked && asked > scheduled ? asked : scheduled;
  });
  await recordEndpointHealth(ctx, {
    endpointId: delivery.endpointId, webhookId: delivery.webhookId, statusCode: outcome.statusCode, succeeded: outcome.succeeded, at: attemptedAt,
  });
}

/**
 * The webhook sender: keeps up to `maxInFlight` attempts under way, each sent outside any transaction
 * and recorded when it ends, and claims more as soon as one ends (or at each poll: deliveries appear
 * within a poll of the outbox projection). A claim never takes more than `perEndpoint` attempts under way
 * for one endpoint, so a receiver that hangs until the timeout holds only those senders and delays no
 * other endpoint. Any number of workers may run against one PostgreSQL; they never send the same claim twice.
 */
export function startDeliveryWorker(ctx: AppContext, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const pollMs = options.pollMs ?? 250;
  const maxInFlight = options.maxInFlight ?? 32;
  const perEndpoint = options.perEndpoint ?? ctx.config.webhookMaxInFlightPerEndpoint;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? timeoutMs * 6;
  const db = ctx.database.db;
  const now = () => new Date(ctx.now());
  const aborter = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** Claims run one after another, so two never both count the same free places. */
  let claiming: Promise<number> = Promise.resolve(0);

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
        await recordAttempt(ctx, delivery, outcome, attemptedAt);
        return;
      } catch (error) {
        if (stopped || Date.now() + waitMs > giveUpAt) throw error;
        ctx.log.warn({ err: error, webhookId: delivery.webhookId }, 'recording a webhook attempt failed; trying again');
        await sleep(waitMs, undefined, { signal: aborter.signal }).catch(() => undefined);
      }
    }
  }

  function start(delivery: ClaimedDelivery): void {
    const attempt: Promise<void> = deliver(delivery)
      .catch((error: unknown) => {
        ctx.log.error({ err: error, webhookId: delivery.webhookId }, 'recording a webhook attempt failed; the lease will expire and it is retried');
      })
      .finally(() => {
        inFlight.delete(attempt);
        // A place is free: the next due delivery (of this endpoint or another) need not wait for the poll.
        if (!stopped) void claim();
      });
    inFlight.add(attempt);
  }

  /** Claims as many due deliveries as there are free places and starts them; how many it started. */
  function claim(): Promise<number> {
    claiming = claiming.then(async () => {
      const free = maxInFlight - inFlight.size;
      if (stopped || free <= 0) return 0;
      const claimed = await claimDueDeliveries(db, now(), free, leaseMs, perEndpoint);
      for (const delivery of claimed) start(delivery);
      return claimed.length;
    }).catch((error: unknown) => {
      ctx.log.error({ err: error }, 'claiming webhook deliveries failed; retrying at the next poll');
      return 0;
    });
    return claiming;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void claim().then(schedule), pollMs);
  }
  schedule();

  return {
    wake: () => void claim(),
    async catchUp() {
      for (;;) {
        const started = await claim();
        if (started === 0 && inFlight.size === 0) return;
        if (stopped) return;
        if (inFlight.size > 0) await Promise.race(inFlight);
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      aborter.abort();
      await claiming;
      await Promise.all(inFlight);
    },
  };
}
