import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { toDecimal, type BacktestView, type DecisionOutcome, type EventOf, type Store } from '@claims/contracts';
import { backtestRule, decisionOutcome, type HistoricClaim, type StoredRule } from '@claims/domain';
import { readAllOfTypes, START, type RecordedFact } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';

export interface Period {
  start: string;
  end: string;
}

/** A date is its whole day in UTC (`to` included), a date-time itself. */
export function periodOf(from: string, to: string): Period {
  const start = from.length === 10 ? `${from}T00:00:00.000Z` : new Date(from).toISOString();
  const end =
    to.length === 10
      ? new Date(Date.parse(`${to}T00:00:00.000Z`) + 86_400_000 - 1).toISOString()
      : new Date(to).toISOString();
  if (start > end) throw new AppError('validation_failed', 'The period ends before it starts.');
  return { start, end };
}

const PAGE = 5_000;

/**
 * The store's claims filed in the period, in filing order, each with the decision made on it as its events tell
 * (the outcome of the decision that decided the claim as a whole; a reversal undoes it). Read from the event store
 * only, nothing written.
 */
async function historyOf(
  ctx: AppContext,
  storeId: string,
  period: Period,
  progress: (share: number) => Promise<void>,
): Promise<HistoricClaim[]> {
  const claims = new Map<string, HistoricClaim>();
  let position = START;
  let read = 0;
  const { rows: counted } = await sql<{ events: string }>`
    select count(*) as events from events e join streams s on s.stream_id = e.stream_id
    where s.store_id = ${storeId}::uuid and e.type in ('ClaimFiled', 'ClaimResolved', 'ClaimResolutionReversed')`.execute(
    ctx.database.db,
  );
  const total = Math.max(1, Number(counted[0]?.events ?? 1));
  for (;;) {
    const page = await readAllOfTypes(
      ctx.database.db,
      position,
      ['ClaimFiled', 'ClaimResolved', 'ClaimResolutionReversed'],
      {
        limit: PAGE,
        where: sql`stream_id in (select stream_id from streams where store_id = ${storeId}::uuid and stream_type = 'claim')`,
      },
    );
    for (const fact of page.events) apply(claims, fact, period);
    read += page.events.length;
    await progress(Math.min(0.99, read / total));
    if (page.events.length < PAGE) break;
    position = page.next;
  }
  return [...claims.values()];
}

function apply(claims: Map<string, HistoricClaim>, fact: RecordedFact, period: Period): void {
  if (fact.type === 'ClaimFiled') {
    const data = fact.data as EventOf<'ClaimFiled'>['data'];
    if (data.filedAt >= period.start && data.filedAt <= period.end)
      claims.set(data.claimId, { filed: data, decided: null });
    return;
  }
  const claim = claims.get(fact.streamId);
  if (!claim) return;
  if (fact.type === 'ClaimResolved') {
    const data = fact.data as EventOf<'ClaimResolved'>['data'];
    const whole: DecisionOutcome | null = data.claimResolutions ? decisionOutcome(data.claimResolutions) : null;
    if (whole) claim.decided = whole;
  } else claim.decided = null;
}

export interface BacktestJob {
  id: string;
  done: Promise<void>;
}

/** Starts a backtest of `rule` over the store's claims filed in the period; its rows say how far it got. */
export async function startBacktest(
  ctx: AppContext,
  store: Store,
  rule: StoredRule,
  period: Period,
  requestedBy: string,
): Promise<BacktestJob> {
  const id = randomUUID();
  await sql`
    insert into rule_backtests (id, store_id, requested_by, status, created_at)
    values (${id}, ${store.id}, ${requestedBy}, 'running', ${ctx.now()})`.execute(ctx.database.db);
  const progress = (share: number) =>
    sql`update rule_backtests set progress = ${share} where id = ${id}`.execute(ctx.database.db).then(() => undefined);
  const done = (async () => {
    try {
      const result = backtestRule(rule, await historyOf(ctx, store.id, period, progress));
      const money = (minor: number) => toDecimal(minor, store.currency);
      const view = {
        matched: result.matched,
        decided: { count: result.decided.count, amount: money(result.decided.amount), currency: store.currency },
        disagreements: result.disagreements,
        weeks: result.weeks.map((w) => ({ ...w, amount: money(w.amount) })),
      };
      await sql`
        update rule_backtests set status = 'done', progress = 1, result = ${JSON.stringify(view)}::jsonb
        where id = ${id}`.execute(ctx.database.db);
    } catch (error) {
      ctx.log.error({ err: error, backtest: id }, 'backtest failed');
      await sql`
        update rule_backtests set status = 'failed', error = ${error instanceof Error ? error.message : String(error)}
        where id = ${id}`.execute(ctx.database.db);
    }
  })();
  return { id, done };
}

export async function backtestView(ctx: AppContext, storeId: string, id: string): Promise<BacktestView | null> {
  const { rows } = await sql<{
    status: BacktestView['status'];
    progress: number;
    result: Omit<BacktestView, 'id' | 'status' | 'progress' | 'error'> | null;
    error: string | null;
    currency: string;
  }>`
    select b.status, b.progress, b.result, b.error, s.currency
    from rule_backtests b join stores s on s.id = b.store_id
    where b.id = ${id}::uuid and b.store_id = ${storeId}::uuid`.execute(ctx.database.db);
  const row = rows[0];
  if (!row) return null;
  return {
    id,
    status: row.status,
    progress: Number(row.progress),
    matched: row.result?.matched ?? 0,
    decided: row.result?.decided ?? { count: 0, amount: 0, currency: row.currency },
    disagreements: row.result?.disagreements ?? [],
    weeks: row.result?.weeks ?? [],
    error: row.error,
  };
}
