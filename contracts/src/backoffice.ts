import { z } from 'zod';
import { ClaimHeadline, ClaimItem, ClaimResolution, Message } from './claim.js';
import { ClaimStoreCredit } from './finance.js';
import { ClaimStatus, ClaimType, CustomerResolution, MIXED_RESOLUTION, ResolutionReason } from './enums.js';
import { Actor } from './events.js';
import { CurrencyCode, DecimalAmount } from './money.js';
import { Risk, RiskLevel } from './automation.js';
import { Address, Fulfillment } from './order.js';
import { Permission, RoleLevel, RoleName } from './permissions.js';
import {
  AssigneeFilter,
  ClaimAssignee,
  MAX_SEARCH_LENGTH,
  ProtectionStatus,
  QueueCounts,
  QueueSort,
  SearchMatch,
  SortOrder,
} from './queue.js';
import {
  Label,
  MacroFields,
  MacroKind,
  MacroResolutionPreset,
  MacroScope,
  MetadataKey,
  MetadataValue,
  NoteBody,
  SopInput,
  SopState,
  withMacroRules,
} from './deskTools.js';

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

export const ApiClaimItem = ClaimItem.omit({ price: true, tax: true, discount: true }).extend({
  price: DecimalAmount,
  tax: DecimalAmount,
  discount: DecimalAmount,
});
export type ApiClaimItem = z.infer<typeof ApiClaimItem>;

export const ApiClaimResolution = ClaimResolution.omit({ paidValue: true, shippingAmount: true }).extend({
  paidValue: DecimalAmount,
  shippingAmount: DecimalAmount,
  /** Contract §Automation: who decided it; a rule as `{type: "rule", id, version}`. */
  decidedBy: z.object({
    type: z.string(),
    id: z.string(),
    name: z.string(),
    version: z.number().int().positive().optional(),
  }),
});
export type ApiClaimResolution = z.infer<typeof ApiClaimResolution>;

/** A claim of `GET /api/v1/claims`; `version` is its stream version (for `expectedVersion`). */
export const ApiClaim = ClaimHeadline.extend({
  storeId: z.uuid(),
  createdAt: z.iso.datetime(),
  sourceOrderId: z.string(),
  orderNumber: z.string(),
  currency: CurrencyCode,
  items: z.array(ApiClaimItem),
  resolutions: z.array(ApiClaimResolution),
  version: z.number().int().nonnegative(),
  /** Contract §Automation: the claim's risk, as assessed when it was filed. */
  risk: Risk,
});
export type ApiClaim = z.infer<typeof ApiClaim>;

export const ApiClaimPage = z.object({ data: z.array(ApiClaim), nextCursor: z.string().nullable() });
export type ApiClaimPage = z.infer<typeof ApiClaimPage>;

/** Comma-separated statuses in a query string (`?status=NEW,OPEN`). */
export const StatusListParam = z
  .string()
  .max(500)
  .transform((value, ctx) => {
    const parts = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
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

/** Query of `GET /api/admin/claims`. */
export const AdminClaimListQuery = z.object({
  status: StatusListParam.optional(),
  type: ClaimType.optional(),
  store: z.uuid().optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  protection: ProtectionStatus.optional(),
  risk: RiskLevel.optional(),
  search: z.string().trim().max(MAX_SEARCH_LENGTH).optional(),
  /** `me`, `none` or a teammate's id. */
  assignee: AssigneeFilter.optional(),
  sort: QueueSort.default('filed'),
  order: SortOrder.default('desc'),
  /** `true`: the answer carries the status tabs' counts (ask on the first page only). */
  counts: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  cursor: z.string().max(1_000).optional(),
  limit: Limit,
});
export type AdminClaimListQuery = z.infer<typeof AdminClaimListQuery>;

/** A row of the back-office claim list (from the claim-list read model). */
export const AdminClaimListItem = ClaimHeadline.extend({
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
  assignee: ClaimAssignee.nullable(),
  /** When the customer last wrote: their latest message, or the filing (their first word). */
  lastCustomerReplyAt: z.iso.datetime(),
  /** The customer wrote after the store's (or staff's) last message: an answer is owed. */
  customerReplied: z.boolean(),
  /** The risk filing assessed (its reasons are on the claim); null on a claim listed before the list carried it. */
  risk: Risk.pick({ level: true, score: true }).nullable(),
});
export type AdminClaimListItem = z.infer<typeof AdminClaimListItem>;

export const AdminClaimPage = z.object({
  data: z.array(AdminClaimListItem),
  nextCursor: z.string().nullable(),
  /** How the search matched (null without one). */
  match: SearchMatch.nullable(),
  /** With `counts=true`. */
  counts: QueueCounts.optional(),
});
export type AdminClaimPage = z.infer<typeof AdminClaimPage>;

/** An order's protection as the back-office shows it (an order's page, a claim's): money as decimals of its currency. */
export const PolicyView = z.object({
  insuredAmount: DecimalAmount,
  premiumPaid: DecimalAmount,
  premiumCurrency: CurrencyCode,
  removedAt: z.iso.datetime().nullable(),
});

/** `GET /api/admin/claims/{claimId}`: the claim from its event stream, always current. */
export const AdminClaimDetail = ApiClaim.extend({
  store: StoreRef,
  isOta: z.boolean(),
  protectionStatus: ProtectionStatus,
  customer: z.object({ email: z.string(), name: z.string() }),
  desiredMethod: CustomerResolution,
  requestedResolution: z.union([CustomerResolution, z.literal(MIXED_RESOLUTION)]),
  updatedShippingAddress: Address.nullable(),
  policy: PolicyView.nullable(),
  messages: z.array(Message),
  /** Resolvable only while it has no resolutions (and its status allows it) (docs/product.md#resolutions). */
  resolvable: z.boolean(),
  /** The statuses this claim may move to next. */
  allowedTransitions: z.array(ClaimStatus),
  /** Back-office only: labels in the order added and metadata by key (notes: `GET …/notes`). */
  labels: z.array(z.string()),
  metadata: z.record(z.string(), z.string()),
  noteCount: z.number().int(),
  /** The store credit its STORE_CREDIT resolutions give the shopper, bonus included (claim's currency). */
  storeCredits: z.array(ClaimStoreCredit),
  /** The order's shipments holding the claimed items, as the order has them now (tracking links: `trackingLinksOf`). */
  shipments: z.array(Fulfillment),
  assignee: ClaimAssignee.nullable(),
});
export type AdminClaimDetail = z.infer<typeof AdminClaimDetail>;

/** Body of `POST /api/admin/claims/{claimId}/status`. */
export const ChangeStatusRequest = z.object({
  status: ClaimStatus,
  note: z.string().trim().max(2_000).optional(),
  /** Why, required to close or dismiss a claim that has no resolution. */
  reason: ResolutionReason.optional(),
  expectedVersion: z.number().int().nonnegative().optional(),
});
export type ChangeStatusRequest = z.infer<typeof ChangeStatusRequest>;

/** Where a history line comes from: the claim's own stream, or its mail (`claim-notifications:<id>`, merged by time). */
export const TimelineSource = z.enum(['claim', 'notifications']);

export const TimelineEntry = z.object({
  source: TimelineSource,
  /** The version in its source's stream: only a claim line's is a version of the claim. */
  version: z.number().int(),
  globalPosition: z.number().int(),
  eventType: z.string(),
  status: z.string().nullable(),
  actor: Actor,
  summary: z.record(z.string(), z.unknown()),
  occurredAt: z.iso.datetime(),
});
export type TimelineEntry = z.infer<typeof TimelineEntry>;
export const TimelineResponse = z.object({ data: z.array(TimelineEntry) });
export type TimelineResponse = z.infer<typeof TimelineResponse>;

// ---------------------------------------------------------------------------------------------
// API tokens

/** Decided (docs/decisions/api-tokens-expire.md): a token may be given an expiry up to a year ahead. */
export const MAX_API_TOKEN_LIFETIME_DAYS = 365;
/** A token created without an expiry expires this many days after its creation. */
export const DEFAULT_API_TOKEN_LIFETIME_DAYS = 90;
/** The token page warns of a token that expires within this many days. */
export const API_TOKEN_EXPIRY_WARNING_DAYS = 14;

/** Body of `POST /api/stores/{storeId}/api-tokens`. */
export const CreateApiTokenRequest = z.object({
  name: z.string().trim().min(1).max(100),
  permissions: z.array(Permission).min(1).max(200),
  /**
   * After this instant the token answers 401; at most `MAX_API_TOKEN_LIFETIME_DAYS` ahead. Absent:
   * `DEFAULT_API_TOKEN_LIFETIME_DAYS` after its creation.
   */
  expiresAt: z.iso.datetime().optional(),
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
  expiresAt: z.iso.datetime().nullable(),
});
export type ApiTokenSummary = z.infer<typeof ApiTokenSummary>;

/** The token itself is in this answer only. */
export const CreateApiTokenResponse = ApiTokenSummary.extend({ token: z.string() });
export type CreateApiTokenResponse = z.infer<typeof CreateApiTokenResponse>;

export const ApiTokenList = z.object({ data: z.array(ApiTokenSummary) });
export type ApiTokenList = z.infer<typeof ApiTokenList>;

/** Answer of `PUT /api/v1/orders/{sourceOrderId}`. */
export const UpsertOrderResponse = z.object({
  id: z.uuid(),
  storeId: z.uuid(),
  sourceOrderId: z.string(),
  orderNumber: z.string(),
  created: z.boolean(),
});
export type UpsertOrderResponse = z.infer<typeof UpsertOrderResponse>;

// ---------------------------------------------------------------------------------------------
// Claim as of a version, notes, labels, metadata (issue 4)

/** Query of `GET /api/admin/claims/{claimId}`: `asOf` folds the stream up to that version only. */
export const AdminClaimQuery = z.object({ asOf: z.coerce.number().int().min(1).optional() });

const ExpectedVersion = z.number().int().nonnegative().optional();

/** Body of `POST /api/admin/claims/{claimId}/notes`. */
export const AddNoteRequest = z.object({ body: NoteBody, expectedVersion: ExpectedVersion });
export const ClaimNote = z.object({
  id: z.uuid(),
  body: z.string(),
  author: z.object({ type: z.string(), id: z.string(), name: z.string() }),
  createdAt: z.iso.datetime(),
  version: z.number().int(),
});
export type ClaimNote = z.infer<typeof ClaimNote>;
export const ClaimNoteList = z.object({ data: z.array(ClaimNote) });

/** Body of `POST /api/admin/claims/{claimId}/labels`. */
export const AddLabelRequest = z.object({ label: Label, expectedVersion: ExpectedVersion });
/** Body of `PUT /api/admin/claims/{claimId}/metadata/{key}`. */
export const SetMetadataRequest = z.object({ value: MetadataValue, expectedVersion: ExpectedVersion });
export const MetadataKeyParam = MetadataKey;

/** The answer of a label or metadata change: the claim's labels and metadata at its new version. */
export const ClaimTags = z.object({
  claimId: z.uuid(),
  labels: z.array(z.string()),
  metadata: z.record(z.string(), z.string()),
  version: z.number().int(),
});
export type ClaimTags = z.infer<typeof ClaimTags>;

// ---------------------------------------------------------------------------------------------
// Bulk status

/** Body of `POST /api/admin/claims/bulk-status`: each claim is its own append. */
export const BulkStatusRequest = z.object({
  claimIds: z
    .array(z.uuid())
    .min(1)
    .max(100)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'Each claim once.' }),
  to: ClaimStatus,
  note: z.string().trim().max(2_000).optional(),
  reason: ResolutionReason.optional(),
  /** Per claim id, the version the caller saw; a claim that moved on answers `conflict`. */
  expectedVersions: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type BulkStatusRequest = z.infer<typeof BulkStatusRequest>;

export const BulkStatusOutcome = z.enum(['ok', 'conflict', 'invalid_transition', 'not_found', 'forbidden']);
export type BulkStatusOutcome = z.infer<typeof BulkStatusOutcome>;

export const BulkStatusResult = z.object({
  claimId: z.string(),
  result: BulkStatusOutcome,
  /** The claim's status and version after the attempt (absent for not_found). */
  status: ClaimStatus.optional(),
  version: z.number().int().optional(),
  message: z.string().optional(),
});
export type BulkStatusResult = z.infer<typeof BulkStatusResult>;

export const BulkStatusResponse = z.object({
  results: z.array(BulkStatusResult),
  summary: z.record(BulkStatusOutcome, z.number().int()),
});
export type BulkStatusResponse = z.infer<typeof BulkStatusResponse>;

// ---------------------------------------------------------------------------------------------
// Macros and SOPs

export const CreateMacroRequest = withMacroRules(MacroFields);
export const UpdateMacroRequest = withMacroRules(MacroFields.extend({ expectedVersion: ExpectedVersion }));

export const MacroView = z.object({
  id: z.uuid(),
  scope: MacroScope,
  storeId: z.uuid().nullable(),
  name: z.string(),
  kind: MacroKind,
  body: z.string(),
  resolution: MacroResolutionPreset.nullable(),
  version: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type MacroView = z.infer<typeof MacroView>;
export const MacroList = z.object({ data: z.array(MacroView) });

/** `POST /api/admin/claims/{claimId}/macros/{macroId}/render`: the macro filled in for this claim. */
export const RenderedMacro = z.object({
  macroId: z.uuid(),
  kind: MacroKind,
  /** The reply text, placeholders replaced. */
  body: z.string(),
  /** For a resolution macro: the resolve form's preset, its description rendered too. */
  resolution: MacroResolutionPreset.nullable(),
});
export type RenderedMacro = z.infer<typeof RenderedMacro>;

export const CreateSopRequest = SopInput;
export const UpdateSopRequest = SopInput.extend({ expectedVersion: ExpectedVersion });
export const SetSopStateRequest = z.object({ state: SopState, expectedVersion: ExpectedVersion });
export const SopView = z.object({
  id: z.uuid(),
  storeId: z.uuid(),
  title: z.string(),
  body: z.string(),
  state: SopState,
  version: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SopView = z.infer<typeof SopView>;
export const SopList = z.object({ data: z.array(SopView) });
export const SopListQuery = z.object({ state: SopState.optional() });

/** The query of a delete: the version the caller saw, optionally. */
export const VersionedQuery = z.object({ expectedVersion: z.coerce.number().int().nonnegative().optional() });

// ---------------------------------------------------------------------------------------------
// Team members

/** How an invited member's invitation mail went, as of its latest try (its `InvitationMailSent`/`InvitationMailFailed`). */
export const InvitationMailStatus = z.object({
  to: z.string(),
  sent: z.boolean(),
  attempt: z.number().int().positive(),
  at: z.iso.datetime(),
  /** Why the latest try failed; null once sent. */
  error: z.string().nullable(),
  /** When a failed mail is tried again; null once sent or given up. */
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type InvitationMailStatus = z.infer<typeof InvitationMailStatus>;

export const TeamMember = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string(),
  /** `invited` until the invitation is accepted (the user sets a password). */
  status: z.enum(['invited', 'active']),
  /** The member's grants that reach this store (account grants of its account, store grants on it). */
  grants: z.array(RoleGrant),
  /** An invited member's invitation mail (lists only; null: none tried yet). */
  invitationMail: InvitationMailStatus.nullable().optional(),
});
export type TeamMember = z.infer<typeof TeamMember>;
export const TeamMemberList = z.object({ data: z.array(TeamMember) });

/** Body of `POST /api/admin/stores/{storeId}/team-members`: a store role on this store, or an account role on its account. */
export const InviteMemberRequest = z.object({
  email: z
    .string()
    .trim()
    .max(320)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'an email address'),
  name: z.string().trim().min(1).max(200),
  role: RoleName,
});
export type InviteMemberRequest = z.infer<typeof InviteMemberRequest>;

/**
 * An invitation as the inviter sees it: never its token, which goes to the invitee alone. A new user
 * sets a password with it; an existing user finds the offer among their pending memberships and
 * accepts it signed in (`pending`: the grant has no effect until then).
 */
export const InviteMemberResponse = z.object({
  member: TeamMember,
  pending: z.boolean(),
  expiresAt: z.iso.datetime(),
});

/** A role offered to the signed-in user in another store: `GET /api/auth/memberships/pending`. */
export const PendingMembership = z.object({
  id: z.uuid(),
  accountId: z.uuid(),
  storeId: z.uuid(),
  storeName: z.string(),
  role: RoleName,
  invitedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type PendingMembership = z.infer<typeof PendingMembership>;
export const PendingMembershipList = z.object({ data: z.array(PendingMembership) });

export const ChangeRoleRequest = z.object({ role: RoleName });
export const GrantOwnershipRequest = z.object({ level: z.enum(['store', 'account']).default('store') });

/** Body of `POST /api/auth/invitations/accept` (no sign-in: the token is the capability). */
export const AcceptInvitationRequest = z.object({
  token: z.string().min(20).max(200),
  password: z.string().min(12).max(1_000),
  name: z.string().trim().min(1).max(200).optional(),
});
export type AcceptInvitationRequest = z.infer<typeof AcceptInvitationRequest>;

/** Answer of `POST /api/auth/invitations/accept`: who the invitee now is (they sign in next). */
export const AcceptInvitationResponse = z.object({ userId: z.uuid(), email: z.string() });
export type AcceptInvitationResponse = z.infer<typeof AcceptInvitationResponse>;
