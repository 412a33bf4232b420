import type { InvoiceLine, InvoiceLineKind } from '@claims/contracts';
import { fail, type Result } from '../result.js';
import type { ReplayedInvoice } from './financeLedgers.js';
import { invoiceFigures, type InvoiceFigures } from './invoices.js';

/** Units of an order's currency per unit of the store's (the order's exchange rate), or undefined for an order not known. */
export type OrderRate = (orderId: string) => { currency: string; exchangeRate: number } | undefined;

/**
 * A replayed invoice's figures, with `invoiceFigures` as issuing does: a premium in the store's currency as it is,
 * one in its order's currency at the order's exchange rate; one in any other currency cannot be invoiced.
 */
export function replayedInvoiceFigures(invoice: ReplayedInvoice, rateOf: OrderRate): Result<InvoiceFigures> {
  const premiums = [];
  for (const premium of invoice.premiums) {
    if (premium.currency === invoice.currency) {
      premiums.push({ ...premium, exchangeRate: 1 });
      continue;
    }
    const order = rateOf(premium.orderId);
    if (order?.currency !== premium.currency) {
      return fail(
        'validation_failed',
        `A premium of ${invoice.month} is in ${premium.currency}, neither the store's currency nor its order's.`,
      );
    }
    premiums.push({ ...premium, exchangeRate: order.exchangeRate });
  }
  return invoiceFigures({
    currency: invoice.currency,
    revSharePercent: invoice.revSharePercent,
    premiums,
    payouts: invoice.payouts,
  });
}

/** One line of an invoice (or its net, `total`) that the replay computes differently, minor units of the invoice's currency. */
export interface InvoiceLineDifference {
  line: InvoiceLineKind | 'total';
  live: number | null;
  replayed: number | null;
  /** The events behind the change and each one's share of it (empty when no rule explains it). */
  causes: Array<{ eventId: string; claimId: string | null; change: number }>;
}

/**
 * Where an issued invoice and its replay part, line by line and in the net: the claims line down to each payout a
 * candidate rule revalued (its ClaimResolved, or the reversal of a clawback), the revenue share down to the invoice
 * whose recorded share a candidate replaces. A side that is missing (no replayed figures, or no live invoice) is null.
 */
export function invoiceDifferences(
  live: { lines: readonly InvoiceLine[]; total: number } | null,
  invoice: ReplayedInvoice | null,
  replayed: InvoiceFigures | null,
): InvoiceLineDifference[] {
  const amountOf = (lines: readonly InvoiceLine[] | undefined, kind: InvoiceLineKind) =>
    lines ? (lines.find((l) => l.kind === kind)?.amount ?? 0) : null;
  const causesOf = (kind: InvoiceLineKind, change: number): InvoiceLineDifference['causes'] => {
    if (!invoice || change === 0) return [];
    if (kind === 'claims') {
      // A claims line is minus the payouts it counts: each revalued payout moves it by minus its own change.
      return invoice.payouts
        .filter((p) => p.amount !== p.recordedAmount)
        .map((p) => ({ eventId: p.eventId, claimId: p.claimId, change: p.recordedAmount - p.amount }));
    }
    if (kind === 'rev_share' && invoice.revSharePercent !== invoice.recordedRevSharePercent)
      return [{ eventId: invoice.eventId, claimId: null, change }];
    return [];
  };
  const differences: InvoiceLineDifference[] = [];
  for (const kind of ['premiums', 'rev_share', 'claims'] as const) {
    const [l, r] = [amountOf(live?.lines, kind), amountOf(replayed?.lines, kind)];
    if (l !== r) differences.push({ line: kind, live: l, replayed: r, causes: causesOf(kind, (r ?? 0) - (l ?? 0)) });
  }
  const [l, r] = [live?.total ?? null, replayed?.total ?? null];
  if (l !== r) differences.push({ line: 'total', live: l, replayed: r, causes: differences.flatMap((d) => d.causes) });
  return differences;
}
