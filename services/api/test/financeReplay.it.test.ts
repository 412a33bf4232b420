import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FinanceReplayView } from '@claims/contracts';
import {
  ApiClaim,
  PayoutBatch,
  PayoutEntriesResponse,
  StoreCreditBalanceList,
  type ResolveClaimRequest,
} from '@claims/contracts';
import { eventually } from '../../../test/support/testDatabase.js';
import { ingestOrder } from '../src/catalog/ingestOrder.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { finishedReplay } from './support/financeReplays.js';
import { systemMeta, testOrder } from './support/testOrders.js';

/** An order in `currency` with one item of `price`, its premium paid in the same currency. */
const order = (number: string, currency: string, exchangeRate: number, price: number, premium: number) =>
  testOrder(number, {
    currency,
    exchangeRate,
    policy: { insuredAmount: price, premiumPaid: premium },
    line: { price },
  });

describe('the finance replay of the whole history equals the live ledgers fed through Kafka (contract §Finance)', () => {
  let h: Harness;
  let finance: string;
  const whole = { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' };
  const credited = new Map<string, number>();
  /** The claims by order number. */
  const claimOf = new Map<string, string>();

  beforeAll(async () => {
    const suffix = randomBytes(4).toString('hex');
    h = await startHarness({
      KAFKA_BROKERS: inject('kafkaBrokers'),
      KAFKA_TOPIC: `claims.events.test.${suffix}`,
      KAFKA_GROUP_PREFIX: `test.${suffix}`,
    });
    finance = await h.login('finance');
    const owners = { acme: await h.login('acmeOwner'), kumo: await h.login('kumoOwner') };
    const stores = { acme: await h.storeId('acme'), kumo: await h.storeId('kumo') };
    // Every money type, in the store's currency and converted (EUR orders of the USD store), and yen in the JPY store.
    const decisions: Array<
      [
        store: 'acme' | 'kumo',
        number: string,
        currency: string,
        rate: number,
        price: number,
        premium: number,
        request: ResolveClaimRequest,
      ]
    > = [
      ['acme', 'FR-1', 'EUR', 0.92, 44, 1.38, { resolutionType: 'REFUND', reason: 'OTHER' }],
      ['acme', 'FR-2', 'USD', 1, 129, 2.98, { resolutionType: 'RESHIP', reason: 'OTHER' }],
      ['acme', 'FR-3', 'EUR', 0.92, 18.35, 0.98, { resolutionType: 'STORE_CREDIT', reason: 'OTHER' }],
      ['acme', 'FR-4', 'USD', 1, 60, 1.48, { resolutionType: 'FLAT_RATE', reason: 'OTHER', amount: 25.5 }],
      ['acme', 'FR-5', 'EUR', 0.92, 75, 1.98, { resolutionType: 'CUSTOM', reason: 'OTHER', amount: 12.34 }],
      ['acme', 'FR-6', 'USD', 1, 20, 0.98, { resolutionType: 'DENY', reason: 'OTHER' }],
      ['kumo', 'FR-K1', 'JPY', 1, 3600, 150, { resolutionType: 'RESHIP', reason: 'OTHER' }],
      ['kumo', 'FR-K2', 'JPY', 1, 2401, 120, { resolutionType: 'STORE_CREDIT', reason: 'OTHER' }],
    ];
    for (const [store, number, currency, rate, price, premium, request] of decisions) {
      await ingestOrder(
        h.runtime.ctx,
        stores[store],
        `src-${number}`,
        order(number, currency, rate, price, premium),
        systemMeta,
      );
      const filed = await h.fileClaim(
        `src-${number}`,
        oneItemClaim(`${number.toLowerCase()}@example.com`, `${number}-f`, `${number}-li`),
      );
      claimOf.set(number, filed.claimId);
      const resolved = await h.resolveClaim(owners[store], filed.claimId, request);
      if (request.resolutionType === 'STORE_CREDIT')
        credited.set(filed.claimId, ApiClaim.parse(json(resolved)).resolutions[0]!.paidValue);
    }
    // A protection removed reverses its premium; store credit issued is partly redeemed.
    await ingestOrder(
      h.runtime.ctx,
      stores.acme,
      'src-FR-6',
      { ...order('FR-6', 'USD', 1, 20, 0.98), protected: false },
      systemMeta,
    );
    await h.runtime.settle();
    // The credit is issued by a reaction after the decision (readers wait behind transactions open anywhere on the server).
    await eventually(async () => {
      const redeem = await h.call({
        method: 'POST',
        url: `/api/admin/stores/${stores.acme}/store-credit/redeem`,
        cookie: owners.acme,
        body: { email: 'fr-3@example.com', amount: 5, reference: 'ORDER-77' },
      });
      expect(redeem.statusCode, redeem.body).toBe(200);
    }, 60_000);
    // A batch of Acme's payouts, approved by a second person and paid.
    await eventually(async () =>
      expect(
        PayoutEntriesResponse.parse(
          json(
            await h.call({ method: 'GET', url: `/api/finance/payout-entries?storeId=${stores.acme}`, cookie: finance }),
          ),
        ).entries.length,
      ).toBeGreaterThanOrEqual(5),
    );
    const batches = `/api/finance/stores/${stores.acme}/payout-batches`;
    const made = PayoutBatch.parse(json(await h.call({ method: 'POST', url: batches, cookie: finance, body: {} })));
    const controller = await h.loginWith('controller@orderprotection.test');
    expect(
      (await h.call({ method: 'POST', url: `${batches}/${made.id}/approve`, cookie: controller, body: {} })).statusCode,
    ).toBe(200);
    expect(
      (
        await h.call({
          method: 'POST',
          url: `${batches}/${made.id}/pay`,
          cookie: finance,
          body: { reference: 'WIRE-9' },
        })
      ).statusCode,
    ).toBe(200);
    await h.runtime.settle();
    // The live ledgers are Kafka consumers: every entry of the batch paid means they have caught up with it.
    await eventually(async () => {
      const entries = PayoutEntriesResponse.parse(
        json(
          await h.call({ method: 'GET', url: `/api/finance/payout-entries?storeId=${stores.acme}`, cookie: finance }),
        ),
      ).entries;
      expect(entries.filter((e) => made.entryIds.includes(e.id)).map((e) => e.status)).toEqual(
        made.entryIds.map(() => 'paid'),
      );
    }, 60_000);
  }, 180_000);
  afterAll(() => h.stop());

  const replay = (body: object) => finishedReplay(h, finance, body);

  it('finds no difference in payouts, premiums or store credit, and totals every store and currency alike', async () => {
    const view = await replay(whole);
    expect(view).toMatchObject({
      status: 'done',
      progress: 1,
      error: null,
      rules: null,
      differences: [],
      premiums: { differences: [] },
      storeCredit: { differences: [] },
    });
    expect(view.eventsReplayed).toBeGreaterThan(0);
    const currencies = (totals: FinanceReplayView['stores']) => totals.map((t) => t.currency).sort();
    expect(currencies(view.stores)).toEqual(['JPY', 'USD']);
    expect(currencies(view.premiums.stores)).toEqual(['EUR', 'JPY', 'USD']);
    expect(currencies(view.storeCredit.stores)).toEqual(['JPY', 'USD']);
    for (const total of [...view.stores, ...view.premiums.stores, ...view.storeCredit.stores]) {
      expect(total.replayed).toBe(total.live);
      expect(total.live).toBeGreaterThan(0);
    }
    // The premiums beside what finance reads live: the same sums.
    const live = json<{ totals: Array<{ storeId: string; currency: string; collected: number }> }>(
      await h.call({ method: 'GET', url: '/api/finance/premiums', cookie: finance }),
    ).totals;
    expect(
      view.premiums.stores.map((t) => ({ storeId: t.storeId, currency: t.currency, collected: t.replayed })),
    ).toEqual(
      expect.arrayContaining(live.map(({ storeId, currency, collected }) => ({ storeId, currency, collected }))),
    );
  });

  it('under a candidate store-credit bonus, changes exactly the store-credit payouts and the credit issued for them, by as much', async () => {
    const view = await replay({ ...whole, rules: { credit: { bonus: 0 } } });
    expect(view.rules).toEqual({ credit: { bonus: 0 } });
    expect(view.differences.map((d) => d.resolutionType)).toEqual(['STORE_CREDIT', 'STORE_CREDIT']);
    expect(view.premiums.differences).toEqual([]);
    expect(view.storeCredit.differences.map((d) => d.kind)).toEqual(['issued', 'issued']);
    for (const d of view.differences) {
      const issued = view.storeCredit.differences.find((c) => c.claimId === d.claimId)!;
      expect(issued).toMatchObject({ live: d.live, replayed: d.replayed, currency: d.currency });
      expect(d.change).toBeCloseTo(d.replayed! - d.live!, 6);
    }
    // Without the bonus, credit is the paid value converted: 18.35 EUR at 0.92 is 19.9456… USD, 19.95; 2,401 yen stay 2,401 yen (not 2,901).
    const byCurrency = Object.fromEntries(view.differences.map((d) => [d.currency, d]));
    expect(byCurrency.USD).toMatchObject({ replayed: 19.95, live: 21.94 });
    expect(byCurrency.JPY).toMatchObject({ replayed: 2401, live: 2901 });
    expect([...credited.values()].sort((a, b) => a - b)).toEqual([18.35, 2401]);
  });

  it('reverses a resolution through the route: its paid entry becomes reversed with a pending clawback, and the replay still equals live', async () => {
    const acme = await h.storeId('acme');
    const owner = await h.login('acmeOwner');
    const entries = async () =>
      PayoutEntriesResponse.parse(
        json(await h.call({ method: 'GET', url: `/api/finance/payout-entries?storeId=${acme}`, cookie: finance })),
      ).entries;
    const paid = (await entries()).find((e) => e.claimId === claimOf.get('FR-2'))!;
    expect(paid).toMatchObject({ status: 'paid', amount: 129 });

    const refused = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${claimOf.get('FR-2')}/reverse-resolution`,
      cookie: finance,
      body: { reason: 'Charged back' },
    });
    expect(refused.statusCode).toBe(403);
    const empty = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${claimOf.get('FR-2')}/reverse-resolution`,
      cookie: owner,
      body: { reason: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    const reversed = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${claimOf.get('FR-2')}/reverse-resolution`,
      cookie: owner,
      body: { reason: 'Charged back' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(ApiClaim.parse(json(reversed))).toMatchObject({ resolutions: [] });
    const again = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${claimOf.get('FR-2')}/reverse-resolution`,
      cookie: owner,
      body: { reason: 'Charged back' },
    });
    expect(again.statusCode).toBe(422);

    await h.runtime.settle();
    await eventually(async () => {
      const mine = (await entries()).filter((e) => e.claimId === claimOf.get('FR-2'));
      expect(mine.map((e) => [e.status, e.amount]).sort()).toEqual([
        ['pending', -129],
        ['reversed', 129],
      ]);
    }, 60_000);

    const view = await replay(whole);
    expect(view).toMatchObject({ status: 'done', differences: [], invoices: { differences: [] } });
    for (const total of view.stores) expect(total.replayed).toBe(total.live);
  });

  it('reverses a store-credit resolution: its unredeemed credit is reclaimed, the redeemed part stays, and the replay still equals live', async () => {
    const acme = await h.storeId('acme');
    const owner = await h.login('acmeOwner');
    const reversed = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${claimOf.get('FR-3')}/reverse-resolution`,
      cookie: owner,
      body: { reason: 'Charged back' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    await h.runtime.settle();
    // The live balance (a Kafka consumer) is the 5.00 redeemed off 21.94 issued, all reclaimed but what was spent.
    await eventually(async () => {
      const balances = StoreCreditBalanceList.parse(
        json(await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/store-credit`, cookie: owner })),
      ).data;
      expect(balances.find((b) => b.customerEmail === 'fr-3@example.com')).toMatchObject({ balance: 0, issued: 21.94 });
    }, 60_000);

    const view = await replay(whole);
    expect(view).toMatchObject({ status: 'done', differences: [], storeCredit: { differences: [] } });
    // The store-credit figures: issued less reclaimed, so Acme's credit is what its customer had redeemed.
    expect(view.storeCredit.stores.find((t) => t.storeId === acme)).toMatchObject({
      currency: 'USD',
      live: 5,
      replayed: 5,
    });
  });

  it('refuses a candidate rule it does not know rather than ignoring it', async () => {
    const response = await h.call({
      method: 'POST',
      url: '/api/finance/replays',
      cookie: finance,
      body: { ...whole, rules: { replacementCostPct: 80 } },
    });
    expect(response.statusCode).toBe(400);
  });
});
