/**
 * A JSON value with its object keys in the order PostgreSQL's jsonb hands them back (shorter keys
 * first, then by bytes), as a stream's events are when they are loaded to decide the next command.
 */
export function inJsonbKeyOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(inJsonbKeyOrder) as T;
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, inJsonbKeyOrder((value as Record<string, unknown>)[key])])) as T;
}
