import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { DELIVERIES_DUE_CHANNEL } from '@claims/projections';
import {
  claimDueDeliveries,
  parkDelivery,
  recordDeliveryAttempts,
  releaseDelivery,
  releaseDeliveryUntil,
  type ClaimedDelivery,
} from './deliveryQueue.js';
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
  /** How often due deliveries are looked for besides the wake-ups (default: the configuration's). */
  pollMs?: number;
  /** Attempts under way in this worker at once, over every endpoint. */
  maxInFlight?: number;
  /** Attempts under way to one endpoint at once, over every worker (default: the configuration's). */
  perEndpoint?: number;
  /** A claimed delivery is not claimed again for this long: longer than any attempt can take. */
  leaseMs?: number;
  timeoutMs?: number;
  /** Failures of a delivery's processing (an exception of ours, not a receiver's answer) before it is parked. */
  maxProcessingFailures?: number;
  /** The wait after the first such failure, doubling up to a minute. */
  processingRetryMs?: number;
}

const LONGEST_PROCESSING_RETRY_MS = 60_000;

/** An attempt that ended, with what its receiver answered. */
export interface EndedWebhookAttempt {
  delivery: ClaimedDelivery;
  outcome: WebhookOutcome;
  attemptedAt: Date;
}

/**
 * Records attempts of claimed deliveries (each at most once here) in one statement, each failure
 * retried on this worker's schedule, but never sooner than a receiver's Retry-After (429 or 503) asked.
 * An endpoint whose attempts all succeeded ends its run of failures in that statement; one with a
 * failure then has its health noted attempt by attempt, in order: a 410 Gone, or failures for the
 * whole persistent-failure window, turn the endpoint off.
 */
export async function recordAttempts(ctx: AppContext, ended: readonly EndedWebhookAttempt[]): Promise<void> {
  await recordOutcomes(ctx, ended);
  await noteFailingEndpoints(ctx, ended);
}

async function recordOutcomes(ctx: AppContext, ended: readonly EndedWebhookAttempt[]): Promise<void> {
  await recordDeliveryAttempts(
    ctx.database.db,
    ended,
    (input, { outcome }) => {
      const scheduled = nextAttemptAfterFailure(input);
      const asked = outcome.retryAfterMs === null ? null : new Date(input.failedAt.getTime() + outcome.retryAfterMs);
      return scheduled && asked && asked > scheduled ? asked : scheduled;
    },
    true,
  );
}

/** The health of each endpoint with a failure among `ended`, noted attempt by attempt. */
async function noteFailingEndpoints(ctx: AppContext, ended: readonly EndedWebhookAttempt[]): Promise<void> {
  const failing = new Set(ended.filter((a) => !a.outcome.succeeded).map((a) => a.delivery.endpointId));
  for (const { delivery, outcome, attemptedAt } of ended) {
    if (!failing.has(delivery.endpointId)) continue;
    await recordEndpointHealth(ctx, {
      endpointId: delivery.endpointId,
      webhookId: delivery.webhookId,
      statusCode: outcome.statusCode,
      succeeded: outcome.succeeded,
      at: attemptedAt,
    });
  }
}

/** Records one attempt: {@link recordAttempts} of one. */
export async function recordAttempt(
  ctx: AppContext,
  delivery: ClaimedDelivery,
  outcome: WebhookOutcome,
  attemptedAt: Date,
): Promise<void> {
  await recordAttempts(ctx, [{ delivery, outcome, attemptedAt }]);
}

/**
 * The webhook sender: keeps up to `maxInFlight` attempts under way, each sent outside any transaction
 * and recorded when it ends, and claims more as soon as one ends, as soon as the outbox projection commits
 * new deliveries (its notification, from whichever process projects), and at each poll (retries coming due). A claim never takes more than `perEndpoint` attempts under way
 * for one endpoint, so a receiver that hangs until the timeout holds only those senders and delays no
 * other endpoint. Any number of workers may run against one PostgreSQL; they never send the same claim twice.
 */
export function startDeliveryWorker(ctx: AppContext, options: DeliveryWorkerOptions = {}): DeliveryWorker {
  const pollMs = options.pollMs ?? ctx.config.webhookPollMs;
  // Eight endpoints' worth: one receiver hanging until the timeout holds an eighth of the senders.
  const maxInFlight = options.maxInFlight ?? 128;
  const perEndpoint = options.perEndpoint ?? ctx.config.webhookMaxInFlightPerEndpoint;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? timeoutMs * 6;
  const maxProcessingFailures = options.maxProcessingFailures ?? 5;
  const processingRetryMs = options.processingRetryMs ?? 1_000;
  const db = ctx.database.db;
  /** Processing failures per delivery not yet sent and recorded (this worker's count: a restart tries afresh). */
  const processingFailures = new Map<string, number>();
  const now = () => new Date(ctx.now());
  const aborter = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let claiming: Promise<number> | null = null;
  let nextClaim: Promise<number> | null = null;

  /** Attempts that ended and wait to be recorded, each with what its sender waits on. */
  const ended: Array<EndedWebhookAttempt & { done: (error?: unknown) => void }> = [];
  let recording = false;

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const attemptedAt = now();
    const outcome = await sendWebhook(
      {
        url: delivery.url,
        secrets: delivery.secrets,
        webhookId: delivery.webhookId,
        timestampSeconds: Math.floor(attemptedAt.getTime() / 1000),
        body: delivery.payload,
      },
      { allowPrivate: ctx.config.webhookAllowPrivateUrls, timeoutMs, signal: aborter.signal },
    );
    if (aborter.signal.aborted) {
      await releaseDelivery(db, delivery, now());
      return;
    }
    // The place stays taken (as its lease counts in claims) until the attempt is recorded.
    await new Promise<void>((resolve, reject) => {
      ended.push({
        delivery,
        outcome,
        attemptedAt,
        done: (error) => (error === undefined ? resolve() : reject(error)),
      });
      if (!recording) void recordEnded();
    });
    ctx.log.debug(
      { webhookId: delivery.webhookId, statusCode: outcome.statusCode, error: outcome.error },
      'webhook attempt',
    );
  }

  /**
   * Records what ended, one batch at a time: whatever ends while a batch is being written goes in the
   * next, so under load one commit records many attempts (rather than each sender waiting on its own).
   */
  async function recordEnded(): Promise<void> {
    recording = true;
    while (ended.length > 0) {
      const recorded = await recordBatch(takeBatch());
      await noteFailingEndpoints(ctx, recorded).catch((error: unknown) =>
        ctx.log.error({ err: error }, 'noting a failing webhook endpoint failed'),
      );
    }
    recording = false;
  }

  /**
   * Records a batch, answering each sender; what was recorded. One attempt the database refuses would fail the
   * statement for all of them, so a failed batch is recorded attempt by attempt: only that one fails (and is parked
   * after its tries), the others are not sent again.
   */
  async function recordBatch(batch: typeof ended): Promise<typeof ended> {
    try {
      await recordSurvivingRestarts(batch);
      for (const attempt of batch) attempt.done();
      return batch;
    } catch (error) {
      if (batch.length === 1 || stopped) {
        for (const attempt of batch) attempt.done(error);
        return [];
      }
    }
    const recorded: typeof ended = [];
    for (const attempt of batch) {
      try {
        await recordOutcomes(ctx, [attempt]);
        attempt.done();
        recorded.push(attempt);
      } catch (error) {
        attempt.done(error);
      }
    }
    return recorded;
  }

  /** The ended attempts to record together: each delivery once (a repeat, after an expired lease, waits for the next batch). */
  function takeBatch(): typeof ended {
    const ids = new Set<string>();
    const batch: typeof ended = [];
    for (let i = 0; i < ended.length;) {
      const attempt = ended[i]!;
      if (ids.has(attempt.delivery.id)) {
        i++;
        continue;
      }
      ids.add(attempt.delivery.id);
      batch.push(attempt);
      ended.splice(i, 1);
    }
    return batch;
  }

  /**
   * The receivers have had their attempts: an attempt left unrecorded is sent again once the lease runs
   * out, a repeated webhook-id. So a database that is restarting (or a dropped connection) is waited
   * for, within half the lease, before giving up to that repeat.
   */
  async function recordSurvivingRestarts(batch: readonly EndedWebhookAttempt[]): Promise<void> {
    const giveUpAt = Date.now() + leaseMs / 2;
    for (let waitMs = 250; ; waitMs = Math.min(waitMs * 2, 2_000)) {
      try {
        await recordOutcomes(ctx, batch);
        return;
      } catch (error) {
        if (stopped || Date.now() + waitMs > giveUpAt) throw error;
        ctx.log.warn(
          { err: error, webhookIds: batch.map((a) => a.delivery.webhookId) },
          'recording webhook attempts failed; trying again',
        );
        await sleep(waitMs, undefined, { signal: aborter.signal }).catch(() => undefined);
      }
    }
  }

  /**
   * After the processing of a delivery threw: due again after a growing pause, or parked once it failed every try, so
   * it neither comes back at every lease nor holds a place others need. While the database does not answer, nothing
   * can be written and nothing is the delivery's fault: its lease runs out and it is tried again.
   */
  async function processingFailed(delivery: ClaimedDelivery, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    const databaseAnswers = await sql`select 1`.execute(db).then(
      () => true,
      () => false,
    );
    if (!databaseAnswers || stopped) {
      ctx.log.error(
        { err: error, webhookId: delivery.webhookId },
        'processing a webhook delivery failed; the lease will expire and it is retried',
      );
      return;
    }
    const failures = (processingFailures.get(delivery.id) ?? 0) + 1;
    if (failures < maxProcessingFailures) {
      processingFailures.set(delivery.id, failures);
      await releaseDeliveryUntil(
        db,
        delivery,
        new Date(now().getTime() + Math.min(LONGEST_PROCESSING_RETRY_MS, processingRetryMs * 2 ** (failures - 1))),
      );
      ctx.log.warn(
        { err: error, webhookId: delivery.webhookId, failures },
        'processing a webhook delivery failed; it is tried again',
      );
      return;
    }
    processingFailures.delete(delivery.id);
    if (!(await parkDelivery(db, delivery, reason, failures))) return;
    ctx.log.error(
      {
        err: error,
        deliveryId: delivery.id,
        webhookId: delivery.webhookId,
        endpointId: delivery.endpointId,
        failures,
        alert: 'webhook_delivery_parked',
      },
      'webhook delivery parked: its processing failed every try; the others go on without it',
    );
  }

  function start(delivery: ClaimedDelivery): void {
    const attempt: Promise<void> = deliver(delivery)
      .then(
        () => {
          processingFailures.delete(delivery.id);
        },
        (error: unknown) => processingFailed(delivery, error),
      )
      .catch((error: unknown) => {
        ctx.log.error(
          { err: error, webhookId: delivery.webhookId },
          'a failed webhook delivery could not be rescheduled; the lease will expire and it is retried',
        );
      })
      .finally(() => {
        inFlight.delete(attempt);
        // A place is free: the next due delivery (of this endpoint or another) need not wait for the poll.
        if (!stopped) void claim();
      });
    inFlight.add(attempt);
  }

  /**
   * Claims as many due deliveries as there are free places and starts them; how many it started.
   * Claims run one after another, so two never both count the same free places; asked for while one
   * runs, one more runs after it, however many asked (a batch recorded frees many places at once).
   */
  function claim(): Promise<number> {
    if (nextClaim) return nextClaim;
    if (!claiming) {
      claiming = claimFreePlaces().finally(() => {
        claiming = null;
      });
      return claiming;
    }
    nextClaim = claiming.then(() => {
      nextClaim = null;
      return claim();
    });
    return nextClaim;
  }

  async function claimFreePlaces(): Promise<number> {
    try {
      const free = maxInFlight - inFlight.size;
      if (stopped || free <= 0) return 0;
      const claimed = await claimDueDeliveries(db, now(), free, leaseMs, perEndpoint);
      for (const delivery of claimed) start(delivery);
      return claimed.length;
    } catch (error) {
      ctx.log.error({ err: error }, 'claiming webhook deliveries failed; retrying at the next poll');
      return 0;
    }
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void claim().then(schedule), pollMs);
  }
  schedule();
  const wakeUps = ctx.database.listen(
    DELIVERIES_DUE_CHANNEL,
    () => {
      if (!stopped) void claim();
    },
    (error) =>
      ctx.log.warn({ err: error }, 'listening for new webhook deliveries failed; polling until it listens again'),
  );

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
      await wakeUps.stop();
      aborter.abort();
      await nextClaim;
      await claiming;
      await Promise.all(inFlight);
    },
  };
}
