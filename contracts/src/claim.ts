import { z } from 'zod';
import { Address } from './order.js';
import {
  ClaimStatus,
  ClaimType,
  CustomerIssueType,
  DecisionOutcome,
  CustomerResolution,
  ResolutionReason,
  ResolutionType,
  SenderType,
} from './enums.js';
import { ImageRef, Media } from './media.js';
import { CurrencyCode, DecimalAmount } from './money.js';
import { ClaimStoreCredit } from './finance.js';
import { Policy } from './order.js';
import { ClaimAssignee } from './queue.js';
import { Risk } from './automation.js';

/** The path parameters of a route under `/claims/{claimId}`. */
export const ClaimParams = z.object({ claimId: z.string().min(1).max(100) });
export type ClaimParams = z.infer<typeof ClaimParams>;

export const Signature = z.object({
  kind: z.enum(['drawn', 'typed']),
  /** A PNG data URL for a drawn signature, the typed full name otherwise. */
  value: z.string().min(1).max(200_000),
  signedAt: z.iso.datetime(),
});
export type Signature = z.infer<typeof Signature>;

/** One issue the shopper reports (in the filing call, docs/product.md#http-client). */
export const ClaimIssueInput = z.object({
  sourceItemId: z.string().min(1).max(100),
  claimType: CustomerIssueType,
  quantity: z.number().int().positive().max(10_000),
  details: z.string().max(5_000).default(''),
  images: z.array(ImageRef).max(20).default([]),
});
export type ClaimIssueInput = z.infer<typeof ClaimIssueInput>;

/** Body of `POST /api/claims/{sourceOrderId}` (docs/product.md#http-client). */
export const FileClaimRequest = z.object({
  email: z.string().trim().min(3).max(320),
  fulfillmentIssues: z
    .array(
      z.object({
        sourceFulfillmentId: z.string().min(1).max(100),
        issues: z.array(ClaimIssueInput).min(1).max(200),
      }),
    )
    .min(1)
    .max(50),
  resolution: z.object({
    desiredMethod: CustomerResolution,
    customerSignature: z.union([Signature, z.string().min(1).max(200_000)]),
    updatedShippingAddress: Address.nullable().optional(),
  }),
});
export type FileClaimRequest = z.infer<typeof FileClaimRequest>;

export const FileClaimResponse = z.object({ claimId: z.uuid(), token: z.string(), claimNumber: z.string() });

/** A claimed line, in minor units of the claim's currency. */
export const ClaimItem = z.object({
  id: z.uuid(),
  sourceItemId: z.string(),
  sourceFulfillmentId: z.string(),
  sourceProductId: z.string(),
  sourceVariantId: z.string(),
  sku: z.string(),
  name: z.string(),
  imageUrl: z.string().optional(),
  images: z.array(ImageRef),
  details: z.string(),
  quantity: z.number().int().positive(),
  claimType: ClaimType,
  resolutionRequested: CustomerResolution,
  creditStore: z.boolean(),
  price: z.number().int(),
  tax: z.number().int(),
  discount: z.number().int(),
  orderedQuantity: z.number().int(),
  refundedQuantity: z.number().int(),
  selectedOptions: z.record(z.string(), z.string()),
});
export type ClaimItem = z.infer<typeof ClaimItem>;

/** One resolution line (docs/product.md#claim-records), in minor units. */
export const ClaimResolution = z.object({
  id: z.uuid(),
  relatedClaimItemId: z.uuid().nullable(),
  resolutionType: ResolutionType,
  reason: ResolutionReason.nullable(),
  resolutionDescription: z.string(),
  quantity: z.number().int().nonnegative(),
  percentage: z.number().min(0).max(100).nullable(),
  paidValue: z.number().int(),
  shippingAmount: z.number().int(),
  creditStore: z.boolean(),
  final: z.boolean(),
  /** Who decided it; a rule adds the version of it that did (added without a schema bump). */
  resolvedBy: z.object({
    type: z.string(),
    id: z.string(),
    name: z.string(),
    version: z.number().int().positive().optional(),
  }),
  createdAt: z.iso.datetime(),
});
export type ClaimResolution = z.infer<typeof ClaimResolution>;

/** Message (docs/product.md#claim-records). */
export const Message = z.object({
  id: z.uuid(),
  claimId: z.uuid(),
  storeId: z.uuid(),
  senderId: z.string(),
  senderName: z.string(),
  senderType: SenderType,
  messageContent: z.string(),
  medias: z.array(Media),
  createdAt: z.iso.datetime(),
});
export type Message = z.infer<typeof Message>;

export const SendMessageRequest = z
  .object({
    messageContent: z.string().trim().max(10_000).default(''),
    medias: z.array(Media).max(10).default([]),
    senderName: z.string().trim().max(200).optional(),
  })
  .refine((m) => m.messageContent.length > 0 || m.medias.length > 0, { message: 'A message needs text or a photo.' });
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

export const Review = z.object({
  id: z.uuid(),
  claimId: z.uuid(),
  rating: z.number().int().min(1).max(5),
  text: z.string(),
  createdAt: z.iso.datetime(),
});
export type Review = z.infer<typeof Review>;

export const AddReviewRequest = z.object({
  rating: z.number().int().min(1).max(5),
  text: z.string().trim().max(5_000).default(''),
});

/** Decimal money at the edge of the API. */
const EdgeMoney = DecimalAmount;

/** One status a shopper's claim reached, and when (only the statuses shoppers see, SHOPPER_VISIBLE_STATUSES). */
export const ShopperStatusChange = z.object({ status: ClaimStatus, statusLabel: z.string(), at: z.iso.datetime() });
export type ShopperStatusChange = z.infer<typeof ShopperStatusChange>;

/** How every view of a claim names it first: the shopper's, the back-office list's and the public API's. */
export const ClaimHeadline = z.object({
  id: z.uuid(),
  claimNumber: z.string(),
  status: ClaimStatus,
  statusLabel: z.string(),
  claimType: ClaimType,
});

/** The claim as the shopper sees it through `GET /api/claims/{token}`. */
export const CustomerClaimView = ClaimHeadline.extend({
  storeId: z.uuid(),
  sourceOrderId: z.string(),
  orderNumber: z.string(),
  currency: CurrencyCode,
  createdAt: z.iso.datetime(),
  desiredMethod: CustomerResolution,
  updatedShippingAddress: Address.nullable(),
  items: z.array(
    ClaimItem.omit({ price: true, tax: true, discount: true }).extend({
      price: EdgeMoney,
      tax: EdgeMoney,
      discount: EdgeMoney,
    }),
  ),
  resolutions: z.array(
    ClaimResolution.omit({ paidValue: true, shippingAmount: true, resolvedBy: true }).extend({
      paidValue: EdgeMoney,
      shippingAmount: EdgeMoney,
    }),
  ),
  hasReview: z.boolean(),
  /** The store credit its STORE_CREDIT resolutions give the shopper, bonus included. */
  storeCredits: z.array(ClaimStoreCredit),
  /** Oldest first. */
  statusHistory: z.array(ShopperStatusChange),
  /** The decision on the claim as a whole (every item decided), null while an item waits (docs/decisions/approved-at-once.md). */
  outcome: DecisionOutcome.nullable(),
});
export type CustomerClaimView = z.infer<typeof CustomerClaimView>;

/** What filing fixes about a claim for good: the `ClaimFiled` event carries it and the claim keeps it. */
export const filedClaimFacts = {
  claimNumber: z.string(),
  /** SHA-256 of the claim token; the token itself is only ever shown to the shopper. */
  tokenHash: z.string(),
  storeId: z.uuid(),
  orderId: z.uuid(),
  sourceOrderId: z.string(),
  orderNumber: z.string(),
  currency: CurrencyCode,
  isOta: z.boolean(),
  claimType: ClaimType,
};

/** A claim as its events make it (the domain's state and the back-office's record), money in minor units. */
export const Claim = z.object({
  id: z.uuid(),
  ...filedClaimFacts,
  status: ClaimStatus,
  customer: z.object({ email: z.string(), name: z.string() }),
  items: z.array(ClaimItem),
  resolutions: z.array(ClaimResolution),
  desiredMethod: CustomerResolution,
  updatedShippingAddress: Address.nullable(),
  policy: Policy.nullable(),
  filedAt: z.iso.datetime(),
  messageCount: z.number().int(),
  reviewed: z.boolean(),
  /** Back-office only (never in the shopper's view): labels in the order added, metadata by key, internal notes. */
  labels: z.array(z.string()),
  metadata: z.record(z.string(), z.string()),
  noteCount: z.number().int(),
  /** Back-office only: the teammate working it. */
  assignee: ClaimAssignee.nullable(),
  /** Back-office only: the risk assessed at filing (contract §Automation). */
  risk: Risk,
});
export type Claim = z.infer<typeof Claim>;

/**
 * The portal's `Idempotency-Key` on `POST /api/claims/{sourceOrderId}`: at least 128 random bits,
 * URL-safe (the claim link of a retried submission derives from it, so it must be as unguessable as a token).
 */
export const FilingIdempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22,255}$/, 'must be 22 to 255 URL-safe characters (at least 128 random bits)');
