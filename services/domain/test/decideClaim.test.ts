import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Claim, DomainEvent, ResolutionType, ResolveClaim } from '@claims/contracts';
import { decideClaim, decideFileClaim, decideSession, evolveClaim, evolveSession } from '../src/index.js';
import { emptyLedger, fileClaim, NOW, order, settings, storeTerms } from './fixtures.js';

const actor = { type: 'user' as const, id: 'u-1', name: 'Riley Agent' };
const RES = ['51111111-1111-4111-8111-111111111111', '61111111-1111-4111-8111-111111111111'];

function filedClaim(): Claim {
  const result = decideFileClaim(fileClaim(), { order, settings, orderClaims: emptyLedger() });
  if (!result.ok) throw new Error(result.error.message);
  return evolveClaim(null, result.value[1]!)!;
}

const given = (claim: Claim, ...events: DomainEvent[]) => events.reduce<Claim | null>(evolveClaim, claim)!;

describe('ResolveClaim', () => {
  it('refunds the claimed socks at their value and resolves the claim', () => {
    const claim = filedClaim();
    const result = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms, request: { resolutionType: 'REFUND' } }, claim);
    expect(result.ok && result.value).toEqual([{
      type: 'ClaimResolved',
      data: expect.objectContaining({ outcome: 'APPROVED', status: 'RESOLVED', resolutions: [expect.objectContaining({ quantity: 2, percentage: 100, paidValue: 3600 - 200 + 288 })] }),
    }]);
  });

  it('is refused once the claim has a resolution', () => {
    const claim = filedClaim();
    const first = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms, request: { resolutionType: 'RESHIP' } }, claim);
    if (!first.ok) throw new Error('setup');
    const resolved = given(claim, ...first.value);
    const again = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms, request: { resolutionType: 'REFUND' } }, resolved);
    expect(again.ok || again.error.code).toBe('already_resolved');
  });

  it('denies only with a reason, paying nothing', () => {
    const claim = filedClaim();
    const noReason = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms, request: { resolutionType: 'DENY' } }, claim);
    expect(noReason.ok || noReason.error.code).toBe('validation_failed');
    const denied = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms, request: { resolutionType: 'DENY', reason: 'PHOTO_VERIFIED' } }, claim);
    expect(denied.ok && denied.value[0]).toMatchObject({ data: { outcome: 'DENIED', status: 'DENIED', resolutions: [{ paidValue: 0, reason: 'PHOTO_VERIFIED' }] } });
  });

  it('pays a flat claim-level amount in minor units, and a percentage of an item', () => {
    const claim = filedClaim();
    const flat = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms, request: { resolutionType: 'FLAT_RATE', amount: 12.5 } }, claim);
    expect(flat.ok && flat.value[0]).toMatchObject({ data: { resolutions: [{ relatedClaimItemId: null, paidValue: 1250 }] } });
    const half = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms,
      request: { resolutionType: 'REFUND', items: [{ claimItemId: claim.items[0]!.id, quantity: 1, percentage: 50 }] } }, claim);
    expect(half.ok && half.value[0]).toMatchObject({ data: { resolutions: [{ quantity: 1, paidValue: Math.round((1800 - 100 + 144) / 2) }] } });
  });

  it('refuses more than was claimed', () => {
    const claim = filedClaim();
    const result = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms,
      request: { resolutionType: 'REFUND', items: [{ claimItemId: claim.items[0]!.id, quantity: 3 }] } }, claim);
    expect(result.ok || result.error.code).toBe('invalid_quantity');
  });
});

describe('status changes and messages', () => {
  it('moves along allowed transitions only', () => {
    const claim = filedClaim();
    const open = decideClaim({ type: 'ChangeClaimStatus', claimId: claim.id, to: 'OPEN', note: null }, claim);
    expect(open.ok && open.value).toEqual([{ type: 'ClaimStatusChanged', data: { claimId: claim.id, from: 'NEW', to: 'OPEN', note: null } }]);
    const archived = given(claim, { type: 'ClaimStatusChanged', data: { claimId: claim.id, from: 'NEW', to: 'CLOSED', note: null } },
      { type: 'ClaimStatusChanged', data: { claimId: claim.id, from: 'CLOSED', to: 'ARCHIVED', note: null } });
    const reopen = decideClaim({ type: 'ChangeClaimStatus', claimId: claim.id, to: 'OPEN', note: null }, archived);
    expect(reopen.ok || reopen.error.code).toBe('invalid_transition');
  });

  it('strips HTML from messages and refuses an empty one', () => {
    const claim = filedClaim();
    const base = { type: 'SendMessage' as const, claimId: claim.id, messageId: RES[0]!, actor, senderType: 'merchant' as const, senderName: 'Riley', medias: [], now: NOW };
    const sent = decideClaim({ ...base, messageContent: '<script>x</script><b>Hello</b>' }, claim);
    expect(sent.ok && sent.value[0]).toMatchObject({ data: { messageContent: 'xHello' } });
    const empty = decideClaim({ ...base, messageContent: '<p> </p>' }, claim);
    expect(empty.ok || empty.error.code).toBe('validation_failed');
  });

  it('takes one review per claim', () => {
    const claim = filedClaim();
    const review = decideClaim({ type: 'AddReview', claimId: claim.id, reviewId: RES[0]!, now: NOW, review: { rating: 5, text: 'Fast' } }, claim);
    if (!review.ok) throw new Error('setup');
    const again = decideClaim({ type: 'AddReview', claimId: claim.id, reviewId: RES[1]!, now: NOW, review: { rating: 1, text: '' } }, given(claim, ...review.value));
    expect(again.ok || again.error.code).toBe('validation_failed');
  });

  it('answers not found for a claim that does not exist', () => {
    const result = decideClaim({ type: 'ChangeClaimStatus', claimId: RES[0]!, to: 'OPEN', note: null }, null);
    expect(result.ok || result.error.code).toBe('claim_not_found');
  });
});

describe('claim session', () => {
  const sessionId = '71111111-1111-4111-8111-111111111111';
  const update = { type: 'UpdateSession' as const, sessionId, orderId: order.id, email: order.customerEmail };
  it('starts, records only what changed, and is gone after deletion', () => {
    const started = decideSession({ ...update, status: 'ORDER_FOUND' }, null);
    expect(started.ok && started.value.map((e) => e.type)).toEqual(['ClaimSessionStarted', 'ClaimSessionStatusChanged']);
    if (!started.ok) return;
    const state = started.value.reduce(evolveSession, null);
    const same = decideSession({ ...update, status: 'ORDER_FOUND' }, state);
    expect(same.ok && same.value).toEqual([]);
    const deleted = decideSession({ type: 'DeleteSession', sessionId, reason: 'shopper' }, state);
    expect(deleted.ok && deleted.value.reduce(evolveSession, state)).toBeNull();
    expect(decideSession({ type: 'DeleteSession', sessionId, reason: 'shopper' }, null).ok).toBe(false);
  });
});

describe('rules the server holds, not the page', () => {
  it('refuses a resolution type the store does not offer, and allows the ones it always may give', () => {
    const claim = filedClaim();
    const noRefunds = { ...settings.capabilities, refund: false };
    const refused = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms, capabilities: noRefunds, request: { resolutionType: 'REFUND' } }, claim);
    expect(refused.ok || refused.error.code).toBe('unsupported_resolution');
    const flat = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, ...storeTerms, capabilities: noRefunds, request: { resolutionType: 'FLAT_RATE', amount: 5 } }, claim);
    expect(flat.ok).toBe(true);
  });

  it('never reaches a decision status through a status change, and closes an unresolved claim only with a reason', () => {
    const claim = filedClaim();
    for (const to of ['DENIED', 'RESOLVED', 'APPROVED', 'RESOLVED_BY_BRAND'] as const) {
      const moved = decideClaim({ type: 'ChangeClaimStatus', claimId: claim.id, to, note: null }, claim);
      expect(moved.ok || moved.error.code).toBe('invalid_transition');
    }
    const bare = decideClaim({ type: 'ChangeClaimStatus', claimId: claim.id, to: 'CLOSED', note: null }, claim);
    expect(bare.ok || bare.error.code).toBe('validation_failed');
    const withReason = decideClaim({ type: 'ChangeClaimStatus', claimId: claim.id, to: 'CLOSED', note: null, reason: 'NO_RESPONSE' }, claim);
    expect(withReason.ok).toBe(true);
  });
});

describe('per-item decisions', () => {
  /** Order 1001's three lines on one claim. */
  function threeItemClaim(): Claim {
    const command = fileClaim({
      fulfillmentIssues: [{ sourceFulfillmentId: 'f-1', issues: ['li-1', 'li-2', 'li-3'].map((sourceItemId) => ({ sourceItemId, claimType: 'DAMAGED' as const, quantity: 1, details: '', images: [] })) }],
    });
    const result = decideFileClaim({ ...command, itemIds: ['a1111111-1111-4111-8111-111111111111', 'a2222222-2222-4222-8222-222222222222', 'a3333333-3333-4333-8333-333333333333'] },
      { order, settings, orderClaims: emptyLedger() });
    if (!result.ok) throw new Error(result.error.message);
    return evolveClaim(null, result.value[1]!)!;
  }
  const ids = Array.from({ length: 4 }, (_, i) => `b${i}111111-1111-4111-8111-111111111111`);
  const resolve = (claim: Claim, request: ResolveClaim['request']) =>
    decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: ids, actor, now: NOW, ...storeTerms, request }, claim);
  const type = fc.constantFrom<ResolutionType>('REFUND', 'RESHIP', 'STORE_CREDIT', 'DENY');

  it('decides each item exactly once over any passes, and resolves the claim only with the last one', () => {
    fc.assert(fc.property(fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 }), fc.integer({ min: 1, max: 3 }), fc.array(type, { minLength: 3, maxLength: 3 }),
      (order3, firstPass, types) => {
        let claim = threeItemClaim();
        const passes = [order3.slice(0, firstPass), order3.slice(firstPass)].filter((p) => p.length > 0);
        for (const [n, pass] of passes.entries()) {
          const result = resolve(claim, { resolutionType: 'REFUND', reason: 'OTHER', items: pass.map((i) => ({ claimItemId: claim.items[i]!.id, resolutionType: types[i]! })) });
          if (!result.ok) return false;
          claim = evolveClaim(claim, result.value[0]!)!;
          const last = n === passes.length - 1;
          if (last !== (claim.status === 'RESOLVED' || claim.status === 'DENIED')) return false;
          // Deciding a decided item again is refused, and so is deciding when nothing is left.
          const again = resolve(claim, { resolutionType: 'REFUND', items: [{ claimItemId: claim.items[pass[0]!]!.id }] });
          if (again.ok || again.error.code !== 'already_resolved') return false;
        }
        const types3 = claim.resolutions.map((r) => [r.relatedClaimItemId, r.resolutionType]);
        return claim.resolutions.length === 3 && new Set(types3.map(([id]) => id)).size === 3
          && (claim.status === 'DENIED') === types.every((t) => t === 'DENY');
      }));
  });

  it('applies the request\'s type to listed items without their own, and to every undecided item when none are listed', () => {
    let claim = threeItemClaim();
    const first = resolve(claim, { resolutionType: 'RESHIP', items: [{ claimItemId: claim.items[0]!.id }, { claimItemId: claim.items[1]!.id, resolutionType: 'DENY', reason: 'PHOTO_VERIFIED' }] });
    if (!first.ok) throw new Error(first.error.message);
    claim = evolveClaim(claim, first.value[0]!)!;
    expect(claim.resolutions.map((r) => r.resolutionType)).toEqual(['RESHIP', 'DENY']);
    expect(claim.status).toBe('NEW');
    const rest = resolve(claim, { resolutionType: 'REFUND' });
    if (!rest.ok) throw new Error(rest.error.message);
    claim = evolveClaim(claim, rest.value[0]!)!;
    expect(claim.resolutions.map((r) => [r.relatedClaimItemId, r.resolutionType])).toEqual([
      [claim.items[0]!.id, 'RESHIP'], [claim.items[1]!.id, 'DENY'], [claim.items[2]!.id, 'REFUND']]);
    expect(claim.status).toBe('RESOLVED');
    const nothingLeft = resolve(claim, { resolutionType: 'REFUND' });
    expect(nothingLeft.ok || nothingLeft.error.code).toBe('already_resolved');
  });

  it('refuses an item type the store does not offer, even when the request\'s type is offered', () => {
    const claim = threeItemClaim();
    const result = decideClaim({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: ids, actor, now: NOW, ...storeTerms, capabilities: { ...settings.capabilities, credit: false },
      request: { resolutionType: 'REFUND', items: [{ claimItemId: claim.items[0]!.id, resolutionType: 'STORE_CREDIT' }] } }, claim);
    expect(result.ok || result.error.code).toBe('unsupported_resolution');
  });
});
