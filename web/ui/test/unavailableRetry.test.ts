import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/httpClient.js';
import { retryDelay, retryWhileUnavailable, UNAVAILABLE_RETRIES } from '../src/unavailableRetry.js';

const unavailable = new HttpError(503, 'database_unavailable', 'Our service is briefly unavailable.', 2);
const defect = new HttpError(500, 'internal_error', 'Something went wrong.');
const never = () => false;

describe('retrying while the API is briefly unavailable', () => {
  it('retries a 503 with Retry-After a few times, whatever the caller retries otherwise', () => {
    const retry = retryWhileUnavailable(never);
    expect(Array.from({ length: UNAVAILABLE_RETRIES + 1 }, (_, count) => retry(count, unavailable))).toEqual([
      ...Array<boolean>(UNAVAILABLE_RETRIES).fill(true),
      false,
    ]);
  });

  it("leaves every other failure to the caller's policy", () => {
    expect(retryWhileUnavailable(never)(0, defect)).toBe(false);
    expect(retryWhileUnavailable(never)(0, new HttpError(503, 'unavailable', 'Down.'))).toBe(false);
    expect(retryWhileUnavailable((count) => count < 1)(0, new TypeError('Failed to fetch'))).toBe(true);
  });

  it('waits what Retry-After says, else doubles from a second', () => {
    expect(retryDelay(0, unavailable)).toBe(2_000);
    expect(retryDelay(3, unavailable)).toBe(2_000);
    expect(retryDelay(0, defect)).toBe(1_000);
    expect(retryDelay(2, defect)).toBe(4_000);
    expect(retryDelay(3, new HttpError(503, 'database_unavailable', 'Down.', 3_600))).toBe(30_000);
  });
});
