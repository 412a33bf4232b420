import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsFigures, AnalyticsPeriod } from '@claims/contracts';
import { formatMoney, humanizeCode, pluralize } from '@claims/format';
import { claimTypeLabel, resolutionTypeLabel } from '../../shared/labels.js';
import { ChartFigure, colourOf } from '../../shared/components/ChartFigure.js';
import { daysOf } from './period.js';

const axis = { fontSize: 12 };

/** Claims filed each day of the period, one line per claim type. */
export function FiledByDayChart({ figures, period }: { figures: AnalyticsFigures; period: AnalyticsPeriod }) {
  const types = [...new Set(figures.filedByDay.map((r) => r.claimType))].sort();
  const counts = new Map(figures.filedByDay.map((r) => [`${r.date} ${r.claimType}`, r.count]));
  const data = daysOf(period).map((date) => ({
    date,
    ...Object.fromEntries(types.map((t) => [t, counts.get(`${date} ${t}`) ?? 0])),
  }));
  const busiest = figures.filedByDay.reduce<{ date: string; count: number } | null>((best, r) => {
    const total = figures.filedByDay.filter((x) => x.date === r.date).reduce((sum, x) => sum + x.count, 0);
    return !best || total > best.count ? { date: r.date, count: total } : best;
  }, null);
  return (
    <ChartFigure
      title="Claims filed per day by type"
      summary={`${pluralize(figures.claimsFiled, 'claim')} of ${pluralize(types.length, 'type')}${busiest ? `; the busiest day was ${busiest.date} with ${busiest.count}` : ''}.`}
      columns={['Day', 'Type', 'Claims']}
      rows={figures.filedByDay.map((r) => [r.date, claimTypeLabel(r.claimType), r.count])}
    >
      <LineChart data={data} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="date" tick={axis} minTickGap={24} />
        <YAxis allowDecimals={false} tick={axis} width={32} />
        <Tooltip />
        <Legend />
        {types.map((t, i) => (
          <Line
            key={t}
            type="monotone"
            dataKey={t}
            name={claimTypeLabel(t)}
            stroke={colourOf(i)}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
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

/** What the stores are owed, by resolution type, one bar series per currency. */
export function ReimbursedChart({ figures }: { figures: AnalyticsFigures }) {
  const currencies = [...new Set(figures.reimbursed.map((r) => r.currency))].sort();
  const types = [...new Set(figures.reimbursed.map((r) => r.resolutionType))];
  const data = types.map((t) => ({
    name: resolutionTypeLabel(t),
    ...Object.fromEntries(
      currencies.map((c) => [
        c,
        figures.reimbursed.find((r) => r.resolutionType === t && r.currency === c)?.amount ?? 0,
      ]),
    ),
  }));
  return (
    <ChartFigure
      title="Reimbursed by resolution type"
      summary={
        figures.reimbursed.length === 0
          ? 'Nothing reimbursed.'
          : figures.reimbursed
              .map((r) => `${resolutionTypeLabel(r.resolutionType)} ${formatMoney(r.amount, r.currency)}`)
              .join(', ')
      }
      columns={['Resolution type', 'Currency', 'Reimbursed', 'Lines']}
      rows={figures.reimbursed.map((r) => [
        resolutionTypeLabel(r.resolutionType),
        r.currency,
        formatMoney(r.amount, r.currency),
        r.lines,
      ])}
    >
      <BarChart data={data} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="name" tick={axis} />
        <YAxis tick={axis} width={56} />
        <Tooltip />
        <Legend />
        {currencies.map((c, i) => (
          <Bar key={c} dataKey={c} name={c} fill={colourOf(i + 3)} isAnimationActive={false} />
        ))}
      </BarChart>
    </ChartFigure>
  );
}
