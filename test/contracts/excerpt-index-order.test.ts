/**
 * orderByKey (contracts/corpus/excerpt-index-data.ts), the excerpt index's sort orders, against the comparator
 * sort it replaces: missing keys (NaN) last, ties by index, ascending or descending, on keys with many ties,
 * both zeros, NaN and extremes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderByKey } from '../../contracts/corpus/excerpt-index-data.ts';

/** The oracle: the indexes sorted with the comparator. */
function oracle(key: Float64Array, dir: 1 | -1): number[] {
  return Array.from({ length: key.length }, (_, i) => i).sort((a, b) => {
    const x = key[a]!;
    const y = key[b]!;
    const xm = Number.isNaN(x);
    const ym = Number.isNaN(y);
    if (xm !== ym) return xm ? 1 : -1;
    return (xm ? 0 : dir * (x - y)) || a - b;
  });
}

const keyValue = fc.oneof(
  fc.constantFrom(0, -0, NaN, 1, 0.05, 0.049999999999999996, 0.1, Number.MIN_VALUE, Number.MAX_VALUE, -1, 2024, 1900),
  fc.double({ noNaN: false }),
  fc.integer({ min: 0, max: 20 }).map((k) => k / 100),
);

describe('orderByKey', () => {
  it('orders as the comparator sort does, both ways', () => {
    fc.assert(
      fc.property(fc.array(keyValue, { maxLength: 300 }), fc.constantFrom<1 | -1>(1, -1), (values, dir) => {
        const key = Float64Array.from(values);
        expect(Array.from(orderByKey(key, dir))).toEqual(oracle(key, dir));
      }),
      { numRuns: 500 },
    );
  });

  it('handles the empty, all-missing and one-key cases', () => {
    expect(Array.from(orderByKey(new Float64Array(0), 1))).toEqual([]);
    expect(Array.from(orderByKey(Float64Array.from([NaN, NaN, NaN]), -1))).toEqual([0, 1, 2]);
    expect(Array.from(orderByKey(Float64Array.from([0.07, NaN, 0.07, -0, 0]), -1))).toEqual([0, 2, 3, 4, 1]);
  });
});
