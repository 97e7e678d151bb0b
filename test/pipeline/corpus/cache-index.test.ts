/** The extraction cache's index in typed arrays and the step's list of hashes, against a Map / an array. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CacheIndex, type Located } from '../../../pipeline/steps/corpus/cache-index.ts';
import { HashList } from '../../../pipeline/steps/corpus/hash-list.ts';

const sha = (s: string) => createHash('sha256').update(s).digest();

describe('CacheIndex', () => {
  it('finds, replaces, marks and lists what a Map would, through several doublings', () => {
    const index = new CacheIndex(4);
    const oracle = new Map<string, { at: Located; used: boolean }>();
    for (let i = 0; i < 5000; i++) {
      const key = sha(`k${i % 3700}`); // keys come back: replaced, not added
      const at = { segment: `seg${i % 7}`, offset: i * 1e6, length: i, summary: i % 3 };
      index.set(key, at);
      const hex = key.toString('hex');
      oracle.set(hex, { at, used: oracle.get(hex)?.used ?? false });
      if (i % 5 === 0) {
        index.markUsed(key);
        oracle.get(hex)!.used = true;
      }
    }
    expect(index.size).toBe(oracle.size);
    for (const [hex, { at, used }] of oracle) {
      const key = Buffer.from(hex, 'hex');
      expect(index.get(key)).toEqual(at);
      expect(index.isUsed(key)).toBe(used);
    }
    expect(index.get(sha('absent'))).toBeUndefined();
    index.markUsed(sha('absent'));
    expect(index.has(sha('absent'))).toBe(false);
    const listed = new Map([...index.entries()].map(([k, at, used]) => [Buffer.from(k).toString('hex'), { at, used }]));
    expect(listed).toEqual(oracle);
  });

  it('moves entries while they are listed (compaction) without losing or repeating one', () => {
    const index = new CacheIndex(4);
    for (let i = 0; i < 100; i++) index.set(sha(`k${i}`), { segment: 'a', offset: i, length: 1, summary: 0 });
    let seen = 0;
    for (const [key, at] of index.entries()) {
      index.set(key, { ...at, segment: 'b' });
      seen++;
    }
    expect(seen).toBe(100);
    expect([...index.entries()].every(([, at]) => at.segment === 'b')).toBe(true);
  });
});

describe('HashList', () => {
  it('gives back the hashes and nulls it was given, through several doublings', () => {
    const hexes = Array.from({ length: 3000 }, (_, i) => (i % 11 === 0 ? null : sha(`h${i}`).toString('hex')));
    const list = HashList.from(hexes);
    expect(list.length).toBe(hexes.length);
    hexes.forEach((h, i) => expect(list.get(i)).toBe(h));
    expect(() => list.get(3000)).toThrow(RangeError);
    expect(() => list.push('not hex')).toThrow(/not a sha256/);
  });
});
