import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { FinanceMonthlyTotals, StoreRef } from '@claims/contracts';
import { formatMoney, formatMonth } from '@claims/format';
import { ChartFigure, colourOf } from '../../shared/components/ChartFigure.js';
import { formatTotals } from '../../shared/format.js';
import { storeNameOf } from './references.js';
import { totalsByCurrency } from './totals.js';

type MonthRow = FinanceMonthlyTotals['months'][number];

const axis = { fontSize: 12 };

/** One bar series per store and currency (money of two currencies is never added), over every month of the range. */
function MonthlyChart({
  title,
  rows,
  months,
  stores,
  pick,
  count,
  countLabel,
}: {
  title: string;
  rows: readonly MonthRow[];
  months: readonly string[];
  stores: readonly StoreRef[];
  pick: (row: MonthRow) => number;
  count: (row: MonthRow) => number;
  countLabel: string;
}) {
  const shown = rows.filter((r) => pick(r) !== 0 || count(r) !== 0);
  const series = [
    ...new Map(shown.map((r) => [`${r.storeId} ${r.currency}`, { storeId: r.storeId, currency: r.currency }])).values(),
  ]
    .map((s) => ({ ...s, name: `${storeNameOf(stores, s.storeId)} (${s.currency})` }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const valueOf = new Map(shown.map((r) => [`${r.month} ${r.storeId} ${r.currency}`, pick(r)]));
  const data = months.map((month) => ({
    month: formatMonth(month),
    ...Object.fromEntries(series.map((s, i) => [`s${i}`, valueOf.get(`${month} ${s.storeId} ${s.currency}`) ?? 0])),
  }));
  const totals = totalsByCurrency(shown.map((r) => ({ amount: pick(r), currency: r.currency })));
  return (
    <ChartFigure
      title={title}
      summary={
        shown.length === 0 ? 'Nothing in these months.' : `In all ${formatTotals(totals)} over ${months.length} months.`
      }
      columns={['Month', 'Store', 'Currency', 'Amount', countLabel]}
      rows={shown.map((r) => [
        formatMonth(r.month),
        storeNameOf(stores, r.storeId),
        r.currency,
        formatMoney(pick(r), r.currency),
        count(r),
      ])}
    >
      <BarChart data={data} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="month" tick={axis} />
        <YAxis tick={axis} width={64} />
        <Tooltip />
        <Legend />
        {series.map((s, i) => (
          <Bar key={s.name} dataKey={`s${i}`} name={s.name} fill={colourOf(i)} isAnimationActive={false} />
        ))}
      </BarChart>
    </ChartFigure>
  );
}

/** Premiums collected and payouts decided per month and store. */
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
      <MonthlyChart
        title="Premiums collected per month"
        rows={rows}
        months={months}
        stores={stores}
        pick={(r) => r.premiums}
        count={(r) => r.orders}
        countLabel="Orders"
      />
      <MonthlyChart
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
