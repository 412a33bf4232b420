import { describe, expect, it } from 'vitest';
import {
  DomainEvent,
  EVENT_SCHEMA_VERSIONS,
  EVENT_TYPES,
  streamOf,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SOURCE_TYPES,
} from '../src/events.js';
import { WebhookEventType } from '../src/webhooks.js';

const claimId = '7d0f3c36-5f0b-4a51-9d55-0a4b1c2f0e11';
const accountId = '1b6e2f4a-3c9d-4e8f-a1b2-c3d4e5f6a7b8';

describe('the event registry', () => {
  it('gives every event type a schema version and a stream', () => {
    expect(Object.keys(EVENT_SCHEMA_VERSIONS).sort()).toEqual([...EVENT_TYPES].sort());
    expect(EVENT_TYPES).toHaveLength(77);
    const label = DomainEvent.parse({ type: 'ClaimLabelAdded', data: { claimId, label: 'vip' } });
    expect(streamOf(label)).toEqual({ streamId: claimId, streamType: 'claim' });
    const invited = DomainEvent.parse({
      type: 'TeamInvitationAccepted',
      data: { accountId, storeId: null, userId: claimId, email: 'a@example.com' },
    });
    expect(streamOf(invited)).toEqual({ streamId: accountId, streamType: 'account-team' });
  });

  it('parses by type and refuses a type it does not list', () => {
    expect(DomainEvent.safeParse({ type: 'ClaimLabelAdded', data: { claimId, label: 'vip' } }).success).toBe(true);
    expect(DomainEvent.safeParse({ type: 'ClaimLabelAdded', data: { claimId } }).success).toBe(false);
    expect(DomainEvent.safeParse({ type: 'ClaimExploded', data: { claimId } }).success).toBe(false);
  });

  it('names the webhooks of the contract, and a reversal', () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual({
      ClaimFiled: 'claim.filed',
      ClaimStatusChanged: 'claim.status_changed',
      ClaimResolved: 'claim.resolved',
      ClaimMessageSent: 'claim.message_created',
      ClaimReviewed: 'claim.reviewed',
      // Not named by the contract: integrators learn that a decision's money was taken back (docs/decisions/every-reader-decides.md).
      ClaimResolutionReversed: 'claim.resolution_reversed',
    });
    expect([...WEBHOOK_SOURCE_TYPES].sort()).toEqual(Object.keys(WEBHOOK_EVENT_TYPES).sort());
    // A decision on some items only is a ClaimResolved too, delivered under its own type.
    expect(WebhookEventType.options).toEqual([
      'claim.filed',
      'claim.status_changed',
      'claim.resolved',
      'claim.items_resolved',
      'claim.message_created',
      'claim.reviewed',
      'claim.resolution_reversed',
    ]);
  });
});
