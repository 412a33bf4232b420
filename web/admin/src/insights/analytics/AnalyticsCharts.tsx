import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsFigures, AnalyticsPeriod } from '@claims/contracts';
import { formatDay, formatMoney, humanizeCode, pluralize } from '@claims/format';
import { claimTypeLabel, resolutionTypeLabel } from '../../shared/labels.js';
import { ChartFigure, colourOf } from '../../shared/components/ChartFigure.js';
import { daysOf } from './period.js';

const axis = { fontSize: 12 };

/** Claims filed each day of the period as bars, one stacked segment per claim type: a bar's height is the day's count. */
export function FiledByDayChart({ figures, period }: { figures: AnalyticsFigures; period: AnalyticsPeriod }) {
  const types = [...new Set(figures.filedByDay.map((r) => r.claimType))].sort();
  const counts = new Map(figures.filedByDay.map((r) => [`${r.date} ${r.claimType}`, r.count]));
  const data = daysOf(period).map((date) => ({
    date,
    ...Object.fromEntries(types.map((t) => [t, counts.get(`${date} ${t}`) ?? 0])),
  }));
  const totals = new Map<string, number>();
  for (const r of figures.filedByDay) totals.set(r.date, (totals.get(r.date) ?? 0) + r.count);
  const busiest = [...totals].reduce<[string, number] | null>(
    (best, day) => (!best || day[1] > best[1] ? day : best),
    null,
  );
  return (
    <ChartFigure
      title="Claims filed per day by type"
      summary={`${pluralize(figures.claimsFiled, 'claim')} of ${pluralize(types.length, 'type')}${busiest ? `; the busiest day was ${formatDay(busiest[0])} with ${busiest[1]}` : ''}.`}
      columns={['Day', 'Type', 'Claims']}
      rows={figures.filedByDay.map((r) => [formatDay(r.date), claimTypeLabel(r.claimType), r.count])}
    >
      <BarChart data={data} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tick={axis} tickFormatter={formatDay} minTickGap={24} />
        <YAxis allowDecimals={false} tick={axis} width={32} />
        <Tooltip labelFormatter={(day) => formatDay(String(day))} />
        <Legend />
        {types.map((t, i) => (
          <Bar
            key={t}
            dataKey={t}
            name={claimTypeLabel(t)}
            stackId="day"
            fill={colourOf(i)}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFigure>
  );
}

/** Claims counted by one of their facts, most first, as bars. */
function CountsChart({
  title,
  column,
  rows,
  summary,
  colour,
}: {
  title: string;
  column: string;
  rows: ReadonlyArray<{ name: string; claims: number }>;
  summary: (top: { name: string; claims: number }) => string;
  colour: number;
}) {
  return (
    <ChartFigure
      title={title}
      summary={rows[0] ? summary(rows[0]) : 'Nothing recorded.'}
      columns={[column, 'Claims']}
      rows={rows.map((r) => [r.name, r.claims])}
    >
      <BarChart data={[...rows]} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="name" tick={axis} />
        <YAxis allowDecimals={false} tick={axis} width={32} />
        <Tooltip />
        <Bar dataKey="claims" name="Claims" fill={colourOf(colour)} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}

/** Claims by the carrier of their shipment. */
export const CarrierChart = ({ figures }: { figures: AnalyticsFigures }) => (
  <CountsChart
    title="Claims by carrier"
    column="Carrier"
    colour={0}
    rows={figures.byCarrier.map((r) => ({ name: r.carrier ?? 'Not recorded', claims: r.count }))}
    summary={(top) => `Most claims were shipped with ${top.name} (${top.claims}).`}
  />
);

/** Claims by the status their shipment had when they were filed. */
export const ShipmentStatusChart = ({ figures }: { figures: AnalyticsFigures }) => (
  <CountsChart
    title="Claims by shipment status"
    column="Shipment status"
    colour={2}
    rows={figures.byShipmentStatus.map((r) => ({
      name: r.status ? humanizeCode(r.status) : 'Not recorded',
      claims: r.count,
    }))}
    summary={(top) => `Most claims were on shipments with the status ${top.name.toLowerCase()} (${top.claims}).`}
  />
);

/** What became of the period's claims: approved, denied, or not decided yet. */
export function ResolutionMixChart({ figures }: { figures: AnalyticsFigures }) {
  const data = [
    { name: 'Approved', claims: figures.approved },
    { name: 'Denied', claims: figures.denied },
    { name: 'Not decided', claims: figures.claimsFiled - figures.decided },
  ];
  return (
    <ChartFigure
      title="Resolution mix"
      summary={`${figures.approved} approved, ${figures.denied} denied, ${figures.claimsFiled - figures.decided} not decided yet.`}
      columns={['Outcome', 'Claims']}
      rows={data.map((r) => [r.name, r.claims])}
    >
      <BarChart data={data} layout="vertical" accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis type="number" allowDecimals={false} tick={axis} />
        <YAxis type="category" dataKey="name" tick={axis} width={96} />
        <Tooltip />
        <Bar dataKey="claims" name="Claims" fill={colourOf(1)} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}

/** What the stores are owed in one currency, by resolution type: money of two currencies never shares an axis. */
function ReimbursedInCurrencyChart({ figures, currency }: { figures: AnalyticsFigures; currency: string }) {
  const lines = figures.reimbursed.filter((r) => r.currency === currency);
  const data = lines.map((r) => ({ name: resolutionTypeLabel(r.resolutionType), amount: r.amount }));
  const money = (value: unknown) => formatMoney(Number(value), currency);
  return (
    <ChartFigure
      title={`Reimbursed by resolution type (${currency})`}
      summary={lines
        .map((r) => `${resolutionTypeLabel(r.resolutionType)} ${formatMoney(r.amount, r.currency)}`)
        .join(', ')}
      columns={['Resolution type', 'Reimbursed', 'Lines']}
      rows={lines.map((r) => [resolutionTypeLabel(r.resolutionType), formatMoney(r.amount, r.currency), r.lines])}
    >
      <BarChart data={data} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="name" tick={axis} />
        <YAxis tick={axis} width={72} tickFormatter={money} />
        <Tooltip formatter={money} />
        <Bar dataKey="amount" name="Reimbursed" fill={colourOf(3)} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}

/** What the stores are owed, by resolution type: a chart per currency (every store together may have several). */
export function ReimbursedCharts({ figures }: { figures: AnalyticsFigures }) {
  const currencies = [...new Set(figures.reimbursed.map((r) => r.currency))].sort();
  if (currencies.length === 0)
    return (
      <section className="card chart" aria-labelledby="reimbursed-none">
        <h2 id="reimbursed-none" className="chart-title">
          Reimbursed by resolution type
        </h2>
        <p className="hint">Nothing reimbursed in this period.</p>
      </section>
    );
  return (
    <>
      {currencies.map((currency) => (
        <ReimbursedInCurrencyChart key={currency} figures={figures} currency={currency} />
      ))}
    </>
  );
}
