import { z } from 'zod';

/** ISO 4217 code, upper case. */
export const CurrencyCode = z.string().regex(/^[A-Z]{3}$/, 'a three-letter ISO 4217 currency code');
export type CurrencyCode = z.infer<typeof CurrencyCode>;

/** Money inside the domain: integer minor units with their currency. */
export const Money = z.object({ amount: z.number().int(), currency: CurrencyCode });
export type Money = z.infer<typeof Money>;

/** The spec's decimal numbers at the API edge (e.g. 18.5 dollars, 2400 yen). */
export const DecimalAmount = z.number().finite();

/**
 * An amount an integrator sends with an order (a price, tax, premium): never negative, and never past what an order
 * could hold, so its minor units stay exact integers all the way to the ledgers.
 */
export const OrderAmount = DecimalAmount.nonnegative('An amount of an order is never negative.').max(
  100_000_000,
  'An amount of an order is at most 100,000,000.',
);

export { currencyDecimals, toDecimal, toMinor } from './currencyDigits.js';
