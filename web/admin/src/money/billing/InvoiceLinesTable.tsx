import type { ReactNode } from 'react';
import { formatMoney } from '@claims/format';

/** Lines and their total, amounts signed as on the invoice (positive: owed by the store). */
export function InvoiceLinesTable({
  caption,
  lines,
  total,
  currency,
  totalLabel = 'Total',
}: {
  caption: ReactNode;
  lines: ReadonlyArray<{ kind: string; description: string; amount: number }>;
  total: number;
  currency: string;
  totalLabel?: string;
}) {
  return (
    <table className="invoice-lines">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Description</th>
          <th scope="col" className="amount">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.kind}>
            <th scope="row">{line.description}</th>
            <td className="amount">{formatMoney(line.amount, currency)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">{totalLabel}</th>
          <td className="amount">{formatMoney(total, currency)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** Who owes whom and how much, in one sentence. */
export function Owed({ label, amount, currency }: { label: string; amount: number; currency: string }) {
  return <p className="owed">{amount === 0 ? `${label}.` : `${label}: ${formatMoney(Math.abs(amount), currency)}.`}</p>;
}
