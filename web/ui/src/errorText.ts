import { HttpError, TIMEOUT_MESSAGE } from './httpClient.js';

/**
 * The text shown for a failed call: the API's own `message` when it answered with an error body
 * (`{error, message}`), spec §8's timeout text, otherwise the caller's words for the failure (a
 * network error's or a schema mismatch's own text means nothing to the person reading it).
 */
export function errorText(error: unknown, fallback = 'Something went wrong. Try again.'): string {
  if (error instanceof HttpError) return error.message;
  if (error instanceof Error && error.message === TIMEOUT_MESSAGE) return TIMEOUT_MESSAGE;
  return fallback;
}
