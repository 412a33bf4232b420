import { currencyDecimals } from '@claims/contracts';

/** An exact fraction of BigInts: money is computed exactly and rounded once, at the last step. */
export interface Fraction {
  n: bigint;
  d: bigint;
}

/** The exact value of a finite decimal number as written (0.92 is 92/100, not the nearest double's expansion). */
export function fractionOf(value: number): Fraction {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`);
  const [mantissa, exponentText] = value.toString().toLowerCase().split('e');
  const exponent = Number(exponentText ?? 0);
  const negative = mantissa!.startsWith('-');
  const [whole, fraction = ''] = mantissa!.replace('-', '').split('.');
  let n = BigInt(`${whole}${fraction}`) * (negative ? -1n : 1n);
  let d = 10n ** BigInt(fraction.length);
  if (exponent > 0) n *= 10n ** BigInt(exponent);
  if (exponent < 0) d *= 10n ** BigInt(-exponent);
  return { n, d };
}

export const times = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.n, d: a.d * b.d });
export const dividedBy = (a: Fraction, b: Fraction): Fraction => ({
  n: b.n < 0n ? -a.n * b.d : a.n * b.d,
  d: b.n < 0n ? a.d * -b.n : a.d * b.n,
});
export const plus = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
export const whole = (n: number): Fraction => ({ n: BigInt(n), d: 1n });

/** Rounds half to even (banker's rounding): the one rounding rule of every conversion (docs/decisions/money-from-events.md). */
export function roundHalfEven({ n, d }: Fraction): number {
  const negative = n < 0n !== d < 0n;
  const num = n < 0n ? -n : n;
  const den = d < 0n ? -d : d;
  let q = num / den;
  const twice = (num % den) * 2n;
  if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  return Number(negative ? -q : q);
}

/**
 * An amount in minor units of `from` as minor units of `to`, where `rate` is `from` per unit of `to`
 * (the order's exchange rate: order currency per store currency). Exact until the one rounding.
 */
export function convertMinor(amount: Fraction, from: string, to: string, rate: number): Fraction {
  const scale = whole(10 ** currencyDecimals(to));
  const unscale = whole(10 ** currencyDecimals(from));
  return dividedBy(times(amount, scale), times(unscale, fractionOf(rate)));
}
