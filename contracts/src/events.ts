import { z } from 'zod';
import { Address } from './order.js';
import { ActorType, ClaimStatus, ClaimType, CustomerResolution, DecisionOutcome, SessionStatus } from './enums.js';
import { ClaimItem, ClaimResolution, Message, Review, Signature } from './claim.js';
import { SessionMetadata } from './session.js';
import { CurrencyCode } from './money.js';
import { Policy } from './order.js';

/** Who caused an event. */
export const Actor = z.object({ type: ActorType, id: z.string(), name: z.string().optional() });
export type Actor = z.infer<typeof Actor>;

export const EventMetadata = z.object({
  actor: Actor,
  correlationId: z.string(),
  causationId: z.string().nullable(),
  /** The version of the event's data schema, so a consumer can upcast older events. */
  schemaVersion: z.number().int().positive(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

/** What each aggregate's stream holds; the stream id is the aggregate's uuid. */
export const StreamType = z.enum(['claim', 'order-claims', 'claim-session']);
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
  data: z.object({ claimId: z.uuid(), from: ClaimStatus, to: ClaimStatus, note: z.string().nullable() }),
});

const claimResolved = z.object({
  type: z.literal('ClaimResolved'),
  data: z.object({
    claimId: z.uuid(),
    outcome: DecisionOutcome,
    resolutions: z.array(ClaimResolution).min(1),
    status: ClaimStatus,
  }),
});

const claimMessageSent = z.object({ type: z.literal('ClaimMessageSent'), data: Message });

const claimReviewed = z.object({ type: z.literal('ClaimReviewed'), data: Review });

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
};

/** The stream an event belongs to. */
export function streamOf(event: DomainEvent): { streamId: string; streamType: StreamType } {
  switch (event.type) {
    case 'ClaimFiled':
    case 'ClaimStatusChanged':
    case 'ClaimResolved':
    case 'ClaimMessageSent':
    case 'ClaimReviewed':
      return { streamId: event.data.claimId, streamType: 'claim' };
    case 'OrderItemsClaimed':
      return { streamId: event.data.orderId, streamType: 'order-claims' };
    case 'ClaimSessionStarted':
    case 'ClaimSessionStatusChanged':
    case 'ClaimSessionMetadataSaved':
    case 'ClaimSessionDeleted':
      return { streamId: event.data.sessionId, streamType: 'claim-session' };
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
