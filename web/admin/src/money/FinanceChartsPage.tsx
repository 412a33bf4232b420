import { useId } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { errorText } from '@claims/ui';
import { formatMonth } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { holdsInternally, useMe } from '../shared/session.js';
import { FinanceCharts } from './finance/FinanceCharts.js';
import { MONTH_CHOICES, MonthChoice, type FinanceChartsSearch } from './finance/period.js';
import { financeQueries } from './queries.js';

/** The last `count` UTC months through the current one, oldest first, and the instant the first begins. */
function monthsThrough(count: number, now = new Date()) {
  const months = Array.from({ length: count }, (_, i) => {
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - i), 1));
    return at.toISOString().slice(0, 7);
  });
  return { months, from: `${months[0]}-01T00:00:00.000Z` };
}

/** `/admin/finance/charts`: premiums collected and payouts decided per month and store, each chart with its table. */
export function FinanceChartsPage() {
  const me = useMe();
  const id = useId();
  const search = useSearch({ from: '/app/finance/charts' });
  const navigate = useNavigate();
  const count = Number(search.months ?? '12');
  const range = monthsThrough(count);
  const allowed = holdsInternally(me, 'finance:read') && holdsInternally(me, 'payout:read');
  const totals = useQuery({
    ...financeQueries.monthlyTotals(search.store, range.from),
    enabled: allowed,
    placeholderData: keepPreviousData,
  });
  const onChange = (next: FinanceChartsSearch) => void navigate({ to: '/finance/charts', search: next });
  if (!allowed)
    return (
      <Page title="Premiums & payouts">
        <Alert>You need the finance:read and payout:read permissions to see these figures.</Alert>
      </Page>
    );
  return (
    <Page title="Premiums & payouts">
      <form className="filters" aria-label="Chart filters" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={`${id}-months`}>Months</label>
          <select
            id={`${id}-months`}
            value={String(count)}
            onChange={(e) => onChange({ ...search, months: MonthChoice.parse(e.target.value) })}
          >
            {MONTH_CHOICES.map((m) => (
              <option key={m} value={m}>
                Last {m} months
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-store`}>Store</label>
          <select
            id={`${id}-store`}
            value={search.store ?? ''}
            onChange={(e) => onChange({ ...search, store: e.target.value || undefined })}
          >
            <option value="">All stores</option>
            {me.stores.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
      </form>
      <p className="hint">
        {formatMonth(range.months[0]!)} to {formatMonth(range.months.at(-1)!)} (UTC months); premiums in each order's
        premium currency, payouts in the store's, a chart per currency.
      </p>
      {totals.isError ? <Alert>{errorText(totals.error, 'The figures could not be loaded. Try again.')}</Alert> : null}
      {!totals.data ? (
        <p role="status">Loading the figures…</p>
      ) : (
        <div aria-busy={totals.isFetching ? 'true' : 'false'}>
          <FinanceCharts rows={totals.data.months} months={range.months} stores={me.stores} />
        </div>
      )}
    </Page>
  );
}
