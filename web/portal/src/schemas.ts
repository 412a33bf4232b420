import '@claims/ui/zod-setup';
import { z } from 'zod';
import { ClaimCategory, CustomerOrder, DraftClaim, Review, SessionStatus } from '@claims/contracts';

/**
 * Every schema the portal parses with, in one module loaded on first use (`loadSchemas`): building zod schemas is the
 * costliest part of a slow phone's start-up, and neither the start page nor the claim view needs one before it paints.
 */
export {
  BRANDING_PREVIEW_MESSAGE,
  BrandingPreviewMessage,
  ClaimLinkRecoveryResponse,
  ClaimSession,
  CustomerOrder,
  FileClaimResponse,
  OfferResponse,
  Review,
  UploadUrlResponse,
} from '@claims/contracts';
export { CustomerClaimView, Message, MessageList, WhitelabelSettings } from './claimViewSchemas.js';

export const ReviewList = z.array(Review);

/** What the portal remembers between screens (kept in sessionStorage so a reload keeps the flow). */
export const PortalState = z.object({
  order: CustomerOrder.nullable(),
  claim: DraftClaim,
  currentShipmentId: z.string().nullable(),
  category: ClaimCategory.nullable(),
  sessionStatus: SessionStatus.nullable(),
  restored: z.boolean(),
  submitted: z.object({ claimNumber: z.string(), token: z.string() }).nullable(),
  selectedShipments: z.array(z.string()),
  sessionId: z.string().nullable(),
  brandStoreId: z.string().nullable(),
  /** A `store` query parameter picks the branding (kept while the shopper moves through the flow) (docs/product.md#branding). */
  queryStore: z.string().nullable().default(null),
  /** The built-in sample order of `?fake` (nothing is saved or submitted) (docs/product.md#access-guard). */
  demo: z.boolean().default(false),
  /** The shopper has read the one-time-appeasement explanation for this order. */
  otaAcknowledged: z.boolean().default(false),
  /**
   * The `Idempotency-Key` of the claim being submitted and the body it was sent with: a retry (or a
   * reload and a retry) of that body sends the same key, so a filing whose answer was lost is not repeated.
   */
  submission: z.object({ key: z.string(), body: z.string() }).nullable().default(null),
});
export type PortalState = z.infer<typeof PortalState>;
