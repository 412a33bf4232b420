/** Nearest-rank percentile of an ascending-sorted array (p in 0..100). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function sortedCopy(values: readonly number[]): Float64Array {
  return Float64Array.from(values).sort();
}

export function fmtInt(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function fmtMs(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}
