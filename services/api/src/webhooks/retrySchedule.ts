/**
 * When a failed delivery is tried again: growing delays, the first retry 5 s after the failure,
 * then every 8 h, until at least 24 h have passed since the first attempt of the schedule. Pure:
 * the worker passes the clock in, so tests never wait real hours.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  3_600_000,
  2 * 3_600_000,
  4 * 3_600_000,
  8 * 3_600_000,
];
/** Retries go on until a failure comes this long after the schedule's first attempt. */
export const RETRY_FOR_MS = 24 * 3_600_000;

/** The delay after the n-th failed attempt (n ≥ 1) of a schedule; the last delay repeats. */
export function retryDelayMs(failedAttempts: number): number {
  const index = Math.min(Math.max(failedAttempts, 1), RETRY_DELAYS_MS.length) - 1;
  return RETRY_DELAYS_MS[index] ?? RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1]!;
}

/**
 * The next attempt after a failure, or null when the delivery has been retried for long enough
 * (the last attempt is made at or after 24 h, so a receiver down for a whole day still gets it).
 */
export function nextAttemptAfterFailure(input: {
  failedAttempts: number;
  firstAttemptAt: Date;
  failedAt: Date;
}): Date | null {
  if (input.failedAt.getTime() - input.firstAttemptAt.getTime() >= RETRY_FOR_MS) return null;
  return new Date(input.failedAt.getTime() + retryDelayMs(input.failedAttempts));
}
