import { randomUUID } from 'node:crypto';
import type { ClaimStatus, Store } from '@claims/contracts';
import { claimDecider, lastActivityAt, slaActionFor, slaCutoffs } from '@claims/domain';
import { idleClaims } from '@claims/projections';
import type { AppContext, RequestMeta } from '../context.js';
import { listStores } from '../catalog/storeRepository.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { AppError } from '../platform/errors.js';

/** The system actor of every change a timer makes. */
export const SLA_ACTOR = { type: 'system', id: 'sla', name: 'SLA timer' } as const;

/** How often the runtime looks for due claims, and how many it takes per look (more waits for the next look). */
export const SLA_INTERVAL_MS = 60_000;
const BATCH = 200;

export interface SlaSweepResult {
  /** Claims the timer moved. */
  moved: Array<{ claimId: string; from: ClaimStatus; to: ClaimStatus }>;
  /** Claims that changed under the sweep (another scheduler, or a person): left to the next look. */
  skipped: number;
  /** Claims whose move failed unexpectedly: logged, and tried again on the next look. */
  failed: number;
}

/** Moves one claim if its timer ran out: decided on its own stream at `now` (the read model may lag, the stream does not). */
async function sweepClaim(
  ctx: AppContext,
  store: Store,
  claimId: string,
  now: string,
  result: SlaSweepResult,
): Promise<void> {
  const loaded = await loadClaim(ctx, claimId);
  const since = loaded && lastActivityAt(loaded.events);
  if (!loaded || !since) return;
  const claim = loaded.state;
  const action = slaActionFor({ status: claim.status, lastActivityAt: since }, store.settings.sla, now);
  if (!action) return;
  const meta: RequestMeta = {
    actor: SLA_ACTOR,
    correlationId: `sla:${randomUUID()}`,
    causationId: loaded.events.at(-1)?.eventId ?? null,
  };
  try {
    await handleCommand(ctx, {
      decider: claimDecider,
      streamId: claim.id,
      storeId: claim.storeId,
      meta,
      expectedVersion: loaded.version,
      command: {
        type: 'ChangeClaimStatus',
        claimId: claim.id,
        to: action.to,
        note: action.note,
        reason: action.reason,
      },
    });
    result.moved.push({ claimId: claim.id, from: claim.status, to: action.to });
  } catch (error) {
    if (error instanceof AppError && (error.code === 'version_conflict' || error.code === 'invalid_transition')) {
      result.skipped++;
      return;
    }
    throw error;
  }
}

/**
 * One look: candidates from the claim list (a watched status, idle past its store's deadline), then each
 * claim decided on its own stream and moved with a normal ChangeClaimStatus at the version it was decided
 * on. Two schedulers racing on one claim: one append wins, the other meets a version conflict and skips
 * it, so a sweep is idempotent. A claim that fails otherwise is logged and never stops the others.
 */
export async function runSlaSweep(ctx: AppContext, now: string): Promise<SlaSweepResult> {
  const stores = new Map((await listStores(ctx.database.db)).map((store) => [store.id, store]));
  const cutoffs = [...stores.values()].flatMap((store) =>
    slaCutoffs(store.settings.sla, now).map((cutoff) => ({ storeId: store.id, ...cutoff })),
  );
  const result: SlaSweepResult = { moved: [], skipped: 0, failed: 0 };
  for (const candidate of await idleClaims(ctx.database.db, cutoffs, BATCH)) {
    const store = stores.get(candidate.storeId);
    if (!store) continue;
    try {
      await sweepClaim(ctx, store, candidate.claimId, now, result);
    } catch (error) {
      result.failed++;
      ctx.log.error(
        { err: error, claimId: candidate.claimId },
        'sla timer could not move a claim; trying again next look',
      );
    }
  }
  return result;
}

export interface SlaScheduler {
  stop(): Promise<void>;
}

/** Runs a sweep every `intervalMs` on the context's clock; `stop` waits for a sweep in flight. */
export function startSlaScheduler(ctx: AppContext, intervalMs = SLA_INTERVAL_MS): SlaScheduler {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = runSlaSweep(ctx, ctx.now())
      .then((r) => {
        if (r.moved.length) ctx.log.info({ moved: r.moved.length, skipped: r.skipped }, 'sla timers moved claims');
      })
      .catch((error: unknown) => ctx.log.error({ err: error }, 'sla sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
