import type { FinanceLedgers } from './financeLedgers.js';

/** One store's money in one calendar month (UTC) and one currency, minor units of that currency. */
export interface StoreMonth {
  storeId: string;
  /** `YYYY-MM`. */
  month: string;
  currency: string;
  /** Premiums recorded less those reversed in the month. */
  premiums: number;
  /** Payouts decided in the month, whatever their status. */
  payouts: number;
  /** Of those, the ones already paid. */
  payoutsPaid: number;
  /** Store credit issued in the month. */
  storeCreditIssued: number;
}

const monthOf = (iso: string) => iso.slice(0, 7);

/**
 * The replayed ledgers per store, month and currency: what an invoice of a store's month is built from (premiums
 * by when they were recorded or reversed, payouts by when they were decided), sorted by store, month and currency.
 */
export function monthlyFinance(ledgers: FinanceLedgers, storeIds?: ReadonlySet<string>): StoreMonth[] {
  const months = new Map<string, StoreMonth>();
  const row = (storeId: string, at: string, currency: string) => {
    const key = `${storeId}|${monthOf(at)}|${currency}`;
    let found = months.get(key);
    if (!found) {
      found = { storeId, month: monthOf(at), currency, premiums: 0, payouts: 0, payoutsPaid: 0, storeCreditIssued: 0 };
      months.set(key, found);
    }
    return found;
  };
  const wanted = (storeId: string) => !storeIds || storeIds.has(storeId);
  for (const p of ledgers.premiums.values())
    if (wanted(p.storeId)) row(p.storeId, p.at, p.currency).premiums += p.amount;
  for (const p of ledgers.payouts.values()) {
    if (!wanted(p.storeId)) continue;
    const month = row(p.storeId, p.decidedAt, p.currency);
    month.payouts += p.amount;
    if (p.status === 'paid') month.payoutsPaid += p.amount;
  }
  for (const c of ledgers.storeCredit.values())
    if (c.kind === 'issued' && wanted(c.storeId)) row(c.storeId, c.at, c.currency).storeCreditIssued += c.amount;
  return [...months.values()].sort(
    (a, b) =>
      a.storeId.localeCompare(b.storeId) || a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency),
  );
}
