import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  defaultClaimCeiling,
  toMinor,
  type Claim,
  type ClaimCommand,
  type DomainEvent,
  type ResolutionType,
  type ResolveClaim,
  type Valuation,
} from '@claims/contracts';
import {
  claimDecider,
  foldEvents,
  lineValue,
  orderClaimsDecider,
  payoutLinesOf,
  unrecordedValuation,
} from '../src/index.js';
import { actor, fileClaim, NOW, settings } from './fixtures.js';
import { given, refused } from './support/givenWhenThen.js';

/** A claim on every line of order 1001: the jacket, all three socks and the mug. */
const filing: readonly DomainEvent[] = (() => {
  const issue = (sourceItemId: string, quantity: number) => ({
    sourceItemId,
    claimType: 'DAMAGED' as const,
    quantity,
    details: 'broken',
    images: [],
  });
  const decided = orderClaimsDecider.decide(
    fileClaim({
      fulfillmentIssues: [
        { sourceFulfillmentId: 'f-1', issues: [issue('li-1', 1), issue('li-2', 3), issue('li-3', 1)] },
      ],
    }),
    orderClaimsDecider.initialState,
  );
  if (!decided.ok) throw new Error(decided.error.message);
  return decided.value;
})();
const filed = foldEvents(claimDecider, filing)!;
const worthOf = (claim: Claim, itemId: string) =>
  lineValue(
    claim.items.find((i) => i.id === itemId)!,
    claim.items.find((i) => i.id === itemId)!.quantity,
  );
const claimWorth = filed.items.reduce((total, item) => total + lineValue(item, item.quantity), 0);

const ids = Array.from({ length: 8 }, (_, i) => `${i + 1}1111111-1111-4111-8111-11111111111${i}`);
const usd = (claimCeiling?: number): Valuation => {
  const base = unrecordedValuation('USD');
  return { ...base, rules: { ...base.rules, ...(claimCeiling === undefined ? {} : { claimCeiling }) } };
};
const resolve = (request: ResolveClaim['request'], valuation = usd()): ClaimCommand => ({
  type: 'ResolveClaim',
  claimId: filed.id,
  resolutionIds: ids,
  actor,
  now: NOW,
  request,
  capabilities: settings.capabilities,
  valuation,
});
const reverse: ClaimCommand = {
  type: 'ReverseResolution',
  claimId: filed.id,
  storeId: filed.storeId,
  clawbackEntryIds: ids,
  reason: 'Decided again',
  actor,
  now: NOW,
};

describe('a decision pays no more than the claim is worth', () => {
  const [jacket, socks] = filed.items;
  const open = given(claimDecider, filing);

  it('refuses an item decided above its claimed value, naming that value', () => {
    // The jacket: 129.00 plus 10.32 tax.
    open
      .when(resolve({ resolutionType: 'CUSTOM', items: [{ claimItemId: jacket!.id, amount: 1_000_000 }] }))
      .then(refused('exceeds_claimed_value', 'Trail Jacket is worth 139.32 USD as claimed'));
    open
      .when(resolve({ resolutionType: 'CUSTOM', items: [{ claimItemId: jacket!.id, amount: 139.32 }] }))
      .thenMatches([{ type: 'ClaimResolved' }]);
  });

  it('refuses a flat claim-level amount above what the open items are worth', () => {
    open
      .when(resolve({ resolutionType: 'FLAT_RATE', amount: claimWorth / 100 + 0.01 }))
      .then(refused('exceeds_claimed_value'));
    const jacketRefunded = open
      .when(resolve({ resolutionType: 'REFUND', items: [{ claimItemId: jacket!.id }] }))
      .thenMatches([{ type: 'ClaimResolved' }]);
    given(claimDecider, [...filing, ...jacketRefunded])
      .when(resolve({ resolutionType: 'FLAT_RATE', amount: claimWorth / 100 - 100 }))
      .then(refused('exceeds_claimed_value', 'still open'));
  });

  it("refuses a claim paying past the store's ceiling, and pays up to it", () => {
    open
      .when(resolve({ resolutionType: 'REFUND', items: [{ claimItemId: socks!.id }] }, usd(50)))
      .then(refused('exceeds_claim_ceiling', '50 USD'));
    open
      .when(resolve({ resolutionType: 'CUSTOM', items: [{ claimItemId: socks!.id, amount: 50 }] }, usd(50)))
      .thenMatches([{ type: 'ClaimResolved' }]);
  });

  it('bounds a store that set no ceiling by its currency: 5,000 dollars, 500,000 yen', () => {
    expect([defaultClaimCeiling('USD'), defaultClaimCeiling('EUR'), defaultClaimCeiling('JPY')]).toEqual([
      5_000, 5_000, 500_000,
    ]);
    // The whole claim, worth more than 5,000 yen at 150 yen to the dollar, in a yen store that never set a ceiling.
    expect((claimWorth / 100) * 150).toBeGreaterThan(5_000);
    const yenStore: Valuation = { ...usd(), storeCurrency: 'JPY', exchangeRate: 1 / 150 };
    open
      .when(resolve({ resolutionType: 'REFUND', items: filed.items.map((i) => ({ claimItemId: i.id })) }, yenStore))
      .thenMatches([{ type: 'ClaimResolved' }]);
  });

  it('parses decimals exactly: 1.005 dollars are 101 cents, not 100.49999…', () => {
    expect(toMinor(1.005, 'USD')).toBe(101);
    expect(toMinor(9.995, 'USD')).toBe(1000);
    expect(toMinor(2400.5, 'JPY')).toBe(2401);
    expect(toMinor(1e-7, 'USD')).toBe(0);
    expect(toMinor(1e21, 'USD')).toBe(1e23);
  });

  const type = fc.constantFrom<ResolutionType>('REFUND', 'RESHIP', 'STORE_CREDIT', 'FLAT_RATE', 'CUSTOM', 'DENY');
  const amount = fc.oneof(
    fc.integer({ min: 0, max: 50_000 }).map((cents) => cents / 100),
    fc.double({ min: 0, max: 1e22, noNaN: true }),
    fc.constant(9e16),
  );
  const line = fc.record(
    {
      claimItemId: fc.constantFrom(...filed.items.map((i) => i.id)),
      resolutionType: fc.option(type, { nil: undefined }),
      quantity: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      percentage: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      amount: fc.option(amount, { nil: undefined }),
      final: fc.option(fc.boolean(), { nil: undefined }),
    },
    { requiredKeys: ['claimItemId'] },
  );
  const step: fc.Arbitrary<ClaimCommand> = fc.oneof(
    // A flat claim-level amount, every open item at once, or some items, each with its own terms.
    fc
      .tuple(
        type,
        fc.option(amount, { nil: undefined }),
        fc.option(fc.array(line, { minLength: 1, maxLength: 3 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
      )
      .map(([resolutionType, flat, items, ceiling]) =>
        resolve(
          {
            resolutionType,
            reason: 'PHOTO_VERIFIED',
            ...(flat === undefined ? {} : { amount: flat }),
            ...(items === undefined ? {} : { items }),
          },
          usd(ceiling),
        ),
      ),
    fc.constant(reverse),
  );

  it('whatever the sequence of decisions, reversals and re-decisions, what stands pays no more than the claim is worth', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        let claim = filed;
        for (const command of steps) {
          const decided = claimDecider.decide(command, claim);
          if (!decided.ok) continue;
          claim = foldEvents(claimDecider, decided.value, claim)!;
          const paid = claim.resolutions.reduce((total, r) => total + r.paidValue, 0);
          expect(paid).toBeLessThanOrEqual(claimWorth);
          for (const r of claim.resolutions)
            if (r.relatedClaimItemId) expect(r.paidValue).toBeLessThanOrEqual(worthOf(claim, r.relatedClaimItemId));
          if (command.type === 'ResolveClaim') {
            const payout = payoutLinesOf(
              { claimId: claim.id, resolutions: claim.resolutions, valuation: command.valuation },
              'USD',
            ).reduce((t, l) => t + l.amount, 0);
            expect(payout).toBeLessThanOrEqual(
              toMinor(command.valuation.rules.claimCeiling ?? defaultClaimCeiling('USD'), 'USD'),
            );
            expect(Number.isSafeInteger(payout)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
