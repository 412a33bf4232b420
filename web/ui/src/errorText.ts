import { HttpError, TIMEOUT_MESSAGE } from './httpClient.js';

/** What a path no route matches raises (the 404 page names the path itself: 'Page Not Found: ' plus it) (docs/product.md#error-pages). */
export const NO_ROUTE_MATCHES = 'Page not found';

/** A 404 thrown by a route's validate rule carries this, so the page tells it from a path no route matches. */
export const INVALID_ROUTE = { reason: 'validation' } as const;

/**
 * The text shown for a failed call: the API's own `message` when it answered with an error body
 * (`{error, message}`), the timeout text of docs/product.md#messages-the-shopper-reads, otherwise the caller's words for the failure (a
 * network error's or a schema mismatch's own text means nothing to the person reading it).
 */
export function errorText(error: unknown, fallback = 'Something went wrong. Try again.'): string {
  if (error instanceof HttpError) return error.message;
  if (error instanceof Error && error.message === TIMEOUT_MESSAGE) return TIMEOUT_MESSAGE;
  return fallback;
}
