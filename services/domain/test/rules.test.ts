import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClaimStatus, CustomerResolution, EligibilityCode } from '@claims/contracts';
import {
  canMove,
  fulfillmentEligibility,
  fulfillmentFileable,
  isResolvable,
  latestIssuePerItem,
  itemEligibility,
  lineValue,
  protectionStatus,
  remainingQuantity,
  requestedResolution,
  setResolutionFinal,
  setResolutionQuantity,
  STATUS_TRANSITIONS,
  validQuantity,
  isMultipleType,
} from '../src/index.js';
import { NOW, order, settings } from './fixtures.js';

const line = fc.record({
  quantity: fc.integer({ min: 1, max: 1000 }),
  refundedQuantity: fc.integer({ min: 0, max: 1200 }),
});

describe('valid quantity (docs/product.md#claimable-quantity)', () => {
  it('is the claimed quantity when it fits, otherwise what remains', () => {
    fc.assert(
      fc.property(line, fc.integer({ min: 1, max: 2000 }), (item, claimed) => {
        const remaining = Math.max(0, item.quantity - item.refundedQuantity);
        const result = validQuantity(item, claimed);
        expect(result).toBe(remaining <= 0 || claimed > remaining ? remaining : claimed);
        expect(result).toBeGreaterThanOrEqual(0);
        expect(result).toBeLessThanOrEqual(remaining);
      }),
    );
  });

  it('never leaves anything to claim of a fully refunded line', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.nat(100), (quantity, extra) => {
        expect(remainingQuantity({ quantity, refundedQuantity: quantity + extra })).toBe(0);
      }),
    );
  });
});

describe('requested resolution (docs/product.md#requested-resolution)', () => {
  const choice = fc.constantFrom(...CustomerResolution.options);
  it('is the mixed marker when items disagree, the shared choice when they agree, refund when there is none', () => {
    fc.assert(
      fc.property(fc.array(fc.option(choice, { nil: null }), { maxLength: 12 }), (requested) => {
        const items = requested.map((r) => ({ resolutionRequested: r }));
        const distinct = new Set(requested.filter((r) => r !== null));
        const expected = distinct.size > 1 ? 'MIXED' : distinct.size === 1 ? [...distinct][0] : 'REFUND';
        expect(requestedResolution(items)).toBe(expected);
      }),
    );
  });
});

describe('protection status (docs/product.md#protection-status)', () => {
  const policy = { insuredAmount: 1, premiumPaid: 1, premiumCurrency: 'USD', removedAt: null };
  it('prefers ota, then removed, then protected, else unprotected', () => {
    expect(protectionStatus({ isOta: true, policy })).toBe('ota');
    expect(protectionStatus({ isOta: false, policy: { ...policy, removedAt: NOW } })).toBe('removed');
    expect(protectionStatus({ isOta: false, policy })).toBe('protected');
    expect(protectionStatus({ isOta: false, policy: null })).toBe('unprotected');
  });
});

describe('claim rules', () => {
  it('is resolvable while some item is undecided; a claim-level line settles them all', () => {
    const items = [{ id: 'a' }, { id: 'b' }] as never[];
    const line = (relatedClaimItemId: string | null) => ({ relatedClaimItemId }) as never;
    expect(isResolvable({ items, resolutions: [] })).toBe(true);
    expect(isResolvable({ items, resolutions: [line('a')] })).toBe(true);
    expect(isResolvable({ items, resolutions: [line('a'), line('b')] })).toBe(false);
    expect(isResolvable({ items, resolutions: [line(null)] })).toBe(false);
  });
  it('is multiple-type by its type or by distinct item types', () => {
    expect(isMultipleType('MULTIPLE', [])).toBe(true);
    expect(isMultipleType('DAMAGED', [{ claimType: 'DAMAGED' }, { claimType: 'WRONG_ITEM' }])).toBe(true);
    expect(isMultipleType('DAMAGED', [{ claimType: 'DAMAGED' }, { claimType: 'DAMAGED' }])).toBe(false);
  });
  it('clears quantity, percentage and quantity type when the final flag is cleared; stores none for quantity ≤ 0', () => {
    const draft = {
      resolutionFinal: true,
      resolutionQuantity: 2,
      resolutionPercentage: 50,
      quantityType: 'partial' as const,
    };
    expect(setResolutionFinal(draft, false)).toEqual({
      resolutionFinal: false,
      resolutionQuantity: null,
      resolutionPercentage: 0,
      quantityType: null,
    });
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 0 }), (q) => {
        expect(setResolutionQuantity(draft, q).resolutionQuantity).toBeNull();
      }),
    );
  });
  it('values a line as unit price less its discount share plus its tax share', () => {
    expect(lineValue({ price: 1800, discount: 300, tax: 432, orderedQuantity: 3 }, 2)).toBe(3600 - 200 + 288);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 20 }), (price, qty) => {
        expect(lineValue({ price, discount: 0, tax: 0, orderedQuantity: qty }, qty)).toBe(price * qty);
      }),
    );
  });
});

describe('status machine', () => {
  it('never leaves ARCHIVED, and every listed move is between known statuses', () => {
    expect(STATUS_TRANSITIONS.ARCHIVED).toEqual([]);
    fc.assert(
      fc.property(fc.constantFrom(...ClaimStatus.options), fc.constantFrom(...ClaimStatus.options), (from, to) => {
        expect(canMove(from, to)).toBe(STATUS_TRANSITIONS[from].includes(to));
      }),
    );
    expect(canMove('NEW', 'OPEN')).toBe(true);
    expect(canMove('CLOSED', 'OPEN')).toBe(false);
  });
});

describe('eligibility per fulfillment', () => {
  const f = order.fulfillments[0]!;
  const at = (deliveredDaysAgo: number) => ({
    ...f,
    deliveredAt: new Date(Date.parse(NOW) - deliveredDaysAgo * 86_400_000).toISOString(),
  });
  it('is too soon inside the wait, eligible inside the window, expired after it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), (days) => {
        const result = fulfillmentEligibility(at(days), order, settings, new Set(), NOW);
        const expected =
          days < settings.claimWaitDays ? 'too_soon' : days > settings.claimWindowDays ? 'expired' : null;
        expect(result.eligibilityCode).toBe(expected);
        expect(result.eligible).toBe(expected === null);
      }),
    );
  });
  it('is not shipped without a shipment, unprotected without a policy, already claimed when every line is taken', () => {
    expect(
      fulfillmentEligibility({ ...f, status: 'UNFULFILLED', shippedAt: null }, order, settings, new Set(), NOW)
        .eligibilityCode,
    ).toBe('not_shipped');
    expect(fulfillmentEligibility(f, { ...order, protected: false }, settings, new Set(), NOW).eligibilityCode).toBe(
      'unprotected',
    );
    expect(fulfillmentEligibility(f, order, settings, new Set(['li-1', 'li-2', 'li-3']), NOW).eligibilityCode).toBe(
      'already_claimed',
    );
  });
  it('counts what each line may still claim', () => {
    expect(itemEligibility(order, new Set(['li-3']))).toEqual({ 'li-1': 1, 'li-2': 3, 'li-3': 0 });
  });
});

describe('fileable shipments', () => {
  it('takes a claim when eligible, or when only protection is missing and a one-time appeasement is open', () => {
    const code = fc.option(fc.constantFrom(...EligibilityCode.options), { nil: null });
    fc.assert(
      fc.property(fc.boolean(), code, fc.boolean(), (eligible, eligibilityCode, ota) => {
        expect(fulfillmentFileable({ eligible, eligibilityCode }, ota)).toBe(
          eligible || (ota && eligibilityCode === 'unprotected'),
        );
      }),
    );
    expect(fulfillmentFileable({ eligible: false, eligibilityCode: 'expired' }, true)).toBe(false);
  });
});

describe('issue replacement (docs/product.md#draft-claim)', () => {
  const issue = fc.record({ sourceItemId: fc.constantFrom('li-1', 'li-2', 'li-3', 'li-4'), n: fc.nat() });
  it('keeps one issue per item, the last one reported, in the order the kept ones were reported', () => {
    fc.assert(
      fc.property(fc.array(issue, { maxLength: 20 }), (issues) => {
        const kept = latestIssuePerItem(issues);
        expect(kept.map((i) => i.sourceItemId).sort()).toEqual([...new Set(issues.map((i) => i.sourceItemId))].sort());
        for (const k of kept) expect(k).toBe(issues.findLast((i) => i.sourceItemId === k.sourceItemId));
        const positions = kept.map((k) => issues.lastIndexOf(k));
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }),
    );
  });
  it('lets a new report for an item replace the earlier one and leaves the other items be', () => {
    const earlier = [
      { sourceItemId: 'li-1', n: 1 },
      { sourceItemId: 'li-2', n: 2 },
    ];
    expect(latestIssuePerItem([...earlier, { sourceItemId: 'li-1', n: 3 }])).toEqual([
      { sourceItemId: 'li-2', n: 2 },
      { sourceItemId: 'li-1', n: 3 },
    ]);
  });
});
