import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { SLA_DEFAULTS, StoreSettings, type ClaimStatus } from '@claims/contracts';
import { lastActivityAt, slaActionFor } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { executeClaimCommand } from '../commands/executeClaimCommand.js';
import { loadClaim } from '../commands/claimStream.js';
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
}

interface CandidateRow { claim_id: string; status: ClaimStatus; updated_at: Date; settings: unknown }

/**
 * One look: candidates from the claim list (watched status, no activity since the shortest timer),
 * then each claim decided on its own stream at `now` — the read model may lag, the stream does not —
 * and moved with a normal ChangeClaimStatus at the version it was decided on. Two schedulers racing on
 * one claim: one append wins, the other meets a version conflict and skips it. So a sweep is idempotent.
 */
export async function runSlaSweep(ctx: AppContext, now: string): Promise<SlaSweepResult> {
  // The same deadlines in SQL as a pre-filter (slaActionFor stays the judge), so claims of a store with long
  // timers never crowd the due ones out of a batch.
  const { rows } = await sql<CandidateRow>`
    select c.claim_id, c.status, c.updated_at, s.settings
    from claim_list c join stores s on s.id = c.store_id
    where coalesce((s.settings->'sla'->>'enabled')::boolean, ${SLA_DEFAULTS.enabled})
      and ((c.status = 'WAITING_FOR_CUSTOMER' and c.updated_at <= ${now}::timestamptz
             - make_interval(days => coalesce((s.settings->'sla'->>'waitingForCustomerDays')::int, ${SLA_DEFAULTS.waitingForCustomerDays})))
        or (c.status = 'WAITING_FOR_BRAND' and c.updated_at <= ${now}::timestamptz
             - make_interval(hours => coalesce((s.settings->'sla'->>'waitingForBrandHours')::int, ${SLA_DEFAULTS.waitingForBrandHours}))))
    order by c.updated_at
    limit ${BATCH}`.execute(ctx.database.db);
  const result: SlaSweepResult = { moved: [], skipped: 0 };
  for (const row of rows) {
    const settings = StoreSettings.shape.sla.safeParse((row.settings as { sla?: unknown } | null)?.sla).data;
    if (!slaActionFor({ status: row.status, lastActivityAt: new Date(row.updated_at).toISOString() }, settings, now)) continue;
    const { claim, version, events } = await loadClaim(ctx, row.claim_id);
    const since = lastActivityAt(events);
    if (!claim || !since) continue;
    const action = slaActionFor({ status: claim.status, lastActivityAt: since }, settings, now);
    if (!action) continue;
    const meta: RequestMeta = { actor: SLA_ACTOR, correlationId: `sla:${randomUUID()}`, causationId: events.at(-1)?.eventId ?? null };
    try {
      await executeClaimCommand(ctx, { type: 'ChangeClaimStatus', claimId: claim.id, to: action.to, note: action.note, reason: action.reason }, meta, version);
      result.moved.push({ claimId: claim.id, from: claim.status, to: action.to });
    } catch (error) {
      if (error instanceof AppError && (error.code === 'version_conflict' || error.code === 'invalid_transition')) {
        result.skipped++;
        continue;
      }
      throw error;
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
      .then((r) => { if (r.moved.length) ctx.log.info({ moved: r.moved.length, skipped: r.skipped }, 'sla timers moved claims'); })
      .catch((error: unknown) => ctx.log.error({ err: error }, 'sla sweep failed'))
      .finally(() => { running = null; });
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
