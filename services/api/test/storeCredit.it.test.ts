import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreCreditBalanceList, StoreCreditLedger } from '@claims/contracts';
import { eventually } from '../../../test/support/testDatabase.js';
import { upsertOrder } from '../src/catalog/orderRepository.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

describe('store credit per customer and store: issued by resolutions, redeemed and adjusted, never negative', () => {
  let h: Harness;
  let owner: string;
  let kumoOwner: string;
  let viewer: string;
  let acme: string;
  let kumo: string;
  beforeAll(async () => {
    h = await startHarness();
    owner = await h.login('acmeOwner');
    kumoOwner = await h.login('kumoOwner');
    viewer = await h.login('acmeViewer');
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');
  });
  afterAll(() => h.stop());

  const ledger = async (storeId: string, email: string, cookie = owner) =>
    StoreCreditLedger.parse(
      json(
        await h.call({
          method: 'GET',
          url: `/api/admin/stores/${storeId}/store-credit/ledger?email=${encodeURIComponent(email)}`,
          cookie,
        }),
      ),
    );

  /** A hand adjustment of Hugo's credit at Acme by the holder of `cookie`. */
  const adjust = (cookie: string, amount: number, reason: string) =>
    h.call({
      method: 'POST',
      url: `/api/admin/stores/${acme}/store-credit/adjust`,
      cookie,
      body: { email: 'hugo@example.com', amount, reason },
    });

  it("issues the credit a STORE_CREDIT resolution decides, with the store's bonus, once", async () => {
    const filed = await h.fileClaim('acme-5008', oneItemClaim('hugo@example.com', 'f-1008-1', 'li-12', 'STORE_CREDIT'));
    const resolved = await h.resolveClaim(owner, filed.claimId, { resolutionType: 'STORE_CREDIT' });
    const paid = json<{ resolutions: Array<{ paidValue: number }>; currency: string }>(resolved);
    // Hugo's order is in EUR at 0.92 EUR per USD; Acme (USD) adds a 10% bonus.
    const expected = Math.round((paid.resolutions[0]!.paidValue / 0.92) * 1.1 * 100) / 100;
    const after = await eventually(async () => {
      const found = await ledger(acme, 'HUGO@example.com');
      expect(found.entries).toHaveLength(1);
      // Named by the claim's number too, for the pages (once the claim list has it).
      expect(found.entries[0]!.claimNumber).toBe(filed.claimNumber);
      return found;
    });
    const bonus = Math.round((expected - Math.round((paid.resolutions[0]!.paidValue / 0.92) * 100) / 100) * 100) / 100;
    expect(after).toMatchObject({
      currency: 'USD',
      balance: expected,
      entries: [{ kind: 'issued', amount: expected, bonus, claimId: filed.claimId }],
    });
    // The claim shows the shopper the credit in the order's currency (EUR) with the bonus, once issued.
    const credit = paid.resolutions[0]!.paidValue;
    const shown = {
      currency: 'EUR',
      credit,
      bonus: Math.round(credit * 10) / 100,
      total: Math.round(credit * 110) / 100,
      issuedAt: after.entries[0]!.at,
      reclaimed: null,
    };
    const detail = json<{ storeCredits: unknown[] }>(
      await h.call({ method: 'GET', url: `/api/admin/claims/${filed.claimId}`, cookie: owner }),
    );
    expect(detail.storeCredits).toEqual([{ resolutionId: expect.any(String), ...shown }]);
    const view = json<{ storeCredits: unknown[] }>(
      await h.call({ method: 'GET', url: `/api/claims/${encodeURIComponent(filed.token)}` }),
    );
    expect(view.storeCredits).toEqual(detail.storeCredits);
    await h.runtime.settle();
    const list = StoreCreditBalanceList.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/store-credit`, cookie: owner })),
    );
    expect(list.data).toEqual([
      expect.objectContaining({ customerEmail: 'hugo@example.com', balance: expected, issued: expected }),
    ]);
  });

  it('redeems and adjusts, refuses to go below zero, and changes nothing then', async () => {
    const before = await ledger(acme, 'hugo@example.com');
    const redeem = (amount: number) =>
      h.call({
        method: 'POST',
        url: `/api/admin/stores/${acme}/store-credit/redeem`,
        cookie: owner,
        body: { email: 'hugo@example.com', amount, reference: 'order 2002' },
      });
    const tooMuch = await redeem(before.balance + 0.01);
    expect([tooMuch.statusCode, json<{ error: string }>(tooMuch).error]).toEqual([400, 'validation_failed']);
    const redeemed = StoreCreditLedger.parse(json(await redeem(10)));
    expect(redeemed.balance).toBeCloseTo(before.balance - 10, 2);
    const down = await adjust(owner, -(redeemed.balance + 1), 'typo');
    expect(down.statusCode).toBe(400);
    const up = StoreCreditLedger.parse(json(await adjust(owner, 5, 'Goodwill')));
    expect(up.entries.map((e) => e.kind)).toEqual(['issued', 'redeemed', 'adjusted']);
    expect(up.balance).toBeCloseTo(before.balance - 5, 2);
  });

  it("reclaims the unredeemed part of a reversed resolution's credit and states what was redeemed, through the route", async () => {
    await upsertOrder(h.runtime.ctx.database.db, acme, 'src-SC-1', testOrder('SC-1'));
    const email = 'sc-1@example.com';
    const filed = await h.fileClaim('src-SC-1', oneItemClaim(email, 'SC-1-f', 'SC-1-li', 'STORE_CREDIT'));
    await h.resolveClaim(owner, filed.claimId, { resolutionType: 'STORE_CREDIT' });
    const issued = (
      await eventually(async () => {
        const found = await ledger(acme, email);
        expect(found.entries).toHaveLength(1);
        return found;
      })
    ).balance;
    // The 24.50 USD item with Acme's 10% bonus.
    expect(issued).toBe(26.95);
    const redeem = await h.call({
      method: 'POST',
      url: `/api/admin/stores/${acme}/store-credit/redeem`,
      cookie: owner,
      body: { email, amount: 10, reference: 'order 3003' },
    });
    expect(redeem.statusCode, redeem.body).toBe(200);

    const reversed = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${filed.claimId}/reverse-resolution`,
      cookie: owner,
      body: { reason: 'Charged back' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const after = await eventually(async () => {
      const found = await ledger(acme, email);
      expect(found.entries.map((e) => e.kind)).toEqual(['issued', 'redeemed', 'reclaimed']);
      return found;
    });
    // What was redeemed stays redeemed; the rest is taken back: issued - redeemed - reclaimed = 0.
    expect(after.entries[2]).toMatchObject({
      amount: -16.95,
      claimId: filed.claimId,
      note: 'Charged back (10.00 USD already redeemed, kept)',
    });
    expect(after.balance).toBe(0);
    const detail = json<{ storeCredits: Array<{ reclaimed: unknown }> }>(
      await h.call({ method: 'GET', url: `/api/admin/claims/${filed.claimId}`, cookie: owner }),
    );
    expect(detail.storeCredits.map((c) => c.reclaimed)).toEqual([
      { currency: 'USD', amount: 16.95, redeemed: 10, at: after.entries[2]!.at },
    ]);

    // Decided again and reversed again, the new credit goes back whole; the old reversal reclaims nothing twice.
    await h.resolveClaim(owner, filed.claimId, { resolutionType: 'STORE_CREDIT' });
    await eventually(async () => expect((await ledger(acme, email)).balance).toBe(26.95));
    expect(
      (
        await h.call({
          method: 'POST',
          url: `/api/admin/claims/${filed.claimId}/reverse-resolution`,
          cookie: owner,
          body: { reason: 'Fraud' },
        })
      ).statusCode,
    ).toBe(200);
    const twice = await eventually(async () => {
      const found = await ledger(acme, email);
      expect(found.entries.map((e) => e.kind)).toEqual(['issued', 'redeemed', 'reclaimed', 'issued', 'reclaimed']);
      return found;
    });
    expect([twice.balance, twice.entries[4]!.amount]).toEqual([0, -26.95]);
    await h.runtime.settle();
    const list = StoreCreditBalanceList.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/store-credit`, cookie: owner })),
    );
    expect(list.data).toContainEqual(expect.objectContaining({ customerEmail: email, balance: 0, issued: 53.9 }));
  });

  it("keeps each store's credit to its own team", async () => {
    expect(
      (await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/store-credit`, cookie: kumoOwner })).statusCode,
    ).toBe(404);
    expect((await adjust(viewer, 5, 'x')).statusCode).toBe(403);
    expect((await ledger(kumo, 'hugo@example.com', kumoOwner)).entries).toEqual([]);
  });
});
