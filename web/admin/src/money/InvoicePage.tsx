import { Link, useParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { directionLabel, INVOICE_LINE_LABELS } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatLongDate, formatMonth } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { billingApi } from '../shared/api.js';
import { Fact } from '../shared/components/ui.js';
import { InvoiceLinesTable, Owed } from './billing/InvoiceLinesTable.js';
import './billing/billing.css';
import { invoiceQueries } from './queries.js';

/** `/admin/invoices/{id}`: one issued invoice as a printable sheet, with its credit notes and balance. */
export function InvoicePage() {
  const { invoiceId } = useParams({ from: '/app/invoices/$invoiceId' });
  const invoice = useQuery(invoiceQueries.detail(invoiceId));
  const v = invoice.data;
  if (!v) {
    return (
      <Page title="Invoice">
        {invoice.isError ? (
          <Alert>{errorText(invoice.error, 'The invoice could not be loaded. Try again.')}</Alert>
        ) : (
          <p className="muted">Loading the invoice…</p>
        )}
        <p>
          <Link to="/invoices" search={{}}>
            Back to invoices
          </Link>
        </p>
      </Page>
    );
  }
  return (
    <Page
      title={`Invoice ${v.number}`}
      actions={
        <div className="actions no-print">
          <button type="button" className="button button-primary" onClick={() => window.print()}>
            Print
          </button>
          <a className="button button-secondary" href={billingApi.csvUrl(v.id)} download>
            Download CSV
          </a>
          <Link to="/invoices" search={{ store: v.storeId, month: v.month }}>
            Back to invoices
          </Link>
        </div>
      }
    >
      <article className="invoice-sheet card">
        <div className="invoice-parties">
          <div>
            <h2>From</h2>
            <p>Order Protection</p>
          </div>
          <div>
            <h2>Bill to</h2>
            <p>{v.storeName}</p>
          </div>
        </div>
        <dl className="facts">
          <Fact term="Invoice number">{v.number}</Fact>
          <Fact term="Period">{formatMonth(v.month, 'long')} (UTC)</Fact>
          <Fact term="Issued">
            <time dateTime={v.issuedAt}>{formatLongDate(v.issuedAt)}</time>
          </Fact>
          <Fact term="Currency">{v.currency}</Fact>
          <Fact term="Revenue share">{v.revSharePercent}% of premiums</Fact>
        </dl>
        <InvoiceLinesTable
          caption="Invoice lines (positive: owed by the store)"
          lines={v.lines}
          total={v.total}
          currency={v.currency}
        />
        <Owed label={directionLabel(v.direction, v.storeName)} amount={v.total} currency={v.currency} />
        {v.creditNotes.length > 0 ? (
          <section className="stack" aria-labelledby="credit-notes-title">
            <h2 id="credit-notes-title">Credit notes</h2>
            {v.creditNotes.map((note) => (
              <div key={note.id} className="stack">
                <h3>
                  {note.number}, issued <time dateTime={note.issuedAt}>{formatLongDate(note.issuedAt)}</time>
                </h3>
                <p>Reason: {note.reason}</p>
                <InvoiceLinesTable
                  caption={`Lines taken back by ${note.number}`}
                  currency={v.currency}
                  total={note.total}
                  totalLabel="Credit note total"
                  lines={note.lines.map((line) => ({
                    ...line,
                    description: `${INVOICE_LINE_LABELS[line.kind]} taken back`,
                  }))}
                />
              </div>
            ))}
            <h2>Balance after credit notes</h2>
            <Owed label={directionLabel(v.balanceDirection, v.storeName)} amount={v.balance} currency={v.currency} />
          </section>
        ) : null}
      </article>
    </Page>
  );
}
