import { describe, expect, it } from 'vitest';
import type { EventOf } from '@claims/contracts';
import { claimDecider, decideFileClaim, foldEvents, initialOrderClaimsState, isResolvable } from '../src/index.js';
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
  return foldEvents(
    claimDecider,
    filed.value.filter((e): e is EventOf<'ClaimFiled'> => e.type === 'ClaimFiled'),
  );
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
    const claim = filedClaim();
    expect(claimDecider.decide(reverse, claim)).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
    const resolved = claimDecider.decide(
      {
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
      },
      claim,
    );
    if (!resolved.ok) throw new Error(resolved.error.message);
    const decided = foldEvents(claimDecider, resolved.value, claim)!;
    expect(decided.status).toBe('RESOLVED');

    expect(claimDecider.decide({ ...reverse, clawbackEntryIds: [] }, decided)).toMatchObject({
      ok: false,
      error: { code: 'validation_failed' },
    });
    const reversed = claimDecider.decide(reverse, decided);
    if (!reversed.ok) throw new Error(reversed.error.message);
    expect(reversed.value).toEqual([
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
    const after = foldEvents(claimDecider, reversed.value, decided)!;
    expect(after).toMatchObject({ status: 'OPEN', resolutions: [] });
    expect(isResolvable(after)).toBe(true);
    // Once taken back there is nothing left to reverse.
    expect(claimDecider.decide(reverse, after)).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
  });
});
