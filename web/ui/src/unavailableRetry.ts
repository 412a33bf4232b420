import { HttpError } from './httpClient.js';

/**
 * Reads that meet the API briefly unavailable (503 with Retry-After: `database_unavailable` while PostgreSQL restarts)
 * are tried again after the wait the API asks for, a few times, whatever the caller's own retry policy says.
 */

/** Tries after the first: with Retry-After: 2, some ten seconds, what a database restart takes. */
export const UNAVAILABLE_RETRIES = 5;
const MAX_DELAY_MS = 30_000;

export const isBrieflyUnavailable = (error: unknown): error is HttpError =>
  error instanceof HttpError && error.status === 503 && error.retryAfterSeconds !== null;

type RetryPolicy = (failureCount: number, error: unknown) => boolean;

/** react-query's `retry`: `otherwise` decides for every failure but a brief unavailability. */
export const retryWhileUnavailable =
  (otherwise: RetryPolicy): RetryPolicy =>
  (failureCount, error) =>
    isBrieflyUnavailable(error) ? failureCount < UNAVAILABLE_RETRIES : otherwise(failureCount, error);

/** react-query's `retryDelay`: the API's Retry-After when it gave one, else react-query's own doubling. */
export const retryDelay = (failureCount: number, error: unknown): number =>
  Math.min(isBrieflyUnavailable(error) ? error.retryAfterSeconds! * 1000 : 1000 * 2 ** failureCount, MAX_DELAY_MS);
