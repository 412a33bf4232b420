import { useId, useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { directionLabel, type InvoiceView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatLongDate, formatMoney, formatMonth } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { billingApi } from '../shared/api.js';
import { can, storesWith, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { CreditNoteDialog } from './billing/CreditNoteDialog.js';
import { DraftCard } from './billing/DraftCard.js';
import { previousMonth } from './billing/month.js';
import './billing/billing.css';
import { invoiceQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

function InvoiceTable({
  invoices,
  mayCredit,
  onCredit,
}: {
  invoices: readonly InvoiceView[];
  mayCredit: boolean;
  onCredit: (invoice: InvoiceView) => void;
}) {
  if (invoices.length === 0) return <p className="empty">No invoice issued yet.</p>;
  return (
    <DataTable
      caption="Issued invoices, newest month first"
      captionHidden
      columns={[
        'Invoice',
        'Month',
        'Total',
        'Who owes whom',
        'Balance after credit notes',
        'Credit notes',
        'Issued',
        'Actions',
      ]}
    >
      <tbody>
        {invoices.map((invoice) => (
          <tr key={invoice.id}>
            <th scope="row">
              <Link className="row-link" to="/invoices/$invoiceId" params={{ invoiceId: invoice.id }}>
                {invoice.number}
              </Link>
            </th>
            <td>{formatMonth(invoice.month, 'long')}</td>
            <td className="numeric">{formatMoney(invoice.total, invoice.currency)}</td>
            <td>{directionLabel(invoice.direction, invoice.storeName)}</td>
            <td className="numeric">{formatMoney(invoice.balance, invoice.currency)}</td>
            <td className="numeric">{invoice.creditNotes.length}</td>
            <td>
              <time dateTime={invoice.issuedAt}>{formatLongDate(invoice.issuedAt)}</time>
            </td>
            <td>
              <div className="actions">
                <a href={billingApi.csvUrl(invoice.id)} download>
                  Download CSV<span className="visually-hidden"> of {invoice.number}</span>
                </a>
                {mayCredit ? (
                  <button type="button" className="button button-link" onClick={() => onCredit(invoice)}>
                    Credit note<span className="visually-hidden"> for {invoice.number}</span>
                  </button>
                ) : null}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/**
 * `/admin/invoices`: a store's issued invoices by month (`invoice:read`), a month's draft from the ledger and
 * issuing it (`invoice:create`), credit notes (`invoice:update`), each invoice's CSV and printable page.
 */
export function InvoicesPage() {
  const id = useId();
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/invoices' });
  const stores = storesWith(me, 'invoice:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const month = search.month ?? previousMonth(new Date());
  const invoices = useQuery({ ...invoiceQueries.list(storeId), enabled: Boolean(store) });
  const [crediting, setCrediting] = useState<InvoiceView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!store) return <NoStorePage title="Invoices" what="invoices" />;
  const go = (next: { store?: string; month?: string }) =>
    void navigate({ to: '/invoices', search: { store: storeId, month, ...next } });
  return (
    <Page title={`Invoices of ${store.name}`}>
      <div className="inline-form">
        <StorePicker stores={stores} value={storeId} onChange={(next) => go({ store: next })} />
        <div className="field">
          <label htmlFor={`${id}-month`}>Month</label>
          <input
            id={`${id}-month`}
            type="month"
            value={month}
            required
            onChange={(e) => {
              if (e.target.value) go({ month: e.target.value });
            }}
          />
        </div>
      </div>
      {can(me, 'invoice:create', storeId) ? (
        <DraftCard key={`${storeId}:${month}`} store={store} month={month} />
      ) : null}
      <section className="stack" aria-labelledby={`${id}-issued`}>
        <h2 id={`${id}-issued`}>Issued invoices</h2>
        <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
        {invoices.isPending ? <p className="muted">Loading the invoices…</p> : null}
        {invoices.isError ? (
          <Alert>{errorText(invoices.error, 'The invoices could not be loaded. Try again.')}</Alert>
        ) : null}
        {invoices.data ? (
          <InvoiceTable
            invoices={invoices.data.data}
            mayCredit={can(me, 'invoice:update', storeId)}
            onCredit={(invoice) => {
              setNotice(null);
              setCrediting(invoice);
            }}
          />
        ) : null}
      </section>
      <CreditNoteDialog
        invoice={crediting}
        onClose={() => setCrediting(null)}
        onIssued={(text) => {
          setCrediting(null);
          setNotice(text);
        }}
      />
    </Page>
  );
}
