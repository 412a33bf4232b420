import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClaim, FinanceMonthlyTotals, PayoutBatch, PayoutEntriesResponse } from '@claims/contracts';
import { systemMeta, testOrder } from './support/testOrders.js';
import { eventually } from '../../../test/support/testDatabase.js';
import { ingestOrder } from '../src/catalog/ingestOrder.js';
import { finishedReplay } from './support/financeReplays.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';

/** An order of Acme (a USD store) in `currency`, with one 44.00 item. */
const order = (number: string, currency: string, exchangeRate: number) =>
  testOrder(number, { currency, exchangeRate, line: { price: 44 } });

describe('finance: the payout ledger and its replay from the events (contract §Finance)', () => {
  let h: Harness;
  let finance: string;
  let owner: string;
  let acme: string;
  const claims = new Map<string, { claimId: string; claimNumber: string; paid: number }>();
  const start = new Date(Date.now() - 60_000).toISOString();
  /** After the demo data's own orders were ingested: the premiums of this file's orders only. */
  let afterSeed = '';

  beforeAll(async () => {
    h = await startHarness();
    finance = await h.login('finance');
    owner = await h.login('acmeOwner');
    acme = await h.storeId('acme');
    afterSeed = new Date().toISOString();
    for (const [number, currency, rate, type] of [
      ['FIN-1', 'EUR', 0.92, 'REFUND'],
      ['FIN-2', 'USD', 1, 'RESHIP'],
      ['FIN-3', 'USD', 1, 'STORE_CREDIT'],
      ['FIN-4', 'USD', 1, 'DENY'],
    ] as const) {
      await ingestOrder(h.runtime.ctx, acme, `src-${number}`, order(number, currency, rate), {
        actor: { type: 'system', id: 'test' },
        correlationId: 'test',
        causationId: null,
      });
      const filed = await h.fileClaim(
        `src-${number}`,
        oneItemClaim(`${number.toLowerCase()}@example.com`, `${number}-f`, `${number}-li`),
      );
      const resolved = await h.resolveClaim(owner, filed.claimId, { resolutionType: type, reason: 'OTHER' });
      claims.set(number, {
        claimId: filed.claimId,
        claimNumber: filed.claimNumber,
        paid: ApiClaim.parse(json(resolved)).resolutions[0]!.paidValue,
      });
    }
    await h.runtime.settle();
  }, 120_000);
  afterAll(() => h.stop());

  const entries = async (query: string, cookie = finance) =>
    h.call({ method: 'GET', url: `/api/finance/payout-entries?${query}`, cookie });

  it("keeps one entry per resolution that moves money, valued in the store's currency", async () => {
    const response = await entries(`storeId=${acme}&from=${encodeURIComponent(start)}`);
    expect(response.statusCode, response.body).toBe(200);
    const byClaim = new Map(PayoutEntriesResponse.parse(json(response)).entries.map((e) => [e.claimId, e]));
    const eur = claims.get('FIN-1')!;
    // The EUR refund in the USD store: 44.00 EUR / 0.92, rounded half-even at the last step.
    // Named by the claim's number too, the way finance staff say it.
    expect(byClaim.get(eur.claimId)).toMatchObject({
      claimNumber: eur.claimNumber,
      resolutionType: 'REFUND',
      currency: 'USD',
      status: 'pending',
      amount: Math.round((eur.paid * 100) / 0.92) / 100,
    });
    expect(byClaim.get(claims.get('FIN-2')!.claimId)).toMatchObject({
      resolutionType: 'RESHIP',
      amount: claims.get('FIN-2')!.paid,
    });
    // Store credit with Acme's 10% bonus.
    expect(byClaim.get(claims.get('FIN-3')!.claimId)).toMatchObject({
      resolutionType: 'STORE_CREDIT',
      amount: Math.round(claims.get('FIN-3')!.paid * 110) / 100,
    });
    expect(byClaim.has(claims.get('FIN-4')!.claimId)).toBe(false);
  });

  it("records each protected order's premium when it is ingested, and reverses it when the protection is removed", async () => {
    const premiums = async () =>
      json<{ totals: Array<{ currency: string; collected: number; orders: number }> }>(
        await h.call({
          method: 'GET',
          url: `/api/finance/premiums?storeId=${acme}&from=${encodeURIComponent(afterSeed)}`,
          cookie: finance,
        }),
      ).totals;
    await h.runtime.settle();
    expect(await premiums()).toEqual(
      expect.arrayContaining([
        { storeId: acme, currency: 'USD', collected: 6, orders: 3 },
        { storeId: acme, currency: 'EUR', collected: 2, orders: 1 },
      ]),
    );
    // The same order again changes nothing; without its protection the premium is reversed.
    await ingestOrder(h.runtime.ctx, acme, 'src-FIN-4', order('FIN-4', 'USD', 1), systemMeta);
    await ingestOrder(h.runtime.ctx, acme, 'src-FIN-4', { ...order('FIN-4', 'USD', 1), protected: false }, systemMeta);
    await h.runtime.settle();
    expect((await premiums()).find((t) => t.currency === 'USD')).toMatchObject({ collected: 4 });
    expect((await h.call({ method: 'GET', url: '/api/finance/premiums', cookie: owner })).statusCode).toBe(403);
  });

  it('sums premiums and payouts per month, store and currency to what the ledger lists for the period', async () => {
    const period = `storeId=${acme}&from=${encodeURIComponent(afterSeed)}&to=${encodeURIComponent(new Date().toISOString())}`;
    const response = await h.call({ method: 'GET', url: `/api/finance/monthly-totals?${period}`, cookie: finance });
    expect(response.statusCode, response.body).toBe(200);
    const months = FinanceMonthlyTotals.parse(json(response)).months;
    const sum = (currency: string, pick: (m: (typeof months)[number]) => number) =>
      Math.round(months.filter((m) => m.currency === currency).reduce((n, m) => n + pick(m) * 100, 0)) / 100;
    const listed = PayoutEntriesResponse.parse(json(await entries(period))).entries;
    const premiums = json<{ totals: Array<{ currency: string; collected: number }> }>(
      await h.call({ method: 'GET', url: `/api/finance/premiums?${period}`, cookie: finance }),
    ).totals;
    expect(months.every((m) => m.storeId === acme && /^\d{4}-\d{2}$/.test(m.month))).toBe(true);
    expect(sum('USD', (m) => m.payouts)).toBe(Math.round(listed.reduce((n, e) => n + e.amount * 100, 0)) / 100);
    expect(sum('USD', (m) => m.entries)).toBe(listed.length);
    for (const total of premiums) expect(sum(total.currency, (m) => m.premiums)).toBe(total.collected);
    expect((await h.call({ method: 'GET', url: '/api/finance/monthly-totals', cookie: owner })).statusCode).toBe(403);
  });

  it('answers 403 to users without the finance permissions and 404 for an unknown store', async () => {
    expect((await entries(`storeId=${acme}`, owner)).statusCode).toBe(403);
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/finance/replays',
          cookie: owner,
          body: { from: start, to: new Date().toISOString() },
        })
      ).statusCode,
    ).toBe(403);
    expect((await entries('storeId=00000000-0000-4000-8000-000000000009')).statusCode).toBe(404);
    expect((await entries('storeId=not-a-uuid')).statusCode).toBe(400);
  });

  const replay = (body: object) => finishedReplay(h, finance, body);

  it('takes periods as dates, whole days in UTC with `to` included, as finance staff type them', async () => {
    const listed = async (query: string) => {
      const response = await entries(`storeId=${acme}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return PayoutEntriesResponse.parse(json(response)).entries;
    };
    const ids = async (query: string) => new Set((await listed(query)).map((e) => e.claimId));
    const refund = claims.get('FIN-1')!.claimId;
    // The day it was decided, rather than today's: a run at midnight UTC decides on one day and asks on the next.
    const decidedAt = (await listed(`from=${encodeURIComponent(start)}`)).find((e) => e.claimId === refund)!.decidedAt;
    const today = decidedAt.slice(0, 10);
    const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10);
    expect(await ids(`from=${today}&to=${today}`)).toContain(refund);
    expect(await ids(`from=${yesterday}&to=${yesterday}`)).not.toContain(refund);
    expect(await ids(`to=${yesterday}`)).not.toContain(refund);

    const view = await replay({ from: today, to: today, storeIds: [acme] });
    expect(view).toMatchObject({ status: 'done', differences: [] });
    expect(view.stores[0]!.live).toBeGreaterThan(0);

    const refused = await entries(`storeId=${acme}&from=01/11/2026`);
    expect(refused.statusCode).toBe(400);
  });

  it('replays the period from the events to exactly the live ledger', async () => {
    const view = await replay({ from: start, to: new Date().toISOString(), storeIds: [acme] });
    expect(view).toMatchObject({ status: 'done', progress: 1, differences: [] });
    expect(view.stores).toHaveLength(1);
    expect(view.stores[0]!.live).toBe(view.stores[0]!.replayed);
    expect(view.stores[0]!.live).toBeGreaterThan(0);
  });

  it('shows exactly which payouts a candidate rule would change, and by how much', async () => {
    const view = await replay({
      from: start,
      to: new Date().toISOString(),
      storeIds: [acme],
      rules: { replacementCostPercent: 80 },
    });
    const reship = claims.get('FIN-2')!;
    expect(view.differences).toEqual([
      expect.objectContaining({
        claimId: reship.claimId,
        live: reship.paid,
        replayed: Math.round(reship.paid * 80) / 100,
      }),
    ]);
    expect(view.stores[0]!.live - view.stores[0]!.replayed).toBeCloseTo(reship.paid * 0.2, 2);
  });

  it('moves entries pending -> approved -> paid in batches: four eyes, and never an entry paid twice', async () => {
    const controller = await h.loginWith('controller@orderprotection.test');
    const batches = `/api/finance/stores/${acme}/payout-batches`;
    // Two finance users gathering at once: one batch takes the pending entries, the other finds none left.
    const [a, b] = await Promise.all([
      h.call({ method: 'POST', url: batches, cookie: finance, body: {} }),
      h.call({ method: 'POST', url: batches, cookie: controller, body: {} }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 400]);
    const [made, maker] =
      a.statusCode === 201 ? [PayoutBatch.parse(json(a)), finance] : [PayoutBatch.parse(json(b)), controller];
    const checker = maker === finance ? controller : finance;
    // The batch holds every entry still pending (they stay pending until it is approved).
    const pending = PayoutEntriesResponse.parse(json(await entries(`storeId=${acme}`)))
      .entries.filter((e) => e.status === 'pending')
      .map((e) => e.id);
    expect([...made.entryIds].sort()).toEqual(pending.sort());
    expect(made).toMatchObject({
      status: 'created',
      currency: 'USD',
      createdByName: maker === finance ? 'Fay Finance' : 'Cole Controller',
      approvedByName: null,
    });
    // The maker may not approve; an unapproved batch is not paid; an owner of the store has no say.
    const approve = `${batches}/${made.id}/approve`;
    expect(json<{ error: string }>(await h.call({ method: 'POST', url: approve, cookie: maker, body: {} })).error).toBe(
      'forbidden',
    );
    expect(
      json<{ error: string }>(
        await h.call({
          method: 'POST',
          url: `${batches}/${made.id}/pay`,
          cookie: checker,
          body: { reference: 'WIRE-1' },
        }),
      ).error,
    ).toBe('invalid_transition');
    expect((await h.call({ method: 'POST', url: approve, cookie: owner, body: {} })).statusCode).toBe(403);
    expect(
      PayoutBatch.parse(json(await h.call({ method: 'POST', url: approve, cookie: checker, body: {} }))),
    ).toMatchObject({ status: 'approved' });
    // Two payments of the same batch at once: exactly one is recorded.
    const pays = await Promise.all(
      [finance, controller].map((cookie) =>
        h.call({ method: 'POST', url: `${batches}/${made.id}/pay`, cookie, body: { reference: 'WIRE-1' } }),
      ),
    );
    expect(pays.map((p) => p.statusCode).sort()).toEqual([200, 422]);
    await eventually(async () => {
      const after = PayoutEntriesResponse.parse(json(await entries(`storeId=${acme}`))).entries.filter((e) =>
        made.entryIds.includes(e.id),
      );
      expect(after.map((e) => e.status)).toEqual(made.entryIds.map(() => 'paid'));
    });
    const listed = json<{ data: Array<{ id: string; status: string; reference: string | null }> }>(
      await h.call({ method: 'GET', url: batches, cookie: finance }),
    );
    // Each step says who took it.
    expect(listed.data.find((x) => x.id === made.id)).toMatchObject({
      status: 'paid',
      reference: 'WIRE-1',
      createdBy: made.createdBy,
      approvedByName: checker === finance ? 'Fay Finance' : 'Cole Controller',
      paidBy: expect.any(String),
      paidByName: expect.stringMatching(/^(Fay Finance|Cole Controller)$/),
    });
  });
});
