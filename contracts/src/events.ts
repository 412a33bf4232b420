import { z } from 'zod';
import { Address } from './order.js';
import {
  ActorType,
  ClaimStatus,
  CustomerResolution,
  DecisionOutcome,
  ResolutionReason,
  SessionStatus,
  ShipmentStatus,
} from './enums.js';
import { MacroKind, MacroResolutionPreset, SopState } from './deskTools.js';
import { RoleName } from './permissions.js';
import { ClaimItem, ClaimResolution, filedClaimFacts, Message, Review, Signature } from './claim.js';
import { SessionMetadata } from './session.js';
import { Policy } from './order.js';
import { Valuation } from './finance.js';
import { CurrencyCode } from './money.js';
import { CreditNoteLine, InvoiceLine, InvoiceMonth, PaymentMethod } from './invoices.js';
import { SettingsChange, StoreSettings } from './storeSettings.js';
import {
  accountCreatedData,
  accountStreamOf,
  storeActivatedData,
  storeCreatedData,
  storeOnboardingAdvancedData,
  storeStreamOf,
} from './storeLifecycle.js';
import { ClaimAssignee, QueueView, SavedViewTeam } from './queue.js';
import { Branding } from './store.js';
import { AbVariant } from './abTests.js';
import { ReturnStartedData, ReturnStatusChangedData } from './returns.js';
import {
  Risk,
  RiskFacts,
  ruleActivityStreamOf,
  ruleAppliedData,
  ruleCreatedData,
  ruleRevisedData,
  rulesReorderedData,
  rulesSwitchedData,
  storeRulesStreamOf,
} from './automation.js';

/** Who caused an event; a rule names the version of it that acted (contract §Automation). */
export const Actor = z.object({
  type: ActorType,
  id: z.string(),
  name: z.string().optional(),
  version: z.number().int().positive().optional(),
});
export type Actor = z.infer<typeof Actor>;

export const EventMetadata = z.object({
  actor: Actor,
  correlationId: z.string(),
  causationId: z.string().nullable(),
  /** The version of the event's data schema, so a consumer can upcast older events. */
  schemaVersion: z.number().int().positive(),
  /** SHA-256 of the request an Idempotency-Key came with, so a repeat with another body is told apart. */
  requestHash: z.string().optional(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

/** What each aggregate's stream holds; the stream id is the aggregate's uuid (or named after the aggregate it serves). */
export const StreamType = z.enum([
  'claim',
  'order-claims',
  'claim-session',
  'macro',
  'sop',
  'account-team',
  'claim-links',
  'claim-notifications',
  'store-payouts',
  'store-credit',
  'order-premium',
  'store-billing',
  'store-settings',
  'store-webhooks',
  'notification-preferences',
  'order-notifications',
  'saved-views',
  'store-branding',
  'store-ab-tests',
  'ab-assignments',
  'account',
  'store',
  'support-team',
  'invitation-mail',
  'store-rules',
  'rule-activity',
]);
export type StreamType = z.infer<typeof StreamType>;

const claimFiledData = z.object({
  claimId: z.uuid(),
  ...filedClaimFacts,
  customer: z.object({ email: z.string(), name: z.string() }),
  items: z.array(ClaimItem),
  desiredMethod: CustomerResolution,
  updatedShippingAddress: Address.nullable(),
  signature: Signature,
  policy: Policy.nullable(),
  filedAt: z.iso.datetime(),
  /**
   * The shipments of the claimed items as the order had them at filing, in the items' order: what analytics
   * counts claims by (added without a schema bump: older events lack it).
   */
  shipments: z
    .array(z.object({ sourceFulfillmentId: z.string(), carrier: z.string().nullable(), status: ShipmentStatus }))
    .optional(),
  /**
   * The claim's risk as assessed at filing, and the facts it was assessed on (contract §Automation), so rules decide
   * the same live and in a backtest. Added without a schema bump: older events lack them (their risk is assessed
   * from the event alone, docs/decisions/automation.md).
   */
  risk: Risk.optional(),
  riskFacts: RiskFacts.optional(),
  /** HMAC of the shopper's email under the product's key: what links their claims across stores, never the email. */
  shopperKey: z.string().optional(),
});

const orderItemsClaimedData = z.object({
  orderId: z.uuid(),
  claimId: z.uuid(),
  claimNumber: z.string(),
  isOta: z.boolean(),
  items: z.array(z.object({ sourceItemId: z.string(), quantity: z.number().int().positive() })),
  claimedAt: z.iso.datetime(),
});

const claimStatusChangedData = z.object({
  claimId: z.uuid(),
  from: ClaimStatus,
  to: ClaimStatus,
  note: z.string().nullable(),
  /** Why (optional, added without a schema bump: older events simply lack it), e.g. NO_RESPONSE from the SLA timer. */
  reason: ResolutionReason.nullable().optional(),
});

const claimResolvedData = z.object({
  claimId: z.uuid(),
  outcome: DecisionOutcome,
  resolutions: z.array(ClaimResolution).min(1),
  status: ClaimStatus,
  /** The money rules the decision was valued under (added without a schema bump: older events lack it). */
  valuation: Valuation.optional(),
  /**
   * When this decision leaves every item decided: the claim's standing resolutions after it (the earlier ones still in
   * force, then this decision's), so a reader knows the whole decision from this event alone. Absent on a decision of
   * some items only, and on events older than it (added without a schema bump).
   */
  claimResolutions: z.array(ClaimResolution).min(1).optional(),
});

/**
 * A claim's resolution taken back: every line it decided is undone, so the claim may be decided again. Each line
 * names the payout entry that takes its money back should the line have been batched already
 * (docs/decisions/reversed-resolutions.md); the ids are chosen here so the live ledger and a replay make the same entry.
 */
const claimResolutionReversedData = z.object({
  claimId: z.uuid(),
  storeId: z.uuid(),
  lines: z.array(z.object({ resolutionId: z.uuid(), clawbackEntryId: z.uuid() })).min(1),
  reason: z.string().trim().min(1).max(500),
  reversedBy: z.string(),
  reversedAt: z.iso.datetime(),
});

/** An internal note on a claim: the back-office's only; never in the shopper's view or a webhook. */
const claimNoteAddedData = z.object({
  claimId: z.uuid(),
  noteId: z.uuid(),
  body: z.string(),
  author: z.object({ type: ActorType, id: z.string(), name: z.string() }),
  createdAt: z.iso.datetime(),
});
const claimLabelAddedData = z.object({ claimId: z.uuid(), label: z.string() });
const claimLabelRemovedData = z.object({ claimId: z.uuid(), label: z.string() });
const claimMetadataSetData = z.object({
  claimId: z.uuid(),
  key: z.string(),
  value: z.string(),
  previous: z.string().nullable(),
});
/** Who works the claim now (null: nobody), and who did before: the back-office's, never the shopper's or a webhook's. */
const claimAssignedData = z.object({
  claimId: z.uuid(),
  assignee: ClaimAssignee.nullable(),
  previous: ClaimAssignee.nullable(),
});

/** Saved views of the claim queue: one stream per team (an account, or Order Protection's staff), every member's views in it. */
const savedViewScope = { team: SavedViewTeam, viewId: z.uuid() };
const savedViewContent = { name: z.string(), filters: QueueView, shared: z.boolean() };
const savedViewCreatedData = z.object({
  ...savedViewScope,
  owner: ClaimAssignee,
  ...savedViewContent,
  createdAt: z.iso.datetime(),
});
const savedViewUpdatedData = z.object({ ...savedViewScope, ...savedViewContent, updatedAt: z.iso.datetime() });
const savedViewDeletedData = z.object({ ...savedViewScope, deletedAt: z.iso.datetime() });

/** Macros: one stream per macro; `storeId` null is a global (Order Protection) macro. */
const macroContent = {
  name: z.string(),
  kind: MacroKind,
  body: z.string(),
  resolution: MacroResolutionPreset.nullable(),
};
const macroCreatedData = z.object({
  macroId: z.uuid(),
  storeId: z.uuid().nullable(),
  ...macroContent,
  createdAt: z.iso.datetime(),
});
const macroUpdatedData = z.object({ macroId: z.uuid(), ...macroContent, updatedAt: z.iso.datetime() });
const macroDeletedData = z.object({ macroId: z.uuid(), deletedAt: z.iso.datetime() });

/** SOPs: one stream per SOP of a store. */
const sopCreatedData = z.object({
  sopId: z.uuid(),
  storeId: z.uuid(),
  title: z.string(),
  body: z.string(),
  state: SopState,
  createdAt: z.iso.datetime(),
});
const sopUpdatedData = z.object({ sopId: z.uuid(), title: z.string(), body: z.string(), updatedAt: z.iso.datetime() });
const sopStateChangedData = z.object({ sopId: z.uuid(), from: SopState, to: SopState, changedAt: z.iso.datetime() });
const sopDeletedData = z.object({ sopId: z.uuid(), deletedAt: z.iso.datetime() });

/**
 * The team audit log: one stream per account (stream id = the account id). Users and roles are rows;
 * every change to them is also recorded here, with who made it in the metadata's actor.
 */
const teamScope = { accountId: z.uuid(), storeId: z.uuid().nullable(), userId: z.uuid(), email: z.string() };
/**
 * `invitationId` names the invitation a new user's mail carries the link of (a later invitation of the same user
 * replaces it); added without a schema bump, older events lack it.
 */
const teamMemberInvitedData = z.object({
  ...teamScope,
  role: RoleName,
  newUser: z.boolean(),
  invitationId: z.uuid().optional(),
});
const teamInvitationAcceptedData = z.object(teamScope);
const teamMemberRoleChangedData = z.object({ ...teamScope, from: z.array(RoleName), to: RoleName });
const teamMemberRemovedData = z.object({ ...teamScope, roles: z.array(RoleName) });
const teamOwnershipGrantedData = z.object({ ...teamScope, from: z.array(RoleName), role: RoleName });

/**
 * Order Protection's support team (its two internal roles): one stream, its users and grants rows as a
 * store team's are, every change recorded here with its actor. Roles are a support role each (RoleName keeps
 * this module free of the request schemas).
 */
const supportScope = { userId: z.uuid(), email: z.string() };
const supportUserInvitedData = z.object({ ...supportScope, role: RoleName, invitationId: z.uuid().optional() });
const supportInvitationAcceptedData = z.object(supportScope);
const supportUserRoleChangedData = z.object({ ...supportScope, from: z.array(RoleName), to: RoleName });
const supportUserRemovedData = z.object({ ...supportScope, roles: z.array(RoleName) });

const claimSessionStartedData = z.object({ sessionId: z.uuid(), orderId: z.uuid(), email: z.string() });
const claimSessionStatusChangedData = z.object({ sessionId: z.uuid(), status: SessionStatus });
const claimSessionMetadataSavedData = z.object({ sessionId: z.uuid(), metadata: SessionMetadata });
const claimSessionDeletedData = z.object({ sessionId: z.uuid(), reason: z.enum(['shopper', 'claim_filed']) });

/**
 * A further link to a claim for its shopper (each mail carries a fresh one; the token is never stored, only its
 * hash). One stream per claim beside the claim's own, so sending mail never moves the version agents work at.
 */
const claimLinkIssuedData = z.object({ claimId: z.uuid(), tokenHash: z.string(), issuedAt: z.iso.datetime() });

/** Mail a store's team members may choose to get (each member's preference, per store). */
export const TeamNotificationKind = z.enum(['new_claim', 'customer_reply']);
export type TeamNotificationKind = z.infer<typeof TeamNotificationKind>;

/** Mail about a claim: to the shopper (filed, store reply, a status that needs them, decision) or to a team member (new claim, customer reply). */
export const NotificationKind = z.enum([
  'claim_filed',
  'store_reply',
  'status_changed',
  'claim_resolved',
  ...TeamNotificationKind.options,
]);
export type NotificationKind = z.infer<typeof NotificationKind>;

/**
 * Mail about a claim: one stream per claim, one id per event and recipient that caused it (so a repeat sends once).
 * `memberId` (the team member mailed; absent: the shopper), `to` and `subject` were added without a schema bump:
 * older events lack them.
 */
const notificationScope = {
  claimId: z.uuid(),
  notificationId: z.uuid(),
  kind: NotificationKind,
  causedBy: z.uuid(),
  memberId: z.uuid().optional(),
  to: z.string().optional(),
  subject: z.string().optional(),
};
const claimNotificationSentData = z.object({
  ...notificationScope,
  attempt: z.number().int().positive(),
  sentAt: z.iso.datetime(),
});
const claimNotificationFailedData = z.object({
  ...notificationScope,
  attempt: z.number().int().positive(),
  error: z.string(),
  failedAt: z.iso.datetime(),
  /** When it is tried again; null when it was given up (added without a schema bump). */
  nextAttemptAt: z.iso.datetime().nullable().optional(),
});

/**
 * The mail that hands a new user their invitation (a store team's or the support team's): one stream per invitee,
 * one id per invitation event, each try recorded. The link it carried is never recorded: each try issues a fresh
 * token, of which only the hash is kept (beside the invitation, not in an event).
 */
const invitationMailScope = {
  userId: z.uuid(),
  notificationId: z.uuid(),
  causedBy: z.uuid(),
  accountId: z.uuid().nullable(),
  storeId: z.uuid().nullable(),
  to: z.string(),
};
const invitationMailSentData = z.object({
  ...invitationMailScope,
  subject: z.string(),
  attempt: z.number().int().positive(),
  sentAt: z.iso.datetime(),
});
const invitationMailFailedData = z.object({
  ...invitationMailScope,
  attempt: z.number().int().positive(),
  error: z.string(),
  failedAt: z.iso.datetime(),
  /** When it is tried again; null once given up. */
  nextAttemptAt: z.iso.datetime().nullable(),
});

/** A team member's choice of a mail they get about a store's claims: one stream per store, the member's latest choice per kind wins. */
const notificationPreferenceSetData = z.object({
  storeId: z.uuid(),
  userId: z.uuid(),
  kind: TeamNotificationKind,
  enabled: z.boolean(),
  setAt: z.iso.datetime(),
});

/**
 * A shopper asked for the links to their claims on an order (order number and email matched): one stream per order,
 * beside its claims ledger, holding the request and how the mail that answers it went.
 */
const claimLinksRequestScope = { orderId: z.uuid(), storeId: z.uuid(), requestId: z.uuid() };
const claimLinksRequestedData = z.object({ ...claimLinksRequestScope, requestedAt: z.iso.datetime() });
const claimLinksMailSentData = z.object({
  ...claimLinksRequestScope,
  claimIds: z.array(z.uuid()),
  to: z.string(),
  subject: z.string(),
  attempt: z.number().int().positive(),
  sentAt: z.iso.datetime(),
});
const claimLinksMailFailedData = z.object({
  ...claimLinksRequestScope,
  to: z.string(),
  attempt: z.number().int().positive(),
  error: z.string(),
  failedAt: z.iso.datetime(),
  nextAttemptAt: z.iso.datetime().nullable(),
});

/**
 * Payout batches of a store: one stream per store, so an entry joins one batch only and two finance users
 * approving or paying at once cannot both succeed. Amounts in minor units of the store's currency.
 */
const payoutBatchCreatedData = z.object({
  storeId: z.uuid(),
  batchId: z.uuid(),
  currency: CurrencyCode,
  entryIds: z.array(z.uuid()).min(1),
  total: z.number().int(),
  createdBy: z.string(),
  createdAt: z.iso.datetime(),
});
const payoutBatchApprovedData = z.object({
  storeId: z.uuid(),
  batchId: z.uuid(),
  approvedBy: z.string(),
  approvedAt: z.iso.datetime(),
});
const payoutBatchPaidData = z.object({
  storeId: z.uuid(),
  batchId: z.uuid(),
  reference: z.string().max(200),
  paidAt: z.iso.datetime(),
  /** Absent on batches paid before who paid was recorded. */
  paidBy: z.string().optional(),
});

/**
 * A customer's store credit at one store: one stream per store and customer, amounts in minor units of the
 * store's currency; the balance (issued + adjusted - redeemed) never goes negative.
 */
const creditScope = {
  storeId: z.uuid(),
  customerEmail: z.string(),
  /** SHA-256 (hex) of the trimmed, lower-cased email: names the stream, so Kafka keys and stream lists carry no address. */
  customerKey: z.string().regex(/^[0-9a-f]{64}$/),
  currency: CurrencyCode,
};
const storeCreditIssuedData = z.object({
  ...creditScope,
  amount: z.number().int().positive(),
  claimId: z.uuid(),
  resolutionId: z.uuid(),
  issuedAt: z.iso.datetime(),
});
const storeCreditRedeemedData = z.object({
  ...creditScope,
  amount: z.number().int().positive(),
  reference: z.string().max(200),
  redeemedAt: z.iso.datetime(),
});
const storeCreditAdjustedData = z.object({
  ...creditScope,
  amount: z.number().int(),
  reason: z.string().max(500),
  adjustedAt: z.iso.datetime(),
});
/**
 * The credit a reversed resolution issued, taken back: `amount` is its unredeemed part (what leaves the balance),
 * `redeemed` the part the customer spent already and keeps (docs/decisions/store-credit.md).
 */
const storeCreditReclaimedData = z.object({
  ...creditScope,
  claimId: z.uuid(),
  resolutionId: z.uuid(),
  amount: z.number().int().nonnegative(),
  redeemed: z.number().int().nonnegative(),
  reason: z.string().max(500),
  reclaimedAt: z.iso.datetime(),
});

/**
 * The premium a protected order paid (minor units of its premium currency), recorded when the order is
 * ingested or updated; a removed protection (or a changed premium) reverses what was recorded.
 */
const premiumScope = {
  orderId: z.uuid(),
  storeId: z.uuid(),
  orderNumber: z.string(),
  premiumPaid: z.number().int(),
  premiumCurrency: CurrencyCode,
};
const premiumRecordedData = z.object({
  ...premiumScope,
  insuredAmount: z.number().int(),
  recordedAt: z.iso.datetime(),
});
const premiumReversedData = z.object({
  ...premiumScope,
  reason: z.enum(['protection_removed', 'premium_changed']),
  reversedAt: z.iso.datetime(),
});

/**
 * A store's billing: its monthly invoices, the credit notes correcting them and how it pays and is paid, in one
 * stream per store, so a month is invoiced once and credit notes never take back more than their invoice.
 * Amounts in minor units of the invoice's currency; an issued invoice is never changed, only credited.
 */
const invoiceIssuedData = z.object({
  storeId: z.uuid(),
  invoiceId: z.uuid(),
  number: z.string(),
  month: InvoiceMonth,
  currency: CurrencyCode,
  revSharePercent: z.number().min(0).max(100),
  lines: z.array(InvoiceLine).min(1),
  total: z.number().int(),
  issuedBy: z.string(),
  issuedAt: z.iso.datetime(),
});
const creditNoteIssuedData = z.object({
  storeId: z.uuid(),
  creditNoteId: z.uuid(),
  invoiceId: z.uuid(),
  number: z.string(),
  lines: z.array(CreditNoteLine).min(1),
  total: z.number().int(),
  reason: z.string().max(500),
  issuedBy: z.string(),
  issuedAt: z.iso.datetime(),
});
const paymentMethodSetData = z.object({
  storeId: z.uuid(),
  method: PaymentMethod,
  setBy: z.string(),
  setAt: z.iso.datetime(),
});

/**
 * A store's settings, versioned: one stream per store. The first event records every group; each change
 * then records one group's whole new value, with who changed it in the metadata's actor.
 */
const storeSettingsInitializedData = z.object({
  storeId: z.uuid(),
  settings: StoreSettings,
  initializedAt: z.iso.datetime(),
});
const storeSettingsChangedData = z.object({ storeId: z.uuid(), change: SettingsChange, changedAt: z.iso.datetime() });

/**
 * A webhook endpoint of a store turned off by the product itself: its receiver answered 410 Gone, or every attempt
 * to it failed for the persistent-failure window. One stream per store (`store-webhooks:{storeId}`).
 */
export const WebhookEndpointDisabledReason = z.enum(['receiver_gone', 'persistent_failure']);
export type WebhookEndpointDisabledReason = z.infer<typeof WebhookEndpointDisabledReason>;
const webhookEndpointDisabledData = z.object({
  storeId: z.uuid(),
  endpointId: z.uuid(),
  url: z.string(),
  reason: WebhookEndpointDisabledReason,
  /** The first failed attempt of the failing run (persistent failure); null for a 410. */
  failingSince: z.iso.datetime().nullable(),
  /** What the back-office shows as the endpoint's `disabledReason`. */
  message: z.string(),
  disabledAt: z.iso.datetime(),
});

/**
 * A store's branding and white label, versioned: one stream per store (`store-branding:{storeId}`). Each
 * change records the whole new value and the one it replaced, with who changed it in the metadata's actor.
 */
const storeBrandingChangedData = z.object({
  storeId: z.uuid(),
  branding: Branding,
  previous: Branding,
  changedAt: z.iso.datetime(),
});
const storePortalDomainSetData = z.object({
  storeId: z.uuid(),
  domain: z.string().nullable(),
  previous: z.string().nullable(),
  setAt: z.iso.datetime(),
});
/** docs/decisions/branding-and-white-label.md, white label restart: the store's portal drops every cached copy of its branding. */
const whitelabelRestartedData = z.object({
  storeId: z.uuid(),
  domain: z.string().nullable(),
  restartedAt: z.iso.datetime(),
});

/** A store's A/B tests of the resolution offer (`store-ab-tests:{storeId}`), and each claim session's variant (`ab-assignments:{sessionId}`). */
const abTestStartedData = z.object({
  storeId: z.uuid(),
  testId: z.uuid(),
  name: z.string(),
  variants: z.array(AbVariant).min(2),
  startedAt: z.iso.datetime(),
});
const abTestStoppedData = z.object({ storeId: z.uuid(), testId: z.uuid(), stoppedAt: z.iso.datetime() });
const abVariantAssignedData = z.object({
  storeId: z.uuid(),
  testId: z.uuid(),
  variantId: z.string(),
  sessionId: z.uuid(),
  orderId: z.uuid(),
  assignedAt: z.iso.datetime(),
});

/** Where an event is appended: its aggregate's stream. */
export interface StreamRef {
  streamId: string;
  streamType: StreamType;
}

/** A kind of stream: its type, known to the type checker (readers decide per stream type), and how an event's data names it. */
interface StreamKind<S extends StreamType, Data> {
  readonly type: S;
  readonly idOf: (data: Data) => string;
}

const streamKind = <S extends StreamType, Data>(type: S, idOf: (data: Data) => string): StreamKind<S, Data> => ({
  type,
  idOf,
});

/** One event type: its data's schema and version, its stream and its webhook name, if integrators get it. */
interface EventDefinition<Data extends z.ZodType, S extends StreamType, Webhook extends string | null> {
  readonly data: Data;
  readonly schemaVersion: number;
  readonly streamType: S;
  readonly stream: (data: z.output<Data>) => StreamRef;
  readonly webhook: Webhook;
}

/**
 * Integrators read the claim's stream only, so every claim event says what they receive of it: its webhook name, or
 * null (the webhook mapping's decision on it, docs/decisions/every-reader-decides.md).
 */
type EventOptions<S extends StreamType, Webhook> = S extends 'claim'
  ? [options: { webhook: Webhook; schemaVersion?: number }]
  : [options?: { schemaVersion?: number }];

function defineEvent<Data extends z.ZodType, S extends StreamType, Webhook extends string | null = null>(
  data: Data,
  stream: StreamKind<S, z.output<Data>>,
  ...[options]: EventOptions<S, Webhook>
): EventDefinition<Data, S, Webhook> {
  const webhook = options && 'webhook' in options ? options.webhook : null;
  // Absent, `Webhook` is its default, null; present, it is the literal given.
  return {
    data,
    streamType: stream.type,
    stream: (d) => ({ streamId: stream.idOf(d), streamType: stream.type }),
    schemaVersion: options?.schemaVersion ?? 1,
    webhook: webhook as Webhook,
  };
}

const claimStream = streamKind('claim', (data: { claimId: string }) => data.claimId);
const orderClaimsStream = streamKind('order-claims', (data: { orderId: string }) => data.orderId);
const sessionStream = streamKind('claim-session', (data: { sessionId: string }) => data.sessionId);
const macroStream = streamKind('macro', (data: { macroId: string }) => data.macroId);
const sopStream = streamKind('sop', (data: { sopId: string }) => data.sopId);
const teamStream = streamKind('account-team', (data: { accountId: string }) => data.accountId);

/** The streams named after the aggregate they serve, so no lookup finds them. */
export const claimLinksStreamOf = (claimId: string): string => `claim-links:${claimId}`;
export const claimNotificationsStreamOf = (claimId: string): string => `claim-notifications:${claimId}`;
export const storePayoutsStreamOf = (storeId: string): string => `store-payouts:${storeId}`;
export const storeCreditStreamOf = (storeId: string, customerKey: string): string =>
  `store-credit:${storeId}:${customerKey}`;
export const orderPremiumStreamOf = (orderId: string): string => `order-premium:${orderId}`;
export const storeBillingStreamOf = (storeId: string): string => `store-billing:${storeId}`;
export const storeSettingsStreamOf = (storeId: string): string => `store-settings:${storeId}`;
export const storeWebhooksStreamOf = (storeId: string): string => `store-webhooks:${storeId}`;
export const notificationPreferencesStreamOf = (storeId: string): string => `notification-preferences:${storeId}`;
export const orderNotificationsStreamOf = (orderId: string): string => `order-notifications:${orderId}`;
export const savedViewsStreamOf = (team: string): string => `saved-views:${team}`;
export const storeBrandingStreamOf = (storeId: string): string => `store-branding:${storeId}`;
export const storeAbTestsStreamOf = (storeId: string): string => `store-ab-tests:${storeId}`;
export const abAssignmentsStreamOf = (sessionId: string): string => `ab-assignments:${sessionId}`;
export const invitationMailStreamOf = (userId: string): string => `invitation-mail:${userId}`;
/** Support staff are one team: one stream for all of it. */
export const SUPPORT_TEAM_STREAM = 'support-team';

const claimLinksStream = streamKind('claim-links', (data: { claimId: string }) => claimLinksStreamOf(data.claimId));
const claimNotificationsStream = streamKind('claim-notifications', (data: { claimId: string }) =>
  claimNotificationsStreamOf(data.claimId),
);
const storePayoutsStream = streamKind('store-payouts', (data: { storeId: string }) =>
  storePayoutsStreamOf(data.storeId),
);
const orderPremiumStream = streamKind('order-premium', (data: { orderId: string }) =>
  orderPremiumStreamOf(data.orderId),
);
const storeBillingStream = streamKind('store-billing', (data: { storeId: string }) =>
  storeBillingStreamOf(data.storeId),
);
const storeSettingsStream = streamKind('store-settings', (data: { storeId: string }) =>
  storeSettingsStreamOf(data.storeId),
);
const storeWebhooksStream = streamKind('store-webhooks', (data: { storeId: string }) =>
  storeWebhooksStreamOf(data.storeId),
);
const notificationPreferencesStream = streamKind('notification-preferences', (data: { storeId: string }) =>
  notificationPreferencesStreamOf(data.storeId),
);
const orderNotificationsStream = streamKind('order-notifications', (data: { orderId: string }) =>
  orderNotificationsStreamOf(data.orderId),
);
const savedViewsStream = streamKind('saved-views', (data: { team: string }) => savedViewsStreamOf(data.team));
const storeBrandingStream = streamKind('store-branding', (data: { storeId: string }) =>
  storeBrandingStreamOf(data.storeId),
);
const storeAbTestsStream = streamKind('store-ab-tests', (data: { storeId: string }) =>
  storeAbTestsStreamOf(data.storeId),
);
const abAssignmentsStream = streamKind('ab-assignments', (data: { sessionId: string }) =>
  abAssignmentsStreamOf(data.sessionId),
);
const storeCreditStream = streamKind('store-credit', (data: { storeId: string; customerKey: string }) =>
  storeCreditStreamOf(data.storeId, data.customerKey),
);
const accountStream = streamKind('account', (data: { accountId: string }) => accountStreamOf(data.accountId));
const storeStream = streamKind('store', (data: { storeId: string }) => storeStreamOf(data.storeId));
const invitationMailStream = streamKind('invitation-mail', (data: { userId: string }) =>
  invitationMailStreamOf(data.userId),
);
const supportTeamStream = streamKind('support-team', () => SUPPORT_TEAM_STREAM);
const storeRulesStream = streamKind('store-rules', (data: { storeId: string }) => storeRulesStreamOf(data.storeId));
const ruleActivityStream = streamKind('rule-activity', (data: { ruleId: string; day: string }) =>
  ruleActivityStreamOf(data.ruleId, data.day),
);

/**
 * Every event type, once. `DomainEvent`, `EventType`, `EVENT_SCHEMA_VERSIONS`, `streamOf` and
 * `WEBHOOK_EVENT_TYPES` are derived from it; a new type is its data schema above and a line here.
 */
export const EVENT_REGISTRY = {
  ClaimFiled: defineEvent(claimFiledData, claimStream, { webhook: 'claim.filed' }),
  OrderItemsClaimed: defineEvent(orderItemsClaimedData, orderClaimsStream),
  ClaimStatusChanged: defineEvent(claimStatusChangedData, claimStream, { webhook: 'claim.status_changed' }),
  ClaimResolved: defineEvent(claimResolvedData, claimStream, { webhook: 'claim.resolved' }),
  ClaimMessageSent: defineEvent(Message, claimStream, { webhook: 'claim.message_created' }),
  ClaimReviewed: defineEvent(Review, claimStream, { webhook: 'claim.reviewed' }),
  ClaimSessionStarted: defineEvent(claimSessionStartedData, sessionStream),
  ClaimSessionStatusChanged: defineEvent(claimSessionStatusChangedData, sessionStream),
  ClaimSessionMetadataSaved: defineEvent(claimSessionMetadataSavedData, sessionStream),
  ClaimSessionDeleted: defineEvent(claimSessionDeletedData, sessionStream),
  ClaimNoteAdded: defineEvent(claimNoteAddedData, claimStream, { webhook: null }),
  ClaimLabelAdded: defineEvent(claimLabelAddedData, claimStream, { webhook: null }),
  ClaimLabelRemoved: defineEvent(claimLabelRemovedData, claimStream, { webhook: null }),
  ClaimMetadataSet: defineEvent(claimMetadataSetData, claimStream, { webhook: null }),
  ClaimAssigned: defineEvent(claimAssignedData, claimStream, { webhook: null }),
  MacroCreated: defineEvent(macroCreatedData, macroStream),
  MacroUpdated: defineEvent(macroUpdatedData, macroStream),
  MacroDeleted: defineEvent(macroDeletedData, macroStream),
  SopCreated: defineEvent(sopCreatedData, sopStream),
  SopUpdated: defineEvent(sopUpdatedData, sopStream),
  SopStateChanged: defineEvent(sopStateChangedData, sopStream),
  SopDeleted: defineEvent(sopDeletedData, sopStream),
  TeamMemberInvited: defineEvent(teamMemberInvitedData, teamStream),
  TeamInvitationAccepted: defineEvent(teamInvitationAcceptedData, teamStream),
  TeamMemberRoleChanged: defineEvent(teamMemberRoleChangedData, teamStream),
  TeamMemberRemoved: defineEvent(teamMemberRemovedData, teamStream),
  TeamOwnershipGranted: defineEvent(teamOwnershipGrantedData, teamStream),
  SupportUserInvited: defineEvent(supportUserInvitedData, supportTeamStream),
  SupportInvitationAccepted: defineEvent(supportInvitationAcceptedData, supportTeamStream),
  SupportUserRoleChanged: defineEvent(supportUserRoleChangedData, supportTeamStream),
  SupportUserRemoved: defineEvent(supportUserRemovedData, supportTeamStream),
  InvitationMailSent: defineEvent(invitationMailSentData, invitationMailStream),
  InvitationMailFailed: defineEvent(invitationMailFailedData, invitationMailStream),
  ClaimLinkIssued: defineEvent(claimLinkIssuedData, claimLinksStream),
  ClaimNotificationSent: defineEvent(claimNotificationSentData, claimNotificationsStream),
  ClaimNotificationFailed: defineEvent(claimNotificationFailedData, claimNotificationsStream),
  PayoutBatchCreated: defineEvent(payoutBatchCreatedData, storePayoutsStream),
  PayoutBatchApproved: defineEvent(payoutBatchApprovedData, storePayoutsStream),
  PayoutBatchPaid: defineEvent(payoutBatchPaidData, storePayoutsStream),
  StoreCreditIssued: defineEvent(storeCreditIssuedData, storeCreditStream),
  StoreCreditRedeemed: defineEvent(storeCreditRedeemedData, storeCreditStream),
  StoreCreditAdjusted: defineEvent(storeCreditAdjustedData, storeCreditStream),
  StoreCreditReclaimed: defineEvent(storeCreditReclaimedData, storeCreditStream),
  PremiumRecorded: defineEvent(premiumRecordedData, orderPremiumStream),
  PremiumReversed: defineEvent(premiumReversedData, orderPremiumStream),
  InvoiceIssued: defineEvent(invoiceIssuedData, storeBillingStream),
  CreditNoteIssued: defineEvent(creditNoteIssuedData, storeBillingStream),
  BillingMethodSet: defineEvent(paymentMethodSetData, storeBillingStream),
  PayoutMethodSet: defineEvent(paymentMethodSetData, storeBillingStream),
  StoreSettingsInitialized: defineEvent(storeSettingsInitializedData, storeSettingsStream),
  StoreSettingsChanged: defineEvent(storeSettingsChangedData, storeSettingsStream),
  WebhookEndpointDisabled: defineEvent(webhookEndpointDisabledData, storeWebhooksStream),
  NotificationPreferenceSet: defineEvent(notificationPreferenceSetData, notificationPreferencesStream),
  ClaimLinksRequested: defineEvent(claimLinksRequestedData, orderNotificationsStream),
  ClaimLinksMailSent: defineEvent(claimLinksMailSentData, orderNotificationsStream),
  ClaimLinksMailFailed: defineEvent(claimLinksMailFailedData, orderNotificationsStream),
  SavedViewCreated: defineEvent(savedViewCreatedData, savedViewsStream),
  SavedViewUpdated: defineEvent(savedViewUpdatedData, savedViewsStream),
  SavedViewDeleted: defineEvent(savedViewDeletedData, savedViewsStream),
  StoreBrandingChanged: defineEvent(storeBrandingChangedData, storeBrandingStream),
  StorePortalDomainSet: defineEvent(storePortalDomainSetData, storeBrandingStream),
  WhitelabelRestarted: defineEvent(whitelabelRestartedData, storeBrandingStream),
  AbTestStarted: defineEvent(abTestStartedData, storeAbTestsStream),
  AbTestStopped: defineEvent(abTestStoppedData, storeAbTestsStream),
  AbVariantAssigned: defineEvent(abVariantAssignedData, abAssignmentsStream),
  AccountCreated: defineEvent(accountCreatedData, accountStream),
  StoreCreated: defineEvent(storeCreatedData, storeStream),
  StoreOnboardingAdvanced: defineEvent(storeOnboardingAdvancedData, storeStream),
  StoreActivated: defineEvent(storeActivatedData, storeStream),
  ReturnStarted: defineEvent(ReturnStartedData, claimStream, { webhook: null }),
  ReturnStatusChanged: defineEvent(ReturnStatusChangedData, claimStream, { webhook: null }),
  ClaimResolutionReversed: defineEvent(claimResolutionReversedData, claimStream, {
    webhook: 'claim.resolution_reversed',
  }),
  RuleCreated: defineEvent(ruleCreatedData, storeRulesStream),
  RuleRevised: defineEvent(ruleRevisedData, storeRulesStream),
  RulesReordered: defineEvent(rulesReorderedData, storeRulesStream),
  RulesSwitched: defineEvent(rulesSwitchedData, storeRulesStream),
  RuleApplied: defineEvent(ruleAppliedData, ruleActivityStream),
};

type EventRegistry = typeof EVENT_REGISTRY;
export type EventType = keyof EventRegistry;

/** Every event type, in the registry's order. */
export const EVENT_TYPES = Object.keys(EVENT_REGISTRY) as readonly EventType[];

type EventSchema<T extends EventType> = T extends EventType
  ? z.ZodObject<{ type: z.ZodLiteral<T>; data: EventRegistry[T]['data'] }>
  : never;

// The registry pairs each type with its data schema, which this generic signature cannot see through.
const eventSchema = <T extends EventType>(type: T): EventSchema<T> =>
  z.object({ type: z.literal(type), data: EVENT_REGISTRY[type].data }) as EventSchema<T>;

const [firstSchema, ...otherSchemas] = EVENT_TYPES.map(eventSchema);
if (firstSchema === undefined) throw new Error('EVENT_REGISTRY is empty');

export const DomainEvent = z.discriminatedUnion('type', [firstSchema, ...otherSchemas]);
export type DomainEvent = z.infer<typeof DomainEvent>;
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

export const EVENT_SCHEMA_VERSIONS: Record<EventType, number> = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, EVENT_REGISTRY[type].schemaVersion]),
) as Record<EventType, number>;

/** Each type's stream function, typed by its own data: what lets {@link streamOf} call it without a cast. */
const STREAMS: { readonly [T in EventType]: { readonly stream: (data: EventOf<T>['data']) => StreamRef } } =
  EVENT_REGISTRY;

function streamOfType<T extends EventType>(event: { type: T; data: EventOf<T>['data'] }): StreamRef {
  return STREAMS[event.type].stream(event.data);
}

/** The stream an event belongs to. */
export function streamOf(event: DomainEvent): StreamRef {
  return streamOfType(event);
}

/** The event types integrators receive as webhooks. */
export type WebhookSourceType = { [T in EventType]: EventRegistry[T]['webhook'] extends string ? T : never }[EventType];

export const WEBHOOK_SOURCE_TYPES: readonly WebhookSourceType[] = EVENT_TYPES.filter(
  (type): type is WebhookSourceType => EVENT_REGISTRY[type].webhook !== null,
);

/** Contract §Events: the envelope published to Kafka topic `claims.events.v1`. */
export const EventEnvelope = z.object({
  eventId: z.uuid(),
  type: z.string(),
  streamId: z.string(),
  streamVersion: z.number().int().positive(),
  globalPosition: z.number().int().nonnegative(),
  storeId: z.uuid().nullable(),
  occurredAt: z.iso.datetime(),
  data: z.unknown(),
  metadata: EventMetadata,
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

export const CLAIM_EVENTS_TOPIC = 'claims.events.v1';

/** Contract §Webhooks: dotted event names for webhook consumers. */
export const WEBHOOK_EVENT_TYPES: Readonly<Record<WebhookSourceType, string>> = Object.fromEntries(
  WEBHOOK_SOURCE_TYPES.map((type) => [type, EVENT_REGISTRY[type].webhook]),
) as Record<WebhookSourceType, string>;

/**
 * Contract §Webhooks: a decision on some of a claim's items only. A ClaimResolved is `claim.resolved` (its registry
 * name) when it decides the claim as a whole, and this when items are left undecided: the webhook mapping chooses.
 */
export const ITEMS_RESOLVED_WEBHOOK = 'claim.items_resolved';
