import { z } from 'zod';
import { ClaimItem, ClaimResolution, Message } from './claim.js';
import { ClaimStatus, ClaimType, CustomerResolution, MIXED_RESOLUTION } from './enums.js';
import { Actor } from './events.js';
import { CurrencyCode, DecimalAmount } from './money.js';
import { Address } from './order.js';
import { Permission, RoleLevel, RoleName } from './permissions.js';

// ---------------------------------------------------------------------------------------------
// Sign-in (cookie session)

/** Body of `POST /api/auth/login`. */
export const LoginRequest = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1_000),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const StoreRef = z.object({ id: z.uuid(), slug: z.string(), name: z.string() });
export type StoreRef = z.infer<typeof StoreRef>;

/** One role a user holds, with where it applies (internal roles apply to every store). */
export const RoleGrant = z.object({
  role: RoleName,
  level: RoleLevel,
  accountId: z.uuid().nullable(),
  storeId: z.uuid().nullable(),
});
export type RoleGrant = z.infer<typeof RoleGrant>;

/** `GET /api/auth/me` (and the answer of a successful login). */
export const MeResponse = z.object({
  user: z.object({ id: z.uuid(), email: z.string(), name: z.string() }),
  /** Role names. */
  roles: z.array(RoleName),
  /** Every permission the user holds on at least one store. */
  permissions: z.array(Permission),
  /** The stores the user can see, each with the permissions held there. */
  stores: z.array(StoreRef.extend({ permissions: z.array(Permission) })),
  grants: z.array(RoleGrant),
});
export type MeResponse = z.infer<typeof MeResponse>;

// ---------------------------------------------------------------------------------------------
// Claims as the back-office and the public API show them: money as decimals of the claim's currency.

export const ApiClaimItem = ClaimItem.omit({ price: true, tax: true, discount: true })
  .extend({ price: DecimalAmount, tax: DecimalAmount, discount: DecimalAmount });
export type ApiClaimItem = z.infer<typeof ApiClaimItem>;

export const ApiClaimResolution = ClaimResolution.omit({ paidValue: true, shippingAmount: true })
  .extend({ paidValue: DecimalAmount, shippingAmount: DecimalAmount });
export type ApiClaimResolution = z.infer<typeof ApiClaimResolution>;

/** A claim of `GET /api/v1/claims`; `version` is its stream version (for `expectedVersion`). */
export const ApiClaim = z.object({
  id: z.uuid(),
  claimNumber: z.string(),
  status: ClaimStatus,
  statusLabel: z.string(),
  claimType: ClaimType,
  storeId: z.uuid(),
  createdAt: z.iso.datetime(),
  sourceOrderId: z.string(),
  orderNumber: z.string(),
  currency: CurrencyCode,
  items: z.array(ApiClaimItem),
  resolutions: z.array(ApiClaimResolution),
  version: z.number().int().nonnegative(),
});
export type ApiClaim = z.infer<typeof ApiClaim>;

export const ApiClaimPage = z.object({ data: z.array(ApiClaim), nextCursor: z.string().nullable() });
export type ApiClaimPage = z.infer<typeof ApiClaimPage>;

/** Comma-separated statuses in a query string (`?status=NEW,OPEN`). */
export const StatusListParam = z.string().max(500).transform((value, ctx) => {
  const parts = value.split(',').map((s) => s.trim()).filter(Boolean);
  const parsed: ClaimStatus[] = [];
  for (const part of parts) {
    const status = ClaimStatus.safeParse(part);
    if (!status.success) {
      ctx.addIssue({ code: 'custom', message: `${part} is not a claim status` });
      return z.NEVER;
    }
    parsed.push(status.data);
  }
  return parsed;
});

const Limit = z.coerce.number().int().min(1).max(100).default(25);

/** Query of `GET /api/v1/claims`. */
export const ApiClaimListQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: Limit,
  status: StatusListParam.optional(),
  createdFrom: z.iso.datetime({ offset: true }).optional(),
  createdTo: z.iso.datetime({ offset: true }).optional(),
});
export type ApiClaimListQuery = z.infer<typeof ApiClaimListQuery>;

export const ProtectionStatus = z.enum(['ota', 'removed', 'protected', 'unprotected']);
export type ProtectionStatus = z.infer<typeof ProtectionStatus>;

/** Query of `GET /api/admin/claims`. */
export const AdminClaimListQuery = z.object({
  status: StatusListParam.optional(),
  type: ClaimType.optional(),
  store: z.uuid().optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  protection: ProtectionStatus.optional(),
  search: z.string().trim().max(320).optional(),
  cursor: z.string().max(200).optional(),
  limit: Limit,
});
export type AdminClaimListQuery = z.infer<typeof AdminClaimListQuery>;

/** A row of the back-office claim list (from the claim-list read model). */
export const AdminClaimListItem = z.object({
  id: z.uuid(),
  claimNumber: z.string(),
  status: ClaimStatus,
  statusLabel: z.string(),
  claimType: ClaimType,
  store: StoreRef,
  sourceOrderId: z.string(),
  orderNumber: z.string(),
  customerEmail: z.string(),
  customerName: z.string(),
  protectionStatus: z.string(),
  requestedResolution: z.string(),
  currency: CurrencyCode,
  claimedValue: DecimalAmount,
  itemCount: z.number().int(),
  messageCount: z.number().int(),
  resolutionType: z.string().nullable(),
  resolvedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  version: z.number().int(),
});
export type AdminClaimListItem = z.infer<typeof AdminClaimListItem>;

export const AdminClaimPage = z.object({ data: z.array(AdminClaimListItem), nextCursor: z.string().nullable() });
export type AdminClaimPage = z.infer<typeof AdminClaimPage>;

/** `GET /api/admin/claims/{claimId}`: the claim from its event stream, always current. */
export const AdminClaimDetail = ApiClaim.extend({
  store: StoreRef,
  isOta: z.boolean(),
  protectionStatus: ProtectionStatus,
  customer: z.object({ email: z.string(), name: z.string() }),
  desiredMethod: CustomerResolution,
  requestedResolution: z.union([CustomerResolution, z.literal(MIXED_RESOLUTION)]),
  updatedShippingAddress: Address.nullable(),
  policy: z.object({
    insuredAmount: DecimalAmount, premiumPaid: DecimalAmount, premiumCurrency: CurrencyCode, removedAt: z.iso.datetime().nullable(),
  }).nullable(),
  messages: z.array(Message),
  /** Spec §4: resolvable only while it has no resolutions (and its status allows it). */
  resolvable: z.boolean(),
  /** The statuses this claim may move to next. */
  allowedTransitions: z.array(ClaimStatus),
});
export type AdminClaimDetail = z.infer<typeof AdminClaimDetail>;

/** Body of `POST /api/admin/claims/{claimId}/status`. */
export const ChangeStatusRequest = z.object({
  status: ClaimStatus,
  note: z.string().trim().max(2_000).optional(),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type ChangeStatusRequest = z.infer<typeof ChangeStatusRequest>;

export const TimelineEntry = z.object({
  version: z.number().int(),
  globalPosition: z.number().int(),
  eventType: z.string(),
  status: z.string().nullable(),
  actor: Actor,
  summary: z.record(z.string(), z.unknown()),
  occurredAt: z.iso.datetime(),
});
export const TimelineResponse = z.object({ data: z.array(TimelineEntry) });
export type TimelineResponse = z.infer<typeof TimelineResponse>;

// ---------------------------------------------------------------------------------------------
// API tokens

/** Body of `POST /api/stores/{storeId}/api-tokens`. */
export const CreateApiTokenRequest = z.object({
  name: z.string().trim().min(1).max(100),
  permissions: z.array(Permission).min(1).max(200),
});
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequest>;

export const ApiTokenSummary = z.object({
  id: z.uuid(),
  storeId: z.uuid(),
  name: z.string(),
  permissions: z.array(Permission),
  /** The first characters of the token, to recognise it; the rest is never shown again. */
  prefix: z.string(),
  createdBy: z.object({ id: z.uuid(), name: z.string() }),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
export type ApiTokenSummary = z.infer<typeof ApiTokenSummary>;

/** The token itself is in this answer only. */
export const CreateApiTokenResponse = ApiTokenSummary.extend({ token: z.string() });
export type CreateApiTokenResponse = z.infer<typeof CreateApiTokenResponse>;

export const ApiTokenList = z.object({ data: z.array(ApiTokenSummary) });

/** Answer of `PUT /api/v1/orders/{sourceOrderId}`. */
export const UpsertOrderResponse = z.object({
  id: z.uuid(),
  storeId: z.uuid(),
  sourceOrderId: z.string(),
  orderNumber: z.string(),
  created: z.boolean(),
});
export type UpsertOrderResponse = z.infer<typeof UpsertOrderResponse>;

