import {
  INVOICE_LINE_LABELS,
  InvoiceMonth,
  currencyDecimals,
  toDecimal,
  type DomainEvent,
  type InvoiceLine,
  type InvoiceLineKind,
  type PaymentMethod,
} from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import type { Decider } from '../decider.js';
import { sameJson } from '../sameJson.js';
import { invoiceFigures, invoiceNumber, monthHasEnded, type InvoiceInputs } from './invoices.js';
import { paymentMethodProblem } from './paymentMethods.js';

/** An issued invoice as its events make it: never changed, only credited (amounts in minor units of its currency). */
export interface IssuedInvoice {
  id: string;
  number: string;
  month: string;
  currency: string;
  lines: readonly InvoiceLine[];
  total: number;
  /** Per line, how much of it credit notes have taken back so far (a magnitude, never above the line's). */
  credited: Readonly<Record<InvoiceLineKind, number>>;
  creditNotes: number;
}

/** A store's billing: its invoices (one per month), and the methods it pays and is paid by. */
export interface StoreBillingState {
  invoices: ReadonlyMap<string, IssuedInvoice>;
  /** Month → invoice id. */
  byMonth: ReadonlyMap<string, string>;
  billingMethod: PaymentMethod | null;
  payoutMethod: PaymentMethod | null;
}

interface BillingScope {
  storeId: string;
  actorId: string;
  now: string;
}

export type StoreBillingCommand =
  | (BillingScope & {
      type: 'IssueInvoice';
      invoiceId: string;
      storeSlug: string;
      month: string;
      /** The month's premiums and payouts from the ledger, and the store's currency and revenue share now. */
      inputs: InvoiceInputs;
    })
  | (BillingScope & {
      type: 'IssueCreditNote';
      invoiceId: string;
      creditNoteId: string;
      reason: string;
      /** Per invoice line, how much of it to take back: a positive amount in minor units. */
      lines: ReadonlyArray<{ kind: InvoiceLineKind; amount: number }>;
    })
  | (BillingScope & { type: 'SetBillingMethod' | 'SetPayoutMethod'; method: PaymentMethod });

const NOTHING_CREDITED: Record<InvoiceLineKind, number> = { premiums: 0, rev_share: 0, claims: 0 };

function evolve(state: StoreBillingState, event: DomainEvent): StoreBillingState {
  switch (event.type) {
    case 'InvoiceIssued': {
      const d = event.data;
      const invoice: IssuedInvoice = {
        id: d.invoiceId,
        number: d.number,
        month: d.month,
        currency: d.currency,
        lines: d.lines,
        total: d.total,
        credited: NOTHING_CREDITED,
        creditNotes: 0,
      };
      return {
        ...state,
        invoices: new Map([...state.invoices, [d.invoiceId, invoice]]),
        byMonth: new Map([...state.byMonth, [d.month, d.invoiceId]]),
      };
    }
    case 'CreditNoteIssued': {
      const invoice = state.invoices.get(event.data.invoiceId);
      if (!invoice) return state;
      const credited = { ...invoice.credited };
      for (const line of event.data.lines) credited[line.kind] += Math.abs(line.amount);
      const next: IssuedInvoice = { ...invoice, credited, creditNotes: invoice.creditNotes + 1 };
      return { ...state, invoices: new Map([...state.invoices, [invoice.id, next]]) };
    }
    case 'BillingMethodSet':
      return { ...state, billingMethod: event.data.method };
    case 'PayoutMethodSet':
      return { ...state, payoutMethod: event.data.method };
    default:
      return state;
  }
}

/** What is left of an invoice line to credit: its magnitude less what earlier credit notes took back. */
export const creditableOf = (invoice: IssuedInvoice, kind: InvoiceLineKind): number =>
  Math.abs(invoice.lines.find((line) => line.kind === kind)?.amount ?? 0) - invoice.credited[kind];

function decideCreditNote(
  command: Extract<StoreBillingCommand, { type: 'IssueCreditNote' }>,
  state: StoreBillingState,
): Result<DomainEvent[]> {
  const invoice = state.invoices.get(command.invoiceId);
  if (!invoice) return fail('not_found', 'No invoice of this store matches that reference.');
  if (command.lines.length === 0)
    return fail('validation_failed', 'A credit note takes back some amount of at least one line.');
  if (new Set(command.lines.map((l) => l.kind)).size !== command.lines.length)
    return fail('validation_failed', 'Name each invoice line once.');
  const lines = [];
  for (const { kind, amount } of command.lines) {
    if (!Number.isInteger(amount) || amount <= 0)
      return fail('validation_failed', 'Each amount of a credit note is positive.');
    const left = creditableOf(invoice, kind);
    if (amount > left) {
      return fail(
        'credit_exceeds_invoice',
        `${INVOICE_LINE_LABELS[kind]} has ${toDecimal(left, invoice.currency).toFixed(currencyDecimals(invoice.currency))} ${invoice.currency} left to credit on ${invoice.number}; a credit note never exceeds its invoice.`,
      );
    }
    const sign = Math.sign(invoice.lines.find((line) => line.kind === kind)!.amount);
    lines.push({ kind, amount: -sign * amount });
  }
  return ok([
    {
      type: 'CreditNoteIssued',
      data: {
        storeId: command.storeId,
        creditNoteId: command.creditNoteId,
        invoiceId: invoice.id,
        number: `${invoice.number}-CN${invoice.creditNotes + 1}`,
        lines,
        total: lines.reduce((sum, l) => sum + l.amount, 0),
        reason: command.reason,
        issuedBy: command.actorId,
        issuedAt: command.now,
      },
    },
  ]);
}

/**
 * A store's billing stream. A month is invoiced once, after it ends, from the ledger's figures; an issued
 * invoice never changes: a correction is a credit note taking back part of its lines, never more than
 * them. The methods keep only what identifies them to a person (a full number is refused).
 */
export const storeBillingDecider: Decider<StoreBillingState, StoreBillingCommand> = {
  initialState: { invoices: new Map(), byMonth: new Map(), billingMethod: null, payoutMethod: null },
  evolve,
  decide(command, state): Result<DomainEvent[]> {
    switch (command.type) {
      case 'IssueInvoice': {
        if (!InvoiceMonth.safeParse(command.month).success)
          return fail('validation_failed', 'A month is written YYYY-MM.');
        const issued = state.invoices.get(state.byMonth.get(command.month) ?? '');
        if (issued)
          return fail(
            'already_invoiced',
            `${command.month} is invoiced already (${issued.number}); correct it with a credit note.`,
          );
        if (!monthHasEnded(command.month, command.now))
          return fail('month_not_ended', `${command.month} has not ended yet: a month is invoiced once it is over.`);
        const figures = invoiceFigures(command.inputs);
        if (!figures.ok) return figures;
        const { currency, revSharePercent, lines, total } = figures.value;
        return ok([
          {
            type: 'InvoiceIssued',
            data: {
              storeId: command.storeId,
              invoiceId: command.invoiceId,
              number: invoiceNumber(command.storeSlug, command.month),
              month: command.month,
              currency,
              revSharePercent,
              lines,
              total,
              issuedBy: command.actorId,
              issuedAt: command.now,
            },
          },
        ]);
      }
      case 'IssueCreditNote':
        return decideCreditNote(command, state);
      case 'SetBillingMethod':
      case 'SetPayoutMethod': {
        const problem = paymentMethodProblem(command.method);
        if (problem) return fail('validation_failed', problem);
        const billing = command.type === 'SetBillingMethod';
        if (sameJson(billing ? state.billingMethod : state.payoutMethod, command.method)) return ok([]);
        const data = { storeId: command.storeId, method: command.method, setBy: command.actorId, setAt: command.now };
        return ok([billing ? { type: 'BillingMethodSet', data } : { type: 'PayoutMethodSet', data }]);
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
