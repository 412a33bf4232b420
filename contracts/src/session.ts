import { z } from 'zod';
import { Address } from './order.js';
import { CustomerIssueType, CustomerResolution, SessionStatus } from './enums.js';
import { ImageRef } from './media.js';
import { Signature } from './claim.js';

/** An issue in the shopper's draft (its id a generated short id: docs/product.md#draft-claim). */
export const DraftIssue = z.object({
  id: z.string().min(1).max(40),
  sourceItemId: z.string().min(1),
  claimType: CustomerIssueType.optional(),
  quantity: z.number().int().positive().optional(),
  details: z.string().max(5_000).optional(),
  images: z.array(ImageRef).max(20).default([]),
});
export type DraftIssue = z.infer<typeof DraftIssue>;

export const DraftFulfillment = z.object({
  id: z.string(),
  issues: z.array(DraftIssue),
  shipmentIssue: CustomerIssueType.nullable().optional(),
  details: z.string().max(5_000).optional(),
});
export type DraftFulfillment = z.infer<typeof DraftFulfillment>;

/** The claim as the shopper drafts it in the portal (docs/product.md#draft-claim). */
export const DraftClaim = z.object({
  customer: z.object({ email: z.string(), sourceOrderId: z.string() }),
  fulfillments: z.record(z.string(), DraftFulfillment),
  resolution: z.object({
    desiredMethod: CustomerResolution.nullable().optional(),
    updatedShippingAddress: Address.nullable().optional(),
  }),
  signature: Signature.nullable().optional(),
  messages: z.array(z.string()).default([]),
  id: z.string().nullable().optional(),
  store: z.string().nullable().optional(),
});
export type DraftClaim = z.infer<typeof DraftClaim>;

export const SessionMetadata = z.object({
  claim: DraftClaim,
  currentShipmentId: z.string().nullable(),
});
export type SessionMetadata = z.infer<typeof SessionMetadata>;

/** Claim session (docs/product.md#claim-sessions). */
export const ClaimSession = z.object({
  id: z.uuid(),
  email: z.string(),
  orderId: z.uuid(),
  status: SessionStatus.nullable(),
  metadata: SessionMetadata.nullable(),
  updatedAt: z.iso.datetime(),
});
export type ClaimSession = z.infer<typeof ClaimSession>;

/** A session update carries either a status or the metadata (docs/product.md#claim-sessions). */
export const UpdateSessionRequest = z.union([
  z.object({ email: z.string().trim().min(3).max(320), orderId: z.uuid(), status: SessionStatus }),
  z.object({ email: z.string().trim().min(3).max(320), orderId: z.uuid(), metadata: SessionMetadata }),
]);
export type UpdateSessionRequest = z.infer<typeof UpdateSessionRequest>;
