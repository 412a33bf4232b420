import { describe, expect, it } from 'vitest';
import { claimDecider, decideFileClaim, initialOrderClaimsState, isResolvable } from '../src/index.js';
import { given, refused } from './support/givenWhenThen.js';
import { NOW } from './fixtures.js';
import { demoOrder, demoStore } from './demoOrders.js';

const agent = { type: 'user' as const, id: 'u-1', name: 'Riley Agent' };
const acme = demoStore('acme');
const order = demoOrder('1001');
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function filedClaim() {
  const filed = decideFileClaim(
    {
      type: 'FileClaim',
      claimId: id(1),
      claimNumber: '10001',
      tokenHash: 'h',
      itemIds: [id(2)],
      now: NOW,
      request: {
        email: order.customerEmail,
        fulfillmentIssues: [
          {
            sourceFulfillmentId: order.fulfillments[0]!.sourceFulfillmentId,
            issues: [
              {
                sourceItemId: order.items[0]!.sourceItemId,
                claimType: 'DAMAGED',
                quantity: 1,
                details: 'broken',
                images: [],
              },
            ],
          },
        ],
        resolution: { desiredMethod: 'REFUND', customerSignature: 'A Shopper' },
      },
    },
    {
      order,
      settings: { ...acme.settings, claimWaitDays: 0, claimWindowDays: 3650 },
      orderClaims: initialOrderClaimsState(),
    },
  );
  if (!filed.ok) throw new Error(filed.error.message);
  return filed.value.filter((e) => e.type === 'ClaimFiled');
}

const reverse = {
  type: 'ReverseResolution' as const,
  claimId: id(1),
  storeId: acme.id,
  clawbackEntryIds: [id(9)],
  reason: 'Charged back',
  actor: agent,
  now: NOW,
};

describe("reversing a claim's resolution", () => {
  it('undoes every line, names a clawback entry per line, and puts the decided claim back in work', () => {
    const filing = filedClaim();
    given(claimDecider, filing).when(reverse).then(refused('invalid_transition'));
    const resolved = [
      ...filing,
      ...given(claimDecider, filing)
        .when({
          type: 'ResolveClaim',
          claimId: id(1),
          resolutionIds: [id(3)],
          actor: agent,
          now: NOW,
          request: { resolutionType: 'REFUND', reason: 'OTHER' },
          capabilities: acme.settings.capabilities,
          valuation: {
            storeCurrency: 'USD',
            exchangeRate: 1,
            rules: { replacementCostPercent: 100 },
            credit: { bonus: 0, bonusType: 'percentage' },
          },
        })
        .thenMatches([{ type: 'ClaimResolved', data: { status: 'RESOLVED' } }]),
    ];

    given(claimDecider, resolved)
      .when({ ...reverse, clawbackEntryIds: [] })
      .then(refused('validation_failed'));
    const reversed = given(claimDecider, resolved)
      .when(reverse)
      .then([
        {
          type: 'ClaimResolutionReversed',
          data: {
            claimId: id(1),
            storeId: acme.id,
            lines: [{ resolutionId: id(3), clawbackEntryId: id(9) }],
            reason: 'Charged back',
            reversedBy: 'u-1',
            reversedAt: NOW,
          },
        },
        {
          type: 'ClaimStatusChanged',
          data: { claimId: id(1), from: 'RESOLVED', to: 'OPEN', note: 'Resolution reversed: Charged back' },
        },
      ]);
    const after = given(claimDecider, [...resolved, ...reversed]);
    expect(after.state).toMatchObject({ status: 'OPEN', resolutions: [] });
    expect(isResolvable(after.state!)).toBe(true);
    // Once taken back there is nothing left to reverse.
    after.when(reverse).then(refused('invalid_transition'));
  });
});
