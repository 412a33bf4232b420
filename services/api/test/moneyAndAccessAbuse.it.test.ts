import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStream } from '@claims/event-store';
import { findOrderBySourceIdAndEmail, upsertOrder } from '../src/catalog/orderRepository.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { testOrder } from './support/testOrders.js';

/** Issue 24's attacks over HTTP, as a merchant or an integrator would try them: each is refused and leaves nothing behind. */
describe('money and access that cannot be abused', () => {
  let h: Harness;
  let acme: string;
  let kumo: string;
  let owner: string;
  let admin: string;
  let token: string;

  /** A claim on a fresh one-item order of acme worth 24.50 USD (the harness's protected order). */
  const freshClaim = async (number: string) => {
    const input = testOrder(number);
    await upsertOrder(h.runtime.ctx.database.db, acme, `src-${number}`, input);
    return h.fileClaim(`src-${number}`, oneItemClaim(input.customerEmail, `${number}-f`, `${number}-li`, 'REFUND'));
  };
  const resolve = (claimId: string, body: unknown) =>
    h.call({ method: 'POST', url: `/api/v1/claims/${claimId}/resolve`, token, body });
  const versionOf = async (streamId: string) => (await readStream(h.runtime.ctx.database.db, streamId)).version;

  beforeAll(async () => {
    h = await startHarness();
    [acme, kumo] = [await h.storeId('acme'), await h.storeId('kumo')];
    [owner, admin] = [await h.login('acmeOwner'), await h.login('admin')];
    const created = await h.call({
      method: 'POST',
      url: `/api/stores/${acme}/api-tokens`,
      cookie: owner,
      body: { name: 'abuse', permissions: ['claim:resolve', 'claim:read', 'order:create'] },
    });
    expect(created.statusCode).toBe(201);
    token = json<{ token: string }>(created).token;
  });
  afterAll(() => h.stop());

  describe('decisions are bounded', () => {
    it('refuses a custom million on a 24.50 item with 422, books nothing, and takes the item at its value', async () => {
      const { claimId } = await freshClaim('BOUND-1');
      const before = await versionOf(claimId);
      for (const amount of [1_000_000, 1e20, 24.51]) {
        const answer = await resolve(claimId, { resolutionType: 'CUSTOM', amount });
        expect(answer.statusCode, `amount ${amount}`).toBe(422);
        expect(json(answer)).toMatchObject({
          error: 'exceeds_claimed_value',
          message: expect.stringContaining('24.5 USD'),
        });
      }
      expect(await versionOf(claimId)).toBe(before);
      const paid = await resolve(claimId, { resolutionType: 'CUSTOM', amount: 24.5 });
      expect(paid.statusCode).toBe(200);
      expect(json<{ resolutions: Array<{ paidValue?: number; amount?: number }> }>(paid).resolutions).toHaveLength(1);
    });

    it("refuses a decision past the store's claim ceiling, which only internal staff set and merchants read", async () => {
      const ceiling = (cookie: string, claimCeiling: number) =>
        h.call({
          method: 'PUT',
          url: `/api/admin/stores/${acme}/settings/replacement-cost`,
          cookie,
          body: { value: { replacementCostPercent: 100, claimCeiling } },
        });
      expect((await ceiling(owner, 1_000_000)).statusCode).toBe(403);
      expect((await ceiling(admin, 20)).statusCode).toBe(200);
      const read = await h.call({
        method: 'GET',
        url: `/api/admin/stores/${acme}/settings/replacement-cost`,
        cookie: owner,
      });
      expect(read.statusCode).toBe(200);
      expect(read.body).toContain('"claimCeiling":20');

      const { claimId } = await freshClaim('BOUND-2');
      const refused = await resolve(claimId, { resolutionType: 'REFUND' });
      expect(refused.statusCode).toBe(422);
      expect(json(refused)).toMatchObject({
        error: 'exceeds_claim_ceiling',
        message: expect.stringContaining('20 USD'),
      });
      expect((await resolve(claimId, { resolutionType: 'CUSTOM', amount: 20 })).statusCode).toBe(200);
      expect((await ceiling(admin, 5_000)).statusCode).toBe(200);
    });
  });

  describe("Order Protection's money terms", () => {
    it("are read but not changed by the merchant's owner: replacement cost and revenue share answer 403, and nothing changes", async () => {
      const put = (group: string, value: unknown) =>
        h.call({ method: 'PUT', url: `/api/admin/stores/${acme}/settings/${group}`, cookie: owner, body: { value } });
      const settingsVersion = await versionOf(`store-settings:${acme}`);
      expect((await put('replacement-cost', { replacementCostPercent: 1_000 })).statusCode).toBe(403);
      expect((await put('rev-share', { merchantSharePercent: 100 })).statusCode).toBe(403);
      expect((await put('pricing', { premiumPercent: 0 })).statusCode).toBe(403);
      expect(await versionOf(`store-settings:${acme}`)).toBe(settingsVersion);
      for (const group of ['replacement-cost', 'rev-share', 'pricing']) {
        expect(
          (await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/settings/${group}`, cookie: owner }))
            .statusCode,
          group,
        ).toBe(200);
      }
    });

    it('refuses negative or absurd premiums and prices on PUT /api/v1/orders with 400, recording nothing', async () => {
      const base = testOrder('PREMIUM-1');
      const attempts = [
        { ...base, policy: { ...base.policy!, premiumPaid: -5 } },
        { ...base, policy: { ...base.policy!, premiumPaid: 1e300 } },
        { ...base, policy: { ...base.policy!, insuredAmount: -100 } },
        { ...base, items: [{ ...base.items[0]!, price: -24.5 }] },
        { ...base, items: [{ ...base.items[0]!, price: 9.3e16 }] },
        { ...base, items: [{ ...base.items[0]!, quantity: 1e12 }] },
        { ...base, shippingCost: -7 },
      ];
      for (const body of attempts) {
        const answer = await h.call({ method: 'PUT', url: '/api/v1/orders/src-PREMIUM-1', token, body });
        expect(answer.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
        expect(json(answer)).toMatchObject({ error: 'validation_failed' });
      }
      expect(
        await findOrderBySourceIdAndEmail(h.runtime.ctx.database.db, 'src-PREMIUM-1', base.customerEmail),
      ).toBeFalsy();
      expect((await h.call({ method: 'PUT', url: '/api/v1/orders/src-PREMIUM-1', token, body: base })).statusCode).toBe(
        201,
      );
    });
  });

  describe('text is Unicode', () => {
    it('refuses a lone surrogate in a message with 400, from the shopper and from the desk, recording nothing', async () => {
      const { claimId, token: claimToken } = await freshClaim('UNICODE-1');
      const before = await versionOf(claimId);
      const desk = await h.call({
        method: 'POST',
        url: `/api/admin/claims/${claimId}/messages`,
        cookie: owner,
        body: { messageContent: 'Hello \ud800' },
      });
      expect(desk.statusCode).toBe(400);
      expect(json(desk)).toMatchObject({
        error: 'validation_failed',
        message: expect.stringContaining('lone surrogate'),
      });
      const shopper = await h.call({
        method: 'POST',
        url: `/api/claims/${claimToken}/messages`,
        body: { messageContent: '\udc00 hi' },
      });
      expect(shopper.statusCode).toBe(400);
      const key = await h.call({
        method: 'POST',
        url: `/api/admin/claims/${claimId}/messages`,
        cookie: owner,
        body: { messageContent: 'ok', '\ud83d': 1 },
      });
      expect(key.statusCode).toBe(400);
      expect(await versionOf(claimId)).toBe(before);
      // A whole surrogate pair is a character like any other.
      expect(
        (
          await h.call({
            method: 'POST',
            url: `/api/admin/claims/${claimId}/messages`,
            cookie: owner,
            body: { messageContent: 'Thanks \ud83d\udc4d' },
          })
        ).statusCode,
      ).toBe(201);
    });
  });

  describe('the tenant before the body', () => {
    it("answers 404 for another merchant's store on notification preferences, whatever the body holds", async () => {
      const url = `/api/admin/stores/${kumo}/notification-preferences`;
      for (const body of [
        { settings: 'not a list' },
        { settings: [{ kind: 'new_claim', enabled: true }] },
        { settings: ['\ud800'] },
      ]) {
        expect((await h.call({ method: 'PUT', url, cookie: owner, body })).statusCode, JSON.stringify(body)).toBe(404);
      }
      expect(
        (
          await h.call({
            method: 'PUT',
            url: `/api/admin/stores/${acme}/notification-preferences`,
            cookie: owner,
            body: { settings: 'not a list' },
          })
        ).statusCode,
      ).toBe(400);
    });
  });
});
