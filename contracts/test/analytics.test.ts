import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AnalyticsQuery, previousPeriod, ratio, relativeChange } from '../src/index.js';

const DAY = 86_400_000;
const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) });

describe('analytics periods and ratios', () => {
  it('compares a period with the one of the same length that ends where it starts', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 1, max: 366 * DAY }), (from, length) => {
        const period = { from: new Date(from).toISOString(), to: new Date(from + length).toISOString() };
        const before = previousPeriod(period);
        expect(before.to).toBe(period.from);
        expect(Date.parse(before.to) - Date.parse(before.from)).toBe(length);
      }),
    );
  });

  it('has no rate without a whole and no change from nothing', () => {
    expect(ratio(3, 0)).toBeNull();
    expect(ratio(1, 4)).toBe(0.25);
    expect(relativeChange(5, 4)).toBe(0.25);
    expect(relativeChange(5, 0)).toBeNull();
    expect(relativeChange(null, 4)).toBeNull();
    expect(relativeChange(3, null)).toBeNull();
  });

  it('takes a period forwards and no longer than 366 days', () => {
    const at = (ms: number) => new Date(ms).toISOString();
    const now = Date.UTC(2026, 10, 23);
    expect(AnalyticsQuery.safeParse({ from: at(now - 30 * DAY), to: at(now) }).success).toBe(true);
    expect(AnalyticsQuery.safeParse({ from: at(now), to: at(now - DAY) }).success).toBe(false);
    expect(AnalyticsQuery.safeParse({ from: at(now), to: at(now) }).success).toBe(false);
    expect(AnalyticsQuery.safeParse({ from: at(now - 367 * DAY), to: at(now) }).success).toBe(false);
    expect(AnalyticsQuery.safeParse({ from: at(now - 30 * DAY), to: at(now), store: 'acme' }).success).toBe(false);
  });
});
