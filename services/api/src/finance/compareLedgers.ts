import { toDecimal, type FinanceReplayRequest, type FinanceReplayView, type StoreCreditKind } from '@claims/contracts';
import {
  invoiceDifferences,
  monthPeriod,
  replayedInvoiceFigures,
  type FinanceLedgers,
  type OrderRate,
} from '@claims/domain';
import type { InvoiceRow, PayoutEntryRow, PremiumEntryRow, StoreCreditEntryRow } from '@claims/projections';

/** The store-credit entries a claim's decisions make: what the replay's store-credit totals add up. */
const CLAIM_CREDIT: ReadonlySet<StoreCreditKind> = new Set(['issued', 'reclaimed']);

export type LedgerComparison = Pick<
  FinanceReplayView,
  'stores' | 'differences' | 'premiums' | 'storeCredit' | 'invoices'
>;

/** The live read models' rows of the replay's period and stores. */
export interface LiveLedgers {
  payouts: readonly PayoutEntryRow[];
  premiums: readonly PremiumEntryRow[];
  storeCredit: readonly StoreCreditEntryRow[];
  /** Issued invoices of the stores (any month: the comparison keeps those of the period). */
  invoices: readonly InvoiceRow[];
}

/** Sums per store and currency, live beside replayed, as decimals of the currency. */
class Totals {
  private readonly rows = new Map<string, { storeId: string; currency: string; live: number; replayed: number }>();

  add(side: 'live' | 'replayed', storeId: string, currency: string, amount: number): void {
    const key = `${storeId}:${currency}`;
    const row = this.rows.get(key) ?? { storeId, currency, live: 0, replayed: 0 };
    row[side] += amount;
    this.rows.set(key, row);
  }

  view(): FinanceReplayView['stores'] {
    return [...this.rows.values()]
      .sort((a, b) => a.storeId.localeCompare(b.storeId) || a.currency.localeCompare(b.currency))
      .map((t) => ({
        storeId: t.storeId,
        currency: t.currency,
        live: toDecimal(t.live, t.currency),
        replayed: toDecimal(t.replayed, t.currency),
      }));
  }
}

/** Whether an event's time and store fall in the replay's scope (the period's ends included). */
function scopeOf(request: FinanceReplayRequest): (storeId: string, at: string) => boolean {
  const from = Date.parse(request.from);
  const to = Date.parse(request.to);
  const stores = request.storeIds ? new Set(request.storeIds) : null;
  return (storeId, at) => {
    const t = Date.parse(at);
    return t >= from && t <= to && (!stores || stores.has(storeId));
  };
}

const money = (amount: number | undefined, currency: string) =>
  amount === undefined ? null : toDecimal(amount, currency);

/** A key's pairs from both sides: every id either side holds, once. */
function* pairs<L, R>(
  live: ReadonlyMap<string, L>,
  replayed: ReadonlyMap<string, R>,
): Generator<[string, L | undefined, R | undefined]> {
  for (const [id, l] of live) yield [id, l, replayed.get(id)];
  for (const [id, r] of replayed) if (!live.has(id)) yield [id, undefined, r];
}

/**
 * Issued invoices beside their replays: an invoice is in the period when its month starts in it. Totals are the nets
 * per store and currency; every line that differs is listed with the events behind the change.
 */
function compareInvoices(
  request: FinanceReplayRequest,
  live: readonly InvoiceRow[],
  replayed: FinanceLedgers,
  rateOf: OrderRate,
): FinanceReplayView['invoices'] {
  const inScope = scopeOf(request);
  const totals = new Totals();
  const differences: FinanceReplayView['invoices']['differences'] = [];
  const liveInvoices = new Map(
    live.filter((i) => inScope(i.storeId, monthPeriod(i.month).start)).map((i) => [i.id, i]),
  );
  const replayedInvoices = new Map(
    [...replayed.invoices].filter(([, i]) => inScope(i.storeId, monthPeriod(i.month).start)),
  );
  for (const [id, l, r] of pairs(liveInvoices, replayedInvoices)) {
    const figures = r ? replayedInvoiceFigures(r, rateOf) : null;
    const computed = figures?.ok ? figures.value : null;
    const either = (l ?? r)!;
    if (l) totals.add('live', l.storeId, l.currency, l.total);
    if (computed) totals.add('replayed', either.storeId, computed.currency, computed.total);
    const eventId = r?.eventId ?? null;
    for (const d of invoiceDifferences(l ?? null, r ?? null, computed)) {
      differences.push({
        storeId: either.storeId,
        invoiceId: id,
        number: either.number,
        month: either.month,
        currency: either.currency,
        line: d.line,
        eventId,
        live: money(d.live ?? undefined, either.currency),
        replayed: money(d.replayed ?? undefined, either.currency),
        change: toDecimal((d.replayed ?? 0) - (d.live ?? 0), either.currency),
        causes: d.causes.map((c) => ({
          eventId: c.eventId,
          claimId: c.claimId,
          change: toDecimal(c.change, either.currency),
        })),
      });
    }
  }
  return { stores: totals.view(), differences };
}

/**
 * The replayed ledgers beside the live ones over the replay's period and stores: totals per store and currency
 * for payouts, premiums, store credit issued and invoices, and every entry that differs, down to the event that made it.
 */
export function compareLedgers(
  request: FinanceReplayRequest,
  live: LiveLedgers,
  replayed: FinanceLedgers,
  rateOf: OrderRate,
): LedgerComparison {
  const inScope = scopeOf(request);

  const payoutTotals = new Totals();
  const differences: FinanceReplayView['differences'] = [];
  const replayedPayouts = new Map([...replayed.payouts].filter(([, p]) => inScope(p.storeId, p.decidedAt)));
  for (const [id, l, r] of pairs(new Map(live.payouts.map((p) => [p.id, p])), replayedPayouts)) {
    if (l) payoutTotals.add('live', l.storeId, l.currency, l.amount);
    if (r) payoutTotals.add('replayed', r.storeId, r.currency, r.amount);
    if (l && r && l.amount === r.amount && l.currency === r.currency && l.status === r.status) continue;
    const either = (r ?? l)!;
    differences.push({
      storeId: either.storeId,
      claimId: either.claimId,
      eventId: either.eventId,
      lineId: id,
      resolutionType: either.resolutionType,
      currency: either.currency,
      live: money(l?.amount, either.currency),
      replayed: money(r?.amount, either.currency),
      change: toDecimal((r?.amount ?? 0) - (l?.amount ?? 0), either.currency),
      liveStatus: l?.status ?? null,
      replayedStatus: r?.status ?? null,
    });
  }

  const premiumTotals = new Totals();
  const premiumDifferences: FinanceReplayView['premiums']['differences'] = [];
  const replayedPremiums = new Map([...replayed.premiums].filter(([, p]) => inScope(p.storeId, p.at)));
  for (const [eventId, l, r] of pairs(new Map(live.premiums.map((p) => [p.eventId, p])), replayedPremiums)) {
    if (l) premiumTotals.add('live', l.storeId, l.currency, l.amount);
    if (r) premiumTotals.add('replayed', r.storeId, r.currency, r.amount);
    if (l && r && l.amount === r.amount && l.currency === r.currency) continue;
    const either = (r ?? l)!;
    premiumDifferences.push({
      storeId: either.storeId,
      orderId: either.orderId,
      orderNumber: either.orderNumber,
      eventId,
      currency: either.currency,
      live: money(l?.amount, either.currency),
      replayed: money(r?.amount, either.currency),
    });
  }

  const creditTotals = new Totals();
  const creditDifferences: FinanceReplayView['storeCredit']['differences'] = [];
  const replayedCredit = new Map([...replayed.storeCredit].filter(([, c]) => inScope(c.storeId, c.at)));
  for (const [eventId, l, r] of pairs(new Map(live.storeCredit.map((c) => [c.eventId, c])), replayedCredit)) {
    // Credit issued, less what reversals took back (redemptions and adjustments are the store's, not the claims').
    if (l && CLAIM_CREDIT.has(l.kind)) creditTotals.add('live', l.storeId, l.currency, l.amount);
    if (r && CLAIM_CREDIT.has(r.kind)) creditTotals.add('replayed', r.storeId, r.currency, r.amount);
    if (l && r && l.amount === r.amount && l.currency === r.currency && l.kind === r.kind) continue;
    const either = (r ?? l)!;
    creditDifferences.push({
      storeId: either.storeId,
      eventId,
      kind: either.kind,
      claimId: either.claimId,
      currency: either.currency,
      live: money(l?.amount, either.currency),
      replayed: money(r?.amount, either.currency),
    });
  }

  return {
    stores: payoutTotals.view(),
    differences,
    premiums: { stores: premiumTotals.view(), differences: premiumDifferences },
    storeCredit: { stores: creditTotals.view(), differences: creditDifferences },
    invoices: compareInvoices(request, live.invoices, replayed, rateOf),
  };
}
