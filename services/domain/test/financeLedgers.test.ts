import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CandidateMoneyRules,
  FINANCE_EVENT_TYPES,
  FinanceEvent,
  ResolutionType,
  type ClaimResolution,
  type DomainEvent,
  type EventOf,
  type FinanceEventType,
  type Order,
  type ResolveClaimRequest,
  type Valuation,
} from '@claims/contracts';
import {
  claimDecider,
  decideFileClaim,
  foldEvents,
  initialOrderClaimsState,
  monthlyFinance,
  payoutLinesOf,
  replayFinance,
  valuationUnder,
  type FinanceFact,
} from '../src/index.js';
import { NOW, resolutionLine } from './fixtures.js';
import { demoOrder, demoStore, type DemoStore } from './demoOrders.js';

const agent = { type: 'user' as const, id: 'u-1', name: 'Riley Agent' };
let clock = Date.parse(NOW);
let ids = 0;
const nextId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

/** Envelopes' facts in order, each a minute after the one before (or at `at`). */
const facts = (events: readonly DomainEvent[], at?: string): FinanceFact[] =>
  events.map((event) => ({
    ...FinanceEvent.parse(event),
    eventId: nextId(),
    occurredAt: at ?? new Date((clock += 60_000)).toISOString(),
  }));

/** A one-item claim on a demo order, filed, and resolved as `request` says under `valuation`: its ClaimFiled and ClaimResolved. */
function decided(
  order: Order,
  store: DemoStore,
  request: ResolveClaimRequest,
  valuation: Valuation,
  sourceItemId = order.items[0]!.sourceItemId,
) {
  const claimId = nextId();
  const filed = decideFileClaim(
    {
      type: 'FileClaim',
      claimId,
      claimNumber: '10001',
      tokenHash: 'h',
      itemIds: [nextId()],
      now: NOW,
      request: {
        email: order.customerEmail,
        fulfillmentIssues: [
          {
            sourceFulfillmentId: order.fulfillments[0]!.sourceFulfillmentId,
            issues: [{ sourceItemId, claimType: 'DAMAGED', quantity: 1, details: 'broken', images: [] }],
          },
        ],
        resolution: { desiredMethod: 'RESHIP', customerSignature: 'A Shopper' },
      },
    },
    {
      order,
      settings: { ...store.settings, claimWaitDays: 0, claimWindowDays: 3650 },
      orderClaims: initialOrderClaimsState(),
    },
  );
  if (!filed.ok) throw new Error(filed.error.message);
  const claimFiled = filed.value.find((e): e is EventOf<'ClaimFiled'> => e.type === 'ClaimFiled')!;
  const claim = foldEvents(claimDecider, [claimFiled]);
  const resolved = claimDecider.decide(
    {
      type: 'ResolveClaim',
      claimId,
      resolutionIds: [nextId()],
      actor: agent,
      now: NOW,
      request,
      capabilities: store.settings.capabilities,
      valuation,
    },
    claim,
  );
  if (!resolved.ok) throw new Error(resolved.error.message);
  return { filed: claimFiled, resolved: resolved.value[0] as EventOf<'ClaimResolved'> };
}

const acme = demoStore('acme');
const kumo = demoStore('kumo');
/** The demo's EUR order of Acme (a USD store, 0.92 EUR per USD) and JPY order of Kumo (a JPY store). */
const eurOrder = demoOrder('1008');
const jpyOrder = demoOrder('K-2001');
const valuationOf = (store: DemoStore, order: Order, replacementCostPercent = 100): Valuation => ({
  storeCurrency: store.currency,
  exchangeRate: order.exchangeRate,
  rules: { ...store.settings.moneyRules, replacementCostPercent },
  credit: { bonus: store.settings.credit.bonus, bonusType: store.settings.credit.bonusType },
});

/** Half to even of n/d (n ≥ 0, d > 0), written out independently of exactMoney's. */
function halfEven(n: bigint, d: bigint): number {
  const q = n / d;
  const twice = 2n * (n % d);
  return Number(twice > d || (twice === d && q % 2n === 1n) ? q + 1n : q);
}

describe("the finance replay's fold of the money events", () => {
  it('rebuilds payouts with their batch status, premiums as recorded and reversed, and store credit with each balance', () => {
    const { filed, resolved } = decided(
      eurOrder,
      acme,
      { resolutionType: 'STORE_CREDIT' },
      valuationOf(acme, eurOrder),
    );
    const [line] = payoutLinesOf(resolved.data, 'EUR');
    // 52.36 EUR at 0.92 EUR per USD is 56.9130… USD, with Acme's 10% bonus 62.6043… USD: 62.60.
    expect(line).toMatchObject({ resolutionType: 'STORE_CREDIT', amount: 6260, currency: 'USD' });
    const scope = { storeId: acme.id, customerEmail: 'hugo@example.com', customerKey: 'a'.repeat(64), currency: 'USD' };
    const premium = {
      orderId: eurOrder.id,
      storeId: acme.id,
      orderNumber: '1008',
      premiumPaid: 138,
      premiumCurrency: 'EUR',
    };
    const history = [
      ...facts(
        [{ type: 'PremiumRecorded', data: { ...premium, insuredAmount: 8800, recordedAt: NOW } }],
        '2026-10-31T23:59:00.000Z',
      ),
      ...facts([filed, resolved]),
      ...facts([
        {
          type: 'StoreCreditIssued',
          data: { ...scope, amount: 6260, claimId: filed.data.claimId, resolutionId: line!.id, issuedAt: NOW },
        },
        { type: 'StoreCreditRedeemed', data: { ...scope, amount: 2000, reference: 'ORDER-1', redeemedAt: NOW } },
        { type: 'StoreCreditAdjusted', data: { ...scope, amount: -260, reason: 'goodwill reversed', adjustedAt: NOW } },
        {
          type: 'PayoutBatchCreated',
          data: {
            storeId: acme.id,
            batchId: nextId(),
            currency: 'USD',
            entryIds: [line!.id],
            total: 6260,
            createdBy: 'fay',
            createdAt: NOW,
          },
        },
      ]),
    ];
    const batchId = (history.at(-1)!.data as { batchId: string }).batchId;
    history.push(
      ...facts([
        { type: 'PayoutBatchApproved', data: { storeId: acme.id, batchId, approvedBy: 'cole', approvedAt: NOW } },
        { type: 'PremiumReversed', data: { ...premium, reason: 'protection_removed', reversedAt: NOW } },
      ]),
    );

    const ledgers = replayFinance(history);
    expect([...ledgers.payouts.values()]).toEqual([
      expect.objectContaining({
        id: line!.id,
        storeId: acme.id,
        claimId: filed.data.claimId,
        eventId: history[2]!.eventId,
        amount: 6260,
        currency: 'USD',
        status: 'approved',
      }),
    ]);
    expect([...ledgers.premiums.values()].map((p) => [p.amount, p.currency])).toEqual([
      [138, 'EUR'],
      [-138, 'EUR'],
    ]);
    expect([...ledgers.storeCredit.values()].map((c) => [c.kind, c.amount])).toEqual([
      ['issued', 6260],
      ['redeemed', -2000],
      ['adjusted', -260],
    ]);
    expect([...ledgers.balances.values()]).toEqual([
      { storeId: acme.id, customerKey: scope.customerKey, currency: 'USD', balance: 4000, issued: 6260 },
    ]);

    // The seam invoices build on: per store, month (UTC) and currency.
    expect(monthlyFinance(ledgers)).toEqual([
      {
        storeId: acme.id,
        month: '2026-10',
        currency: 'EUR',
        premiums: 138,
        payouts: 0,
        payoutsPaid: 0,
        storeCreditIssued: 0,
      },
      {
        storeId: acme.id,
        month: '2026-11',
        currency: 'EUR',
        premiums: -138,
        payouts: 0,
        payoutsPaid: 0,
        storeCreditIssued: 0,
      },
      {
        storeId: acme.id,
        month: '2026-11',
        currency: 'USD',
        premiums: 0,
        payouts: 6260,
        payoutsPaid: 0,
        storeCreditIssued: 6260,
      },
    ]);
    expect(monthlyFinance(ledgers, new Set([kumo.id]))).toEqual([]);

    // Under a candidate bonus the payout and the credit issued for it are revalued alike; what was redeemed is not.
    const candidate = replayFinance(history, { credit: { bonus: 0 } });
    expect(candidate.payouts.get(line!.id)!.amount).toBe(5691);
    expect([...candidate.storeCredit.values()].map((c) => c.amount)).toEqual([5691, -2000, -260]);
    expect(candidate.premiums).toEqual(ledgers.premiums);
  });

  it('takes every rule the valuation records as a candidate, and changes only the lines that rule values', () => {
    const type = fc.constantFrom(...ResolutionType.options);
    const candidate = fc.record(
      {
        replacementCostPercent: fc.integer({ min: 0, max: 2_000 }).map((n) => n / 2),
        // Within what a store's settings allow: a percentage bonus is at most 100.
        credit: fc.record(
          {
            bonus: fc.integer({ min: 0, max: 100 }),
            bonusType: fc.constantFrom('fixed' as const, 'percentage' as const),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        type,
        fc.integer({ min: 0, max: 1_000_000 }),
        candidate,
        fc.boolean(),
        (resolutionType, paid, rules, kumoStore) => {
          const [store, order] = kumoStore ? [kumo, jpyOrder] : [acme, eurOrder];
          const recorded = valuationOf(store, order);
          const resolution: ClaimResolution = {
            ...resolutionLine(resolutionType, paid),
            id: nextId(),
            resolvedBy: agent,
          };
          const resolved = { claimId: nextId(), resolutions: [resolution], valuation: recorded };
          const amount = (c: CandidateMoneyRules) => payoutLinesOf(resolved, order.currency, c)[0]?.amount ?? 0;
          // A candidate is the same as having recorded those rules.
          expect(amount(rules)).toBe(
            payoutLinesOf({ ...resolved, valuation: valuationUnder(recorded, rules) }, order.currency)[0]?.amount ?? 0,
          );
          expect(CandidateMoneyRules.parse(rules)).toEqual(rules);
          if (resolutionType !== 'RESHIP')
            expect(amount({ replacementCostPercent: rules.replacementCostPercent })).toBe(amount({}));
          if (resolutionType !== 'STORE_CREDIT') expect(amount({ credit: rules.credit })).toBe(amount({}));
        },
      ),
    );
    expect(CandidateMoneyRules.safeParse({ revSharePercent: 10 }).success).toBe(false);
    expect(CandidateMoneyRules.safeParse({ credit: { bonus: 5, kind: 'fixed' } }).success).toBe(false);
    expect(CandidateMoneyRules.safeParse({ credit: { bonus: 101, bonusType: 'percentage' } }).success).toBe(false);
  });

  it('reads only what it needs of a filing, so the biggest event is never parsed whole', () => {
    const { filed } = decided(jpyOrder, kumo, { resolutionType: 'RESHIP' }, valuationOf(kumo, jpyOrder));
    expect(FinanceEvent.parse(filed)).toEqual({
      type: 'ClaimFiled',
      data: { claimId: filed.data.claimId, storeId: kumo.id, currency: 'JPY' },
    });
    const types: readonly FinanceEventType[] = FinanceEvent.options.map((o) => o.shape.type.value);
    expect(types).toEqual(FINANCE_EVENT_TYPES);
  });
});

describe("converting the demo's EUR and JPY orders (docs/decisions/money-from-events.md: exact, one half-even rounding)", () => {
  const percentages = fc.integer({ min: 0, max: 20_000 }).map((n) => n / 100);
  // Percentages that land one of the lines below on an exact half (see the last test), so ties are drawn often.
  const eurTies = fc.integer({ min: 0, max: 8 }).map((k) => 11.5 + 23 * k);
  const jpyTies = fc.integer({ min: 0, max: 15 }).map((k) => 6.25 * (2 * k + 1));

  it("values the EUR order's line in the USD store exactly, rounded half to even once", () => {
    fc.assert(
      fc.property(fc.oneof(percentages, eurTies), (percent) => {
        const { resolved } = decided(
          eurOrder,
          acme,
          { resolutionType: 'RESHIP' },
          valuationOf(acme, eurOrder, percent),
        );
        const paid = BigInt(resolved.data.resolutions[0]!.paidValue);
        // EUR cents × percent / 100 ÷ 0.92 EUR per USD, in USD cents: paid × (percent × 100) / (100 × 100 × 92 / 100).
        const expected = halfEven(paid * BigInt(Math.round(percent * 100)), 100n * 92n);
        expect(payoutLinesOf(resolved.data, 'EUR')[0]?.amount ?? 0).toBe(expected);
      }),
    );
  });

  it("values the JPY order's lines in yen, rounded half to even once", () => {
    fc.assert(
      fc.property(fc.oneof(percentages, jpyTies), fc.constantFrom('k-1', 'k-2'), (percent, item) => {
        const { resolved } = decided(
          jpyOrder,
          kumo,
          { resolutionType: 'RESHIP' },
          valuationOf(kumo, jpyOrder, percent),
          item,
        );
        const paid = BigInt(resolved.data.resolutions[0]!.paidValue);
        expect(payoutLinesOf(resolved.data, 'JPY')[0]?.amount ?? 0).toBe(
          halfEven(paid * BigInt(Math.round(percent * 100)), 10_000n),
        );
      }),
    );
  });

  it('sends an exact half to the even neighbour, down or up', () => {
    const reship = (order: Order, store: DemoStore, percent: number, item?: string) => {
      const { resolved } = decided(
        order,
        store,
        { resolutionType: 'RESHIP' },
        valuationOf(store, order, percent),
        item,
      );
      return {
        paid: resolved.data.resolutions[0]!.paidValue,
        payout: payoutLinesOf(resolved.data, order.currency)[0]!.amount,
      };
    };
    // One of order 1008's items: 44.00 EUR plus its 8.36 EUR share of tax. 11.5% of it is 654.5 USD cents at 0.92, 34.5% is 1963.5.
    expect(reship(eurOrder, acme, 11.5)).toEqual({ paid: 5236, payout: 654 });
    expect(reship(eurOrder, acme, 34.5)).toEqual({ paid: 5236, payout: 1964 });
    // K-2001's second item: 3,600 yen plus 376 tax. 6.25% of it is 248.5 yen, 18.75% is 745.5.
    expect(reship(jpyOrder, kumo, 6.25, 'k-2')).toEqual({ paid: 3976, payout: 248 });
    expect(reship(jpyOrder, kumo, 18.75, 'k-2')).toEqual({ paid: 3976, payout: 746 });
  });
});
