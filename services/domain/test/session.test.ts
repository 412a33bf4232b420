import { describe, expect, it } from 'vitest';
import type { DomainEvent, SessionCommand, SessionMetadata } from '@claims/contracts';
import { sessionDecider } from '../src/index.js';
import { order } from './fixtures.js';
import { inJsonbKeyOrder } from './support/jsonbKeyOrder.js';
import { given, refused } from './support/givenWhenThen.js';

const sessionId = '71111111-1111-4111-8111-111111111111';
const save = (
  change: Pick<Extract<SessionCommand, { type: 'UpdateSession' }>, 'status' | 'metadata'> & {
    email?: string;
    orderId?: string;
  },
): SessionCommand => ({ type: 'UpdateSession', sessionId, orderId: order.id, email: order.customerEmail, ...change });
const remove: SessionCommand = { type: 'DeleteSession', sessionId, reason: 'shopper' };
const started: DomainEvent[] = [
  { type: 'ClaimSessionStarted', data: { sessionId, orderId: order.id, email: order.customerEmail } },
  { type: 'ClaimSessionStatusChanged', data: { sessionId, status: 'ORDER_FOUND' } },
];
const draft: SessionMetadata = {
  claim: {
    customer: { email: order.customerEmail, sourceOrderId: order.sourceOrderId },
    fulfillments: {
      'f-1': {
        id: 'f-1',
        issues: [{ id: 'i1', sourceItemId: 'li-2', claimType: 'DAMAGED', quantity: 2, details: 'torn', images: [] }],
      },
    },
    resolution: { desiredMethod: 'REFUND' },
    messages: [],
  },
  currentShipmentId: 'f-1',
};
const savedDraft: DomainEvent = { type: 'ClaimSessionMetadataSaved', data: { sessionId, metadata: draft } };

describe('claim session', () => {
  it('starts on the first save, with its status', () => {
    given(sessionDecider)
      .when(save({ status: 'ORDER_FOUND' }))
      .then(started);
    expect(given(sessionDecider, started).state).toEqual({
      id: sessionId,
      orderId: order.id,
      email: order.customerEmail,
      status: 'ORDER_FOUND',
      metadata: null,
    });
  });

  it('records only what changed: an unchanged save decides no event', () => {
    given(sessionDecider, started)
      .when(save({ status: 'ORDER_FOUND' }))
      .then([]);
    given(sessionDecider, started)
      .when(save({ status: 'SELECTING_ITEMS', metadata: draft }))
      .then([{ type: 'ClaimSessionStatusChanged', data: { sessionId, status: 'SELECTING_ITEMS' } }, savedDraft]);
    given(sessionDecider, [...started, savedDraft])
      .when(save({ status: 'ORDER_FOUND', metadata: draft }))
      .then([]);
  });

  it('knows an unchanged draft as loaded back from the database, whatever the order of its keys', () => {
    given(sessionDecider, [...started, inJsonbKeyOrder(savedDraft)])
      .when(save({ metadata: draft }))
      .then([]);
  });

  it("takes the shopper's email in any case, and refuses another email or another order", () => {
    given(sessionDecider, started)
      .when(save({ status: 'SELECTING_ITEMS', email: order.customerEmail.toUpperCase() }))
      .then([{ type: 'ClaimSessionStatusChanged', data: { sessionId, status: 'SELECTING_ITEMS' } }]);
    given(sessionDecider, started)
      .when(save({ status: 'SELECTING_ITEMS', email: 'mallory@example.com' }))
      .then(refused('session_not_found'));
    given(sessionDecider, started)
      .when(save({ status: 'SELECTING_ITEMS', orderId: '8d353c4f-a9d3-4ab9-a7b9-74ae9c3f881c' }))
      .then(refused('session_not_found'));
  });

  it('is gone after deletion, and a session that does not exist cannot be deleted', () => {
    const deleted = given(sessionDecider, [...started, savedDraft])
      .when(remove)
      .then([{ type: 'ClaimSessionDeleted', data: { sessionId, reason: 'shopper' } }]);
    expect(given(sessionDecider, [...started, savedDraft, ...deleted]).state).toBeNull();
    given(sessionDecider).when(remove).then(refused('session_not_found'));
    given(sessionDecider, [...started, ...deleted])
      .when(remove)
      .then(refused('session_not_found'));
  });
});
