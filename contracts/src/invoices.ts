import { z } from 'zod';
import { CurrencyCode, DecimalAmount } from './money.js';

/** A calendar month in UTC, `YYYY-MM`: the period an invoice covers. */
export const InvoiceMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM');
export type InvoiceMonth = z.infer<typeof InvoiceMonth>;

/**
 * The lines of a store's monthly invoice, in this order: premiums collected (the store owes them), the
 * store's revenue share of them (it keeps that), claims reimbursed (Order Protection owes them).
 */
export const InvoiceLineKind = z.enum(['premiums', 'rev_share', 'claims']);
export type InvoiceLineKind = z.infer<typeof InvoiceLineKind>;

export const INVOICE_LINE_LABELS: Record<InvoiceLineKind, string> = {
  premiums: 'Premiums collected',
  rev_share: 'Revenue share',
  claims: 'Claims reimbursed',
};

/** One line in minor units of the invoice's currency: positive is owed by the store, negative by Order Protection. */
export const InvoiceLine = z.object({
  kind: InvoiceLineKind,
  description: z.string(),
  /** Orders for premiums, claims for reimbursements; none for the revenue share. */
  quantity: z.number().int().nonnegative().nullable(),
  amount: z.number().int(),
});
export type InvoiceLine = z.infer<typeof InvoiceLine>;

/** Who owes whom, from the sign of a total: positive the store, negative Order Protection, zero nobody. */
export const InvoiceDirection = z.enum(['store_owes', 'order_protection_owes', 'settled']);
export type InvoiceDirection = z.infer<typeof InvoiceDirection>;

/** A credit note's line: how much of one invoice line it takes back (minor units, the opposite sign of that line). */
export const CreditNoteLine = z.object({ kind: InvoiceLineKind, amount: z.number().int() });
export type CreditNoteLine = z.infer<typeof CreditNoteLine>;

const Last4 = z
  .string()
  .trim()
  .regex(/^\d{4}$/, 'enter only the last four digits, never the full card or account number');

/**
 * How money moves between a store and Order Protection. Only what identifies the method to a person is kept:
 * a card's brand and last four digits, an account's bank and last four digits, or a payment provider's
 * reference (a token at the provider, never a number). A full card or account number is refused.
 */
export const PaymentMethod = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('card'), brand: z.string().trim().min(1).max(40), last4: Last4 }),
  z.object({ kind: z.literal('bank_account'), bankName: z.string().trim().min(1).max(80), last4: Last4 }),
  z.object({
    kind: z.literal('provider'),
    provider: z.string().trim().min(1).max(40),
    reference: z.string().trim().min(1).max(100),
  }),
]);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** Which way a method moves money: the store pays Order Protection (billing), or is paid by it (payout). */
export const PaymentMethodPurpose = z.enum(['billing', 'payout']);
export type PaymentMethodPurpose = z.infer<typeof PaymentMethodPurpose>;

// ---------------------------------------------------------------------------------------------
// At the API edge: amounts as decimals of the invoice's currency.

export const InvoiceLineView = InvoiceLine.extend({ amount: DecimalAmount });
export const CreditNoteView = z.object({
  id: z.uuid(),
  number: z.string(),
  invoiceId: z.uuid(),
  lines: z.array(CreditNoteLine.extend({ amount: DecimalAmount })),
  total: DecimalAmount,
  reason: z.string(),
  issuedAt: z.iso.datetime(),
  issuedBy: z.string(),
});
export type CreditNoteView = z.infer<typeof CreditNoteView>;

/** A month's invoice figures, whether issued (an InvoiceView) or only computed (an InvoiceDraft). */
const InvoiceFigures = z.object({
  storeId: z.uuid(),
  storeName: z.string(),
  month: InvoiceMonth,
  /** The month as a half-open UTC period. */
  periodStart: z.iso.datetime(),
  periodEnd: z.iso.datetime(),
  currency: CurrencyCode,
  revSharePercent: z.number(),
  lines: z.array(InvoiceLineView),
  total: DecimalAmount,
  direction: InvoiceDirection,
});

export const InvoiceView = InvoiceFigures.extend({
  id: z.uuid(),
  number: z.string(),
  creditNotes: z.array(CreditNoteView),
  /** The total with every credit note applied, and who owes whom after them. */
  balance: DecimalAmount,
  balanceDirection: InvoiceDirection,
  issuedAt: z.iso.datetime(),
  issuedBy: z.string(),
});
export type InvoiceView = z.infer<typeof InvoiceView>;

export const InvoiceList = z.object({ data: z.array(InvoiceView) });

export const InvoiceListQuery = z.object({ storeId: z.uuid().optional(), month: InvoiceMonth.optional() });
export const InvoiceDraftQuery = z.object({ storeId: z.uuid(), month: InvoiceMonth });

/** What the month's invoice would say if issued now, computed from the ledger. */
export const InvoiceDraft = InvoiceFigures.extend({
  /** An invoice is issued once the month has ended. */
  monthEnded: z.boolean(),
  /** The month's invoice, when it is issued already. */
  issuedInvoiceId: z.uuid().nullable(),
});
export type InvoiceDraft = z.infer<typeof InvoiceDraft>;

export const IssueInvoiceRequest = z.object({ storeId: z.uuid(), month: InvoiceMonth });
export type IssueInvoiceRequest = z.infer<typeof IssueInvoiceRequest>;

export const IssueCreditNoteRequest = z.object({
  /** Per invoice line, how much of it to take back, as a positive decimal. */
  lines: z
    .array(z.object({ kind: InvoiceLineKind, amount: DecimalAmount.positive() }))
    .min(1)
    .max(3),
  reason: z.string().trim().min(1).max(500),
});
export type IssueCreditNoteRequest = z.infer<typeof IssueCreditNoteRequest>;

export const StoredPaymentMethod = z.object({ method: PaymentMethod, setAt: z.iso.datetime(), setBy: z.string() });
/** A store's methods; a method the caller may not read is left out (undefined), one never set is null. */
export const PaymentMethodsView = z.object({
  storeId: z.uuid(),
  billing: StoredPaymentMethod.nullable().optional(),
  payout: StoredPaymentMethod.nullable().optional(),
});
export type PaymentMethodsView = z.infer<typeof PaymentMethodsView>;

export const SetPaymentMethodRequest = z.object({ method: PaymentMethod });
export type SetPaymentMethodRequest = z.infer<typeof SetPaymentMethodRequest>;

/** Who owes whom, in words (the invoice page, the printed invoice and the CSV say the same). */
export function directionLabel(direction: InvoiceDirection, storeName: string): string {
  switch (direction) {
    case 'store_owes':
      return `${storeName} owes Order Protection`;
    case 'order_protection_owes':
      return `Order Protection owes ${storeName}`;
    case 'settled':
      return 'Nothing is owed either way';
    default: {
      const exhaustive: never = direction;
      return exhaustive;
    }
  }
}
