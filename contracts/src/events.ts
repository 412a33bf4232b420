import { z } from 'zod';
import { Address } from './order.js';
import { ActorType, ClaimStatus, ClaimType, CustomerResolution, DecisionOutcome, ResolutionReason, SessionStatus } from './enums.js';
import { MacroKind, MacroResolutionPreset, SopState } from './deskTools.js';
import { RoleName } from './permissions.js';
import { ClaimItem, ClaimResolution, Message, Review, Signature } from './claim.js';
import { SessionMetadata } from './session.js';
import { CurrencyCode } from './money.js';
import { Policy } from './order.js';
import { Valuation } from './finance.js';

/** Who caused an event. */
export const Actor = z.object({ type: ActorType, id: z.string(), name: z.string().optional() });
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

/** What each aggregate's stream holds; the stream id is the aggregate's uuid. */
export const StreamType = z.enum(['claim', 'order-claims', 'claim-session', 'macro', 'sop', 'account-team', 'claim-links', 'claim-notifications', 'store-payouts', 'store-credit']);
export type StreamType = z.infer<typeof StreamType>;

const claimFiled = z.object({
  type: z.literal('ClaimFiled'),
  data: z.object({
    claimId: z.uuid(),
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
    customer: z.object({ email: z.string(), name: z.string() }),
    items: z.array(ClaimItem),
    desiredMethod: CustomerResolution,
    updatedShippingAddress: Address.nullable(),
    signature: Signature,
    policy: Policy.nullable(),
    filedAt: z.iso.datetime(),
  }),
});

const orderItemsClaimed = z.object({
  type: z.literal('OrderItemsClaimed'),
  data: z.object({
    orderId: z.uuid(),
    claimId: z.uuid(),
    claimNumber: z.string(),
    isOta: z.boolean(),
    items: z.array(z.object({ sourceItemId: z.string(), quantity: z.number().int().positive() })),
    claimedAt: z.iso.datetime(),
  }),
});

const claimStatusChanged = z.object({
  type: z.literal('ClaimStatusChanged'),
  data: z.object({
    claimId: z.uuid(), from: ClaimStatus, to: ClaimStatus, note: z.string().nullable(),
    /** Why (optional, added without a schema bump: older events simply lack it), e.g. NO_RESPONSE from the SLA timer. */
    reason: ResolutionReason.nullable().optional(),
  }),
});

const claimResolved = z.object({
  type: z.literal('ClaimResolved'),
  data: z.object({
    claimId: z.uuid(),
    outcome: DecisionOutcome,
    resolutions: z.array(ClaimResolution).min(1),
    status: ClaimStatus,
    /** The money rules the decision was valued under (added without a schema bump: older events lack it). */
    valuation: Valuation.optional(),
  }),
});

const claimMessageSent = z.object({ type: z.literal('ClaimMessageSent'), data: Message });

const claimReviewed = z.object({ type: z.literal('ClaimReviewed'), data: Review });

/** An internal note on a claim: the back-office's only; never in the shopper's view or a webhook. */
const claimNoteAdded = z.object({
  type: z.literal('ClaimNoteAdded'),
  data: z.object({
    claimId: z.uuid(),
    noteId: z.uuid(),
    body: z.string(),
    author: z.object({ type: ActorType, id: z.string(), name: z.string() }),
    createdAt: z.iso.datetime(),
  }),
});
const claimLabelAdded = z.object({ type: z.literal('ClaimLabelAdded'), data: z.object({ claimId: z.uuid(), label: z.string() }) });
const claimLabelRemoved = z.object({ type: z.literal('ClaimLabelRemoved'), data: z.object({ claimId: z.uuid(), label: z.string() }) });
const claimMetadataSet = z.object({
  type: z.literal('ClaimMetadataSet'),
  data: z.object({ claimId: z.uuid(), key: z.string(), value: z.string(), previous: z.string().nullable() }),
});

/** Macros: one stream per macro; `storeId` null is a global (Order Protection) macro. */
const macroContent = { name: z.string(), kind: MacroKind, body: z.string(), resolution: MacroResolutionPreset.nullable() };
const macroCreated = z.object({
  type: z.literal('MacroCreated'),
  data: z.object({ macroId: z.uuid(), storeId: z.uuid().nullable(), ...macroContent, createdAt: z.iso.datetime() }),
});
const macroUpdated = z.object({ type: z.literal('MacroUpdated'), data: z.object({ macroId: z.uuid(), ...macroContent, updatedAt: z.iso.datetime() }) });
const macroDeleted = z.object({ type: z.literal('MacroDeleted'), data: z.object({ macroId: z.uuid(), deletedAt: z.iso.datetime() }) });

/** SOPs: one stream per SOP of a store. */
const sopCreated = z.object({
  type: z.literal('SopCreated'),
  data: z.object({ sopId: z.uuid(), storeId: z.uuid(), title: z.string(), body: z.string(), state: SopState, createdAt: z.iso.datetime() }),
});
const sopUpdated = z.object({ type: z.literal('SopUpdated'), data: z.object({ sopId: z.uuid(), title: z.string(), body: z.string(), updatedAt: z.iso.datetime() }) });
const sopStateChanged = z.object({
  type: z.literal('SopStateChanged'),
  data: z.object({ sopId: z.uuid(), from: SopState, to: SopState, changedAt: z.iso.datetime() }),
});
const sopDeleted = z.object({ type: z.literal('SopDeleted'), data: z.object({ sopId: z.uuid(), deletedAt: z.iso.datetime() }) });

/**
 * The team audit log: one stream per account (stream id = the account id). Users and roles are rows;
 * every change to them is also recorded here, with who made it in the metadata's actor.
 */
const teamScope = { accountId: z.uuid(), storeId: z.uuid().nullable(), userId: z.uuid(), email: z.string() };
const teamMemberInvited = z.object({ type: z.literal('TeamMemberInvited'), data: z.object({ ...teamScope, role: RoleName, newUser: z.boolean() }) });
const teamInvitationAccepted = z.object({ type: z.literal('TeamInvitationAccepted'), data: z.object(teamScope) });
const teamMemberRoleChanged = z.object({
  type: z.literal('TeamMemberRoleChanged'),
  data: z.object({ ...teamScope, from: z.array(RoleName), to: RoleName }),
});
const teamMemberRemoved = z.object({ type: z.literal('TeamMemberRemoved'), data: z.object({ ...teamScope, roles: z.array(RoleName) }) });
const teamOwnershipGranted = z.object({
  type: z.literal('TeamOwnershipGranted'),
  data: z.object({ ...teamScope, from: z.array(RoleName), role: RoleName }),
});

const claimSessionStarted = z.object({
  type: z.literal('ClaimSessionStarted'),
  data: z.object({ sessionId: z.uuid(), orderId: z.uuid(), email: z.string() }),
});
const claimSessionStatusChanged = z.object({
  type: z.literal('ClaimSessionStatusChanged'),
  data: z.object({ sessionId: z.uuid(), status: SessionStatus }),
});
const claimSessionMetadataSaved = z.object({
  type: z.literal('ClaimSessionMetadataSaved'),
  data: z.object({ sessionId: z.uuid(), metadata: SessionMetadata }),
});
const claimSessionDeleted = z.object({
  type: z.literal('ClaimSessionDeleted'),
  data: z.object({ sessionId: z.uuid(), reason: z.enum(['shopper', 'claim_filed']) }),
});

/**
 * A further link to a claim for its shopper (each mail carries a fresh one; the token is never stored, only its
 * hash). One stream per claim beside the claim's own, so sending mail never moves the version agents work at.
 */
const claimLinkIssued = z.object({
  type: z.literal('ClaimLinkIssued'),
  data: z.object({ claimId: z.uuid(), tokenHash: z.string(), issuedAt: z.iso.datetime() }),
});

export const NotificationKind = z.enum(['claim_filed', 'store_reply', 'claim_resolved']);
export type NotificationKind = z.infer<typeof NotificationKind>;

/** Mail to the shopper about a claim: one stream per claim, one id per event that caused it (so a repeat sends once). */
const notificationScope = { claimId: z.uuid(), notificationId: z.uuid(), kind: NotificationKind, causedBy: z.uuid() };
const claimNotificationSent = z.object({
  type: z.literal('ClaimNotificationSent'),
  data: z.object({ ...notificationScope, attempt: z.number().int().positive(), sentAt: z.iso.datetime() }),
});
const claimNotificationFailed = z.object({
  type: z.literal('ClaimNotificationFailed'),
  data: z.object({ ...notificationScope, attempt: z.number().int().positive(), error: z.string(), failedAt: z.iso.datetime() }),
});

/**
 * Payout batches of a store: one stream per store (`store-payouts:<store id>`), so an entry joins one batch only
 * and two finance users approving or paying at once cannot both succeed. Amounts in minor units of the store's currency.
 */
const payoutBatchCreated = z.object({
  type: z.literal('PayoutBatchCreated'),
  data: z.object({
    storeId: z.uuid(), batchId: z.uuid(), currency: CurrencyCode, entryIds: z.array(z.uuid()).min(1), total: z.number().int(),
    createdBy: z.string(), createdAt: z.iso.datetime(),
  }),
});
const payoutBatchApproved = z.object({
  type: z.literal('PayoutBatchApproved'),
  data: z.object({ storeId: z.uuid(), batchId: z.uuid(), approvedBy: z.string(), approvedAt: z.iso.datetime() }),
});
const payoutBatchPaid = z.object({
  type: z.literal('PayoutBatchPaid'),
  data: z.object({ storeId: z.uuid(), batchId: z.uuid(), reference: z.string().max(200), paidAt: z.iso.datetime() }),
});

/**
 * A customer's store credit at one store: one stream per store and customer (`store-credit:<store>:<email hash>`),
 * amounts in minor units of the store's currency; the balance (issued + adjusted - redeemed) never goes negative.
 */
const creditScope = {
  storeId: z.uuid(), customerEmail: z.string(),
  /** SHA-256 (hex) of the trimmed, lower-cased email: names the stream, so Kafka keys and stream lists carry no address. */
  customerKey: z.string().regex(/^[0-9a-f]{64}$/),
  currency: CurrencyCode,
};
const storeCreditIssued = z.object({
  type: z.literal('StoreCreditIssued'),
  data: z.object({ ...creditScope, amount: z.number().int().positive(), claimId: z.uuid(), resolutionId: z.uuid(), issuedAt: z.iso.datetime() }),
});
const storeCreditRedeemed = z.object({
  type: z.literal('StoreCreditRedeemed'),
  data: z.object({ ...creditScope, amount: z.number().int().positive(), reference: z.string().max(200), redeemedAt: z.iso.datetime() }),
});
const storeCreditAdjusted = z.object({
  type: z.literal('StoreCreditAdjusted'),
  data: z.object({ ...creditScope, amount: z.number().int(), reason: z.string().max(500), adjustedAt: z.iso.datetime() }),
});

export const DomainEvent = z.discriminatedUnion('type', [
  claimFiled,
  orderItemsClaimed,
  claimStatusChanged,
  claimResolved,
  claimMessageSent,
  claimReviewed,
  claimSessionStarted,
  claimSessionStatusChanged,
  claimSessionMetadataSaved,
  claimSessionDeleted,
  claimNoteAdded,
  claimLabelAdded,
  claimLabelRemoved,
  claimMetadataSet,
  macroCreated,
  macroUpdated,
  macroDeleted,
  sopCreated,
  sopUpdated,
  sopStateChanged,
  sopDeleted,
  teamMemberInvited,
  teamInvitationAccepted,
  teamMemberRoleChanged,
  teamMemberRemoved,
  teamOwnershipGranted,
  claimLinkIssued,
  claimNotificationSent,
  claimNotificationFailed,
  payoutBatchCreated,
  payoutBatchApproved,
  payoutBatchPaid,
  storeCreditIssued,
  storeCreditRedeemed,
  storeCreditAdjusted,
]);
export type DomainEvent = z.infer<typeof DomainEvent>;
export type EventType = DomainEvent['type'];
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;

export const EVENT_SCHEMA_VERSIONS: Record<EventType, number> = {
  ClaimFiled: 1,
  OrderItemsClaimed: 1,
  ClaimStatusChanged: 1,
  ClaimResolved: 1,
  ClaimMessageSent: 1,
  ClaimReviewed: 1,
  ClaimSessionStarted: 1,
  ClaimSessionStatusChanged: 1,
  ClaimSessionMetadataSaved: 1,
  ClaimSessionDeleted: 1,
  ClaimNoteAdded: 1,
  ClaimLabelAdded: 1,
  ClaimLabelRemoved: 1,
  ClaimMetadataSet: 1,
  MacroCreated: 1,
  MacroUpdated: 1,
  MacroDeleted: 1,
  SopCreated: 1,
  SopUpdated: 1,
  SopStateChanged: 1,
  SopDeleted: 1,
  TeamMemberInvited: 1,
  TeamInvitationAccepted: 1,
  TeamMemberRoleChanged: 1,
  TeamMemberRemoved: 1,
  TeamOwnershipGranted: 1,
  ClaimLinkIssued: 1,
  ClaimNotificationSent: 1,
  ClaimNotificationFailed: 1,
  PayoutBatchCreated: 1,
  PayoutBatchApproved: 1,
  PayoutBatchPaid: 1,
  StoreCreditIssued: 1,
  StoreCreditRedeemed: 1,
  StoreCreditAdjusted: 1,
};

/** The stream of a claim's extra links and that of its mail: named after the claim, so no lookup finds them. */
export const claimLinksStreamOf = (claimId: string): string => `claim-links:${claimId}`;
export const claimNotificationsStreamOf = (claimId: string): string => `claim-notifications:${claimId}`;
export const storePayoutsStreamOf = (storeId: string): string => `store-payouts:${storeId}`;
export const storeCreditStreamOf = (storeId: string, customerKey: string): string => `store-credit:${storeId}:${customerKey}`;

/** The stream an event belongs to. */
export function streamOf(event: DomainEvent): { streamId: string; streamType: StreamType } {
  switch (event.type) {
    case 'ClaimFiled':
    case 'ClaimStatusChanged':
    case 'ClaimResolved':
    case 'ClaimMessageSent':
    case 'ClaimReviewed':
    case 'ClaimNoteAdded':
    case 'ClaimLabelAdded':
    case 'ClaimLabelRemoved':
    case 'ClaimMetadataSet':
      return { streamId: event.data.claimId, streamType: 'claim' };
    case 'MacroCreated':
    case 'MacroUpdated':
    case 'MacroDeleted':
      return { streamId: event.data.macroId, streamType: 'macro' };
    case 'SopCreated':
    case 'SopUpdated':
    case 'SopStateChanged':
    case 'SopDeleted':
      return { streamId: event.data.sopId, streamType: 'sop' };
    case 'TeamMemberInvited':
    case 'TeamInvitationAccepted':
    case 'TeamMemberRoleChanged':
    case 'TeamMemberRemoved':
    case 'TeamOwnershipGranted':
      return { streamId: event.data.accountId, streamType: 'account-team' };
    case 'OrderItemsClaimed':
      return { streamId: event.data.orderId, streamType: 'order-claims' };
    case 'ClaimSessionStarted':
    case 'ClaimSessionStatusChanged':
    case 'ClaimSessionMetadataSaved':
    case 'ClaimSessionDeleted':
      return { streamId: event.data.sessionId, streamType: 'claim-session' };
    case 'ClaimLinkIssued':
      return { streamId: claimLinksStreamOf(event.data.claimId), streamType: 'claim-links' };
    case 'ClaimNotificationSent':
    case 'ClaimNotificationFailed':
      return { streamId: claimNotificationsStreamOf(event.data.claimId), streamType: 'claim-notifications' };
    case 'PayoutBatchCreated':
    case 'PayoutBatchApproved':
    case 'PayoutBatchPaid':
      return { streamId: storePayoutsStreamOf(event.data.storeId), streamType: 'store-payouts' };
    case 'StoreCreditIssued':
    case 'StoreCreditRedeemed':
    case 'StoreCreditAdjusted':
      return { streamId: storeCreditStreamOf(event.data.storeId, event.data.customerKey), streamType: 'store-credit' };
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

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
export const WEBHOOK_EVENT_TYPES: Partial<Record<EventType, string>> = {
  ClaimFiled: 'claim.filed',
  ClaimStatusChanged: 'claim.status_changed',
  ClaimResolved: 'claim.resolved',
  ClaimMessageSent: 'claim.message_created',
  ClaimReviewed: 'claim.reviewed',
};
