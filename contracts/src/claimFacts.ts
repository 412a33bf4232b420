import { z } from 'zod';
import { ClaimStatus, ResolutionType } from './enums.js';
import { Signature } from './claim.js';
import { CurrencyCode, DecimalAmount } from './money.js';
import { Address, Fulfillment } from './order.js';

/** Another claim of the same shopper (same email, a store the caller may read) and how it ended. */
export const CustomerClaimOutcome = z.object({
  id: z.uuid(),
  claimNumber: z.string(),
  orderNumber: z.string(),
  storeId: z.uuid(),
  status: ClaimStatus,
  statusLabel: z.string(),
  createdAt: z.iso.datetime(),
  currency: CurrencyCode,
  claimedValue: DecimalAmount,
  /** The first decision's type; null while nothing is decided. */
  resolutionType: ResolutionType.nullable(),
  resolvedAt: z.iso.datetime().nullable(),
});
export type CustomerClaimOutcome = z.infer<typeof CustomerClaimOutcome>;

/** A photo of this claim whose bytes (SHA-256 at upload) are also a photo of another claim. */
export const ReusedPhoto = z.object({
  url: z.string(),
  otherClaimId: z.uuid(),
  otherClaimNumber: z.string(),
});
export type ReusedPhoto = z.infer<typeof ReusedPhoto>;

/** Days back the "claims by this email" flag counts. */
export const RECENT_CLAIMS_DAYS = 90;

/**
 * `GET /api/admin/claims/{claimId}/facts`: what an agent decides with, beside the claim itself: the order and
 * its shipments, the signature, the shopper's other claims, fraud flags and the store's terms for a decision.
 */
export const ClaimFacts = z.object({
  order: z
    .object({
      orderNumber: z.string(),
      sourceOrderId: z.string(),
      createdAt: z.iso.datetime(),
      shippingAddress: Address,
      /** Every shipment of the order; `claimed` when it holds a claimed item. */
      fulfillments: z.array(Fulfillment.extend({ claimed: z.boolean() })),
    })
    .nullable(),
  updatedShippingAddress: Address.nullable(),
  signature: Signature.nullable(),
  otherClaims: z.array(CustomerClaimOutcome),
  flags: z.object({
    /** Claims filed with this email in the last `RECENT_CLAIMS_DAYS` days (this one included), in stores the caller may read. */
    recentClaimsByEmail: z.number().int().nonnegative(),
    reusedPhotos: z.array(ReusedPhoto),
  }),
  decisionTerms: z.object({
    /** The resolution types the store offers now (a decision of another type is refused with 422). */
    offeredResolutions: z.array(ResolutionType),
    /** The store's credit bonus and the order's exchange rate: the summary shows credit with its bonus before committing. */
    credit: z.object({ bonus: z.number().nonnegative(), bonusType: z.enum(['fixed', 'percentage']) }),
    exchangeRate: z.number().positive(),
  }),
});
export type ClaimFacts = z.infer<typeof ClaimFacts>;
