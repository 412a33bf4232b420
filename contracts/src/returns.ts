import { z } from 'zod';
import type { ClaimType } from './enums.js';

/**
 * Returns (docs/decisions/returns.md): a shopper sends claimed items back. Each return is a record on its
 * claim's stream with its own statuses. A store with its own returns portal (capabilities.returns on, and its
 * portal address) gets the shopper there; any other store's returns are handled here, with a printable label.
 */

/** Where a return is handled: the store's own returns portal (a link out), or here (a label, worked on the desk). */
export const ReturnHandling = z.enum(['store_portal', 'here']);
export type ReturnHandling = z.infer<typeof ReturnHandling>;

export const ReturnStatus = z.enum([
  'REDIRECTED',
  'REQUESTED',
  'APPROVED',
  'RECEIVED',
  'COMPLETED',
  'REJECTED',
  'CANCELLED',
]);
export type ReturnStatus = z.infer<typeof ReturnStatus>;

export const RETURN_STATUS_LABELS: Readonly<Record<ReturnStatus, string>> = {
  REDIRECTED: "Sent to the store's returns portal",
  REQUESTED: 'Requested',
  APPROVED: 'Approved',
  RECEIVED: 'Received',
  COMPLETED: 'Completed',
  REJECTED: 'Rejected',
  CANCELLED: 'Cancelled',
};

/**
 * The moves the desk may make from each status. A return sent to the store's portal is the store's to work there;
 * a rejected, cancelled or completed one is over.
 */
export const RETURN_STATUS_MOVES: Readonly<Record<ReturnStatus, readonly ReturnStatus[]>> = {
  REDIRECTED: [],
  REQUESTED: ['APPROVED', 'REJECTED', 'CANCELLED'],
  APPROVED: ['RECEIVED', 'CANCELLED'],
  RECEIVED: ['COMPLETED'],
  COMPLETED: [],
  REJECTED: [],
  CANCELLED: [],
};

/** A return no longer holds its items: they may be returned again. */
export const RETURN_RELEASED_STATUSES: readonly ReturnStatus[] = ['REDIRECTED', 'REJECTED', 'CANCELLED'];

/**
 * The claim types whose item is in the shopper's hands, so it can go back: a parcel that never arrived (lost,
 * stolen, stuck, returned to sender, sent to a wrong address) or an item missing from it has nothing to return.
 */
export const RETURNABLE_CLAIM_TYPES: readonly ClaimType[] = [
  'DAMAGED',
  'DEFECTIVE_ITEM',
  'WRONG_ITEM',
  'PRODUCT_NOT_AS_DESCRIBED',
];

export const isReturnable = (claimType: ClaimType): boolean => RETURNABLE_CLAIM_TYPES.includes(claimType);

/** Whose label is still valid to print: a return handled here that has not arrived or ended. */
export const RETURN_LABEL_STATUSES: readonly ReturnStatus[] = ['REQUESTED', 'APPROVED'];

export const ReturnReason = z.enum([
  'DAMAGED',
  'DEFECTIVE',
  'WRONG_ITEM',
  'NOT_AS_DESCRIBED',
  'NO_LONGER_NEEDED',
  'OTHER',
]);
export type ReturnReason = z.infer<typeof ReturnReason>;

export const RETURN_REASON_LABELS: Readonly<Record<ReturnReason, string>> = {
  DAMAGED: 'Arrived damaged',
  DEFECTIVE: 'Defective',
  WRONG_ITEM: 'Wrong item',
  NOT_AS_DESCRIBED: 'Not as described',
  NO_LONGER_NEEDED: 'No longer needed',
  OTHER: 'Other',
};

export const ReturnMethod = z.enum(['DROP_OFF', 'PICKUP']);
export type ReturnMethod = z.infer<typeof ReturnMethod>;

export const RETURN_METHOD_LABELS: Readonly<Record<ReturnMethod, string>> = {
  DROP_OFF: 'Drop it off at a carrier location',
  PICKUP: 'Have the carrier pick it up',
};

export const ReturnItem = z.object({ claimItemId: z.uuid(), quantity: z.number().int().positive().max(10_000) });
export type ReturnItem = z.infer<typeof ReturnItem>;

/** `POST /api/claims/{token}/returns`: what the shopper sends back, why and how. */
export const StartReturnRequest = z.object({
  items: z.array(ReturnItem).min(1, 'Choose at least one item to return.').max(200),
  reason: ReturnReason,
  method: ReturnMethod,
  comment: z.string().trim().max(2_000).optional(),
});
export type StartReturnRequest = z.infer<typeof StartReturnRequest>;

/** `POST /api/admin/claims/{claimId}/returns/{returnId}/status`. */
export const ChangeReturnStatusRequest = z.object({
  to: ReturnStatus,
  note: z.string().trim().max(2_000).optional(),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type ChangeReturnStatusRequest = z.infer<typeof ChangeReturnStatusRequest>;

/** Event data: a return started on a claim (its stream). */
export const ReturnStartedData = z.object({
  claimId: z.uuid(),
  returnId: z.uuid(),
  /** What the label's barcode carries and the desk searches by: `R` + the claim number + `-` + the return's number on the claim. */
  code: z.string(),
  claimNumber: z.string(),
  items: z.array(ReturnItem).min(1),
  reason: ReturnReason,
  method: ReturnMethod,
  comment: z.string(),
  handling: ReturnHandling,
  /** The store's returns portal the shopper was sent to (store_portal only). */
  portalUrl: z.string().nullable(),
  status: ReturnStatus,
  startedAt: z.iso.datetime(),
});
export type ReturnStartedData = z.infer<typeof ReturnStartedData>;

/** Event data: the desk moved a return. */
export const ReturnStatusChangedData = z.object({
  claimId: z.uuid(),
  returnId: z.uuid(),
  from: ReturnStatus,
  to: ReturnStatus,
  note: z.string().nullable(),
  changedAt: z.iso.datetime(),
});
export type ReturnStatusChangedData = z.infer<typeof ReturnStatusChangedData>;

/** A return as the shopper and the desk see it, its items named. */
export const ClaimReturn = z.object({
  id: z.uuid(),
  claimId: z.uuid(),
  code: z.string(),
  status: ReturnStatus,
  statusLabel: z.string(),
  handling: ReturnHandling,
  portalUrl: z.string().nullable(),
  reason: ReturnReason,
  method: ReturnMethod,
  comment: z.string(),
  items: z.array(ReturnItem.extend({ name: z.string(), sku: z.string() })),
  startedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ClaimReturn = z.infer<typeof ClaimReturn>;

/** The desk's returns of one claim, with the claim's stream version (for `expectedVersion`). */
export const ClaimReturnList = z.object({ data: z.array(ClaimReturn), version: z.number().int().nonnegative() });
export type ClaimReturnList = z.infer<typeof ClaimReturnList>;

/** `GET /api/admin/returns`: the returns of the stores the caller may read returns of. */
export const ReturnListQuery = z.object({
  storeId: z.uuid().optional(),
  status: ReturnStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export type ReturnListQuery = z.infer<typeof ReturnListQuery>;

export const ReturnListEntry = z.object({
  id: z.uuid(),
  claimId: z.uuid(),
  claimNumber: z.string(),
  storeId: z.uuid(),
  code: z.string(),
  status: ReturnStatus,
  handling: ReturnHandling,
  reason: ReturnReason,
  method: ReturnMethod,
  itemCount: z.number().int().nonnegative(),
  startedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ReturnListEntry = z.infer<typeof ReturnListEntry>;

export const ReturnList = z.object({ data: z.array(ReturnListEntry) });
export type ReturnList = z.infer<typeof ReturnList>;
