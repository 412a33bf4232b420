import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { BacktestView } from '@claims/contracts';
import { formatDay, formatMoney } from '@claims/format';
import { ChartFigure, colourOf } from '../../shared/components/ChartFigure.js';

const axis = { fontSize: 12 };

/** A backtest by week of filing: the claims the rule matched and those it would have decided, with the table beside. */
export function BacktestChart({ weeks, currency }: { weeks: BacktestView['weeks']; currency: string }) {
  const matched = weeks.reduce((sum, w) => sum + w.matched, 0);
  const decided = weeks.reduce((sum, w) => sum + w.decided, 0);
  return (
    <ChartFigure
      title="Claims by week"
      summary={
        weeks.length === 0
          ? 'No claim was filed in this period.'
          : `${matched} matched and ${decided} decided over ${weeks.length} ${weeks.length === 1 ? 'week' : 'weeks'}.`
      }
      columns={['Week of', 'Matched', 'Decided', 'Money']}
      rows={weeks.map((w) => [formatDay(w.week), w.matched, w.decided, formatMoney(w.amount, currency)])}
    >
      <BarChart data={weeks.map((w) => ({ ...w, week: formatDay(w.week) }))} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="week" tick={axis} />
        <YAxis allowDecimals={false} tick={axis} width={40} />
        <Tooltip />
        <Legend />
        <Bar dataKey="matched" name="Matched" fill={colourOf(0)} isAnimationActive={false} />
        <Bar dataKey="decided" name="Decided" fill={colourOf(1)} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}
