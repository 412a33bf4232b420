import { sql, type RawBuilder } from 'kysely';
import type { FinanceEventType, FinanceReplayRequest } from '@claims/contracts';
import { monthPeriod } from '@claims/domain';
import type { Database } from '@claims/event-store';

/**
 * The events a replay of a period and stores folds: what the period's entries are made of, whenever it was recorded
 * (docs/decisions/finance-replay-reads-its-period.md). Every bound is on the events' own columns, so the server skips
 * the rest.
 */
export interface ReplayScope {
  /** The condition on an `events` row for readAllOfTypes and countOfTypes. */
  where: RawBuilder<unknown>;
  /** Claims whose streams are read whole: each decided, reversed, or credited or reclaimed for in the period. */
  claims: number;
}

const CLAIM_STREAM: readonly FinanceEventType[] = ['ClaimFiled', 'ClaimResolved', 'ClaimResolutionReversed'];
const DECISIONS: readonly FinanceEventType[] = ['ClaimResolved', 'ClaimResolutionReversed'];
const CREDIT_OF_CLAIM: readonly FinanceEventType[] = ['StoreCreditIssued', 'StoreCreditReclaimed'];
const CREDIT: readonly FinanceEventType[] = ['StoreCreditIssued', 'StoreCreditRedeemed', 'StoreCreditAdjusted', 'StoreCreditReclaimed'];
const PREMIUMS: readonly FinanceEventType[] = ['PremiumRecorded', 'PremiumReversed'];
const BATCHES: readonly FinanceEventType[] = ['PayoutBatchCreated', 'PayoutBatchApproved', 'PayoutBatchPaid'];

const utc = (at: number) => new Date(at).toISOString();

/**
 * The UTC months whose start lies in the period: the invoices it compares. Their events run to the end of the last
 * one, past `to` when it ends mid-month.
 */
export function invoicedMonths(from: string, to: string): string[] {
  const months: string[] = [];
  const start = new Date(Date.parse(from));
  for (let y = start.getUTCFullYear(), m = start.getUTCMonth(); Date.UTC(y, m, 1) <= Date.parse(to); m === 11 ? (y++, m = 0) : m++) {
    if (Date.UTC(y, m, 1) >= Date.parse(from)) months.push(utc(Date.UTC(y, m, 1)).slice(0, 7));
  }
  return months;
}

/**
 * The scope of a replay: first the claims the period's money is about (a short read of the period's decisions and
 * credit), then the condition that selects, of the requested stores only, those claims' whole streams, the credit
 * and premiums of the period and the months it invoices, the stores' payout batches and the period's invoices.
 * Bounds are exclusive ends one millisecond past `to`: the ledgers time events to the millisecond, truncated.
 */
export async function replayScope(db: Database['db'], request: Pick<FinanceReplayRequest, 'from' | 'to' | 'storeIds'>): Promise<ReplayScope> {
  const from = utc(Date.parse(request.from));
  const toEnd = utc(Date.parse(request.to) + 1);
  const months = invoicedMonths(request.from, request.to);
  const lastMonth = months.at(-1);
  const decisionsEnd = lastMonth && monthPeriod(lastMonth).end > toEnd ? monthPeriod(lastMonth).end : toEnd;
  const stores = request.storeIds ? sql`store_id = any(${[...request.storeIds]}::uuid[])` : sql`true`;
  const within = (end: string) => sql`occurred_at >= ${from}::timestamptz and occurred_at < ${end}::timestamptz`;

  const { rows } = await sql<{ claim_id: string }>`
    select distinct case when type = any(${CREDIT_OF_CLAIM}::text[]) then data ->> 'claimId' else stream_id end as claim_id
    from events
    where ${stores} and (
      (type = any(${DECISIONS}::text[]) and ${within(decisionsEnd)})
      or (type = any(${CREDIT_OF_CLAIM}::text[]) and ${within(toEnd)}))`.execute(db);
  const claims = rows.map((r) => r.claim_id);

  const where = sql`${stores} and (
    (type = any(${CLAIM_STREAM}::text[]) and stream_id = any(${claims}::text[]))
    or (type = any(${CREDIT_OF_CLAIM}::text[]) and data ->> 'claimId' = any(${claims}::text[]))
    or (type = any(${CREDIT}::text[]) and ${within(toEnd)})
    or (type = any(${PREMIUMS}::text[]) and ${within(decisionsEnd)})
    or type = any(${BATCHES}::text[])
    or (type = 'InvoiceIssued' and data ->> 'month' = any(${months}::text[])))`;
  return { where, claims: claims.length };
}
