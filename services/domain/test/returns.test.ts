import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ClaimType,
  isReturnable,
  RETURN_STATUS_MOVES,
  ReturnStatus,
  type DomainEvent,
  type ReturnCommand,
  type StartReturnRequest,
} from '@claims/contracts';
import { foldEvents, quantitiesInReturns, returnDecider } from '../src/index.js';
import { actor, claimId, filing, NOW } from './fixtures.js';
import { given, refused } from './support/givenWhenThen.js';

const socks = foldEvents(returnDecider, filing).claim!.items[0]!;
const returnId = (n: number) => `9${String(n).padStart(7, '0')}-1111-4111-8111-111111111111`;
const request = (quantity: number, overrides: Partial<StartReturnRequest> = {}): StartReturnRequest => ({
  items: [{ claimItemId: socks.id, quantity }],
  reason: 'DAMAGED',
  method: 'DROP_OFF',
  ...overrides,
});
const start = (
  quantity: number,
  n = 1,
  storePortalUrl: string | null = null,
  overrides: Partial<StartReturnRequest> = {},
): ReturnCommand => ({
  type: 'StartReturn',
  claimId,
  returnId: returnId(n),
  storePortalUrl,
  request: request(quantity, overrides),
  actor,
  now: NOW,
});
const move = (to: ReturnStatus, n = 1): ReturnCommand => ({
  type: 'ChangeReturnStatus',
  claimId,
  returnId: returnId(n),
  to,
  note: null,
  actor,
  now: NOW,
});

const decided = (events: readonly DomainEvent[], command: ReturnCommand): DomainEvent[] => {
  const result = returnDecider.decide(command, foldEvents(returnDecider, events));
  return result.ok ? result.value : [];
};

describe('starting a return', () => {
  it('given a claim, when the shopper returns an item and the store has no portal, then it is requested here with a code', () => {
    given(returnDecider, filing)
      .when(start(2))
      .then([
        {
          type: 'ReturnStarted',
          data: {
            claimId,
            returnId: returnId(1),
            code: 'R10001-1',
            claimNumber: '10001',
            items: [{ claimItemId: socks.id, quantity: 2 }],
            reason: 'DAMAGED',
            method: 'DROP_OFF',
            comment: '',
            handling: 'here',
            portalUrl: null,
            status: 'REQUESTED',
            startedAt: NOW,
          },
        },
      ]);
  });

  it("sends the shopper to the store's returns portal when the store runs one, holding no items", () => {
    const [event] = given(returnDecider, filing)
      .when(start(2, 1, 'https://returns.acme.test'))
      .thenMatches([
        {
          type: 'ReturnStarted',
          data: { handling: 'store_portal', status: 'REDIRECTED', portalUrl: 'https://returns.acme.test' },
        },
      ]);
    const after = given(returnDecider, [...filing, event!]);
    expect(quantitiesInReturns(after.state.returns).size).toBe(0);
    after.when(start(2, 2)).thenMatches([{ type: 'ReturnStarted', data: { code: 'R10001-2', handling: 'here' } }]);
  });

  it('refuses items not on the claim, listed twice or more than are left, and a claim that does not exist', () => {
    const filed = given(returnDecider, filing);
    filed.when(start(1, 1, null, { items: [{ claimItemId: returnId(9), quantity: 1 }] })).then(refused('unknown_item'));
    filed
      .when(
        start(1, 1, null, {
          items: [
            { claimItemId: socks.id, quantity: 1 },
            { claimItemId: socks.id, quantity: 1 },
          ],
        }),
      )
      .then(refused('validation_failed', 'twice'));
    filed.when(start(3)).then(refused('invalid_quantity', 'At most 2'));
    given(returnDecider).when(start(1)).then(refused('claim_not_found'));
    const first = decided(filing, start(2));
    given(returnDecider, [...filing, ...first])
      .when(start(1, 2))
      .then(refused('invalid_quantity', 'already being returned'));
  });

  it.each(ClaimType.options)('returns an item claimed as %s only when the shopper holds it', (claimType) => {
    const filedAs = filing.map((event) =>
      event.type === 'ClaimFiled'
        ? { ...event, data: { ...event.data, items: event.data.items.map((item) => ({ ...item, claimType })) } }
        : event,
    );
    const result = returnDecider.decide(start(1), foldEvents(returnDecider, filedAs));
    expect(result.ok ? 'started' : result.error.code).toBe(isReturnable(claimType) ? 'started' : 'not_returnable');
  });

  it('records a retried start (the same id) once', () => {
    const first = decided(filing, start(1));
    given(returnDecider, [...filing, ...first])
      .when(start(1))
      .then([]);
  });
});

describe('working a return', () => {
  const started = [...filing, ...decided(filing, start(2))];

  it('moves along the status table and refuses any other move', () => {
    const approved = given(returnDecider, started)
      .when(move('APPROVED'))
      .then([
        {
          type: 'ReturnStatusChanged',
          data: {
            claimId,
            returnId: returnId(1),
            from: 'REQUESTED',
            to: 'APPROVED',
            note: null,
            changedAt: NOW,
          },
        },
      ]);
    const state = given(returnDecider, [...started, ...approved]);
    expect(state.state.returns[0]?.status).toBe('APPROVED');
    state.when(move('COMPLETED')).then(refused('invalid_transition', 'APPROVED to COMPLETED'));
    state.when(move('APPROVED')).then([]);
    given(returnDecider, started).when(move('APPROVED', 7)).then(refused('not_found'));
  });

  it('frees the items of a cancelled or rejected return', () => {
    for (const to of ['CANCELLED', 'REJECTED'] as const) {
      const ended = [...started, ...decided(started, move(to))];
      given(returnDecider, ended)
        .when(start(2, 2))
        .thenMatches([{ type: 'ReturnStarted', data: { code: 'R10001-2' } }]);
    }
  });

  it('property: any sequence of moves keeps every return in a status the table reached, and never holds more items than claimed', () => {
    const command = fc.oneof(
      fc.record({
        kind: fc.constant('start' as const),
        n: fc.integer({ min: 1, max: 4 }),
        quantity: fc.integer({ min: 1, max: 3 }),
        portal: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('move' as const),
        n: fc.integer({ min: 1, max: 4 }),
        to: fc.constantFrom(...ReturnStatus.options),
      }),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 25 }), (commands) => {
        let events: DomainEvent[] = [...filing];
        for (const c of commands) {
          const before = foldEvents(returnDecider, events);
          const cmd =
            c.kind === 'start'
              ? start(c.quantity, c.n, c.portal ? 'https://returns.acme.test' : null)
              : move(c.to, c.n);
          const result = returnDecider.decide(cmd, before);
          if (!result.ok) continue;
          for (const event of result.value) {
            if (event.type === 'ReturnStatusChanged')
              expect(RETURN_STATUS_MOVES[event.data.from]).toContain(event.data.to);
          }
          events = [...events, ...result.value];
        }
        const after = foldEvents(returnDecider, events);
        expect(quantitiesInReturns(after.returns).get(socks.id) ?? 0).toBeLessThanOrEqual(socks.quantity);
        expect(new Set(after.returns.map((r) => r.code)).size).toBe(after.returns.length);
      }),
    );
  });
});
