import { formatMoney } from '@claims/format';
import type { CurrencyTotal } from '@claims/contracts';

/** A share as a percentage to one decimal; a dash when there is nothing to divide. */
export const formatRate = (value: number | null): string => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);

/** Seconds as the largest sensible unit: minutes, hours or days. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 3_600) return `${Math.max(0, Math.round(seconds / 60))} min`;
  if (seconds < 172_800) return `${(seconds / 3_600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

/** Totals in several currencies, side by side; a store has one, every store together may have more. */
export const formatTotals = (totals: readonly CurrencyTotal[]): string =>
  totals.length === 0 ? '–' : totals.map((t) => formatMoney(t.amount, t.currency)).join(' · ');

/** The change against the previous period in words (a chart of colours alone says nothing to some), with the figure it was. */
export function formatChange(change: number | null, previous: string): string {
  if (change === null || change === 0) return `was ${previous} the period before`;
  return `${change > 0 ? '+' : '−'}${Math.abs(change * 100).toFixed(0)}% (was ${previous})`;
}
