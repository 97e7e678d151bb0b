/**
 * The search index's varints (contracts/corpus/search-postings.ts): `varintLength` says how many bytes
 * `VarintWriter.write` takes for every value at and around each power of two up to 2^53 − 1 (the search carry
 * finds each posting's bytes by it), and the bytes written read back through the format's decoder.
 */
import { describe, expect, it } from 'vitest';
import { decodeVarints, VarintWriter, varintLength } from '../../../contracts/corpus/search-postings.ts';

describe('search-index varints', () => {
  it('varintLength is the bytes VarintWriter writes, for every power of two and its neighbours', () => {
    const values = new Set<number>([0, 1]);
    for (let b = 1; b <= 53; b++) for (const v of [2 ** b - 1, 2 ** b, 2 ** b + 1]) if (v <= Number.MAX_SAFE_INTEGER) values.add(v);
    const w = new VarintWriter();
    for (const v of values) {
      w.reset();
      w.write(v);
      expect(varintLength(v), String(v)).toBe(w.length);
    }
  });

  it('reads back below 2^31 through the decoder', () => {
    const values = [0, 1, 127, 128, 16383, 16384, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 31 - 1];
    const w = new VarintWriter();
    for (const v of values) w.write(v);
    expect(w.length).toBe(values.reduce((s, v) => s + varintLength(v), 0));
    expect([...decodeVarints(w.finish(), values.length)]).toEqual(values);
  });
});
