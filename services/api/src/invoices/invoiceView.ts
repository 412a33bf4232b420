import { toDecimal, type EventOf, type InvoiceView } from '@claims/contracts';
import { directionOf, monthPeriod } from '@claims/domain';
import type { InvoiceRow } from '@claims/projections';

/** An invoice at the API edge: decimals of its currency, its period, who owes whom before and after its credit notes. */
export function invoiceView(row: InvoiceRow, storeName: string): InvoiceView {
  const decimal = (minor: number) => toDecimal(minor, row.currency);
  const { start, end } = monthPeriod(row.month);
  const balance = row.creditNotes.reduce((sum, note) => sum + note.total, row.total);
  return {
    id: row.id,
    storeId: row.storeId,
    storeName,
    number: row.number,
    month: row.month,
    periodStart: start,
    periodEnd: end,
    currency: row.currency,
    revSharePercent: row.revSharePercent,
    lines: row.lines.map((line) => ({ ...line, amount: decimal(line.amount) })),
    total: decimal(row.total),
    direction: directionOf(row.total),
    creditNotes: row.creditNotes.map((note) => ({
      ...note,
      lines: note.lines.map((line) => ({ ...line, amount: decimal(line.amount) })),
      total: decimal(note.total),
    })),
    balance: decimal(balance),
    balanceDirection: directionOf(balance),
    issuedAt: row.issuedAt,
    issuedBy: row.issuedBy,
  };
}

/** The row an InvoiceIssued event makes, for answering the request that issued it without waiting for the read model. */
export const rowOfIssued = ({ data }: EventOf<'InvoiceIssued'>): InvoiceRow => ({
  id: data.invoiceId,
  storeId: data.storeId,
  number: data.number,
  month: data.month,
  currency: data.currency,
  revSharePercent: data.revSharePercent,
  lines: data.lines,
  total: data.total,
  issuedAt: data.issuedAt,
  issuedBy: data.issuedBy,
  creditNotes: [],
});
