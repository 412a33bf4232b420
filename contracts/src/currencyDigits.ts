// Without zod: the shared money formatting reads it on every page, before any schema is built.

/**
 * The usual currencies' digits, as Intl gives them (a test holds the two equal): building the first Intl formatter starts
 * ICU, tens of milliseconds on a phone, and a claim page in one of these currencies then never needs it.
 */
const decimalsCache = new Map<string, number>([['USD', 2], ['EUR', 2], ['GBP', 2], ['CAD', 2], ['AUD', 2], ['JPY', 0]]);

/** Minor-unit digits of a currency (JPY 0, USD 2, KWD 3), from the ISO data Intl carries. */
export function currencyDecimals(currency: string): number {
  let digits = decimalsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    decimalsCache.set(currency, digits);
  }
  return digits;
}

export function toMinor(decimal: number, currency: string): number {
  const factor = 10 ** currencyDecimals(currency);
  return Math.round(decimal * factor);
}

export function toDecimal(minor: number, currency: string): number {
  const digits = currencyDecimals(currency);
  return Number((minor / 10 ** digits).toFixed(digits));
}
