import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ClaimResolution, DomainEvent, Valuation } from '@claims/contracts';
import {
  convertMinor,
  fractionOf,
  orderPremiumDecider,
  payoutLinesOf,
  roundHalfEven,
  storeCreditDecider,
  storeCreditOf,
  storePayoutsDecider,
  whole,
  type StoreCreditCommand,
  type StorePayoutsCommand,
  type StorePayoutsState,
} from '../src/index.js';
import { given } from './support/givenWhenThen.js';
import { resolutionLine } from './fixtures.js';

const valuation = (overrides: Partial<Valuation> = {}): Valuation => ({
  storeCurrency: 'USD',
  exchangeRate: 1,
  rules: { replacementCostPercent: 100 },
  credit: { bonus: 0, bonusType: 'percentage' },
  ...overrides,
});
const payout = (resolution: ClaimResolution, claimCurrency: string, v: Valuation, candidate = {}) =>
  payoutLinesOf(
    { claimId: '61111111-1111-4111-8111-111111111111', resolutions: [resolution], valuation: v },
    claimCurrency,
    candidate,
  )[0]?.amount ?? 0;

describe('exact money', () => {
  it('reads a decimal as written, not as the nearest double', () => {
    expect(fractionOf(0.92)).toEqual({ n: 92n, d: 100n });
    expect(fractionOf(1e-7)).toEqual({ n: 1n, d: 10_000_000n });
    expect(fractionOf(150)).toEqual({ n: 150n, d: 1n });
  });

  it('rounds half to even, and otherwise to the nearest', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6].map((x) => roundHalfEven(fractionOf(x)))).toEqual([
      0, 2, 2, 0, -2, 2, 3,
    ]);
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 1, max: 10_000 }), (n, d) => {
        const rounded = roundHalfEven({ n: BigInt(n), d: BigInt(d) });
        return Math.abs(rounded - n / d) <= 0.5;
      }),
    );
  });

  it('converts the EUR demo order (rate 0.92) and JPY amounts as docs/decisions/money-from-events.md says', () => {
    // 44.00 EUR at 0.92 EUR per USD is 47.826… USD: 47.83.
    expect(roundHalfEven(convertMinor(whole(4400), 'EUR', 'USD', 0.92))).toBe(4783);
    // 2,400 JPY to a USD store at 150.5 JPY per USD: 15.946… USD: 15.95; and back the other way, yen have no minor digits.
    expect(roundHalfEven(convertMinor(whole(2400), 'JPY', 'USD', 150.5))).toBe(1595);
    expect(roundHalfEven(convertMinor(whole(1595), 'USD', 'JPY', 1 / 150.5))).toBe(2400);
    // A tie goes to the even cent: 0.125 USD -> 0.12.
    expect(roundHalfEven(convertMinor(fractionOf(12.5), 'USD', 'USD', 1))).toBe(12);
  });
});

describe('payouts from resolutions', () => {
  it('values each resolution type as the ledger says', () => {
    expect(payout(resolutionLine('REFUND', 1800, 750), 'USD', valuation())).toBe(2550);
    expect(payout(resolutionLine('RESHIP', 1800), 'USD', valuation({ rules: { replacementCostPercent: 80 } }))).toBe(
      1440,
    );
    expect(
      payout(
        resolutionLine('STORE_CREDIT', 1800),
        'USD',
        valuation({ credit: { bonus: 10, bonusType: 'percentage' } }),
      ),
    ).toBe(1980);
    // Kumo: a fixed bonus of 500 yen on credit issued in yen.
    expect(
      payout(
        resolutionLine('STORE_CREDIT', 2400),
        'JPY',
        valuation({ storeCurrency: 'JPY', credit: { bonus: 500, bonusType: 'fixed' } }),
      ),
    ).toBe(2900);
    expect(payout(resolutionLine('DENY', 0), 'USD', valuation())).toBe(0);
  });

  it('tries a candidate rule over the recorded one, and changes nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 200 }), (paid, percent) => {
        const reship = payout(resolutionLine('RESHIP', paid), 'USD', valuation(), { replacementCostPercent: percent });
        const refund = payout(resolutionLine('REFUND', paid), 'USD', valuation(), { replacementCostPercent: percent });
        return reship === roundHalfEven({ n: BigInt(paid * percent), d: 100n }) && refund === paid;
      }),
    );
  });
});

describe('store credit of a resolution, credit and bonus', () => {
  const credit = (paid: number, claimCurrency: string, v: Valuation) =>
    storeCreditOf(resolutionLine('STORE_CREDIT', paid), claimCurrency, v);

  it("gives the shopper the credit and the bonus in the claim's currency, and the store's ledger the same total the payout has", () => {
    // Hugo's 44.00 EUR at 0.92 EUR per USD in Acme (USD, 10% bonus): 4.40 EUR bonus to the shopper; 52.61 USD in the ledger.
    expect(
      credit(4400, 'EUR', valuation({ exchangeRate: 0.92, credit: { bonus: 10, bonusType: 'percentage' } })),
    ).toEqual({
      claim: { credit: 4400, bonus: 440, total: 4840, currency: 'EUR' },
      store: { credit: 4783, bonus: 478, total: 5261, currency: 'USD' },
    });
    // A fixed bonus of 5 USD shown to a EUR shopper times the rate: 4.60 EUR.
    expect(
      credit(4400, 'EUR', valuation({ exchangeRate: 0.92, credit: { bonus: 5, bonusType: 'fixed' } }))?.claim,
    ).toEqual({ credit: 4400, bonus: 460, total: 4860, currency: 'EUR' });
    expect(storeCreditOf(resolutionLine('REFUND', 4400), 'USD', valuation())).toBeNull();
  });

  it("always values the store's total as the payout line, and gives both sides alike in one currency", () => {
    const rate = fc.constantFrom(1, 0.92, 150.5, 1.3333);
    const bonus = fc.record({
      bonus: fc.integer({ min: 0, max: 500 }),
      bonusType: fc.constantFrom('fixed' as const, 'percentage' as const),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), rate, bonus, (paid, exchangeRate, c) => {
        const v = valuation({ storeCurrency: 'USD', exchangeRate, credit: c });
        const value = credit(paid, 'EUR', v)!;
        const sameCurrency = credit(paid, 'USD', valuation({ credit: c }))!;
        return (
          value.store.total === payout(resolutionLine('STORE_CREDIT', paid), 'EUR', v) &&
          value.store.credit + value.store.bonus === value.store.total &&
          value.claim.credit + value.claim.bonus === value.claim.total &&
          JSON.stringify(sameCurrency.claim) === JSON.stringify(sameCurrency.store)
        );
      }),
    );
  });
});

describe('payout batches of a store', () => {
  const store = '71111111-1111-4111-8111-111111111111';
  const at = '2026-11-22T12:00:00.000Z';
  const step = (state: StorePayoutsState, command: StorePayoutsCommand) => {
    const result = storePayoutsDecider.decide(command, state);
    return { result, state: result.ok ? result.value.reduce(storePayoutsDecider.evolve, state) : state };
  };

  it('puts an entry in one batch only, however batches are made from overlapping reads', () => {
    const ids = Array.from({ length: 6 }, (_, i) => `8${i}111111-1111-4111-8111-111111111111`);
    fc.assert(
      fc.property(fc.array(fc.subarray(ids, { minLength: 1 }), { minLength: 1, maxLength: 6 }), (reads) => {
        let state = storePayoutsDecider.initialState;
        for (const [n, read] of reads.entries()) {
          state = step(state, {
            type: 'CreatePayoutBatch',
            storeId: store,
            batchId: `9${n}111111-1111-4111-8111-111111111111`,
            currency: 'USD',
            entries: read.map((id) => ({ id, amount: 100 })),
            actorId: 'fay',
            now: at,
          }).state;
        }
        const all = [...state.batches.values()].flatMap((b) => b.entryIds);
        return (
          all.length === new Set(all).size &&
          [...state.batches.values()].every((b) => b.total === b.entryIds.length * 100)
        );
      }),
    );
  });

  it('is approved by someone other than its maker, and paid once, only after approval', () => {
    const batchId = '91111111-1111-4111-8111-111111111111';
    let state = step(storePayoutsDecider.initialState, {
      type: 'CreatePayoutBatch',
      storeId: store,
      batchId,
      currency: 'USD',
      entries: [{ id: batchId, amount: 5 }],
      actorId: 'fay',
      now: at,
    }).state;
    const pay = { type: 'PayPayoutBatch', storeId: store, batchId, reference: 'W1', actorId: 'fay', now: at } as const;
    expect(step(state, pay).result).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
    expect(
      step(state, { type: 'ApprovePayoutBatch', storeId: store, batchId, actorId: 'fay', now: at }).result,
    ).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    state = step(state, { type: 'ApprovePayoutBatch', storeId: store, batchId, actorId: 'cole', now: at }).state;
    state = step(state, pay).state;
    expect(state.batches.get(batchId)).toMatchObject({
      status: 'paid',
      reference: 'W1',
      approvedBy: 'cole',
      paidBy: 'fay',
    });
    expect(step(state, pay).result).toMatchObject({ ok: false, error: { code: 'invalid_transition' } });
  });
});

describe('store credit', () => {
  const scope = {
    storeId: '71111111-1111-4111-8111-111111111111',
    customerEmail: 'ava@example.com',
    customerKey: 'a'.repeat(64),
    currency: 'USD',
    now: '2026-11-22T12:00:00.000Z',
  };
  const op = fc.oneof(
    fc.record({
      type: fc.constant('IssueStoreCredit' as const),
      amount: fc.integer({ min: 0, max: 5_000 }),
      resolutionId: fc.constantFrom('r1', 'r2', 'r3'),
    }),
    fc.record({ type: fc.constant('RedeemStoreCredit' as const), amount: fc.integer({ min: -10, max: 5_000 }) }),
    fc.record({ type: fc.constant('AdjustStoreCredit' as const), amount: fc.integer({ min: -5_000, max: 5_000 }) }),
    fc.record({ type: fc.constant('ReclaimStoreCredit' as const), resolutionId: fc.constantFrom('r1', 'r2', 'r3') }),
  );
  const claimId = '61111111-1111-4111-8111-111111111111';
  type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;
  const commandOf = (o: Op): StoreCreditCommand => {
    switch (o.type) {
      case 'IssueStoreCredit':
        return { ...scope, ...o, claimId };
      case 'RedeemStoreCredit':
        return { ...scope, ...o, reference: 'x' };
      case 'AdjustStoreCredit':
        return { ...scope, ...o, reason: 'x' };
      case 'ReclaimStoreCredit':
        return { ...scope, ...o, claimId, reason: 'Charged back' };
    }
  };
  /** Runs the commands the domain accepts, returning the state and every event they made. */
  const run = (commands: readonly StoreCreditCommand[]) => {
    let state = storeCreditDecider.initialState;
    const events: DomainEvent[] = [];
    for (const command of commands) {
      const result = storeCreditDecider.decide(command, state);
      if (!result.ok) continue;
      events.push(...result.value);
      state = result.value.reduce(storeCreditDecider.evolve, state);
      expect(state.balance).toBeGreaterThanOrEqual(0);
    }
    return { state, events };
  };
  /** What the events did to the balance, by kind. */
  const total = (
    events: readonly DomainEvent[],
    type: 'StoreCreditIssued' | 'StoreCreditRedeemed' | 'StoreCreditAdjusted' | 'StoreCreditReclaimed',
  ) =>
    events.reduce((n, e) => {
      switch (e.type) {
        case 'StoreCreditIssued':
        case 'StoreCreditRedeemed':
        case 'StoreCreditAdjusted':
        case 'StoreCreditReclaimed':
          return e.type === type ? n + e.data.amount : n;
        default:
          return n;
      }
    }, 0);

  it('never goes below zero, issues once per resolution, and equals the sum of what it recorded', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const { state, events } = run(ops.map(commandOf));
        const issued = events.filter((e) => e.type === 'StoreCreditIssued');
        const sum =
          total(events, 'StoreCreditIssued') +
          total(events, 'StoreCreditAdjusted') -
          total(events, 'StoreCreditRedeemed') -
          total(events, 'StoreCreditReclaimed');
        return (
          new Set(issued.map((e) => e.type === 'StoreCreditIssued' && e.data.resolutionId)).size === issued.length &&
          sum === state.balance
        );
      }),
    );
  });

  it('reversed, takes back the unredeemed part of the credit and states the rest redeemed: balance = issued - redeemed - taken back >= 0', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000 }), fc.array(op, { maxLength: 30 }), (amount, ops) => {
        const reclaim = commandOf({ type: 'ReclaimStoreCredit', resolutionId: 'r1' });
        const { state, events } = run([
          commandOf({ type: 'IssueStoreCredit', amount, resolutionId: 'r1' }),
          ...ops.map(commandOf).filter((c) => c.type !== 'ReclaimStoreCredit' || c.resolutionId !== 'r1'),
          reclaim,
        ]);
        const reclaimed = events.filter((e) => e.type === 'StoreCreditReclaimed' && e.data.resolutionId === 'r1');
        expect(reclaimed).toHaveLength(1);
        const taken = reclaimed[0]!;
        if (taken.type !== 'StoreCreditReclaimed') return;
        // Of this credit: what the customer spent stays spent, the rest goes back.
        expect(taken.data.amount + taken.data.redeemed).toBe(amount);
        expect(Math.min(taken.data.amount, taken.data.redeemed)).toBeGreaterThanOrEqual(0);
        // Of the whole balance: issued (and goodwill) less redeemed less taken back, never negative.
        const issued = total(events, 'StoreCreditIssued') + total(events, 'StoreCreditAdjusted');
        expect(state.balance).toBe(
          issued - total(events, 'StoreCreditRedeemed') - total(events, 'StoreCreditReclaimed'),
        );
        expect(state.balance).toBeGreaterThanOrEqual(0);
        // Reversed again, nothing more is taken.
        given(storeCreditDecider, events).when(reclaim).then([]);
      }),
    );
  });

  it('spends the oldest credit first, so a reversal takes back what is left of its own', () => {
    const { state, events } = run([
      commandOf({ type: 'IssueStoreCredit', amount: 1_000, resolutionId: 'r1' }),
      commandOf({ type: 'IssueStoreCredit', amount: 500, resolutionId: 'r2' }),
      commandOf({ type: 'RedeemStoreCredit', amount: 1_200 }),
      commandOf({ type: 'ReclaimStoreCredit', resolutionId: 'r2' }),
      commandOf({ type: 'ReclaimStoreCredit', resolutionId: 'r1' }),
    ]);
    expect(
      events
        .filter((e) => e.type === 'StoreCreditReclaimed')
        .map((e) => e.type === 'StoreCreditReclaimed' && [e.data.resolutionId, e.data.amount, e.data.redeemed]),
    ).toEqual([
      ['r2', 300, 200],
      ['r1', 0, 1_000],
    ]);
    expect(state.balance).toBe(0);
  });
});

describe('order premiums', () => {
  const order = {
    id: '71111111-1111-4111-8111-111111111111',
    storeId: '81111111-1111-4111-8111-111111111111',
    orderNumber: '1001',
    protected: true,
    policy: { insuredAmount: 10_000, premiumPaid: 298, premiumCurrency: 'USD', removedAt: null },
  };
  const at = '2026-11-22T12:00:00.000Z';
  const collected = (events: readonly { type: string; data: unknown }[]) =>
    events.reduce(
      (n, e) =>
        n +
        (e.type === 'PremiumRecorded'
          ? (e.data as { premiumPaid: number }).premiumPaid
          : e.type === 'PremiumReversed'
            ? -(e.data as { premiumPaid: number }).premiumPaid
            : 0),
      0,
    );

  it("always leaves collected what the order's current policy says, whatever the updates before", () => {
    const update = fc.record({
      protected: fc.boolean(),
      premiumPaid: fc.integer({ min: 0, max: 1_000 }),
      removed: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(update, { minLength: 1, maxLength: 12 }), (updates) => {
        let state = orderPremiumDecider.initialState;
        const events = [];
        for (const u of updates) {
          const result = orderPremiumDecider.decide(
            {
              type: 'RecordOrderPolicy',
              now: at,
              order: {
                ...order,
                protected: u.protected,
                policy: { ...order.policy, premiumPaid: u.premiumPaid, removedAt: u.removed ? at : null },
              },
            },
            state,
          );
          if (!result.ok) return false;
          events.push(...result.value);
          state = result.value.reduce(orderPremiumDecider.evolve, state);
        }
        const last = updates.at(-1)!;
        return collected(events) === (last.protected && !last.removed ? last.premiumPaid : 0);
      }),
    );
  });
});
