// Without zod: the shared money formatting reads it on every page, before any schema is built.

/**
 * The usual currencies' digits, as Intl gives them (a test holds the two equal): building the first Intl formatter starts
 * ICU, tens of milliseconds on a phone, and a claim page in one of these currencies then never needs it.
 */
const decimalsCache = new Map<string, number>([
  ['USD', 2],
  ['EUR', 2],
  ['GBP', 2],
  ['CAD', 2],
  ['AUD', 2],
  ['JPY', 0],
]);

/** Minor-unit digits of a currency (JPY 0, USD 2, KWD 3), from the ISO data Intl carries. */
export function currencyDecimals(currency: string): number {
  let digits = decimalsCache.get(currency);
  if (digits === undefined) {
    digits =
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    decimalsCache.set(currency, digits);
  }
  return digits;
}

/**
 * Minor units of a decimal amount, exactly: the number's shortest decimal form (the digits the JSON carried) is shifted by
 * the currency's digits as text, never multiplied in floating point (1.005 × 100 is 100.49999…), then rounded half away
 * from zero.
 */
export function toMinor(decimal: number, currency: string): number {
  const [mantissa = '0', exponent = '0'] = Math.abs(decimal).toString().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  // Where the minor units' point falls in `digits`, counted from its start.
  const point = whole.length + Number(exponent) + currencyDecimals(currency);
  const minor =
    point >= digits.length
      ? Number(digits + '0'.repeat(point - digits.length))
      : Number(digits.slice(0, Math.max(point, 0)) || '0') + (point >= 0 && (digits[point] ?? '0') >= '5' ? 1 : 0);
  return decimal < 0 && minor !== 0 ? -minor : minor;
}

export function toDecimal(minor: number, currency: string): number {
  const digits = currencyDecimals(currency);
  return Number((minor / 10 ** digits).toFixed(digits));
}
