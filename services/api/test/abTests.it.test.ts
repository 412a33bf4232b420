import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbTestsResponse, CustomerOrder, OfferResponse, StoreCreditLedger } from '@claims/contracts';
import { eventually } from '../../../test/support/testDatabase.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

describe('A/B tests of the store-credit bonus', () => {
  let h: Harness;
  let owner: string;
  let acme: string;
  beforeAll(async () => {
    h = await startHarness();
    owner = await h.login('acmeOwner');
    acme = await h.storeId('acme');
  });
  afterAll(() => h.stop());

  const offer = async (order: string, email: string) => {
    const found = CustomerOrder.parse(
      json(await h.call({ method: 'GET', url: `/api/order-lookup?order=${order}&email=${encodeURIComponent(email)}` })),
    );
    const response = await h.call({
      method: 'POST',
      url: '/api/sessions/offer',
      body: { orderId: found.systemOrderId, email },
    });
    expect(response.statusCode, response.body).toBe(200);
    return OfferResponse.parse(json(response));
  };

  it("issues the credit at the bonus the shopper's variant offered, and counts the claim in that variant", async () => {
    const variants = [
      { id: 'small', label: '5% bonus', creditBonus: 5, creditBonusType: 'percentage' },
      { id: 'large', label: '25% bonus', creditBonus: 25, creditBonusType: 'percentage' },
    ];
    const started = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${acme}/ab-tests`,
      cookie: owner,
      body: { name: 'Bonus size', variants },
    });
    expect(started.statusCode, started.body).toBe(201);
    const again = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${acme}/ab-tests`,
      cookie: owner,
      body: { name: 'Another', variants },
    });
    expect(json<{ error: string }>(again).error).toBe('ab_test_running');
    const viewer = await h.login('acmeViewer');
    expect(
      (
        await h.call({
          method: 'POST',
          url: `/api/admin/stores/${acme}/ab-tests`,
          cookie: viewer,
          body: { name: 'Mine', variants },
        })
      ).statusCode,
    ).toBe(403);
    // A wrong email is the same 404 as no order: the offer proves the order like the draft does.
    const found = CustomerOrder.parse(
      json(await h.call({ method: 'GET', url: '/api/order-lookup?order=1008&email=hugo%40example.com' })),
    );
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/sessions/offer',
          body: { orderId: found.systemOrderId, email: 'mallory@example.com' },
        })
      ).statusCode,
    ).toBe(404);

    const hugo = await offer('1008', 'hugo@example.com');
    const percent = hugo.credit.bonus;
    expect([5, 25]).toContain(percent);

    const filed = await h.fileClaim('acme-5008', oneItemClaim('hugo@example.com', 'f-1008-1', 'li-12', 'STORE_CREDIT'));
    await h.resolveClaim(owner, filed.claimId, { resolutionType: 'STORE_CREDIT' });
    const entry = await eventually(async () => {
      const ledger = StoreCreditLedger.parse(
        json(
          await h.call({
            method: 'GET',
            url: `/api/admin/stores/${acme}/store-credit/ledger?email=hugo%40example.com`,
            cookie: owner,
          }),
        ),
      );
      expect(ledger.entries).toHaveLength(1);
      return ledger.entries[0]!;
    });
    // The bonus is the variant's share of the credit (to the cent), not the store's own 10%.
    const bonus = entry.bonus ?? 0;
    expect(bonus).toBeGreaterThan(0);
    expect(bonus).toBeCloseTo(((entry.amount - bonus) * percent) / 100, 1);

    await h.runtime.settle();
    const tests = AbTestsResponse.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/ab-tests`, cookie: owner })),
    );
    const variant = tests.tests[0]!.variants.find((v) => v.variantId === hugo.test!.variantId)!;
    expect(variant).toMatchObject({ sessions: 1, claimsFiled: 1 });
    expect(variant.resolutions.find((r) => r.resolution === 'STORE_CREDIT')).toEqual({
      resolution: 'STORE_CREDIT',
      claims: 1,
      takeRate: 1,
    });
    expect(tests.tests[0]!.significance).toMatchObject({ significant: false, winner: null });
  });
});
