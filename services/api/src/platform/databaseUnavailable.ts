/**
 * Whether a thrown error says the database cannot be reached right now (a restart, a failover, a full server) rather
 * than that a statement is wrong: such a request is answered 503 with Retry-After, as it will succeed shortly.
 */

/** PostgreSQL's codes for a server that is going away or not taking connections (class 08: connection exception). */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** pg and pg-pool raise these as plain errors without a code. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
  // PGlite once its instance has been closed under a running request.
  /^PGlite is closed/,
];

/** Seconds a client is asked to wait before trying again: a restart takes a few. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

const codeOf = (error: object): unknown => ('code' in error ? error.code : undefined);

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const code = codeOf(error);
  if (
    typeof code === 'string' &&
    (/^08[0-9A-Z]{3}$/.test(code) || UNAVAILABLE_SQLSTATES.has(code) || SOCKET_CODES.has(code))
  )
    return true;
  if (error instanceof Error && DRIVER_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // Node reports a refused dual-stack connect as an AggregateError of one error per address; drivers wrap in `cause`.
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return 'cause' in error && isDatabaseUnavailable(error.cause, depth + 1);
}
