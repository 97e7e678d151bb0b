/**
 * The compact list of sha256 hashes (pipeline/steps/corpus/hash-list.ts): what goes in as hex comes back as the
 * same hex, nulls stay nulls across growth, copies between lists keep both, and a text that is not 64 lower-case
 * hex digits is refused without touching what the list holds.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HashList } from '../../../pipeline/steps/corpus/hash-list.ts';

const sha = (i: number) => createHash('sha256').update(String(i)).digest('hex');

describe('HashList', () => {
  it('gives back every hash and null pushed, across growth, and copies between lists', () => {
    const list = new HashList();
    const made = Array.from({ length: 5000 }, (_, i) => (i % 7 === 3 ? null : sha(i)));
    for (const h of made) list.push(h);
    expect(list.length).toBe(made.length);
    made.forEach((h, i) => expect(list.get(i)).toBe(h));
    const copy = new HashList();
    for (let i = made.length - 1; i >= 0; i--) copy.pushFrom(list, i);
    made.forEach((h, i) => expect(copy.get(made.length - 1 - i)).toBe(h));
    list.set(3, sha(-1));
    list.set(4, null);
    expect([list.get(3), list.get(4), list.get(5)]).toEqual([sha(-1), null, made[5]]);
  });

  it('refuses a text that is not 64 lower-case hex digits, and keeps what it held', () => {
    const list = HashList.from([sha(1), sha(2)]);
    for (const bad of [
      sha(3).toUpperCase(),
      `${sha(3).slice(0, 63)}g`,
      sha(3).slice(0, 62),
      `${sha(3)}00`,
      `g${sha(3).slice(1)}`,
      '\u0130'.repeat(64),
      `${sha(3).slice(0, 63)}\u0161`,
      '',
    ]) {
      expect(() => list.push(bad), bad).toThrow(/not a sha256/);
      expect(() => list.set(1, bad), bad).toThrow(/not a sha256/);
    }
    expect(list.length).toBe(2);
    expect([list.get(0), list.get(1)]).toEqual([sha(1), sha(2)]);
    list.push(sha(4));
    expect(list.get(2)).toBe(sha(4));
  });
});
