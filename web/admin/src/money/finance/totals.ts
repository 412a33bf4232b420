import { toDecimal, toMinor, type CurrencyTotal } from '@claims/contracts';

/** Decimal amounts summed per currency in minor units (never adding floats), currencies in order. */
export function totalsByCurrency(items: ReadonlyArray<{ amount: number; currency: string }>): CurrencyTotal[] {
  const minor = new Map<string, number>();
  for (const item of items)
    minor.set(item.currency, (minor.get(item.currency) ?? 0) + toMinor(item.amount, item.currency));
  return [...minor]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({ currency, amount: toDecimal(amount, currency) }));
}

/** `a - b` of two decimal amounts of one currency, exactly. */
export const difference = (a: number, b: number, currency: string): number =>
  toDecimal(toMinor(a, currency) - toMinor(b, currency), currency);
