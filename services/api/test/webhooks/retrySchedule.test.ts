import { describe, expect, it } from 'vitest';
import { nextAttemptAfterFailure, RETRY_FOR_MS, retryDelayMs } from '../../src/webhooks/retrySchedule.js';

const SECOND = 1000;
const HOUR = 3_600_000;

describe('webhook retry schedule', () => {
  it('grows from 5 s to 8 h and then repeats 8 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25].map(retryDelayMs)).toEqual([
      5 * SECOND,
      30 * SECOND,
      120 * SECOND,
      600 * SECOND,
      1800 * SECOND,
      HOUR,
      2 * HOUR,
      4 * HOUR,
      8 * HOUR,
      8 * HOUR,
      8 * HOUR,
    ]);
  });

  it('retries a receiver that is always down for at least 24 hours, the first retry within 30 s', () => {
    const first = new Date('2030-01-01T00:00:00Z');
    const attempts = [first];
    for (let failed = 1; failed < 100; failed++) {
      const next = nextAttemptAfterFailure({
        failedAttempts: failed,
        firstAttemptAt: first,
        failedAt: attempts.at(-1)!,
      });
      if (!next) break;
      attempts.push(next);
    }
    const gaps = attempts.slice(1).map((at, i) => at.getTime() - attempts[i]!.getTime());
    expect(gaps[0]).toBeLessThanOrEqual(30 * SECOND);
    expect(gaps).toEqual([...gaps].sort((a, b) => a - b));
    expect(attempts.at(-1)!.getTime() - first.getTime()).toBeGreaterThanOrEqual(RETRY_FOR_MS);
    expect(attempts.length).toBeLessThan(20);
  });

  it('stops once a failure comes 24 h after the first attempt', () => {
    const first = new Date('2030-01-01T00:00:00Z');
    expect(
      nextAttemptAfterFailure({
        failedAttempts: 11,
        firstAttemptAt: first,
        failedAt: new Date(first.getTime() + RETRY_FOR_MS - 1),
      }),
    ).not.toBeNull();
    expect(
      nextAttemptAfterFailure({
        failedAttempts: 11,
        firstAttemptAt: first,
        failedAt: new Date(first.getTime() + RETRY_FOR_MS),
      }),
    ).toBeNull();
  });
});
