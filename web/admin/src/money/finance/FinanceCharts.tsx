import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { FinanceMonthlyTotals, StoreRef } from '@claims/contracts';
import { formatMoney, formatMonth } from '@claims/format';
import { ChartFigure, colourOf } from '../../shared/components/ChartFigure.js';
import { storeNameOf } from './references.js';
import { totalsByCurrency } from './totals.js';

type MonthRow = FinanceMonthlyTotals['months'][number];

const axis = { fontSize: 12 };

/** A figure by month: which amount of a row it shows, and the count beside it in the table. */
interface MonthlyFigure {
  title: string;
  rows: readonly MonthRow[];
  months: readonly string[];
  stores: readonly StoreRef[];
  pick: (row: MonthRow) => number;
  count: (row: MonthRow) => number;
  countLabel: string;
}

/**
 * One currency's figures per month, one bar series per store: money of two currencies never shares an axis (a euro bar
 * beside a yen one is invisible), so each currency present has a chart of its own.
 */
function MonthlyChart({
  title,
  currency,
  rows,
  months,
  stores,
  pick,
  count,
  countLabel,
}: MonthlyFigure & { currency: string }) {
  const series = [...new Set(rows.map((r) => r.storeId))]
    .map((storeId) => ({ storeId, name: storeNameOf(stores, storeId) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const valueOf = new Map(rows.map((r) => [`${r.month} ${r.storeId}`, pick(r)]));
  const data = months.map((month) => ({
    month: formatMonth(month),
    ...Object.fromEntries(series.map((s, i) => [`s${i}`, valueOf.get(`${month} ${s.storeId}`) ?? 0])),
  }));
  const money = (value: unknown) => formatMoney(Number(value), currency);
  const [total] = totalsByCurrency(rows.map((r) => ({ amount: pick(r), currency: r.currency })));
  return (
    <ChartFigure
      title={`${title} (${currency})`}
      summary={`In all ${formatMoney(total?.amount ?? 0, currency)} over ${months.length} months.`}
      columns={['Month', 'Store', 'Amount', countLabel]}
      rows={rows.map((r) => [
        formatMonth(r.month),
        storeNameOf(stores, r.storeId),
        formatMoney(pick(r), currency),
        count(r),
      ])}
    >
      <BarChart data={data} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="month" tick={axis} />
        <YAxis tick={axis} width={80} tickFormatter={money} />
        <Tooltip formatter={money} />
        <Legend />
        {series.map((s, i) => (
          <Bar key={s.storeId} dataKey={`s${i}`} name={s.name} fill={colourOf(i)} isAnimationActive={false} />
        ))}
      </BarChart>
    </ChartFigure>
  );
}

/** A figure's charts, one per currency it was recorded in; a sentence when there is nothing in these months. */
function MonthlyCharts({ title, rows, pick, count, ...shared }: MonthlyFigure) {
  const titleId = useId();
  const shown = rows.filter((r) => pick(r) !== 0 || count(r) !== 0);
  const currencies = [...new Set(shown.map((r) => r.currency))].sort();
  if (currencies.length === 0)
    return (
      <section className="card chart" aria-labelledby={titleId}>
        <h2 id={titleId} className="chart-title">
          {title}
        </h2>
        <p className="hint">Nothing in these months.</p>
      </section>
    );
  return (
    <>
      {currencies.map((currency) => (
        <MonthlyChart
          key={currency}
          title={title}
          currency={currency}
          rows={shown.filter((r) => r.currency === currency)}
          pick={pick}
          count={count}
          {...shared}
        />
      ))}
    </>
  );
}

/** Premiums collected and payouts decided per month and store, a chart per currency. */
export function FinanceCharts({
  rows,
  months,
  stores,
}: {
  rows: readonly MonthRow[];
  months: readonly string[];
  stores: readonly StoreRef[];
}) {
  return (
    <div className="charts">
      <MonthlyCharts
        title="Premiums collected per month"
        rows={rows}
        months={months}
        stores={stores}
        pick={(r) => r.premiums}
        count={(r) => r.orders}
        countLabel="Orders"
      />
      <MonthlyCharts
        title="Payouts decided per month"
        rows={rows}
        months={months}
        stores={stores}
        pick={(r) => r.payouts}
        count={(r) => r.entries}
        countLabel="Entries"
      />
    </div>
  );
}
