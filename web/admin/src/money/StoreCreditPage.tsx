import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { StoreCreditEntry, StoreCreditLedger } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, formatMoney } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { can, storesWith, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { ClaimLink } from './finance/ClaimLink.js';
import { CreditChangeForms } from './store-credit/CreditChangeForms.js';
import { storeCreditQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';

export const StoreCreditSearch = z.object({
  store: z.uuid().optional().catch(undefined),
  customer: z.email().max(320).optional().catch(undefined),
});
export type StoreCreditSearch = z.infer<typeof StoreCreditSearch>;

/** Any customer's ledger by email, also one with no credit yet (an adjustment can give some). */
function CustomerLookup({ onOpen }: { onOpen: (email: string) => void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = z.email().max(320).safeParse(email.trim());
    if (!parsed.success) return setProblem("Enter the customer's email address.");
    setProblem(null);
    onOpen(parsed.data);
  }
  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Find a customer">
      <div className="field">
        <label htmlFor={id}>Customer email</label>
        <input
          id={id}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
      </div>
      <button type="submit" className="button button-secondary">
        Show ledger
      </button>
      {problem ? (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

const ENTRY_LABELS: Record<StoreCreditEntry['kind'], string> = {
  issued: 'Issued',
  redeemed: 'Redeemed',
  adjusted: 'Adjusted',
  reclaimed: 'Reclaimed (reversal)',
};

function Ledger({ storeId, email, mayChange }: { storeId: string; email: string; mayChange: boolean }) {
  const client = useQueryClient();
  const ledger = useQuery(storeCreditQueries.ledger(storeId, email));
  const [notice, setNotice] = useState<string | null>(null);
  // The balances list is a read model a moment behind: the ledger the change answered updates it at once.
  function changed(after: StoreCreditLedger, text: string) {
    client.setQueryData(storeCreditQueries.ledger(storeId, email).queryKey, after);
    client.setQueryData(
      storeCreditQueries.balances(storeId).queryKey,
      (old) =>
        old && {
          data: old.data.map((b) =>
            b.customerEmail.toLowerCase() === email.toLowerCase()
              ? { ...b, balance: after.balance, updatedAt: after.entries.at(-1)?.at ?? b.updatedAt }
              : b,
          ),
        },
    );
    setNotice(text);
  }
  const data = ledger.data;
  return (
    <section className="card stack" aria-labelledby="ledger-title">
      <h2 id="ledger-title">Ledger of {email}</h2>
      {ledger.isError ? <Alert>{errorText(ledger.error, 'The ledger could not be loaded. Try again.')}</Alert> : null}
      {!data ? (
        ledger.isPending ? (
          <p className="muted">Loading the ledger…</p>
        ) : null
      ) : (
        <>
          <p>
            Balance: <strong>{formatMoney(data.balance, data.currency)}</strong>
          </p>
          <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
          {data.entries.length === 0 ? (
            <p className="muted">No store credit yet.</p>
          ) : (
            <DataTable
              caption={`Store credit entries of ${email}`}
              captionHidden
              columns={['When', 'Entry', 'Amount', 'Bonus', 'Claim', 'Note']}
            >
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.version}>
                    <th scope="row">
                      <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                    </th>
                    <td>{ENTRY_LABELS[e.kind]}</td>
                    <td className="numeric">{formatMoney(e.amount, data.currency)}</td>
                    <td className="numeric">
                      {e.bonus === null ? '—' : `${formatMoney(e.bonus, data.currency)} included`}
                    </td>
                    <td>{e.claimId ? <ClaimLink claimId={e.claimId} claimNumber={e.claimNumber} /> : '—'}</td>
                    <td>{e.note ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          )}
          {mayChange ? <CreditChangeForms storeId={storeId} ledger={data} onChanged={changed} /> : null}
        </>
      )}
    </section>
  );
}

/**
 * `/admin/store-credit`: each customer's store credit at a store (`store-credit:read`), a customer's ledger
 * (issued with its bonus, redeemed, adjusted) and, with `store-credit:update`, redeeming and adjusting it.
 */
export function StoreCreditPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/store-credit' });
  const stores = storesWith(me, 'store-credit:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const balances = useQuery({ ...storeCreditQueries.balances(storeId), enabled: Boolean(store) });
  if (!store) return <NoStorePage title="Store credit" what="store credit" />;
  const open = (customer: string | undefined) =>
    void navigate({ to: '/store-credit', search: { store: storeId, customer } });
  return (
    <Page title={`Store credit of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => void navigate({ to: '/store-credit', search: { store: next } })}
      />
      <p className="hint">
        Credit is kept per customer and store, in the store's currency; STORE_CREDIT resolutions issue it with the
        store's bonus.
      </p>
      <section className="card stack" aria-labelledby="balances-title">
        <h2 id="balances-title">Customers with store credit</h2>
        <CustomerLookup onOpen={open} />
        {balances.isError ? (
          <Alert>{errorText(balances.error, 'The balances could not be loaded. Try again.')}</Alert>
        ) : null}
        {balances.isPending ? <p className="muted">Loading the balances…</p> : null}
        {balances.data && balances.data.data.length === 0 ? (
          <p className="muted">No customer has store credit here yet.</p>
        ) : null}
        {balances.data && balances.data.data.length > 0 ? (
          <DataTable
            caption={`Store credit balances at ${store.name}`}
            captionHidden
            columns={['Customer', 'Balance', 'Issued in all', 'Last change']}
          >
            <tbody>
              {balances.data.data.map((b) => (
                <tr
                  key={b.customerKey}
                  aria-current={search.customer?.toLowerCase() === b.customerEmail.toLowerCase() ? 'true' : undefined}
                >
                  <th scope="row">
                    <Link to="/store-credit" search={{ store: storeId, customer: b.customerEmail }}>
                      {b.customerEmail}
                    </Link>
                  </th>
                  <td className="numeric">{formatMoney(b.balance, b.currency)}</td>
                  <td className="numeric">{formatMoney(b.issued, b.currency)}</td>
                  <td>
                    <time dateTime={b.updatedAt}>{formatDateTime(b.updatedAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        ) : null}
      </section>
      {search.customer ? (
        <Ledger
          key={`${storeId} ${search.customer}`}
          storeId={storeId}
          email={search.customer}
          mayChange={can(me, 'store-credit:update', storeId)}
        />
      ) : null}
    </Page>
  );
}
