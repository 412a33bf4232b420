import { sql, type RawBuilder } from 'kysely';
import { FINANCE_EVENT_TYPES, type FinanceEventType, type FinanceReplayRequest } from '@claims/contracts';
import { monthPeriod } from '@claims/domain';
import type { Database } from '@claims/event-store';

const CLAIM_STREAM: readonly FinanceEventType[] = ['ClaimFiled', 'ClaimResolved', 'ClaimResolutionReversed'];
const DECISIONS: readonly FinanceEventType[] = ['ClaimResolved', 'ClaimResolutionReversed'];
const CREDIT_OF_CLAIM: readonly FinanceEventType[] = ['StoreCreditIssued', 'StoreCreditReclaimed'];
const CREDIT: readonly FinanceEventType[] = [
  'StoreCreditIssued',
  'StoreCreditRedeemed',
  'StoreCreditAdjusted',
  'StoreCreditReclaimed',
];
const PREMIUMS: readonly FinanceEventType[] = ['PremiumRecorded', 'PremiumReversed'];
const BATCHES: readonly FinanceEventType[] = ['PayoutBatchCreated', 'PayoutBatchApproved', 'PayoutBatchPaid'];

const utc = (at: number) => new Date(at).toISOString();

/**
 * The UTC months whose start lies in the period: the invoices it compares. Their events run to the end of the last
 * one, past `to` when it ends mid-month.
 */
function invoicedMonths(from: string, to: string): string[] {
  const months: string[] = [];
  const first = new Date(Date.parse(from));
  for (let i = 0; ; i++) {
    const start = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1);
    if (start > Date.parse(to)) return months;
    if (start >= Date.parse(from)) months.push(utc(start).slice(0, 7));
  }
}

/**
 * The events a replay of a period and stores folds, as a condition on an `events` row (for readAllOfTypes and
 * countOfTypes): what the period's entries are made of, whenever it was recorded
 * (docs/decisions/finance-replay-reads-its-period.md). A short first read lists the claims the period's money is
 * about; the condition then selects, of the requested stores only, those claims' streams whole, the credit and
 * premiums of the period (premiums through the months it invoices), the stores' payout batches and the invoices of
 * those months. Ends are exclusive, one millisecond past `to`: the ledgers time events to the millisecond, truncated.
 */
export async function replayScope(
  db: Database['db'],
  request: Pick<FinanceReplayRequest, 'from' | 'to' | 'storeIds'>,
): Promise<RawBuilder<unknown>> {
  const from = utc(Date.parse(request.from));
  const toEnd = utc(Date.parse(request.to) + 1);
  const months = invoicedMonths(request.from, request.to);
  const lastMonth = months.at(-1);
  const decisionsEnd = lastMonth && monthPeriod(lastMonth).end > toEnd ? monthPeriod(lastMonth).end : toEnd;
  const stores = request.storeIds ? sql`store_id = any(${[...request.storeIds]}::uuid[])` : sql`true`;
  const within = (end: string) => sql`occurred_at >= ${from}::timestamptz and occurred_at < ${end}::timestamptz`;

  // A period that holds all of its stores' history (a whole replay) needs all of it: no claim list to send then.
  const covered = await sql<{ covered: boolean }>`
    select coalesce(bool_and(${within(decisionsEnd)}), true) as covered from events where ${stores} and type = any(${FINANCE_EVENT_TYPES}::text[])`.execute(
    db,
  );
  if (covered.rows[0]?.covered) return stores;

  const { rows } = await sql<{ claim_id: string }>`
    select distinct case when type = any(${CREDIT_OF_CLAIM}::text[]) then data ->> 'claimId' else stream_id end as claim_id
    from events
    where ${stores} and (
      (type = any(${DECISIONS}::text[]) and ${within(decisionsEnd)})
      or (type = any(${CREDIT_OF_CLAIM}::text[]) and ${within(toEnd)}))`.execute(db);
  /** Claims whose streams are read whole: each decided or reversed in the period, or credit issued or reclaimed for. */
  const claims = rows.map((r) => r.claim_id);

  return sql`${stores} and (
    (type = any(${CLAIM_STREAM}::text[]) and stream_id = any(${claims}::text[]))
    or (type = any(${CREDIT_OF_CLAIM}::text[]) and data ->> 'claimId' = any(${claims}::text[]))
    or (type = any(${CREDIT}::text[]) and ${within(toEnd)})
    or (type = any(${PREMIUMS}::text[]) and ${within(decisionsEnd)})
    or type = any(${BATCHES}::text[])
    or (type = 'InvoiceIssued' and data ->> 'month' = any(${months}::text[])))`;
}
