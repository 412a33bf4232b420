import { z } from 'zod';
import { CustomerResolution } from './enums.js';

/**
 * A/B tests of the portal's resolution offer (the `ab-tests` permissions, docs/product.md#roles-and-permissions): a store runs one test at a time; each
 * claim session is assigned a variant by a hash of its id (docs/decisions/ab-tests.md), the assignment
 * is an event, and the results are a projection of those events and the claims filed.
 */

/** What a variant changes in the offer: the store-credit bonus the resolution step shows. */
export const AbVariant = z.object({
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,40}$/, 'A variant id is lowercase letters, digits and dashes.'),
  label: z.string().trim().min(1).max(80),
  creditBonus: z.number().nonnegative().max(100),
  creditBonusType: z.literal('percentage'),
});
export type AbVariant = z.infer<typeof AbVariant>;

export const StartAbTestRequest = z
  .object({
    name: z.string().trim().min(1).max(120),
    variants: z.array(AbVariant).min(2).max(4),
  })
  .refine((test) => new Set(test.variants.map((v) => v.id)).size === test.variants.length, {
    message: 'Each variant needs its own id.',
    path: ['variants'],
  });
export type StartAbTestRequest = z.infer<typeof StartAbTestRequest>;

/** Significance level of the two-proportion z-test (two-sided) and the fewest claims per variant before it is run. */
export const AB_SIGNIFICANCE_ALPHA = 0.05;
export const AB_MIN_CLAIMS_PER_VARIANT = 30;

export const AbVariantResult = z.object({
  variantId: z.string(),
  label: z.string(),
  creditBonus: z.number(),
  /** Claim sessions assigned this variant (shoppers who reached the offer). */
  sessions: z.number().int().nonnegative(),
  claimsFiled: z.number().int().nonnegative(),
  /** Claims filed per resolution the shopper chose, and its share of the variant's claims (0..1). */
  resolutions: z.array(
    z.object({ resolution: CustomerResolution, claims: z.number().int().nonnegative(), takeRate: z.number() }),
  ),
});
export type AbVariantResult = z.infer<typeof AbVariantResult>;

/** The comparison of the two variants with the most claims, on the store-credit take rate. */
export const AbSignificance = z.object({
  metric: z.literal('STORE_CREDIT take rate'),
  variants: z.tuple([z.string(), z.string()]),
  difference: z.number(),
  z: z.number().nullable(),
  pValue: z.number().nullable(),
  significant: z.boolean(),
  /** The variant with the higher take rate when significant; null otherwise. */
  winner: z.string().nullable(),
  /** For people: why there is or is not a winner. */
  verdict: z.string(),
});
export type AbSignificance = z.infer<typeof AbSignificance>;

export const AbTestView = z.object({
  testId: z.uuid(),
  storeId: z.uuid(),
  name: z.string(),
  status: z.enum(['running', 'stopped']),
  startedAt: z.iso.datetime(),
  stoppedAt: z.iso.datetime().nullable(),
  variants: z.array(AbVariantResult),
  significance: AbSignificance.nullable(),
});
export type AbTestView = z.infer<typeof AbTestView>;

export const AbTestsResponse = z.object({ storeId: z.uuid(), tests: z.array(AbTestView) });
export type AbTestsResponse = z.infer<typeof AbTestsResponse>;

/** `POST /api/sessions/offer`: the shopper's offer, with the variant their session was assigned (if a test runs). */
export const OfferRequest = z.object({ orderId: z.uuid(), email: z.string().trim().min(1).max(320) });
export const OfferResponse = z.object({
  credit: z.object({ bonus: z.number().nonnegative(), bonusType: z.enum(['fixed', 'percentage']) }),
  test: z.object({ testId: z.uuid(), variantId: z.string() }).nullable(),
});
export type OfferResponse = z.infer<typeof OfferResponse>;

export const StartAbTest = z.object({
  type: z.literal('StartAbTest'),
  storeId: z.uuid(),
  testId: z.uuid(),
  name: z.string(),
  variants: z.array(AbVariant),
  now: z.iso.datetime(),
});
export const StopAbTest = z.object({
  type: z.literal('StopAbTest'),
  storeId: z.uuid(),
  testId: z.uuid(),
  now: z.iso.datetime(),
});
export const AbTestCommand = z.discriminatedUnion('type', [StartAbTest, StopAbTest]);
export type AbTestCommand = z.infer<typeof AbTestCommand>;

export const AssignAbVariant = z.object({
  type: z.literal('AssignAbVariant'),
  storeId: z.uuid(),
  testId: z.uuid(),
  sessionId: z.uuid(),
  orderId: z.uuid(),
  variantId: z.string(),
  now: z.iso.datetime(),
});
export type AssignAbVariant = z.infer<typeof AssignAbVariant>;
