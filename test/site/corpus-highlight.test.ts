/**
 * Where the excerpt highlights go (site/src/lib/corpus/highlight.ts) and the phrase table's orders
 * (site/src/lib/corpus/phrase-sort.ts), without a server: offsets are UTF-16 code units as the API gives
 * them, so text before a phrase with accents, symbols or astral characters (two code units) moves nothing.
 */
import { describe, expect, it } from 'vitest';
import type { PhraseRow } from '../../contracts/corpus/documents.ts';
import { highlightPieces, type Piece } from '../../site/src/lib/corpus/highlight.ts';
import { allOrders, DEFAULT_ORDER, nextOrder, orderPath, parseOrder, PHRASE_COLUMNS, sortPhrases } from '../../site/src/lib/corpus/phrase-sort.ts';

const joined = (pieces: Piece[]) => pieces.map((p) => p.parts.map((x) => x.text).join('')).join('');
const marked = (pieces: Piece[], kind: 'phrase' | 'p') => pieces.filter((p) => p.kind === kind).map((p) => p.parts.map((x) => x.text).join(''));
const searched = (pieces: Piece[]) => pieces.flatMap((p) => p.parts.filter((x) => x.q).map((x) => x.text));

/** An occurrence at the first place `phrase` and `p` are written, by JavaScript (UTF-16) indices. */
function occurrence(text: string, phrase: string, p: string | null, name = phrase) {
  const start = text.indexOf(phrase);
  const ps = p === null ? -1 : text.indexOf(p);
  return { phrase: name, start, end: start + phrase.length, p: p === null ? null : { start: ps, end: ps + p.length } };
}

describe('highlightPieces', () => {
  it('cuts at UTF-16 offsets: accents, symbols and astral characters before the phrase', () => {
    const text = 'In Müller’s cohort (n = 12 ± 3, 𝑥̄ = 4 😀) the effect was borderline significant (P = .089).';
    const o = occurrence(text, 'borderline significant', 'P = .089');
    // The code-point index differs from the UTF-16 one here: the offsets are not code points.
    expect([...text].indexOf('b')).not.toBe(o.start);
    const pieces = highlightPieces(text, [o]);
    expect(joined(pieces)).toBe(text);
    expect(marked(pieces, 'phrase')).toEqual(['borderline significant']);
    expect(marked(pieces, 'p')).toEqual(['P = .089']);
    expect(pieces.find((p) => p.kind === 'phrase')!.phrase).toBe('borderline significant');
  });

  it('names the canonical phrase while marking the words as written', () => {
    const text = 'Scores trended towards improvement (p = 0.07).';
    const pieces = highlightPieces(text, [occurrence(text, 'trended towards', 'p = 0.07', 'trended toward')]);
    expect(marked(pieces, 'phrase')).toEqual(['trended towards']);
    expect(pieces.find((p) => p.kind === 'phrase')!.phrase).toBe('trended toward');
  });

  it('marks a p-value shared by two occurrences once', () => {
    const text = 'A marginally significant and nearly significant rise (p = 0.06).';
    const pieces = highlightPieces(text, [occurrence(text, 'marginally significant', 'p = 0.06'), occurrence(text, 'nearly significant', 'p = 0.06')]);
    expect(marked(pieces, 'phrase')).toEqual(['marginally significant', 'nearly significant']);
    expect(marked(pieces, 'p')).toEqual(['p = 0.06']);
    expect(joined(pieces)).toBe(text);
  });

  it('nests search matches inside the marks, cut at their edges, and merges touching matches', () => {
    const text = 'There was a clear trend toward benefit (p = 0.08).';
    const o = occurrence(text, 'a clear trend', 'p = 0.08');
    const trendToward = { start: text.indexOf('trend toward'), end: text.indexOf('trend toward') + 'trend toward'.length };
    const pieces = highlightPieces(text, [o], [trendToward, { start: text.indexOf('0.08'), end: text.indexOf('0.08') + 4 }]);
    expect(joined(pieces)).toBe(text);
    // "trend" inside the phrase mark, " toward" after it: one match, two pieces.
    expect(searched(pieces)).toEqual(['trend', ' toward', '0.08']);
    expect(pieces.find((p) => p.kind === 'phrase')!.parts).toEqual([
      { text: 'a clear ', q: false },
      { text: 'trend', q: true },
    ]);
    const merged = highlightPieces(
      text,
      [],
      [
        { start: 10, end: 17 },
        { start: 17, end: 23 },
        { start: 12, end: 15 },
      ],
    );
    expect(searched(merged)).toEqual(['a clear trend']);
  });

  it('clamps ranges to the text and drops empty ones; a sentence without marks is one plain piece', () => {
    const text = 'No p-value here, a trend toward benefit.';
    const pieces = highlightPieces(
      text,
      [{ phrase: 'trend toward', start: 19, end: 31, p: null }],
      [
        { start: 35, end: 99 },
        { start: 5, end: 5 },
      ],
    );
    expect(joined(pieces)).toBe(text);
    expect(marked(pieces, 'phrase')).toEqual(['trend toward']);
    expect(searched(pieces)).toEqual([text.slice(35)]);
    expect(highlightPieces('Plain.', [])).toEqual([{ kind: null, parts: [{ text: 'Plain.', q: false }] }]);
  });

  it('keeps the phrase when a p-value range overlaps it (never both marks on the same text)', () => {
    const text = 'trend p=0.07';
    const pieces = highlightPieces(text, [{ phrase: 'trend', start: 0, end: 7, p: { start: 6, end: 12 } }]);
    expect(joined(pieces)).toBe(text);
    expect(marked(pieces, 'phrase')).toEqual(['trend p']);
    expect(marked(pieces, 'p')).toEqual(['=0.07']);
  });
});

describe('phrase table orders', () => {
  const row = (phrase: string, verified: number, articles: number, median: number | null): PhraseRow => ({
    phrase,
    verified,
    articles,
    bands: { '0.05-0.06': 0, '0.06-0.08': verified, '0.08-0.10': 0, '>0.10': 0, ns: 0 },
    median_p: median,
    rejected: 0,
    unverified: 0,
  });
  // In the API's order (most verified first, ties by phrase).
  const rows = [row('tended to', 5, 2, 0.07), row('a trend for', 3, 3, null), row('b-trend', 3, 1, 0.09), row('almost significant', 1, 1, 0.06)];

  it('the default order is the rows as the API gave them', () => {
    expect(sortPhrases(rows, DEFAULT_ORDER)).toEqual(rows);
    expect(orderPath(DEFAULT_ORDER)).toBe('/corpus/phrases');
  });

  it('sorts by value, ties by phrase in code-point order, and a missing median last either way', () => {
    expect(sortPhrases(rows, { key: 'articles', dir: 'desc' }).map((r) => r.phrase)).toEqual(['a trend for', 'tended to', 'almost significant', 'b-trend']);
    expect(sortPhrases(rows, { key: 'median-p', dir: 'asc' }).map((r) => r.phrase)).toEqual(['almost significant', 'tended to', 'b-trend', 'a trend for']);
    expect(sortPhrases(rows, { key: 'median-p', dir: 'desc' }).map((r) => r.phrase)).toEqual(['b-trend', 'tended to', 'almost significant', 'a trend for']);
    expect(sortPhrases(rows, { key: 'phrase', dir: 'desc' }).map((r) => r.phrase)).toEqual(['tended to', 'b-trend', 'almost significant', 'a trend for']);
  });

  it('has a page for every other order, and a header click toggles or starts at the column’s first direction', () => {
    const orders = allOrders();
    expect(orders).toHaveLength(PHRASE_COLUMNS.length * 2 - 1);
    for (const o of orders) expect(parseOrder(orderPath(o).split('/').at(-1)!)).toEqual(o);
    expect(parseOrder('band-gt0.10-desc')).toEqual({ key: 'band-gt0.10', dir: 'desc' });
    expect(parseOrder('nothing-asc')).toBeNull();
    const articles = PHRASE_COLUMNS.find((c) => c.key === 'articles')!;
    const phrase = PHRASE_COLUMNS.find((c) => c.key === 'phrase')!;
    expect(nextOrder(DEFAULT_ORDER, articles)).toEqual({ key: 'articles', dir: 'desc' });
    expect(nextOrder({ key: 'articles', dir: 'desc' }, articles)).toEqual({ key: 'articles', dir: 'asc' });
    expect(nextOrder(DEFAULT_ORDER, phrase)).toEqual({ key: 'phrase', dir: 'asc' });
  });
});
