import { sql, type QueryExecutorProvider } from 'kysely';

/** The ledger of one store over a half-open period [from, to): what its invoice for the period is computed from. */
export interface PeriodLedger {
  /** Premiums recorded (positive) and reversed (negative), minor units of each premium's currency. */
  premiums: Array<{ orderId: string; amount: number; currency: string }>;
  /** Payout entries decided in the period that stand (`standsOnInvoice`: not reversed, or reversed with a clawback), minor units of their currency. */
  payouts: Array<{ id: string; claimId: string; amount: number; currency: string }>;
}

export async function periodLedger(
  db: QueryExecutorProvider,
  storeId: string,
  from: string,
  to: string,
): Promise<PeriodLedger> {
  const [premiums, payouts] = await Promise.all([
    sql<{ order_id: string; amount: string; currency: string }>`
      select order_id, amount, currency from premium_entries
      where store_id = ${storeId}::uuid and at >= ${from}::timestamptz and at < ${to}::timestamptz order by at, event_id`.execute(
      db,
    ),
    sql<{ id: string; claim_id: string; amount: string; currency: string }>`
      select id, claim_id, amount, currency from payout_entries e
      where store_id = ${storeId}::uuid and decided_at >= ${from}::timestamptz and decided_at < ${to}::timestamptz
        and (status <> 'reversed' or exists (select 1 from payout_entries c where c.reversal_of = e.id))
      order by decided_at, id`.execute(db),
  ]);
  return {
    premiums: premiums.rows.map((r) => ({ orderId: r.order_id, amount: Number(r.amount), currency: r.currency })),
    payouts: payouts.rows.map((r) => ({
      id: r.id,
      claimId: r.claim_id,
      amount: Number(r.amount),
      currency: r.currency,
    })),
  };
}
