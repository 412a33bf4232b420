import { z } from 'zod';

/** ISO 4217 code, upper case. */
export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'a three-letter ISO 4217 currency code');
export type CurrencyCode = z.infer<typeof CurrencyCode>;

/** Money inside the domain: integer minor units with their currency. */
export const Money = z.object({ amount: z.number().int(), currency: CurrencyCode });
export type Money = z.infer<typeof Money>;

/** The spec's decimal numbers at the API edge (e.g. 18.5 dollars, 2400 yen). */
export const DecimalAmount = z.number().finite();

const decimalsCache = new Map<string, number>();

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
