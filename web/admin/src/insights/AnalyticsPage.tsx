import { useId, useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  ANALYTICS_MAX_DAYS,
  relativeChange,
  type AnalyticsFigures,
  type AnalyticsQuery,
  type AnalyticsResponse,
} from '@claims/contracts';
import { formatDay } from '@claims/format';
import { api, isHttpError } from '../shared/api.js';
import { storesWith, useMe } from '../shared/session.js';
import { Alert, Page } from '@claims/ui/components';
import { StoreSelect } from '../shared/components/StorePicker.js';
import { reasonLabel } from '../shared/labels.js';
import { PRESETS, dayOf, periodOf, type AnalyticsSearch } from './analytics/period.js';
import { formatChange, formatDuration, formatRate, formatTotals } from '../shared/format.js';
import {
  CarrierChart,
  FiledByDayChart,
  ReimbursedCharts,
  ResolutionMixChart,
  ShipmentStatusChart,
} from './analytics/AnalyticsCharts.js';
import { analyticsQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';
import { PeriodFields } from '../shared/components/PeriodFields.js';

const DAY_MS = 86_400_000;

/** The range and store controls: a preset applies at once, a custom range when its form is sent. */
function Filters({ search, onChange }: { search: AnalyticsSearch; onChange: (next: AnalyticsSearch) => void }) {
  const me = useMe();
  const id = useId();
  const stores = storesWith(me, 'analytics:read');
  const period = periodOf(search);
  const [from, setFrom] = useState(search.from ?? dayOf(period.from));
  const [to, setTo] = useState(search.to ?? dayOf(new Date(Date.parse(period.to) - DAY_MS).toISOString()));
  const [problem, setProblem] = useState<string | null>(null);
  const range = search.range ?? '30';

  function applyCustom(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!from || !to) return setProblem('Choose both days of the range.');
    if (from > to) return setProblem('The first day must be on or before the last day.');
    if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > ANALYTICS_MAX_DAYS)
      return setProblem(`A range spans at most ${ANALYTICS_MAX_DAYS} days.`);
    setProblem(null);
    onChange({ ...search, range: 'custom', from, to });
  }

  return (
    <form className="filters analytics-filters" onSubmit={applyCustom} aria-label="Analytics filters" noValidate>
      <div className="field">
        <label htmlFor={`${id}-range`}>Period</label>
        <select
          id={`${id}-range`}
          value={range}
          onChange={(e) => {
            const next = e.target.value as NonNullable<AnalyticsSearch['range']>;
            onChange(
              next === 'custom' ? { ...search, range: 'custom', from, to } : { store: search.store, range: next },
            );
          }}
        >
          {PRESETS.map((days) => (
            <option key={days} value={days}>
              Last {days} days
            </option>
          ))}
          <option value="custom">Custom range</option>
        </select>
      </div>
      {range === 'custom' ? (
        <>
          <PeriodFields
            from={from}
            to={to}
            onFrom={setFrom}
            onTo={setTo}
            problemId={problem ? `${id}-problem` : undefined}
            invalid={Boolean(problem)}
          />
          <div className="field">
            <button type="submit" className="button button-secondary">
              Apply range
            </button>
          </div>
        </>
      ) : null}
      {stores.length > 1 ? (
        <StoreSelect
          stores={stores}
          value={search.store ?? ''}
          onChange={(store) => onChange({ ...search, store: store || undefined })}
          anyStore="All stores"
        />
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} className="field-error field-wide" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

interface Tile {
  label: string;
  value: string;
  detail?: string;
  /** The figure as a number, for the change against the previous period. */
  current: number | null;
  previous: number | null;
  /** The previous period's figure as shown, when it was compared. */
  previousValue: string | null;
}

const reimbursedTotals = (f: AnalyticsFigures) => {
  const byCurrency = new Map<string, number>();
  for (const r of f.reimbursed) byCurrency.set(r.currency, (byCurrency.get(r.currency) ?? 0) + r.amount);
  return [...byCurrency].map(([currency, amount]) => ({ currency, amount }));
};

/** One number for money only when it is all in one currency (across stores it may not be). */
const singleCurrencySum = (totals: ReadonlyArray<{ currency: string; amount: number }>) =>
  new Set(totals.map((t) => t.currency)).size > 1 ? null : totals.reduce((s, t) => s + t.amount, 0);

function tilesOf(figures: AnalyticsFigures, previous: AnalyticsFigures | null): Tile[] {
  const tile = (
    label: string,
    pick: (f: AnalyticsFigures) => number | null,
    show: (f: AnalyticsFigures) => string,
    detail?: string,
  ): Tile => ({
    label,
    value: show(figures),
    current: pick(figures),
    previous: previous ? pick(previous) : null,
    // A dash the period before is nothing to compare with: the tile then says nothing about it.
    previousValue: previous && show(previous) !== '–' ? show(previous) : null,
    ...(detail ? { detail } : {}),
  });
  return [
    tile(
      'Claims filed',
      (f) => f.claimsFiled,
      (f) => String(f.claimsFiled),
    ),
    tile(
      'Claim rate',
      (f) => f.claimRate,
      (f) => formatRate(f.claimRate),
      `${figures.protectedClaims} claims on ${figures.protectedOrders} protected orders`,
    ),
    tile(
      'Approval rate',
      (f) => f.approvalRate,
      (f) => formatRate(f.approvalRate),
      `${figures.approved} of ${figures.decided} decided`,
    ),
    tile(
      'Denial rate',
      (f) => f.denialRate,
      (f) => formatRate(f.denialRate),
      `${figures.denied} of ${figures.decided} decided`,
    ),
    tile(
      'First response, median',
      (f) => f.firstResponse.medianSeconds,
      (f) => formatDuration(f.firstResponse.medianSeconds),
    ),
    tile(
      'First response, p90',
      (f) => f.firstResponse.p90Seconds,
      (f) => formatDuration(f.firstResponse.p90Seconds),
    ),
    tile(
      'Resolution, median',
      (f) => f.resolution.medianSeconds,
      (f) => formatDuration(f.resolution.medianSeconds),
    ),
    tile(
      'Resolution, p90',
      (f) => f.resolution.p90Seconds,
      (f) => formatDuration(f.resolution.p90Seconds),
    ),
    tile(
      'Reimbursed',
      (f) => singleCurrencySum(reimbursedTotals(f)),
      (f) => formatTotals(reimbursedTotals(f)),
    ),
    tile(
      'Store credit issued',
      (f) => singleCurrencySum(f.storeCreditIssued),
      (f) => formatTotals(f.storeCreditIssued),
    ),
    tile(
      'Review rating',
      (f) => f.reviews.averageRating,
      (f) => (f.reviews.averageRating === null ? '–' : `${f.reviews.averageRating.toFixed(1)} of 5`),
      `${figures.reviews.count} reviews`,
    ),
  ];
}

function Kpis({ analytics }: { analytics: AnalyticsResponse }) {
  // A period before without a claim has nothing to compare with: every tile then leaves the comparison out.
  const before = analytics.previous && analytics.previous.figures.claimsFiled > 0 ? analytics.previous.figures : null;
  return (
    <ul className="kpis" aria-label="Key figures">
      {tilesOf(analytics.figures, before).map((t) => (
        <li key={t.label} className="card kpi">
          <span className="kpi-label">{t.label}</span>
          <span className="kpi-value">{t.value}</span>
          {t.detail ? <span className="kpi-detail">{t.detail}</span> : null}
          {t.previousValue === null ? null : (
            <span className="kpi-change">{formatChange(relativeChange(t.current, t.previous), t.previousValue)}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

function DenialReasons({ figures }: { figures: AnalyticsFigures }) {
  return (
    <section className="card" aria-labelledby="denial-reasons">
      <h2 id="denial-reasons" className="chart-title">
        Top denial reasons
      </h2>
      {figures.topDenialReasons.length === 0 ? (
        <p className="hint">No denials in this period.</p>
      ) : (
        <DataTable columns={['Reason', 'Denied items']}>
          <tbody>
            {figures.topDenialReasons.map((r) => (
              <tr key={r.reason ?? 'none'}>
                <th scope="row">{r.reason ? reasonLabel(r.reason) : 'No reason given'}</th>
                <td>{r.count}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}

function Skeleton() {
  return (
    <div aria-busy="true" aria-live="polite">
      <p className="visually-hidden">Loading analytics…</p>
      <ul className="kpis" aria-hidden="true">
        {Array.from({ length: 8 }, (_, i) => (
          <li key={i} className="card kpi skeleton" />
        ))}
      </ul>
    </div>
  );
}

/** Claim analytics: the figures of the claims filed in a period, against the period before. */
export function AnalyticsPage() {
  const me = useMe();
  const search = useSearch({ from: '/app/analytics' });
  const navigate = useNavigate();
  const period = periodOf(search);
  const query: AnalyticsQuery = { ...period, store: search.store, compare: 'previous' };
  const result = useQuery({
    ...analyticsQueries.of(query),
    placeholderData: keepPreviousData,
  });
  const onChange = (next: AnalyticsSearch) => void navigate({ to: '/analytics', search: next });
  const canRead = storesWith(me, 'analytics:read').length > 0;
  const toDay = dayOf(new Date(Date.parse(period.to) - DAY_MS).toISOString());

  return (
    <Page
      title="Analytics"
      actions={
        result.data && result.data.figures.claimsFiled > 0 ? (
          <a className="button button-secondary" href={api.analyticsCsvUrl(query)} download>
            Export CSV
          </a>
        ) : null
      }
    >
      {!canRead ? (
        <Alert>You need the analytics:read permission to see analytics.</Alert>
      ) : (
        <>
          <Filters
            key={`${search.range ?? ''}-${search.from ?? ''}-${search.to ?? ''}`}
            search={search}
            onChange={onChange}
          />
          <p className="hint" aria-live="polite">
            Claims filed {formatDay(dayOf(period.from))} to {formatDay(toDay)} (UTC days), compared with the{' '}
            {Math.round((Date.parse(period.to) - Date.parse(period.from)) / DAY_MS)} days before.
          </p>
          {result.isError ? (
            <Alert>
              {isHttpError(result.error) ? result.error.message : 'The figures could not be loaded. Try again.'}
            </Alert>
          ) : !result.data ? (
            <Skeleton />
          ) : result.data.figures.claimsFiled === 0 ? (
            <div className="card empty-state" role="status">
              <h2 className="chart-title">No claims in this period</h2>
              <p className="hint">Choose a longer period or another store.</p>
            </div>
          ) : (
            <div aria-busy={result.isFetching ? 'true' : 'false'} className="analytics">
              <Kpis analytics={result.data} />
              <div className="charts">
                <FiledByDayChart figures={result.data.figures} period={period} />
                <CarrierChart figures={result.data.figures} />
                <ShipmentStatusChart figures={result.data.figures} />
                <ResolutionMixChart figures={result.data.figures} />
                <ReimbursedCharts figures={result.data.figures} />
                <DenialReasons figures={result.data.figures} />
              </div>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
