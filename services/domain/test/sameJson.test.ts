import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sameJson } from '../src/sameJson.js';
import { inJsonbKeyOrder } from './support/jsonbKeyOrder.js';

/** The JSON text of a value with every object's keys sorted: equal exactly when the values are equal as JSON. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

describe('equality as JSON', () => {
  it('holds between a value and the same value with its keys in another order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(sameJson(value, inJsonbKeyOrder(value))).toBe(true);
      }),
    );
  });

  it('holds exactly when the two values say the same in JSON', () => {
    const small = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(small, small, (a, b) => {
        expect(sameJson(a, b)).toBe(canonical(a) === canonical(b));
      }),
    );
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });
});
