import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ClaimType,
  CustomerResolution,
  RiskLevel,
  RuleDefinition,
  ShipmentStatus,
  type RiskFacts,
  type RuleCondition,
} from '@claims/contracts';
import {
  assessRisk,
  decideRuleApplication,
  evolveRuleDay,
  firstMatching,
  initialRuleDay,
  levelOfScore,
  meets,
  ruleMatches,
  type RuleDayState,
  type RuleSubject,
  type StoredRule,
} from '../src/index.js';

const subjectArb: fc.Arbitrary<RuleSubject> = fc.record({
  claimType: fc.constantFrom(...ClaimType.options),
  claimValue: fc.integer({ min: 0, max: 100_000 }),
  currency: fc.constant('USD'),
  riskLevel: fc.constantFrom(...RiskLevel.options),
  riskScore: fc.integer({ min: 0, max: 100 }),
  shipmentStatuses: fc.array(fc.constantFrom(...ShipmentStatus.options), { minLength: 0, maxLength: 3 }),
  shopperClaims90d: fc.integer({ min: 0, max: 10 }),
  desiredMethod: fc.constantFrom(...CustomerResolution.options),
});

const conditionArb: fc.Arbitrary<RuleCondition> = fc.oneof(
  fc.record({
    field: fc.constantFrom('claimValue' as const, 'riskScore' as const, 'shopperClaims90d' as const),
    op: fc.constantFrom('eq' as const, 'lte' as const, 'gte' as const),
    value: fc.integer({ min: 0, max: 100_000 }),
  }),
  fc.record({
    field: fc.constant('claimType' as const),
    op: fc.constant('eq' as const),
    value: fc.constantFrom(...ClaimType.options),
  }),
  fc.record({
    field: fc.constant('claimType' as const),
    op: fc.constant('in' as const),
    value: fc.uniqueArray(fc.constantFrom(...ClaimType.options), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({
    field: fc.constant('riskLevel' as const),
    op: fc.constantFrom('eq' as const, 'lte' as const, 'gte' as const),
    value: fc.constantFrom(...RiskLevel.options),
  }),
  fc.record({
    field: fc.constant('shipmentStatus' as const),
    op: fc.constant('in' as const),
    value: fc.uniqueArray(fc.constantFrom(...ShipmentStatus.options), { minLength: 1, maxLength: 4 }),
  }),
);

const limitArb = fc.record({
  count: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  amount: fc.option(fc.integer({ min: 1, max: 50_000 }), { nil: null }),
});

const ruleArb = (id: string): fc.Arbitrary<StoredRule> =>
  fc
    .record({
      conditions: fc.array(conditionArb, { maxLength: 3 }),
      action: fc.constantFrom('approve' as const, 'deny' as const, 'hold' as const),
      dailyLimit: limitArb,
    })
    .map(({ conditions, action, dailyLimit }) => ({
      id,
      version: 1,
      updatedAt: '2026-11-01T00:00:00.000Z',
      rule: RuleDefinition.parse({
        name: `rule ${id}`,
        mode: 'live',
        conditions,
        action: action === 'deny' ? { type: action, reason: 'OTHER' } : { type: action },
        dailyLimit,
      }),
    }));

const RISK_RANK = RiskLevel.options;

describe('rule conditions and matching', () => {
  it('holds a condition exactly when the claim has the value it names', () => {
    fc.assert(
      fc.property(subjectArb, conditionArb, (subject, condition) => {
        const actual = {
          claimType: subject.claimType,
          claimValue: subject.claimValue,
          riskScore: subject.riskScore,
          shopperClaims90d: subject.shopperClaims90d,
          riskLevel: RISK_RANK.indexOf(subject.riskLevel),
        } as Record<string, string | number>;
        const { field, op, value } = condition;
        let expected: boolean;
        if (field === 'shipmentStatus')
          expected =
            subject.shipmentStatuses.length > 0 &&
            subject.shipmentStatuses.every((s) => (value as string[]).includes(s));
        else if (op === 'in') expected = (value as string[]).includes(String(actual[field]));
        else {
          const want = field === 'riskLevel' ? RISK_RANK.indexOf(value as RiskLevel) : value;
          const have = actual[field]!;
          expected = op === 'eq' ? have === want : op === 'lte' ? have <= want : have >= want;
        }
        expect(meets(subject, condition)).toBe(expected);
      }),
    );
  });

  it('never lets a rule act on a claim it does not match: the first matching rule in order acts', () => {
    fc.assert(
      fc.property(subjectArb, fc.array(fc.nat(), { maxLength: 5 }), (subject, seeds) => {
        const rules = seeds.map((seed, i) => fc.sample(ruleArb(`r${i}`), { seed, numRuns: 1 })[0]!);
        const acting = firstMatching(
          rules.map((r) => ({ ...r, conditions: r.rule.conditions })),
          subject,
        );
        if (acting === null) {
          expect(rules.every((r) => !ruleMatches(r.rule, subject))).toBe(true);
          return;
        }
        expect(ruleMatches(acting.rule, subject)).toBe(true);
        const index = rules.findIndex((r) => r.id === acting.id);
        expect(rules.slice(0, index).every((r) => !ruleMatches(r.rule, subject))).toBe(true);
      }),
    );
  });
});

describe('daily limits', () => {
  const apply = (rule: StoredRule, claimId: string, claimValue: number, day: RuleDayState) =>
    decideRuleApplication(
      {
        type: 'ApplyRule',
        storeId: '00000000-0000-4000-8000-000000000001',
        rule,
        mode: 'live',
        claimId,
        claimNumber: claimId,
        filedAt: '2026-11-02T10:00:00.000Z',
        subject: {
          claimType: 'DAMAGED',
          claimValue,
          currency: 'USD',
          riskLevel: 'low',
          riskScore: 0,
          shipmentStatuses: [],
          shopperClaims90d: 0,
          desiredMethod: 'REFUND',
        },
        now: '2026-11-02T10:00:01.000Z',
      },
      day,
    );

  /**
   * Writers race on one rule-day stream: each reads it at some version, decides, and appends only if the stream is
   * still at that version (optimistic concurrency), retrying on conflict as the reaction does. Whatever the
   * interleaving, the day's applications stay within the count and the money.
   */
  it('hold under concurrent writers with optimistic appends, whatever the interleaving', () => {
    fc.assert(
      fc.property(
        ruleArb('limited'),
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat({ max: 11 }), { minLength: 1, maxLength: 60 }),
        (rule, values, schedule) => {
          const stream: ReturnType<typeof evolveRuleDay>[] = [initialRuleDay()];
          const writers = values.map((value, i) => ({ id: `c${i}`, value, readAt: 0, done: false }));
          // Each step: a writer reads the stream head, or tries to append what it decided on what it read.
          for (const step of [...schedule, ...writers.flatMap((_, i) => [i, i, i, i])]) {
            const writer = writers[step % writers.length]!;
            if (writer.done) continue;
            const seen = stream[writer.readAt]!;
            const decision = apply(rule, writer.id, writer.value, seen);
            expect(decision.ok).toBe(true);
            if (!decision.ok) return;
            const [event] = decision.value;
            if (!event) {
              writer.done = true;
              continue;
            }
            if (writer.readAt === stream.length - 1) {
              stream.push(evolveRuleDay(seen, event));
              writer.done = true;
            } else writer.readAt = stream.length - 1;
          }
          const used = stream[stream.length - 1]!.used.live;
          const { count, amount } = rule.rule.dailyLimit;
          if (count !== null) expect(used.count).toBeLessThanOrEqual(count);
          const money = rule.rule.action.type === 'approve' ? amount : null;
          if (money !== null) expect(used.amount).toBeLessThanOrEqual(money);
        },
      ),
    );
  });

  it('acts once per claim, and until the limit is reached', () => {
    fc.assert(
      fc.property(ruleArb('once'), fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 10 }), (rule, values) => {
        let day = initialRuleDay();
        for (const [i, value] of values.entries()) {
          for (const _repeat of [1, 2]) {
            const decision = apply(rule, `c${i}`, value, day);
            if (!decision.ok) throw new Error(decision.error.message);
            for (const event of decision.value) day = evolveRuleDay(day, event);
          }
        }
        expect(day.claimIds.size).toBe(day.used.live.count);
        if (rule.rule.dailyLimit.count === null && rule.rule.dailyLimit.amount === null)
          expect(day.used.live.count).toBe(values.length);
      }),
    );
  });
});

describe('risk', () => {
  const factsArb: fc.Arbitrary<RiskFacts> = fc.record({
    shopperClaims90d: fc.integer({ min: 0, max: 10 }),
    shopperClaimsElsewhere90d: fc.integer({ min: 0, max: 10 }),
    reusedPhotos: fc.integer({ min: 0, max: 4 }),
    storeCurrency: fc.constant('USD'),
    claimValue: fc.integer({ min: 0, max: 100_000 }),
    orderValue: fc.integer({ min: 0, max: 100_000 }),
    storeUsualClaim: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }),
    hoursSinceDelivery: fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: null }),
    deliveredButNotReceived: fc.boolean(),
    addressChangedAfterShipping: fc.boolean(),
  });

  it('scores 0 to 100 with a level of its score and a reason a person reads, never lower for more history', () => {
    fc.assert(
      fc.property(factsArb, fc.integer({ min: 1, max: 5 }), (facts, more) => {
        const risk = assessRisk(facts);
        expect(risk.score).toBeGreaterThanOrEqual(0);
        expect(risk.score).toBeLessThanOrEqual(100);
        expect(risk.level).toBe(levelOfScore(risk.score));
        expect(risk.reasons.length).toBeGreaterThan(0);
        for (const reason of risk.reasons) expect(reason.text.length).toBeGreaterThan(10);
        const worse = assessRisk({ ...facts, shopperClaims90d: facts.shopperClaims90d + more, reusedPhotos: 1 });
        expect(worse.score).toBeGreaterThanOrEqual(risk.score);
      }),
    );
  });

  it('says why: a reused photo and a delivered parcel claimed as not received are high risk', () => {
    const risk = assessRisk({
      shopperClaims90d: 0,
      shopperClaimsElsewhere90d: 0,
      reusedPhotos: 1,
      storeCurrency: 'USD',
      claimValue: 1_000,
      orderValue: 5_000,
      storeUsualClaim: null,
      hoursSinceDelivery: null,
      deliveredButNotReceived: true,
      addressChangedAfterShipping: false,
    });
    expect(risk.level).toBe('high');
    expect(risk.reasons.map((r) => r.code)).toEqual(['reused_photos', 'delivered_but_not_received']);
  });
});
