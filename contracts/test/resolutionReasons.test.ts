import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { REASONS_FOR_DECISION, ResolutionReason, ResolutionType } from '../src/index.js';

/** Grounds for refusing an item: never offered when the item is granted something. */
const DENIAL_GROUNDS = [
  'NOT_COVERED',
  'EXPIRED30',
  'PACKAGE_ARRIVED',
  'PHOTO_VERIFIED',
  'THRESHOLD_REACHED',
  'ALREADY_REFUNDED',
  'ALREADY_REPLACED',
  'RETURN_TO_SENDER',
  'NO_RESPONSE',
  'POTENTIAL_FRAUD',
];
const APPROVALS = ResolutionType.options.filter((t) => t !== 'DENY');

describe('the reasons offered for each decision', () => {
  it('offers an approval its own code and no ground for denial', () => {
    fc.assert(
      fc.property(fc.constantFrom(...APPROVALS), (type) => {
        const offered = REASONS_FOR_DECISION[type];
        expect(offered).toContain(type);
        expect(offered.filter((r) => DENIAL_GROUNDS.includes(r))).toEqual([]);
      }),
    );
  });

  it('offers a denial every ground and no approval code, each a known reason once', () => {
    const offered = REASONS_FOR_DECISION.DENY;
    expect(offered).toEqual(expect.arrayContaining(DENIAL_GROUNDS));
    expect(offered.filter((r) => (APPROVALS as string[]).includes(r))).toEqual([]);
    for (const type of ResolutionType.options) {
      const reasons = REASONS_FOR_DECISION[type];
      expect(new Set(reasons).size).toBe(reasons.length);
      for (const reason of reasons) expect(ResolutionReason.safeParse(reason).success).toBe(true);
    }
  });
});
