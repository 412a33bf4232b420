import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { PayoutStatus, type PayoutEntry, type StoreRef } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, formatDay, formatMoney, humanizeCode, pluralize } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { holdsInternally, useMe } from '../shared/session.js';
import { Badge, type BadgeTone } from '../shared/components/ui.js';
import { StoreSelect } from '../shared/components/StorePicker.js';
import { resolutionTypeLabel } from '../shared/labels.js';
import { PeriodSearch, daysOf, periodProblem } from './finance/period.js';
import { storeNameOf } from './finance/references.js';
import { ClaimLink } from './finance/ClaimLink.js';
import { totalsByCurrency } from './finance/totals.js';
import { formatTotals } from '../shared/format.js';
import { PayoutBatches } from './finance/PayoutBatches.js';
import { financeQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';
import { Options } from '../shared/components/Options.js';
import { PeriodFields } from '../shared/components/PeriodFields.js';

export const PayoutsSearch = PeriodSearch.extend({
  store: z.uuid().optional().catch(undefined),
  status: PayoutStatus.optional().catch(undefined),
});
export type PayoutsSearch = z.infer<typeof PayoutsSearch>;

const PAYOUT_STATUS_TONES: Record<PayoutStatus, BadgeTone> = {
  pending: 'warning',
  approved: 'info',
  paid: 'success',
  reversed: 'neutral',
};

/** Store, period and status; sent together, so the URL always names what the tables show. */
function Filters({
  search,
  stores,
  onApply,
}: {
  search: PayoutsSearch;
  stores: readonly StoreRef[];
  onApply: (next: PayoutsSearch) => void;
}) {
  const id = useId();
  const days = daysOf(search);
  const [store, setStore] = useState(search.store ?? '');
  const [from, setFrom] = useState(days.fromDay);
  const [to, setTo] = useState(days.toDay);
  const [status, setStatus] = useState(search.status ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const wrong = periodProblem(from, to);
    setProblem(wrong);
    if (wrong) return;
    onApply({ store: store || undefined, from, to, status: PayoutStatus.safeParse(status).data });
  }
  return (
    <form className="filters" onSubmit={onSubmit} aria-label="Payout filters" noValidate>
      <StoreSelect stores={stores} value={store} onChange={setStore} anyStore="All stores" />
      <PeriodFields
        from={from}
        to={to}
        onFrom={setFrom}
        onTo={setTo}
        fromLabel="Decided from"
        toLabel="Decided to"
        problemId={problem ? `${id}-problem` : undefined}
        invalid={Boolean(problem)}
      />
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select id={`${id}-status`} value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Any status</option>
          <Options values={PayoutStatus.options} label={(s) => s} />
        </select>
      </div>
      <div className="field filter-actions">
        <button type="submit" className="button button-secondary">
          Apply filters
        </button>
      </div>
      {problem ? (
        <p id={`${id}-problem`} className="field-error field-wide" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/** Per store and currency: what is pending, approved and paid, and the total. */
function StoreTotals({ entries, stores }: { entries: readonly PayoutEntry[]; stores: readonly StoreRef[] }) {
  const groups = new Map<string, { store: string; currency: string; entries: PayoutEntry[] }>();
  for (const e of entries) {
    const key = `${e.storeId} ${e.currency}`;
    const group = groups.get(key) ?? { store: storeNameOf(stores, e.storeId), currency: e.currency, entries: [] };
    group.entries.push(e);
    groups.set(key, group);
  }
  const rows = [...groups.values()].sort(
    (a, b) => a.store.localeCompare(b.store) || a.currency.localeCompare(b.currency),
  );
  const sum = (list: readonly PayoutEntry[], currency: string) =>
    formatMoney(totalsByCurrency(list)[0]?.amount ?? 0, currency);
  return (
    <DataTable caption="Totals per store and currency">
      <thead>
        <tr>
          <th scope="col">Store</th>
          <th scope="col">Currency</th>
          <th scope="col">Entries</th>
          {PayoutStatus.options.map((s) => (
            <th key={s} scope="col">
              {humanizeCode(s)}
            </th>
          ))}
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.store} ${row.currency}`}>
            <th scope="row">{row.store}</th>
            <td>{row.currency}</td>
            <td className="numeric">{row.entries.length}</td>
            {PayoutStatus.options.map((s) => (
              <td key={s} className="numeric">
                {sum(
                  row.entries.filter((e) => e.status === s),
                  row.currency,
                )}
              </td>
            ))}
            <td className="numeric">
              <strong>{sum(row.entries, row.currency)}</strong>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

function EntriesTable({ entries, stores }: { entries: readonly PayoutEntry[]; stores: readonly StoreRef[] }) {
  return (
    <DataTable caption="Payout entries" columns={['Claim', 'Store', 'Resolution', 'Decided', 'Status', 'Amount']}>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id}>
            <th scope="row">
              <ClaimLink claimId={e.claimId} claimNumber={e.claimNumber} />
            </th>
            <td>{storeNameOf(stores, e.storeId)}</td>
            <td>{resolutionTypeLabel(e.resolutionType)}</td>
            <td>
              <time dateTime={e.decidedAt}>{formatDateTime(e.decidedAt)}</time>
            </td>
            <td>
              <Badge tone={PAYOUT_STATUS_TONES[e.status]}>{e.status}</Badge>
            </td>
            <td className="numeric">{formatMoney(e.amount, e.currency)}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/**
 * `/admin/finance/payouts`: the payout ledger's entries per store for a period (filtered by status), totals per
 * currency, and the chosen store's payout batches. Order Protection's finance team (`payout:read`).
 */
export function PayoutsPage() {
  const me = useMe();
  const search = useSearch({ from: '/app/finance/payouts' });
  const navigate = useNavigate();
  const stores = me.stores;
  const days = daysOf(search);
  const allowed = holdsInternally(me, 'payout:read');
  const entries = useQuery({
    ...financeQueries.payoutEntries.of(search.store, { from: days.from, to: days.to }),
    enabled: allowed,
    placeholderData: keepPreviousData,
  });
  const shown = (entries.data?.entries ?? []).filter((e) => !search.status || e.status === search.status);
  const store = search.store ? stores.find((s) => s.id === search.store) : undefined;
  if (!allowed)
    return (
      <Page title="Payouts">
        <Alert>You need the payout:read permission to see payouts.</Alert>
      </Page>
    );
  return (
    <Page title="Payouts">
      <Filters
        key={JSON.stringify(search)}
        search={search}
        stores={stores}
        onApply={(next) => void navigate({ to: '/finance/payouts', search: next })}
      />
      <p className="hint">
        Decided {formatDay(days.fromDay)} to {formatDay(days.toDay)} (UTC days)
        {store ? ` at ${store.name}` : ' at every store'}
        {search.status ? `, ${search.status} only` : ''}.
      </p>
      {entries.isError ? (
        <Alert>{errorText(entries.error, 'The payout entries could not be loaded. Try again.')}</Alert>
      ) : null}
      {!entries.data ? (
        entries.isPending ? (
          <p role="status">Loading the payout entries…</p>
        ) : null
      ) : (
        <section
          className="card stack"
          aria-labelledby="entries-title"
          aria-busy={entries.isFetching ? 'true' : 'false'}
        >
          <h2 id="entries-title">Entries</h2>
          <p role="status">
            {pluralize(shown.length, 'entry', 'entries')}
            {shown.length > 0 ? `, in all ${formatTotals(totalsByCurrency(shown))}` : ''}.
          </p>
          {shown.length > 0 ? (
            <>
              <StoreTotals entries={shown} stores={stores} />
              <EntriesTable entries={shown} stores={stores} />
            </>
          ) : null}
        </section>
      )}
      {store ? (
        <PayoutBatches key={store.id} store={store} />
      ) : (
        <section className="card" aria-labelledby="batches-title">
          <h2 id="batches-title">Payout batches</h2>
          <p className="hint">Choose a store in the filters to see its payout batches and make a new one.</p>
        </section>
      )}
    </Page>
  );
}
