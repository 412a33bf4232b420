import { sql, type QueryExecutorProvider } from 'kysely';
import type { PayoutBatchStatus, PayoutStatus, ResolutionType } from '@claims/contracts';
import type { LedgerPayout, LedgerPremium, PayoutBatchState } from '@claims/domain';

/** A row of the live ledger: the same shape the finance replay's fold gives, so the two compare field by field. */
export type PayoutEntryRow = LedgerPayout;

export interface PayoutFilter {
  storeIds?: readonly string[] | undefined;
  status?: PayoutStatus | undefined;
  /** Decided at or after. */
  from?: string | undefined;
  /** Decided at or before. */
  to?: string | undefined;
}

/** The ledger's entries decided in a period, for some stores or all, in decision order. */
export async function payoutEntries(db: QueryExecutorProvider, filter: PayoutFilter): Promise<PayoutEntryRow[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<{
    id: string;
    store_id: string;
    claim_id: string;
    event_id: string;
    resolution_type: ResolutionType;
    amount: number;
    currency: string;
    status: PayoutStatus;
    decided_at: Date;
    reversal_of: string | null;
  }>`
    select id, store_id, claim_id, event_id, resolution_type, amount, currency, status, decided_at, reversal_of from payout_entries
    where (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))
      and (${filter.status ?? null}::text is null or status = ${filter.status ?? null})
      and (${filter.from ?? null}::timestamptz is null or decided_at >= ${filter.from ?? null}::timestamptz)
      and (${filter.to ?? null}::timestamptz is null or decided_at <= ${filter.to ?? null}::timestamptz)
    order by decided_at, id`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    storeId: r.store_id,
    claimId: r.claim_id,
    eventId: r.event_id,
    resolutionType: r.resolution_type,
    amount: Number(r.amount),
    currency: r.currency,
    status: r.status,
    decidedAt: new Date(r.decided_at).toISOString(),
    reversalOf: r.reversal_of,
  }));
}

/** A batch as its events make it, with its stream's version. */
export interface PayoutBatchRow extends PayoutBatchState {
  version: number;
}

/** A store's payout batches (or every store's), newest first. */
export async function payoutBatches(db: QueryExecutorProvider, storeId: string | null): Promise<PayoutBatchRow[]> {
  const { rows } = await sql<{
    id: string;
    store_id: string;
    currency: string;
    total: number;
    entry_ids: string[];
    status: PayoutBatchStatus;
    created_at: Date;
    created_by: string;
    approved_at: Date | null;
    approved_by: string | null;
    paid_at: Date | null;
    paid_by: string | null;
    reference: string | null;
    version: number;
  }>`select * from payout_batches where (${storeId}::uuid is null or store_id = ${storeId}::uuid) order by created_at desc, id`.execute(
    db,
  );
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return rows.map((r) => ({
    id: r.id,
    storeId: r.store_id,
    currency: r.currency,
    total: Number(r.total),
    entryIds: r.entry_ids,
    status: r.status,
    createdAt: iso(r.created_at)!,
    createdBy: r.created_by,
    approvedAt: iso(r.approved_at),
    approvedBy: r.approved_by,
    paidAt: iso(r.paid_at),
    paidBy: r.paid_by,
    reference: r.reference,
    version: Number(r.version),
  }));
}

export interface PremiumTotal {
  storeId: string;
  currency: string;
  /** Minor units: premiums recorded less those reversed in the period. */
  collected: number;
  orders: number;
}

/** Premiums collected per store and currency in a period (reversals subtract). */
export async function premiumTotals(db: QueryExecutorProvider, filter: PayoutFilter): Promise<PremiumTotal[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<{ store_id: string; currency: string; collected: number; orders: number }>`
    select store_id, currency, sum(amount)::bigint as collected, count(distinct order_id)::int as orders from premium_entries
    where (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))
      and (${filter.from ?? null}::timestamptz is null or at >= ${filter.from ?? null}::timestamptz)
      and (${filter.to ?? null}::timestamptz is null or at <= ${filter.to ?? null}::timestamptz)
    group by store_id, currency order by store_id, currency`.execute(db);
  return rows.map((r) => ({
    storeId: r.store_id,
    currency: r.currency,
    collected: Number(r.collected),
    orders: Number(r.orders),
  }));
}

export interface MonthlyFinanceTotal {
  /** The UTC month, YYYY-MM. */
  month: string;
  storeId: string;
  currency: string;
  /** Minor units: premiums recorded less those reversed in the month. */
  premiums: number;
  orders: number;
  /** Minor units: payout entries decided in the month. */
  payouts: number;
  entries: number;
}

/** Premiums collected and payouts decided per UTC month, store and currency in a period, oldest month first. */
export async function monthlyFinanceTotals(
  db: QueryExecutorProvider,
  filter: PayoutFilter,
): Promise<MonthlyFinanceTotal[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const from = filter.from ?? null;
  const to = filter.to ?? null;
  const { rows } = await sql<{
    month: string;
    store_id: string;
    currency: string;
    premiums: number;
    orders: number;
    payouts: number;
    entries: number;
  }>`
    with premiums as (
      select to_char(at at time zone 'UTC', 'YYYY-MM') as month, store_id, currency, sum(amount)::bigint as premiums, count(distinct order_id)::int as orders
      from premium_entries
      where (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))
        and (${from}::timestamptz is null or at >= ${from}::timestamptz) and (${to}::timestamptz is null or at <= ${to}::timestamptz)
      group by 1, 2, 3
    ), payouts as (
      select to_char(decided_at at time zone 'UTC', 'YYYY-MM') as month, store_id, currency, sum(amount)::bigint as payouts, count(*)::int as entries
      from payout_entries
      where (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))
        and (${from}::timestamptz is null or decided_at >= ${from}::timestamptz) and (${to}::timestamptz is null or decided_at <= ${to}::timestamptz)
      group by 1, 2, 3
    )
    select month, store_id, currency, coalesce(premiums, 0) as premiums, coalesce(orders, 0) as orders, coalesce(payouts, 0) as payouts, coalesce(entries, 0) as entries
    from premiums full join payouts using (month, store_id, currency)
    order by month, store_id, currency`.execute(db);
  return rows.map((r) => ({
    month: r.month,
    storeId: r.store_id,
    currency: r.currency,
    premiums: Number(r.premiums),
    orders: Number(r.orders),
    payouts: Number(r.payouts),
    entries: Number(r.entries),
  }));
}

/** A premium recorded (positive) or reversed (negative): the replay's fold gives the same shape. */
export type PremiumEntryRow = LedgerPremium;

/** Each premium recorded or reversed in a period, for some stores or all, in no particular order (a replay reads them all into a map). */
export async function premiumEntries(db: QueryExecutorProvider, filter: PayoutFilter): Promise<PremiumEntryRow[]> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<{
    event_id: string;
    order_id: string;
    store_id: string;
    order_number: string;
    amount: string;
    currency: string;
    at: Date;
  }>`
    select event_id, order_id, store_id, order_number, amount, currency, at from premium_entries
    where (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))
      and (${filter.from ?? null}::timestamptz is null or at >= ${filter.from ?? null}::timestamptz)
      and (${filter.to ?? null}::timestamptz is null or at <= ${filter.to ?? null}::timestamptz)`.execute(db);
  return rows.map((r) => ({
    eventId: r.event_id,
    orderId: r.order_id,
    storeId: r.store_id,
    orderNumber: r.order_number,
    amount: Number(r.amount),
    currency: r.currency,
    at: new Date(r.at).toISOString(),
  }));
}
