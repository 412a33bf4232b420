import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AB_MIN_CLAIMS_PER_VARIANT } from '@claims/contracts';
import {
  abAssignmentsDecider,
  abTestResults,
  abTestsDecider,
  assignVariant,
  offeredVariant,
  twoProportionTest,
} from '../src/index.js';
import { given, refused } from './support/givenWhenThen.js';

const storeId = 'a0cea1ca-8017-4455-8392-fa5be97b8803';
const testId = '5b1f0a2e-8f6d-4c1e-9a37-2d6f1b0c9e44';
const NOW = '2026-11-23T09:00:00.000Z';
const variants = [
  { id: 'bonus-10', label: '10% bonus', creditBonus: 10, creditBonusType: 'percentage' as const },
  { id: 'bonus-15', label: '15% bonus', creditBonus: 15, creditBonusType: 'percentage' as const },
];

describe('variant assignment', () => {
  it('is deterministic: the same session always gets the same variant', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), (test, session) => {
        expect(assignVariant(test, session, variants)).toBe(assignVariant(test, session, [...variants]));
        expect(variants).toContain(assignVariant(test, session, variants));
      }),
    );
  });

  it('splits sessions about evenly', () => {
    const sessions = fc.sample(fc.uuid(), { numRuns: 4_000, seed: 42 });
    const first = sessions.filter((session) => assignVariant(testId, session, variants).id === 'bonus-10').length;
    expect(first / sessions.length).toBeGreaterThan(0.45);
    expect(first / sessions.length).toBeLessThan(0.55);
  });

  it('is recorded once per test and session', () => {
    const command = {
      type: 'AssignAbVariant' as const,
      storeId,
      testId,
      sessionId: testId,
      orderId: storeId,
      variantId: 'bonus-10',
    };
    const assigned = given(abAssignmentsDecider)
      .when({ ...command, now: NOW })
      .thenMatches([{ type: 'AbVariantAssigned', data: { testId, variantId: 'bonus-10', assignedAt: NOW } }]);
    given(abAssignmentsDecider, assigned)
      .when({ ...command, variantId: 'bonus-15', now: NOW })
      .then([]);
  });
});

const start = (id: string, now = NOW) =>
  ({ type: 'StartAbTest', storeId, testId: id, name: 'Bonus', variants, now }) as const;
const stop = (now = NOW) => ({ type: 'StopAbTest', storeId, testId, now }) as const;

describe('A/B tests of a store', () => {
  it('runs one test at a time', () => {
    const started = given(abTestsDecider)
      .when(start(testId))
      .thenMatches([{ type: 'AbTestStarted' }]);
    given(abTestsDecider, started).when(start(storeId)).then(refused('ab_test_running'));
    const stopped = given(abTestsDecider, started)
      .when(stop())
      .thenMatches([{ type: 'AbTestStopped' }]);
    given(abTestsDecider, [...started, ...stopped])
      .when(start(storeId))
      .thenMatches([{ type: 'AbTestStarted', data: { testId: storeId } }]);
  });
});

describe('the offer a claim was made', () => {
  it("is its session's variant in the test running when it was filed, even after the test stopped", () => {
    const started = given(abTestsDecider)
      .when(start(testId))
      .thenMatches([{ type: 'AbTestStarted' }]);
    const stopped = given(abTestsDecider, started)
      .when(stop('2026-11-30T00:00:00.000Z'))
      .thenMatches([{ type: 'AbTestStopped' }]);
    const tests = given(abTestsDecider, [...started, ...stopped]).state;
    const assigned = { [testId]: 'bonus-15' };
    expect(offeredVariant(tests, assigned, '2026-11-24T00:00:00.000Z')?.creditBonus).toBe(15);
    expect(offeredVariant(tests, assigned, '2026-12-01T00:00:00.000Z')).toBeNull();
    expect(offeredVariant(tests, {}, '2026-11-24T00:00:00.000Z')).toBeNull();
  });
});

describe('two-proportion z-test', () => {
  const sample = (variantId: string, trials: number, successes: number) => ({
    variantId,
    label: variantId,
    trials,
    successes,
  });

  it('matches a worked example: 40/100 vs 60/100 is z ≈ -2.83, p ≈ 0.0047', () => {
    const result = twoProportionTest(sample('a', 100, 40), sample('b', 100, 60));
    expect(result.z).toBeCloseTo(-2.828, 2);
    expect(result.pValue).toBeCloseTo(0.0047, 3);
    expect(result).toMatchObject({ significant: true, winner: 'b' });
  });

  it('names no winner for a small difference or too few claims', () => {
    expect(twoProportionTest(sample('a', 100, 48), sample('b', 100, 52))).toMatchObject({
      significant: false,
      winner: null,
    });
    expect(twoProportionTest(sample('a', AB_MIN_CLAIMS_PER_VARIANT - 1, 0), sample('b', 200, 200))).toMatchObject({
      significant: false,
      winner: null,
      z: null,
    });
  });

  it('never finds a winner between equal take rates, and is symmetric', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: AB_MIN_CLAIMS_PER_VARIANT, max: 500 }),
        fc.integer({ min: AB_MIN_CLAIMS_PER_VARIANT, max: 500 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (n, m, rate) => {
          const equal = twoProportionTest(sample('a', n, Math.round(n * rate)), sample('b', n, Math.round(n * rate)));
          expect(equal.winner).toBeNull();
          const a = sample('a', n, Math.round(n * rate));
          const b = sample('b', m, Math.round(m * (1 - rate)));
          const forward = twoProportionTest(a, b);
          const backward = twoProportionTest(b, a);
          expect(forward.significant).toBe(backward.significant);
          expect(forward.winner).toBe(backward.winner);
        },
      ),
    );
  });
});

describe("a test's results from the counted events", () => {
  const three = [
    ...variants,
    { id: 'bonus-20', label: '20% bonus', creditBonus: 20, creditBonusType: 'percentage' as const },
  ];
  const tally = (sessions: number, credit: number, refund: number) => ({
    sessions,
    claimsByResolution: { STORE_CREDIT: credit, REFUND: refund },
  });

  it('names the variant whose store-credit take rate is significantly higher, between the two with the most claims (not sessions)', () => {
    const results = abTestResults(
      three,
      new Map([
        ['bonus-10', tally(150, 40, 60)],
        ['bonus-15', tally(140, 60, 40)],
        ['bonus-20', tally(300, 10, 0)],
      ]),
    );
    expect(results.significance).toMatchObject({
      variants: ['bonus-10', 'bonus-15'],
      significant: true,
      winner: 'bonus-15',
    });
    expect(results.significance?.verdict).toMatch(/^15% bonus wins/);
    const fifteen = results.variants.find((v) => v.variantId === 'bonus-15')!;
    expect(fifteen).toMatchObject({ sessions: 140, claimsFiled: 100 });
    expect(fifteen.resolutions.find((r) => r.resolution === 'STORE_CREDIT')?.takeRate).toBe(0.6);
  });

  it('names none while the difference is within chance, and counts a variant nobody reached as zero', () => {
    const close = abTestResults(
      variants,
      new Map([
        ['bonus-10', tally(120, 48, 52)],
        ['bonus-15', tally(110, 52, 48)],
      ]),
    );
    expect(close.significance).toMatchObject({ significant: false, winner: null });
    const unreached = abTestResults(variants, new Map([['bonus-10', tally(3, 1, 0)]]));
    expect(unreached.variants[1]).toMatchObject({ variantId: 'bonus-15', sessions: 0, claimsFiled: 0 });
    expect(unreached.significance).toMatchObject({ winner: null, z: null });
  });
});
