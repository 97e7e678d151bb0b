/**
 * The columns extraction keeps its article copies in (pipeline/steps/corpus/kept-copies.ts): a later copy takes
 * over its id's place, a deleted id is gone, and `drain` gives the copies in id order with what the step holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExtractedArticle } from '../../../pipeline/corpus/extract.ts';
import { compareArticleIds } from '../../../pipeline/steps/corpus/extract-corpus.ts';
import type { FileListRow } from '../../../pipeline/steps/corpus/file-lists.ts';
import { HashList } from '../../../pipeline/steps/corpus/hash-list.ts';
import { type Copy, KeptCopies, pmcDateNumber } from '../../../pipeline/steps/corpus/kept-copies.ts';

const hex = (c: string) => c.repeat(64);
const row = (updated: string) => ({ updated }) as unknown as FileListRow;
function copy(pmcid: string, n: number, extra: Partial<Copy> = {}): Copy {
  return {
    pmcid,
    generated: false,
    summary: n * 10,
    whole: null,
    sha: hex(String(n % 10)),
    row: undefined,
    filled: false,
    src: { package: 'p.tar.gz', file: `${pmcid}.nxml` },
    ...extra,
  };
}

describe('KeptCopies', () => {
  it('keeps one copy per id, replaced in place, in id order when drained, columns released', () => {
    const k = new KeptCopies();
    k.keep(copy('PMC30', 1));
    k.keep(copy('nopmc-b', 2, { generated: true, src: { package: null, file: 'b.xml' } }));
    k.keep(copy('PMC4', 3, { row: row('2026-01-01'), filled: true, sha: null }));
    k.keep(copy('PMC200', 4));
    expect(k.current('PMC4')).toEqual({ src: { package: 'p.tar.gz', file: 'PMC4.nxml' }, updated: '2026-01-01' });
    expect(k.current('PMC5')).toBeNull();
    // A later copy of PMC30 replaces the first one; PMC200 is deleted.
    const whole = { pmcid: 'PMC30' } as ExtractedArticle;
    k.keep(copy('PMC30', 5, { whole, src: { package: 'q.tar.gz', file: 'x/PMC30.nxml' } }));
    expect(k.delete('PMC200')).toBe(true);
    expect(k.delete('PMC200')).toBe(false);
    const d = k.drain(compareArticleIds);
    expect(d.pmcids).toEqual(['PMC4', 'PMC30', 'nopmc-b']);
    expect([...d.handles]).toEqual([30, 50, 20]);
    expect([0, 1, 2].map((i) => d.shas.get(i))).toEqual([null, hex('5'), hex('2')]);
    expect([...d.rows.keys()]).toEqual([0]);
    expect(d.wholes).toEqual([null, whole, null]);
    expect(d.generated).toEqual([{ package: null, file: 'b.xml', id: 'nopmc-b' }]);
    expect(k.drain(compareArticleIds).pmcids).toEqual([]);
  });

  it('gives no wholes when no kept copy has one (a replaced or deleted one does not count)', () => {
    const k = new KeptCopies();
    k.keep(copy('PMC1', 1, { whole: { pmcid: 'PMC1' } as ExtractedArticle }));
    k.keep(copy('PMC1', 2));
    k.keep(copy('PMC2', 3, { whole: { pmcid: 'PMC2' } as ExtractedArticle }));
    k.delete('PMC2');
    expect(k.drain(compareArticleIds).wholes).toBeNull();
  });
});

describe('KeptCopies: what is kept of a file-list row', () => {
  const listRow = (updated: string | null, pmid: string): FileListRow => ({ pmcid: null, pmid, licence: 'CC BY', updated });

  it("gives back each copy's date as it was written, in PMC's form or not, and keeps the row only where it filled something in", () => {
    const k = new KeptCopies();
    k.keep(copy('PMC1', 1, { row: listRow('2026-01-02 03:04:05', '1'), filled: true }));
    k.keep(copy('PMC2', 2, { row: listRow('0001-01-01 00:00:00', '2') }));
    k.keep(copy('PMC3', 3, { row: listRow('2 Jan 2026', '3'), filled: true }));
    k.keep(copy('PMC4', 4, { row: listRow(null, '4') }));
    k.keep(copy('PMC5', 5));
    expect(['PMC1', 'PMC2', 'PMC3', 'PMC4', 'PMC5'].map((id) => k.current(id)!.updated)).toEqual([
      '2026-01-02 03:04:05',
      '0001-01-01 00:00:00',
      '2 Jan 2026',
      null,
      null,
    ]);
    // A later copy of PMC3 in PMC's form, of PMC1 with an odd date that fills nothing in: each slot's date and row follow.
    k.keep(copy('PMC3', 6, { row: listRow('2026-02-01 00:00:00', '6') }));
    k.keep(copy('PMC1', 7, { row: listRow('later', '7'), filled: true }));
    expect(k.current('PMC3')!.updated).toBe('2026-02-01 00:00:00');
    expect(k.current('PMC1')!.updated).toBe('later');
    const d = k.drain(compareArticleIds);
    expect([...d.rows].map(([i, r]) => [d.pmcids[i], r.pmid])).toEqual([['PMC1', '7']]);
  });

  it("gives back any date in PMC's form exactly", () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const date = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        two(99),
        two(99),
        two(99),
        two(99),
        two(99),
      )
      .map(([y, mo, d, h, mi, s]) => `${y}-${mo}-${d} ${h}:${mi}:${s}`);
    fc.assert(
      fc.property(date, (updated) => {
        const k = new KeptCopies();
        k.keep(copy('PMC1', 1, { row: listRow(updated, '1') }));
        return k.current('PMC1')!.updated === updated;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('pmcDateNumber', () => {
  it("reads a date in PMC's form as the regular expression and join did, and nothing else", () => {
    const oracle = (t: string) => {
      const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(t);
      return m ? Number(m.slice(1).join('')) : -2;
    };
    const char = fc.constantFrom('0', '1', '9', '-', ' ', ':', 'a', '٣', '/');
    const near = fc.array(char, { minLength: 17, maxLength: 21 }).map((cs) => cs.join(''));
    const mutated = fc.tuple(fc.integer({ min: 0, max: 18 }), char).map(([i, c]) => `2026-01-02 03:04:05`.slice(0, i) + c + `2026-01-02 03:04:05`.slice(i + 1));
    fc.assert(
      fc.property(fc.oneof(near, mutated, fc.string()), (t) => pmcDateNumber(t) === oracle(t)),
      { numRuns: 5000 },
    );
    expect(pmcDateNumber('2026-01-02 03:04:05')).toBe(20260102030405);
    expect(pmcDateNumber('2026-01-02T03:04:05')).toBe(-2);
  });
});

describe('HashList.set', () => {
  it('replaces a hash or a null in place and refuses what is not one', () => {
    const l = HashList.from([hex('a'), null, hex('b')]);
    l.set(0, null);
    l.set(1, hex('c'));
    expect([0, 1, 2].map((i) => l.get(i))).toEqual([null, hex('c'), hex('b')]);
    expect(() => l.set(3, hex('a'))).toThrow(RangeError);
    expect(() => l.set(0, 'xyz')).toThrow(/not a sha256/);
    expect(l.get(0)).toBeNull();
  });
});

describe('compareArticleIds (listing order)', () => {
  /** The rule as written before it was made fast: two regular expressions a comparison. */
  function oracle(a: string, b: string): number {
    const na = /^PMC(\d+)$/.exec(a);
    const nb = /^PMC(\d+)$/.exec(b);
    if (na && nb) return Number(na[1]) - Number(nb[1]);
    if (na) return -1;
    if (nb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const id = fc.oneof(
    fc.stringMatching(/^PMC\d{1,24}$/),
    fc.stringMatching(/^nopmc-[0-9a-f]{12}$/),
    fc.constantFrom('PMC', 'PMC1x', 'pmc12', 'PMC-1', 'PMC٣', ''),
    fc.string({ maxLength: 8 }),
  );
  it('orders any two ids as the regular-expression rule does', () => {
    fc.assert(
      fc.property(id, id, (a, b) => Math.sign(compareArticleIds(a, b)) === Math.sign(oracle(a, b))),
      { numRuns: 5000 },
    );
  });
});
