import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RULE_FIELD_VALUES, RuleCondition, RuleField, RuleOp, type RuleAction } from '@claims/contracts';
import { ruleSummary } from '../src/ruleSummary.js';

const approve: RuleAction = { type: 'approve' };

describe('a rule in one plain sentence (the rules page preview)', () => {
  it('reads the issue’s example: damaged claims, a money ceiling, shoppers with no claim in 90 days', () => {
    expect(
      ruleSummary(
        {
          conditions: [
            { field: 'claimType', op: 'eq', value: 'DAMAGED' },
            { field: 'claimValue', op: 'lte', value: 50 },
            { field: 'shopperClaims90d', op: 'eq', value: 0 },
          ],
          action: approve,
        },
        'USD',
      ),
    ).toBe('Approve damaged claims worth up to $50.00 from shoppers with no claim in 90 days.');
  });

  it('writes money in the store’s currency and reads two bounds on one field together', () => {
    expect(
      ruleSummary(
        {
          conditions: [
            { field: 'claimValue', op: 'gte', value: 1000 },
            { field: 'claimValue', op: 'lte', value: 5000 },
          ],
          action: approve,
        },
        'JPY',
      ),
    ).toBe('Approve every claim worth ¥1,000 or more and up to ¥5,000.');
  });

  it('names a denial’s reason, lists values with "or", and orders risk levels', () => {
    expect(
      ruleSummary(
        {
          conditions: [
            { field: 'claimType', op: 'in', value: ['DAMAGED', 'DEFECTIVE_ITEM', 'STOLEN'] },
            { field: 'riskLevel', op: 'gte', value: 'medium' },
            { field: 'shopperClaims90d', op: 'gte', value: 3 },
          ],
          action: { type: 'deny', reason: 'OTHER' },
        },
        'USD',
      ),
    ).toBe(
      'Deny damaged, defective or stolen claims with medium or higher risk from shoppers with 3 or more claims in 90 days (reason: Other).',
    );
  });

  it('says where a held claim waits, the shipment’s status, and the daily limit', () => {
    expect(
      ruleSummary(
        {
          conditions: [
            { field: 'shipmentStatus', op: 'in', value: ['DELIVERED', 'IN_TRANSIT'] },
            { field: 'riskLevel', op: 'eq', value: 'high' },
          ],
          action: { type: 'hold', label: 'Check photos' },
          dailyLimit: { count: 20, amount: 500 },
        },
        'EUR',
      ),
    ).toBe(
      'Hold every claim with high risk whose shipment is delivered or in transit for review, labelled “Check photos”, at most 20 claims and €500.00 a day.',
    );
    expect(
      ruleSummary(
        {
          conditions: [{ field: 'shopperClaims90d', op: 'lte', value: 1 }],
          action: { type: 'approve', resolutionType: 'STORE_CREDIT' },
          dailyLimit: { count: 1, amount: null },
        },
        'USD',
      ),
    ).toBe(
      'Approve every claim from shoppers with at most 1 claim in 90 days with store credit, at most 1 claim a day.',
    );
  });

  it('writes one sentence for every valid rule, naming its action and every money amount it tests', () => {
    const value = (field: RuleField, op: RuleOp) => {
      const allowed = RULE_FIELD_VALUES[field];
      if (!allowed) return fc.integer({ min: 0, max: 100_000 });
      return op === 'in'
        ? fc.uniqueArray(fc.constantFrom(...allowed), { minLength: 1, maxLength: 4 })
        : fc.constantFrom(...allowed);
    };
    const condition = fc
      .tuple(fc.constantFrom(...RuleField.options), fc.constantFrom(...RuleOp.options))
      .chain(([field, op]) => value(field, op).map((v) => ({ field, op, value: v })))
      .filter((c) => RuleCondition.safeParse(c).success) as fc.Arbitrary<RuleCondition>;
    const action = fc.constantFrom<RuleAction>(
      { type: 'approve' },
      { type: 'deny', reason: 'NOT_COVERED' },
      { type: 'hold' },
    );
    fc.assert(
      fc.property(fc.array(condition, { maxLength: 6 }), action, (conditions, act) => {
        const text = ruleSummary({ conditions, action: act }, 'USD');
        expect(text).toMatch(/^(Approve|Deny|Hold) [^\n]+\.$/);
        expect(text.startsWith({ approve: 'Approve', deny: 'Deny', hold: 'Hold' }[act.type])).toBe(true);
        expect(text).not.toMatch(/undefined|NaN|\s{2}/);
        for (const c of conditions.filter((c) => c.field === 'claimValue'))
          expect(text).toContain(`$${Number(c.value).toLocaleString('en-US')}.00`);
      }),
    );
  });
});
