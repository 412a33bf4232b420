import { z } from 'zod';
import { SESSION_STEP_PATHS } from './sessionSteps.js';
import {
  CLAIM_STATUS_LABELS,
  CLAIM_TYPE_FLAGS,
  ITEM_ISSUE_LABELS,
  RESOLUTION_REASON_LABELS,
  SHIPMENT_ISSUE_LABELS,
} from './enumTables.js';

export * from './enumTables.js';

export const ClaimStatus = z.enum(Object.keys(CLAIM_STATUS_LABELS) as [keyof typeof CLAIM_STATUS_LABELS]);
export type ClaimStatus = z.infer<typeof ClaimStatus>;

/** The statuses a shopper sees in their claim's history: all but the desk's internal routing and filing. */
export const SHOPPER_VISIBLE_STATUSES: readonly ClaimStatus[] = ClaimStatus.options.filter(
  (s) => !['WAITING_FOR_OP', 'WAITING_FOR_BRAND', 'ARCHIVED'].includes(s),
);
/** A status change to one of these is mailed to the shopper: the store waits on them, or dismissed their claim. */
export const SHOPPER_MAILED_STATUSES: readonly ClaimStatus[] = ['WAITING_FOR_CUSTOMER', 'DISMISSED'];

/** The lowercase claim states with their badge colours (docs/product.md#status-badges). */
export const CLAIM_STATE_BADGES = {
  new: 'info',
  pending: 'warning',
  approved: 'success',
  denied: 'danger',
  dismissed: 'neutral',
  closed: 'neutral',
} as const;
export const ClaimState = z.enum(Object.keys(CLAIM_STATE_BADGES) as [keyof typeof CLAIM_STATE_BADGES]);
export type ClaimState = z.infer<typeof ClaimState>;

/** Which lowercase badge state each status shows as (docs/decisions/claim-statuses.md). */
export const CLAIM_STATE_OF_STATUS: Record<ClaimStatus, ClaimState> = {
  NEW: 'new',
  OPEN: 'pending',
  COMMUNICATING: 'pending',
  WAITING_FOR_BRAND: 'pending',
  WAITING_FOR_CUSTOMER: 'pending',
  WAITING_FOR_OP: 'pending',
  APPROVED: 'approved',
  RESOLVED: 'approved',
  RESOLVED_BY_BRAND: 'approved',
  DENIED: 'denied',
  DISMISSED: 'dismissed',
  TEMPORARILY_DISMISSED: 'dismissed',
  CLOSED: 'closed',
  ARCHIVED: 'closed',
};

/** The second badge map (order fulfilment and payment states) (docs/product.md#status-badges). */
export const ORDER_STATE_BADGES = {
  fulfilled: 'success',
  open: 'info',
  payment: 'warning',
  unfulfilled: 'neutral',
} as const;

export const ClaimType = z.enum(Object.keys(CLAIM_TYPE_FLAGS) as [keyof typeof CLAIM_TYPE_FLAGS]);
export type ClaimType = z.infer<typeof ClaimType>;

export const ShipmentIssueType = z.enum(Object.keys(SHIPMENT_ISSUE_LABELS) as [keyof typeof SHIPMENT_ISSUE_LABELS]);
export type ShipmentIssueType = z.infer<typeof ShipmentIssueType>;

export const ItemIssueType = z.enum(Object.keys(ITEM_ISSUE_LABELS) as [keyof typeof ITEM_ISSUE_LABELS]);
export type ItemIssueType = z.infer<typeof ItemIssueType>;

export const CustomerIssueType = z.union([ShipmentIssueType, ItemIssueType]);
export type CustomerIssueType = z.infer<typeof CustomerIssueType>;

export const ClaimCategory = z.enum(['notReceived', 'issuesWithItems']);
export type ClaimCategory = z.infer<typeof ClaimCategory>;

export const ResolutionReason = z.enum(
  Object.keys(RESOLUTION_REASON_LABELS) as [keyof typeof RESOLUTION_REASON_LABELS],
);
export type ResolutionReason = z.infer<typeof ResolutionReason>;

/** Back-office resolution kinds, plus DENY for a denial (contract: POST /api/v1/claims/{id}/resolve) (docs/product.md#resolutions). */
export const ResolutionType = z.enum(['REFUND', 'RESHIP', 'STORE_CREDIT', 'FLAT_RATE', 'CUSTOM', 'DENY']);
export type ResolutionType = z.infer<typeof ResolutionType>;

export const CustomerResolution = z.enum(['REFUND', 'RESHIP', 'STORE_CREDIT']);
export type CustomerResolution = z.infer<typeof CustomerResolution>;

/** The requested resolution of a claim whose items disagree (docs/product.md#requested-resolution). */
export const MIXED_RESOLUTION = 'MIXED' as const;

export const AmountKind = z.enum(['fixed', 'percentage']);
export type AmountKind = z.infer<typeof AmountKind>;

export const DecisionOutcome = z.enum(['APPROVED', 'DENIED']);
export type DecisionOutcome = z.infer<typeof DecisionOutcome>;

/** Shipment statuses; the shopper sees only 'In Transit' and 'Delivered' (docs/product.md#shipment-statuses). */
export const ShipmentStatus = z.enum([
  'AWAITING_SHIPMENT',
  'DELIVERED',
  'IN_TRANSIT',
  'FULFILLED',
  'ON_HOLD',
  'PARTIALLY_FULFILLED',
  'OUT_FOR_DELIVERY',
  'ATTEMPTED_DELIVERY',
  'NOT_DELIVERED',
  'LABEL_PURCHASED',
  'LABEL_PRINTED',
  'READY_FOR_PICKUP',
  'CONFIRMED',
  'SCHEDULED',
  'UNFULFILLED',
]);
export type ShipmentStatus = z.infer<typeof ShipmentStatus>;

/** Statuses in which a parcel has left the merchant (decision: anything else counts as not shipped). */
export const SHIPPED_STATUSES: readonly ShipmentStatus[] = [
  'DELIVERED',
  'IN_TRANSIT',
  'FULFILLED',
  'OUT_FOR_DELIVERY',
  'ATTEMPTED_DELIVERY',
  'NOT_DELIVERED',
  'READY_FOR_PICKUP',
];

export const EligibilityCode = z.enum(['too_soon', 'expired', 'not_shipped', 'already_claimed', 'unprotected']);
export type EligibilityCode = z.infer<typeof EligibilityCode>;

/** Claim session statuses: the steps of the shopper's flow (sessionSteps.ts). */
export { SESSION_STEP_PATHS };
export const SessionStatus = z.enum(Object.keys(SESSION_STEP_PATHS) as [keyof typeof SESSION_STEP_PATHS]);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const SenderType = z.enum(['customer', 'merchant', 'staff', 'system']);
export type SenderType = z.infer<typeof SenderType>;

export const MediaType = z.enum(['CLAIM']);

export const ActorType = z.enum(['customer', 'user', 'api-token', 'system', 'rule']);
export type ActorType = z.infer<typeof ActorType>;
