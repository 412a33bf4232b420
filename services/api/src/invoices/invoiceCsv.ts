import { directionLabel, INVOICE_LINE_LABELS, type InvoiceView } from '@claims/contracts';
import { toCsv } from '@claims/format';

/**
 * One invoice as CSV: its lines and total, then each credit note's lines and total, then the balance. Amounts
 * are decimals of the invoice's currency, signed as on the invoice (positive: owed by the store).
 */
export function invoiceCsv(invoice: InvoiceView): string {
  const { number, storeName, month, currency } = invoice;
  const row = (
    document: string,
    documentNumber: string,
    issuedAt: string,
    line: string,
    description: string,
    quantity: number | null,
    amount: number,
  ) => [document, documentNumber, storeName, month, issuedAt, line, description, quantity, amount, currency];
  return toCsv([
    ['document', 'number', 'store', 'month', 'issued_at', 'line', 'description', 'quantity', 'amount', 'currency'],
    ...invoice.lines.map((l) => row('invoice', number, invoice.issuedAt, l.kind, l.description, l.quantity, l.amount)),
    row(
      'invoice',
      number,
      invoice.issuedAt,
      'total',
      `Total: ${directionLabel(invoice.direction, storeName)}`,
      null,
      invoice.total,
    ),
    ...invoice.creditNotes.flatMap((note) => [
      ...note.lines.map((l) =>
        row(
          'credit_note',
          note.number,
          note.issuedAt,
          l.kind,
          `${INVOICE_LINE_LABELS[l.kind]} taken back`,
          null,
          l.amount,
        ),
      ),
      row('credit_note', note.number, note.issuedAt, 'total', `Credit note: ${note.reason}`, null, note.total),
    ]),
    row(
      'balance',
      number,
      invoice.issuedAt,
      'balance',
      `Balance after credit notes: ${directionLabel(invoice.balanceDirection, storeName)}`,
      null,
      invoice.balance,
    ),
  ]);
}
