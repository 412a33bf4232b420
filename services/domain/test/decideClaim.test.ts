import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ClaimCommand, DomainEvent, EventOf, ResolutionType, ResolveClaim } from '@claims/contracts';
import {
  claimDecider,
  decidesWholeClaim,
  notificationKindOf,
  orderClaimsDecider,
  shopperStatusHistory,
  wholeDecisionOf,
} from '../src/index.js';
import {
  actor,
  changeStatus,
  filing,
  fileClaim,
  jacketAndMug,
  NOW,
  order,
  settings,
  statusChanged,
  storeTerms,
} from './fixtures.js';
import { given, refused } from './support/givenWhenThen.js';

const RES = ['51111111-1111-4111-8111-111111111111', '61111111-1111-4111-8111-111111111111'];
const filed = given(claimDecider, filing);
const claim = filed.state!;
const resolve = (request: ResolveClaim['request'], terms = storeTerms): ClaimCommand => ({
  type: 'ResolveClaim',
  claimId: claim.id,
  resolutionIds: RES,
  actor,
  now: NOW,
  request,
  ...terms,
});

describe('ResolveClaim', () => {
  it('refunds the claimed socks at their value and resolves the claim', () => {
    filed.when(resolve({ resolutionType: 'REFUND' })).then([
      {
        type: 'ClaimResolved',
        data: expect.objectContaining({
          outcome: 'APPROVED',
          status: 'RESOLVED',
          resolutions: [expect.objectContaining({ quantity: 2, percentage: 100, paidValue: 3600 - 200 + 288 })],
        }),
      },
    ]);
  });

  it('is refused once the claim has a resolution', () => {
    const reshipped = filed
      .when(resolve({ resolutionType: 'RESHIP' }))
      .thenMatches([{ type: 'ClaimResolved', data: { status: 'RESOLVED' } }]);
    given(claimDecider, [...filing, ...reshipped])
      .when(resolve({ resolutionType: 'REFUND' }))
      .then(refused('already_resolved'));
  });

  it('denies only with a reason, paying nothing', () => {
    filed.when(resolve({ resolutionType: 'DENY' })).then(refused('validation_failed', 'reason'));
    filed
      .when(resolve({ resolutionType: 'DENY', reason: 'PHOTO_VERIFIED' }))
      .thenMatches([
        { data: { outcome: 'DENIED', status: 'DENIED', resolutions: [{ paidValue: 0, reason: 'PHOTO_VERIFIED' }] } },
      ]);
  });

  it('pays a flat claim-level amount in minor units, and a percentage of an item', () => {
    filed
      .when(resolve({ resolutionType: 'FLAT_RATE', amount: 12.5 }))
      .thenMatches([{ data: { resolutions: [{ relatedClaimItemId: null, paidValue: 1250 }] } }]);
    filed
      .when(
        resolve({
          resolutionType: 'REFUND',
          items: [{ claimItemId: claim.items[0]!.id, quantity: 1, percentage: 50 }],
        }),
      )
      .thenMatches([{ data: { resolutions: [{ quantity: 1, paidValue: Math.round((1800 - 100 + 144) / 2) }] } }]);
  });

  it('refuses more than was claimed', () => {
    filed
      .when(resolve({ resolutionType: 'REFUND', items: [{ claimItemId: claim.items[0]!.id, quantity: 3 }] }))
      .then(refused('invalid_quantity'));
  });
});

describe('status changes and messages', () => {
  it('moves along allowed transitions only', () => {
    filed.when(changeStatus('OPEN')).then([statusChanged('NEW', 'OPEN')]);
    given(claimDecider, [...filing, statusChanged('NEW', 'CLOSED'), statusChanged('CLOSED', 'ARCHIVED')])
      .when(changeStatus('OPEN'))
      .then(refused('invalid_transition'));
  });

  it('strips HTML from messages and refuses an empty one', () => {
    const message = (messageContent: string): ClaimCommand => ({
      type: 'SendMessage',
      claimId: claim.id,
      messageId: RES[0]!,
      actor,
      senderType: 'merchant',
      senderName: 'Riley',
      medias: [],
      now: NOW,
      messageContent,
    });
    filed
      .when(message('<script>x</script><b>Hello</b>'))
      .thenMatches([{ type: 'ClaimMessageSent', data: { messageContent: 'xHello' } }]);
    filed.when(message('<p> </p>')).then(refused('validation_failed'));
  });

  it('takes one review per claim', () => {
    const review = filed
      .when({ type: 'AddReview', claimId: claim.id, reviewId: RES[0]!, now: NOW, review: { rating: 5, text: 'Fast' } })
      .thenMatches([{ type: 'ClaimReviewed', data: { rating: 5, text: 'Fast' } }]);
    given(claimDecider, [...filing, ...review])
      .when({ type: 'AddReview', claimId: claim.id, reviewId: RES[1]!, now: NOW, review: { rating: 1, text: '' } })
      .then(refused('validation_failed'));
  });

  it('answers not found for a claim that does not exist', () => {
    given(claimDecider)
      .when({ type: 'ChangeClaimStatus', claimId: RES[0]!, to: 'OPEN', note: null })
      .then(refused('claim_not_found'));
  });
  it("shows the shopper each status the claim reached and when, leaving out the desk's internal ones", () => {
    const events = [
      ...filing,
      statusChanged('NEW', 'OPEN'),
      statusChanged('OPEN', 'WAITING_FOR_OP'),
      statusChanged('WAITING_FOR_OP', 'WAITING_FOR_CUSTOMER'),
      statusChanged('WAITING_FOR_CUSTOMER', 'CLOSED'),
      statusChanged('CLOSED', 'ARCHIVED'),
    ];
    const at = (i: number) => new Date(Date.UTC(2025, 2, 1, 10, 0, i)).toISOString();
    const history = shopperStatusHistory(events.map((event, i) => ({ event, at: at(i) })));
    expect(history.map((h) => h.statusLabel)).toEqual(['New', 'Open', 'Waiting for Customer', 'Closed']);
    expect(history[1]!.at).toBe(at(filing.length));
    expect(history[0]!.at).toBe(at(filing.findIndex((e) => e.type === 'ClaimFiled')));
  });

  it('shows the shopper a reversal only as the status it sends a decided claim back to, never its reason (docs/decisions/reversed-resolutions.md)', () => {
    const reverse: ClaimCommand = {
      type: 'ReverseResolution',
      claimId: claim.id,
      storeId: claim.storeId,
      clawbackEntryIds: RES,
      reason: 'Charged back',
      actor,
      now: NOW,
    };
    const refunded = filed.when(resolve({ resolutionType: 'REFUND' })).thenMatches([{ type: 'ClaimResolved' }]);
    const reversed = given(claimDecider, [...filing, ...refunded])
      .when(reverse)
      .thenMatches([{ type: 'ClaimResolutionReversed' }, { type: 'ClaimStatusChanged' }]);
    const history = shopperStatusHistory([...filing, ...refunded, ...reversed].map((event) => ({ event, at: NOW })));
    expect(history.map((h) => h.status)).toEqual(['NEW', 'RESOLVED', 'OPEN']);
    expect(JSON.stringify(history)).not.toContain('Charged back');
  });
});

describe('rules the server holds, not the page', () => {
  it('refuses a resolution type the store does not offer, and allows the ones it always may give', () => {
    const noRefunds = { ...storeTerms, capabilities: { ...settings.capabilities, refund: false } };
    filed.when(resolve({ resolutionType: 'REFUND' }, noRefunds)).then(refused('unsupported_resolution'));
    filed.when(resolve({ resolutionType: 'FLAT_RATE', amount: 5 }, noRefunds)).thenMatches([{ type: 'ClaimResolved' }]);
  });

  it('never reaches a decision status through a status change, and closes an unresolved claim only with a reason', () => {
    for (const to of ['DENIED', 'RESOLVED', 'APPROVED', 'RESOLVED_BY_BRAND'] as const)
      filed.when(changeStatus(to)).then(refused('invalid_transition'));
    filed.when(changeStatus('CLOSED')).then(refused('validation_failed'));
    filed
      .when({ type: 'ChangeClaimStatus', claimId: claim.id, to: 'CLOSED', note: null, reason: 'NO_RESPONSE' })
      .thenMatches([{ type: 'ClaimStatusChanged', data: { to: 'CLOSED' } }]);
  });
});

describe('per-item decisions', () => {
  /** Order 1001's three lines on one claim. */
  const threeItems: readonly DomainEvent[] = (() => {
    const decided = orderClaimsDecider.decide(
      {
        ...fileClaim({
          fulfillmentIssues: [
            {
              sourceFulfillmentId: 'f-1',
              issues: ['li-1', 'li-2', 'li-3'].map((sourceItemId) => ({
                sourceItemId,
                claimType: 'DAMAGED' as const,
                quantity: 1,
                details: '',
                images: [],
              })),
            },
          ],
        }),
        itemIds: [
          'a1111111-1111-4111-8111-111111111111',
          'a2222222-2222-4222-8222-222222222222',
          'a3333333-3333-4333-8333-333333333333',
        ],
      },
      orderClaimsDecider.initialState,
    );
    if (!decided.ok) throw new Error(decided.error.message);
    return decided.value;
  })();
  const ids = Array.from({ length: 4 }, (_, i) => `b${i}111111-1111-4111-8111-111111111111`);
  const resolveItems = (request: ResolveClaim['request'], terms = storeTerms): ClaimCommand => ({
    type: 'ResolveClaim',
    claimId: 'a1111111-1111-4111-8111-111111111111',
    resolutionIds: ids,
    actor,
    now: NOW,
    request,
    ...terms,
  });
  const itemIds = given(claimDecider, threeItems).state!.items.map((i) => i.id);
  const type = fc.constantFrom<ResolutionType>('REFUND', 'RESHIP', 'STORE_CREDIT', 'DENY');

  it('decides each item exactly once over any passes, and resolves the claim only with the last one', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(type, { minLength: 3, maxLength: 3 }),
        (order3, firstPass, types) => {
          const passes = [order3.slice(0, firstPass), order3.slice(firstPass)].filter((p) => p.length > 0);
          let history = [...threeItems];
          for (const [n, pass] of passes.entries()) {
            const decided = given(claimDecider, history)
              .when(
                resolveItems({
                  resolutionType: 'REFUND',
                  reason: 'OTHER',
                  items: pass.map((i) => ({ claimItemId: itemIds[i]!, resolutionType: types[i]! })),
                }),
              )
              .thenMatches([{ type: 'ClaimResolved' }]);
            history = [...history, ...decided];
            const status = given(claimDecider, history).state!.status;
            if ((n === passes.length - 1) !== (status === 'RESOLVED' || status === 'DENIED')) return false;
            // Deciding a decided item again is refused, and so is deciding when nothing is left.
            given(claimDecider, history)
              .when(resolveItems({ resolutionType: 'REFUND', items: [{ claimItemId: itemIds[pass[0]!]! }] }))
              .then(refused('already_resolved'));
          }
          const claim = given(claimDecider, history).state!;
          return (
            claim.resolutions.length === 3 &&
            new Set(claim.resolutions.map((r) => r.relatedClaimItemId)).size === 3 &&
            (claim.status === 'DENIED') === types.every((t) => t === 'DENY')
          );
        },
      ),
    );
  });

  it("applies the request's type to listed items without their own, and to every undecided item when none are listed", () => {
    const first = given(claimDecider, threeItems)
      .when(
        resolveItems({
          resolutionType: 'RESHIP',
          items: [
            { claimItemId: itemIds[0]! },
            { claimItemId: itemIds[1]!, resolutionType: 'DENY', reason: 'PHOTO_VERIFIED' },
          ],
        }),
      )
      .thenMatches([
        { data: { status: 'NEW', resolutions: [{ resolutionType: 'RESHIP' }, { resolutionType: 'DENY' }] } },
      ]);
    const rest = given(claimDecider, [...threeItems, ...first])
      .when(resolveItems({ resolutionType: 'REFUND' }))
      .thenMatches([
        { data: { status: 'RESOLVED', resolutions: [{ relatedClaimItemId: itemIds[2], resolutionType: 'REFUND' }] } },
      ]);
    given(claimDecider, [...threeItems, ...first, ...rest])
      .when(resolveItems({ resolutionType: 'REFUND' }))
      .then(refused('already_resolved'));
  });

  it("refuses an item type the store does not offer, even when the request's type is offered", () => {
    given(claimDecider, threeItems)
      .when(
        resolveItems(
          { resolutionType: 'REFUND', items: [{ claimItemId: itemIds[0]!, resolutionType: 'STORE_CREDIT' }] },
          { ...storeTerms, capabilities: { ...settings.capabilities, credit: false } },
        ),
      )
      .then(refused('unsupported_resolution'));
  });
});

describe('the decision of a claim as a whole', () => {
  /** The jacket and the mug of order 1001 on one claim. */
  const twoItems: readonly DomainEvent[] = (() => {
    const decided = orderClaimsDecider.decide(
      {
        ...fileClaim(jacketAndMug),
        itemIds: ['a1111111-1111-4111-8111-111111111111', 'a3333333-3333-4333-8333-333333333333'],
      },
      orderClaimsDecider.initialState,
    );
    if (!decided.ok) throw new Error(decided.error.message);
    return decided.value;
  })();
  const [jacket, mug] = given(claimDecider, twoItems).state!.items.map((i) => i.id);
  let next = 0;
  const lineId = () => `c${String(next++).padStart(7, '0')}-1111-4111-8111-111111111111`;
  const decide = (history: readonly DomainEvent[], request: ResolveClaim['request']) => {
    const [event] = given(claimDecider, history)
      .when({
        type: 'ResolveClaim',
        claimId: 'a1111111-1111-4111-8111-111111111111',
        resolutionIds: [lineId(), lineId()],
        actor,
        now: NOW,
        request,
        ...storeTerms,
      })
      .thenMatches([{ type: 'ClaimResolved' }]);
    return event as EventOf<'ClaimResolved'>;
  };

  it('leaves a decision on some items a partial one: no whole decision, no decision mail', () => {
    const first = decide(twoItems, { resolutionType: 'STORE_CREDIT', items: [{ claimItemId: jacket! }] });
    expect(first.data).toMatchObject({ status: 'NEW', outcome: 'APPROVED' });
    expect(first.data.claimResolutions).toBeUndefined();
    expect([decidesWholeClaim(first.data), wholeDecisionOf(first.data), notificationKindOf(first)]).toEqual([
      false,
      null,
      null,
    ]);
  });

  it('carries every standing line once the last item is decided, with the outcome of them all', () => {
    const first = decide(twoItems, { resolutionType: 'STORE_CREDIT', items: [{ claimItemId: jacket! }] });
    const last = decide([...twoItems, first], {
      resolutionType: 'DENY',
      reason: 'NOT_COVERED',
      items: [{ claimItemId: mug! }],
    });
    // This decision denies; the claim's, with the jacket's credit standing, approves.
    expect(last.data).toMatchObject({ status: 'RESOLVED', outcome: 'DENIED' });
    expect(last.data.claimResolutions).toEqual([...first.data.resolutions, ...last.data.resolutions]);
    expect(wholeDecisionOf(last.data)).toEqual({
      outcome: 'APPROVED',
      resolutions: [...first.data.resolutions, ...last.data.resolutions],
    });
    expect(notificationKindOf(last)).toBe('claim_resolved');
    // Denying both is a denied claim.
    const denied = decide(twoItems, { resolutionType: 'DENY', reason: 'NOT_COVERED' });
    expect(wholeDecisionOf(denied.data)).toMatchObject({
      outcome: 'DENIED',
      resolutions: [{ relatedClaimItemId: jacket }, { relatedClaimItemId: mug }],
    });
  });

  it('decides the claim anew after a reversal, with only the lines standing after it', () => {
    const first = decide(twoItems, { resolutionType: 'REFUND', items: [{ claimItemId: jacket! }] });
    const whole = decide([...twoItems, first], { resolutionType: 'RESHIP', items: [{ claimItemId: mug! }] });
    const history = [...twoItems, first, whole];
    const reversed = given(claimDecider, history)
      .when({
        type: 'ReverseResolution',
        claimId: 'a1111111-1111-4111-8111-111111111111',
        storeId: order.storeId,
        clawbackEntryIds: [lineId(), lineId()],
        reason: 'Charged back',
        actor,
        now: NOW,
      })
      .thenMatches([{ type: 'ClaimResolutionReversed' }, { type: 'ClaimStatusChanged', data: { to: 'OPEN' } }]);
    const again = decide([...history, ...reversed], { resolutionType: 'DENY', reason: 'NOT_COVERED' });
    expect(wholeDecisionOf(again.data)).toEqual({ outcome: 'DENIED', resolutions: again.data.resolutions });
    expect(notificationKindOf(again)).toBe('claim_resolved');
  });

  it('takes an older event, recorded without the standing lines, for the whole decision by its own lines', () => {
    const { claimResolutions: _absent, ...older } = decide(twoItems, { resolutionType: 'REFUND' }).data;
    expect(wholeDecisionOf(older)).toEqual({ outcome: 'APPROVED', resolutions: older.resolutions });
    expect(wholeDecisionOf({ ...older, status: 'OPEN' })).toBeNull();
  });
});
