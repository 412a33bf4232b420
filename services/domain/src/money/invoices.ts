import { INVOICE_LINE_LABELS, type InvoiceDirection, type InvoiceLine } from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import { convertMinor, fractionOf, plus, roundHalfEven, times, whole, type Fraction } from './exactMoney.js';

/** A premium ledger entry of the month: recorded (positive) or reversed (negative), in minor units of its currency. */
export interface InvoicePremium {
  orderId: string;
  amount: number;
  currency: string;
  /** Units of `currency` per unit of the invoice's currency (the order's exchange rate); 1 in the same currency. */
  exchangeRate: number;
}

/** A payout ledger entry of the month: what a claim's line reimburses the store, in minor units of its currency. */
export interface InvoicePayout {
  id: string;
  claimId: string;
  amount: number;
  currency: string;
}

/** Everything a month's invoice is computed from: the live ledger gives these, and so can a replay of the events. */
export interface InvoiceInputs {
  /** The store's currency: the invoice's. */
  currency: string;
  /** The store's `rev-share` setting. */
  revSharePercent: number;
  premiums: readonly InvoicePremium[];
  payouts: readonly InvoicePayout[];
}

export interface InvoiceFigures {
  currency: string;
  revSharePercent: number;
  /** Premiums, revenue share, claims: always the three, in that order. */
  lines: InvoiceLine[];
  /** The sum of the lines: positive the store owes Order Protection, negative the other way. */
  total: number;
  direction: InvoiceDirection;
}

export const directionOf = (total: number): InvoiceDirection =>
  total > 0 ? 'store_owes' : total < 0 ? 'order_protection_owes' : 'settled';

const percentOf = (value: number): Fraction => ({ n: fractionOf(value).n, d: fractionOf(value).d * 100n });
const distinct = (values: readonly string[]) => new Set(values).size;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * A store's invoice for a month, in integer minor units of its currency (docs/decisions/invoices.md):
 * premiums collected, each converted exactly and summed before one half-even rounding; the store's revenue
 * share of that printed line, rounded half-even once; and the claims reimbursed, already whole minor units
 * of the store's currency. The total is the sum of the three lines, so it always equals them.
 */
export function invoiceFigures(inputs: InvoiceInputs): Result<InvoiceFigures> {
  const { currency, revSharePercent } = inputs;
  if (!(revSharePercent >= 0 && revSharePercent <= 100))
    return fail('validation_failed', 'A revenue share is a percentage from 0 to 100.');
  const foreignPayout = inputs.payouts.find((p) => p.currency !== currency);
  if (foreignPayout) {
    return fail(
      'validation_failed',
      `A payout of claim ${foreignPayout.claimId} is in ${foreignPayout.currency}; this store is invoiced in ${currency}.`,
    );
  }
  let premiumsExact: Fraction = whole(0);
  for (const premium of inputs.premiums) {
    const inCurrency =
      premium.currency === currency
        ? whole(premium.amount)
        : convertMinor(whole(premium.amount), premium.currency, currency, premium.exchangeRate);
    premiumsExact = plus(premiumsExact, inCurrency);
  }
  const premiums = roundHalfEven(premiumsExact);
  // Of the printed premiums line, so anyone can check the share against the invoice itself.
  const share = -roundHalfEven(times(whole(premiums), percentOf(revSharePercent)));
  const claims = -inputs.payouts.reduce((sum, p) => sum + p.amount, 0);
  const orders = distinct(inputs.premiums.map((p) => p.orderId));
  const claimCount = distinct(inputs.payouts.map((p) => p.claimId));
  const lines: InvoiceLine[] = [
    {
      kind: 'premiums',
      description: `${INVOICE_LINE_LABELS.premiums} (${plural(orders, 'order')})`,
      quantity: orders,
      amount: premiums,
    },
    {
      kind: 'rev_share',
      description: `${INVOICE_LINE_LABELS.rev_share} (${revSharePercent}% of premiums)`,
      quantity: null,
      amount: share || 0,
    },
    {
      kind: 'claims',
      description: `${INVOICE_LINE_LABELS.claims} (${plural(claimCount, 'claim')})`,
      quantity: claimCount,
      amount: claims || 0,
    },
  ];
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  return ok({ currency, revSharePercent, lines, total, direction: directionOf(total) });
}

/** A month `YYYY-MM` as the half-open UTC period [start, end) its invoice covers. */
export function monthPeriod(month: string): { start: string; end: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return {
    start: new Date(Date.UTC(year, monthNumber - 1, 1)).toISOString(),
    end: new Date(Date.UTC(year, monthNumber, 1)).toISOString(),
  };
}

/** Whether a month is over at `now`: only then is its invoice issued, so nothing of it arrives later. */
export const monthHasEnded = (month: string, now: string): boolean =>
  Date.parse(now) >= Date.parse(monthPeriod(month).end);

/** An invoice's number: the store and the month, unique because a store is invoiced once a month (e.g. ACME-2025-06). */
export const invoiceNumber = (storeSlug: string, month: string): string => `${storeSlug.toUpperCase()}-${month}`;
