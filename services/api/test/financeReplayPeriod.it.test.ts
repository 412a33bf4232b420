import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClaim,
  FinanceReplayView,
  PayoutBatch,
  PayoutEntriesResponse,
  StoreCreditBalanceList,
  type ResolveClaimRequest,
} from '@claims/contracts';
import { eventually } from '../../../test/support/testDatabase.js';
import { ingestOrder } from '../src/catalog/ingestOrder.js';
import { finishedReplay } from './support/financeReplays.js';
import { json, oneItemClaim, startHarness, type Harness } from './support/backofficeHarness.js';
import { systemMeta, testOrder } from './support/testOrders.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A USD order of Acme with one item of `price`. */
const order = (number: string, price: number) =>
  testOrder(number, { policy: { insuredAmount: price, premiumPaid: 1.5 }, line: { price } });

/**
 * A replay reads the period's scope only: decisions made before the period count where the period's money depends on
 * them (a clawback of an entry batched before it, credit reclaimed of credit issued before it), and nothing else.
 */
describe('a finance replay of a period and a store (contract §Finance)', () => {
  let h: Harness;
  let finance: string;
  let owner: string;
  let acme: string;
  let kumo: string;
  /** Where the period starts: after the reshipment and the credit were decided and batched, before their reversals. */
  let from = '';
  const claimOf = new Map<string, { claimId: string; claimNumber: string; paid: number }>();

  const decide = async (number: string, price: number, request: ResolveClaimRequest) => {
    await ingestOrder(h.runtime.ctx, acme, `src-${number}`, order(number, price), systemMeta);
    const filed = await h.fileClaim(
      `src-${number}`,
      oneItemClaim(`${number.toLowerCase()}@example.com`, `${number}-f`, `${number}-li`),
    );
    const resolved = await h.resolveClaim(owner, filed.claimId, request);
    claimOf.set(number, {
      claimId: filed.claimId,
      claimNumber: filed.claimNumber,
      paid: ApiClaim.parse(json(resolved)).resolutions[0]!.paidValue,
    });
  };
  const reverse = async (number: string) => {
    const reversed = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${claimOf.get(number)!.claimId}/reverse-resolution`,
      cookie: owner,
      body: { reason: 'Charged back' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
  };
  const entries = async (query: string) =>
    PayoutEntriesResponse.parse(
      json(
        await h.call({ method: 'GET', url: `/api/finance/payout-entries?storeId=${acme}&${query}`, cookie: finance }),
      ),
    ).entries;
  const balanceOf = async (email: string) =>
    StoreCreditBalanceList.parse(
      json(await h.call({ method: 'GET', url: `/api/admin/stores/${acme}/store-credit`, cookie: owner })),
    ).data.find((b) => b.customerEmail === email);

  beforeAll(async () => {
    h = await startHarness();
    finance = await h.login('finance');
    owner = await h.login('acmeOwner');
    acme = await h.storeId('acme');
    kumo = await h.storeId('kumo');

    // Before the period: a reshipment and store credit decided, the credit issued, and both batched.
    await decide('PR-1', 80, { resolutionType: 'RESHIP', reason: 'OTHER' });
    await decide('PR-2', 30, { resolutionType: 'STORE_CREDIT', reason: 'OTHER' });
    await h.runtime.settle();
    await eventually(async () => expect((await balanceOf('pr-2@example.com'))?.issued).toBeGreaterThan(0), 60_000);
    await eventually(async () => {
      const ids = new Set((await entries('')).map((e) => e.claimId));
      expect(ids.has(claimOf.get('PR-1')!.claimId) && ids.has(claimOf.get('PR-2')!.claimId)).toBe(true);
    }, 60_000);
    const batch = PayoutBatch.parse(
      json(
        await h.call({ method: 'POST', url: `/api/finance/stores/${acme}/payout-batches`, cookie: finance, body: {} }),
      ),
    );
    expect(batch.entryIds.length).toBeGreaterThanOrEqual(2);
    await pause(20);
    from = new Date().toISOString();
    await pause(20);

    // In the period: both reversed (a clawback each, the unspent credit reclaimed) and a refund decided.
    await reverse('PR-1');
    await reverse('PR-2');
    await decide('PR-3', 55, { resolutionType: 'REFUND', reason: 'OTHER' });
    await h.runtime.settle();
    await eventually(async () => {
      expect((await entries(`from=${encodeURIComponent(from)}`)).map((e) => e.claimId).sort()).toEqual(
        [claimOf.get('PR-1')!.claimId, claimOf.get('PR-2')!.claimId, claimOf.get('PR-3')!.claimId].sort(),
      );
      expect(await balanceOf('pr-2@example.com')).toMatchObject({ balance: 0 });
    }, 60_000);
  }, 180_000);
  afterAll(() => h?.stop());

  const replay = (body: object) => finishedReplay(h, finance, body);

  it('equals the live ledger of the period: the clawbacks of entries decided before it, the reclaimed credit, the refund, and nothing decided before it', async () => {
    const period = { from, to: new Date().toISOString(), storeIds: [acme] };
    const live = await entries(`from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}`);
    const view = await replay(period);
    expect(view).toMatchObject({
      status: 'done',
      error: null,
      differences: [],
      premiums: { differences: [] },
      storeCredit: { differences: [] },
      invoices: { differences: [] },
    });
    const sum = live.reduce((total, e) => total + Math.round(e.amount * 100), 0) / 100;
    expect(view.stores).toEqual([{ storeId: acme, currency: 'USD', live: sum, replayed: sum }]);
    const [reship, credit, refund] = ['PR-1', 'PR-2', 'PR-3'].map((n) => claimOf.get(n)!);
    // Of the decisions before the period, only their clawbacks are in it.
    expect(live.find((e) => e.claimId === reship!.claimId)).toMatchObject({ amount: -reship!.paid, status: 'pending' });
    expect(live.find((e) => e.claimId === credit!.claimId)!.amount).toBeLessThan(0);
    expect(live.find((e) => e.claimId === refund!.claimId)).toMatchObject({ amount: refund!.paid });
    // The credit reclaimed in the period is what was issued before it (none of it spent): it takes the store's credit to 0.
    expect(view.storeCredit.stores).toEqual([
      expect.objectContaining({ storeId: acme, currency: 'USD', replayed: view.storeCredit.stores[0]!.live }),
    ]);
    expect(view.storeCredit.stores[0]!.live).toBeLessThan(0);

    // Under a candidate replacement cost only the reshipment moves: its clawback in the period, valued from the decision before it.
    const candidate = await replay({ ...period, rules: { replacementCostPercent: 80 } });
    expect(candidate.differences).toEqual([
      expect.objectContaining({
        claimId: reship!.claimId,
        claimNumber: reship!.claimNumber,
        resolutionType: 'RESHIP',
        live: -reship!.paid,
        replayed: -Math.round(reship!.paid * 80) / 100,
        liveStatus: 'pending',
        replayedStatus: 'pending',
      }),
    ]);
    // Without the store-credit bonus, the credit clawed back and reclaimed in the period is what it would have issued before it.
    const clawedBack = live.find((e) => e.claimId === credit!.claimId)!.amount;
    const unbonused = await replay({ ...period, rules: { credit: { bonus: 0 } } });
    expect(unbonused.differences).toEqual([
      expect.objectContaining({
        claimId: credit!.claimId,
        resolutionType: 'STORE_CREDIT',
        live: clawedBack,
        replayed: -credit!.paid,
      }),
    ]);
    expect(unbonused.storeCredit.differences).toEqual([
      expect.objectContaining({
        claimId: credit!.claimId,
        claimNumber: credit!.claimNumber,
        kind: 'reclaimed',
        live: clawedBack,
        replayed: -credit!.paid,
      }),
    ]);
  });

  it('reads only its stores and its period: events it has no need of, even unreadable ones, change nothing', async () => {
    const period = { from, to: new Date().toISOString(), storeIds: [acme] };
    const before = await replay(period);
    const whole = await replay({ from: '2000-01-01', to: '2100-01-01', storeIds: [acme] });
    expect(whole.status).toBe('done');
    expect(before.eventsReplayed).toBeLessThan(whole.eventsReplayed);

    // Unreadable events: one of Kumo's in the period, one of Acme's long before it.
    const poison = (storeId: string, type: string, at: string) =>
      sql`
      insert into events (event_id, stream_id, stream_type, stream_version, type, schema_version, store_id, data, metadata, occurred_at)
      values (${randomUUID()}::uuid, ${`poison:${randomUUID()}`}, 'claim', 1, ${type}, 1, ${storeId}::uuid, '{"unreadable": true}'::jsonb, '{}'::jsonb, ${at}::timestamptz)`.execute(
        h.runtime.ctx.database.db,
      );
    await poison(kumo, 'ClaimResolved', new Date(Date.parse(from) + 1).toISOString());
    await poison(acme, 'PremiumRecorded', '2001-01-01T00:00:00.000Z');

    const after = await replay(period);
    expect(after).toMatchObject({
      status: 'done',
      error: null,
      differences: [],
      stores: before.stores,
      eventsReplayed: before.eventsReplayed,
    });
    // The same events inside a replay's scope are read, and fail it.
    expect((await replay({ ...period, storeIds: [acme, kumo] })).status).toBe('failed');
    expect((await replay({ from: '2000-01-01', to: '2100-01-01', storeIds: [acme] })).status).toBe('failed');
  });
});

describe("a finance replay of a period holding a month's start (contract §Finance)", () => {
  /** This run's month (the database's clock) and the app's clock an hour into the next one, when the month can be invoiced. */
  const started = new Date();
  const month = started.toISOString().slice(0, 7);
  const clockOffset = Date.UTC(started.getUTCFullYear(), started.getUTCMonth() + 1, 1) + 3_600_000 - started.getTime();
  let h: Harness;
  afterAll(() => h?.stop());

  it("compares the month's invoice, made of the whole month however short the period", async () => {
    h = await startHarness({}, { now: () => new Date(Date.now() + clockOffset).toISOString() });
    const finance = await h.login('finance');
    const acme = await h.storeId('acme');
    await h.runtime.settle();
    const issued = await h.call({
      method: 'POST',
      url: '/api/finance/invoices',
      cookie: finance,
      body: { storeId: acme, month },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    await h.runtime.settle();

    // The month's first day only: the invoice counts the demo's payouts and premiums of today too.
    const started = await h.call({
      method: 'POST',
      url: '/api/finance/replays',
      cookie: finance,
      body: { from: `${month}-01`, to: `${month}-01`, storeIds: [acme] },
    });
    expect(started.statusCode, started.body).toBe(202);
    const view = await eventually(async () => {
      const found = FinanceReplayView.parse(
        json(
          await h.call({
            method: 'GET',
            url: `/api/finance/replays/${json<{ id: string }>(started).id}`,
            cookie: finance,
          }),
        ),
      );
      expect(found.status).not.toBe('running');
      return found;
    }, 60_000);
    expect(view).toMatchObject({ status: 'done', error: null, differences: [], invoices: { differences: [] } });
    expect(view.invoices.stores).toEqual([
      expect.objectContaining({ storeId: acme, currency: 'USD', replayed: view.invoices.stores[0]!.live }),
    ]);
    expect(view.invoices.stores[0]!.live).not.toBe(0);
  }, 180_000);
});
