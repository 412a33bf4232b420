import { useId, type ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';

/** Distinguishable on white and for the common colour-vision deficiencies (Okabe–Ito). */
export const SERIES_COLOURS = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
  '#F0E442',
] as const;
export const colourOf = (index: number): string => SERIES_COLOURS[index % SERIES_COLOURS.length]!;

/**
 * A chart with its title, a one-line summary for everyone, and the same figures as a table: what a
 * screen reader or a keyboard user reads instead of the drawing.
 */
export function ChartFigure({
  title,
  summary,
  columns,
  rows,
  children,
}: {
  title: string;
  summary: string;
  columns: readonly string[];
  rows: ReadonlyArray<ReadonlyArray<string | number>>;
  children: ReactElement;
}) {
  const id = useId();
  return (
    <figure className="card chart" aria-labelledby={`${id}-title`} aria-describedby={`${id}-summary`}>
      <figcaption>
        <h2 id={`${id}-title`} className="chart-title">
          {title}
        </h2>
        <p id={`${id}-summary`} className="hint">
          {summary}
        </p>
      </figcaption>
      <div className="chart-canvas" aria-hidden="true">
        <ResponsiveContainer width="100%" height={240}>
          {children}
        </ResponsiveContainer>
      </div>
      <details className="chart-data">
        <summary>{title}: data table</summary>
        {/* Focusable, so a keyboard can scroll a table wider than its card. */}
        <div className="table-wrap" tabIndex={0} role="region" aria-label={`${title}: data table`}>
          <table className="claims-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i}>
                  {row.map((value, j) =>
                    j === 0 ? (
                      <th key={j} scope="row">
                        {value}
                      </th>
                    ) : (
                      <td key={j}>{value}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
