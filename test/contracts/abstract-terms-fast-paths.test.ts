/**
 * restoreAbstract and textTerms/titleTerms take fast paths for the common case (issue 17, session 20): slots
 * instead of a sort when each position is used once, no whitespace collapsing when there is nothing to
 * collapse, lower case instead of NFKD for ASCII texts, and an ASCII term expression. Each must give exactly
 * what the plain definitions give, checked here against oracles written from those definitions (a stable
 * sort of (position, token) pairs joined and collapsed; NFKD, marks removed, lower case, split at every
 * character that is neither letter nor digit) on generated indexes and texts of every kind.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aboutCanada } from '../helpers/frame-rules-js.ts';
import { restoreAbstract } from '../../contracts/frame/catalogue-work.ts';
import { foldText, textTerms, titleTerms } from '../../contracts/frame/title-terms.ts';

function restoreOracle(index: Record<string, number[]> | null): string | null {
  if (!index) return null;
  const pairs: [number, string][] = [];
  for (const [token, positions] of Object.entries(index)) for (const p of positions) pairs.push([p, token]);
  if (pairs.length > 20_000) return null;
  pairs.sort((a, b) => a[0] - b[0]);
  const text = pairs
    .map((p) => p[1])
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : text;
}

const termsOracle = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replaceAll('ς', 'σ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');

const pieces = ['Canada', 'montréal', 'the', ' ', '', '\t', '\u00a0', 'x y', '1', 'ﬁ', 'Σ', 'İ', '\u0301e', '😀', 'Ⅻ', '—', 'Québec', '٣', '日本'];
const token = fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 }), fc.nat(30).map(String));
const positions = fc.oneof(fc.array(fc.nat(15), { maxLength: 4 }), fc.array(fc.nat(400), { maxLength: 3 }));
const index = fc.dictionary(token, positions, { maxKeys: 12 });
const text = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.array(fc.constantFrom(...pieces), { maxLength: 10 }).map((w) => w.join(' ')),
);

describe('restoreAbstract fast paths', () => {
  it('equals the plain sort on generated indexes (dense, sparse, repeated positions, whitespace tokens)', () => {
    fc.assert(
      fc.property(index, (i) => {
        expect(restoreAbstract(i)).toBe(restoreOracle(i));
      }),
      { numRuns: 5000 },
    );
  });
  it('keeps index order for tokens at the same position, and the size limit', () => {
    expect(restoreAbstract({ b: [0], a: [0, 1] })).toBe('b a a');
    expect(restoreAbstract({ 2: [1], 1: [1], x: [0] })).toBe('x 1 2');
    expect(restoreAbstract({ far: [100_000], near: [0] })).toBe('near far');
    expect(restoreAbstract({ a: Array.from({ length: 20_000 }, (_, k) => k) })).not.toBeNull();
    expect(restoreAbstract({ a: Array.from({ length: 20_001 }, (_, k) => k) })).toBeNull();
    expect(restoreAbstract({ ' a': [0], 'b\n': [1], '': [2] })).toBe('a b');
  });
});

describe('textTerms fast paths', () => {
  it('equal NFKD folding and a Unicode split on generated texts', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(textTerms(t)).toEqual(termsOracle(t));
        expect(titleTerms(t)).toEqual([...new Set(termsOracle(t))]);
      }),
      { numRuns: 5000 },
    );
  });
  it('folds ASCII as lower case and the rest by NFKD', () => {
    expect(foldText('Hello, WORLD-19')).toBe('hello, world-19');
    expect(textTerms('MONTRÉAL’s ﬁrst ΣΟΦΟΣ—Québec')).toEqual(['montreal', 's', 'first', 'σοφοσ', 'quebec']);
    expect(aboutCanada(['Studies in Montréal—and the  Yukon']).terms).toEqual([
      { term: 'montreal', tier: 'B' },
      { term: 'yukon', tier: 'A' },
    ]);
  });
});
