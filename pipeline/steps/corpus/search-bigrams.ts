/**
 * The two-token phrases of the corpus search index (`search_bigrams`, contracts/corpus/database.ts): for every
 * pair of tokens that follow one another in some excerpt where at least one of the two is a common term (in
 * at least `bigramMinDocs` excerpts), the excerpts holding the pair and how many times. A quoted phrase of two
 * words is then one posting list, as FTS5 would count it (the offsets where the first token is followed by
 * the second), instead of an intersection of two long lists and a check of their offsets (issue 21 session
 * 22: at 5M excerpts a first `"was marginally"` took 35–100 ms, most of it those two steps over lists of
 * 0.5–4M excerpts). Pairs of two rarer terms are left out: their lists are short and cheap to intersect.
 *
 * Made from the search terms' own tokens: read back from `search_terms` and `search_documents` once written
 * (`placeTokens`, a full build), or placed as a rebuild's carried terms are made (search-index.ts); so it holds
 * exactly their tokens and both ways give the same bytes. Every excerpt's tokens
 * are put back in place (one 32-bit term number per token), then the pairs are put in (first, second) order by
 * counting sorts (`eachBigram`); rows are written in that order.
 */
import { bigramMinDocs, decodePositions, decodePostingsInto, decodeVarints, encodePostings } from '../../../contracts/corpus/search-postings.ts';
import type { SqliteDb } from '../../lib/sqlite.ts';

/**
 * Pairs sorted at a time (`eachBigram`): 20 bytes each in five Int32Arrays, 40 MiB at this many (unless one term
 * starts more pairs). Each range costs two scans of every token: at 100,000 articles, 7.4M pairs in four ranges.
 */
export const PAIR_BUDGET = 1 << 21;

/**
 * Pairs sorted at a time when each range's pairs are read from its first terms' rows (`writeSearchBigrams`):
 * a range then costs its own tokens, not two scans of all, so it can be small: 32 bytes a pair, 8 MiB
 * (issue 21 session 24: with PAIR_BUDGET's 40 MiB this was the database phase's peak at 100,000 articles).
 */
export const READ_PAIR_BUDGET = 1 << 18;

/** Every excerpt's tokens put back in place, as term numbers in `ORDER BY term` (SQLite's binary) order. */
export interface PlacedTokens {
  names: string[];
  /** Per term: in at least `minDocs` excerpts. */
  common: Uint8Array;
  minDocs: number;
  /** Where each excerpt's tokens start in `tokenAt` (one entry more for the end). */
  start: Float64Array;
  /** Per token, its term (-1: none, which FTS5's own positions never leave). */
  tokenAt: Int32Array;
}

/** One term's tokens as positions in `PlacedTokens.tokenAt` (ascending) and their 0-based excerpts; `n` in use. */
export interface TermTokenList {
  at: Float64Array;
  excerpt: Int32Array;
  n: number;
  /** Scratch for the term's postings (reused from term to term). */
  docs: Int32Array;
  freq: Int32Array;
}

const emptyTokenList = (): TermTokenList => ({ at: new Float64Array(0), excerpt: new Int32Array(0), n: 0, docs: new Int32Array(0), freq: new Int32Array(0) });

/**
 * A term's tokens, asked for by term number in ascending order (terms may be skipped); the lists returned may
 * share their buffers (valid until the next call).
 */
export type TermTokens = (term: number) => TermTokenList;

const TERM_ROWS = 'SELECT term, docs, postings, positions, offset_width FROM search_terms ORDER BY term';

/**
 * Puts a `search_terms` row's tokens (columns `docs` … `offset_width` of TERM_ROWS) into `into`, grown when too
 * small; their excerpts only when `excerpts`. One loop per offset width: a loop reading all three widths' arrays
 * took several times as long.
 */
function rowTokens(read: ReturnType<SqliteDb['prepare']>, start: Float64Array, into: TermTokenList, excerpts: boolean): TermTokenList {
  const count = read.getInt(1)!;
  let { at, excerpt, docs, freq } = into;
  if (docs.length < count) {
    docs = new Int32Array(Math.max(count, 2 * docs.length));
    freq = new Int32Array(docs.length);
  }
  decodePostingsInto(read.get(2) as Uint8Array, count, docs, freq);
  const width = read.getInt(4)!;
  const offsets = decodePositions((read.get(3) as Uint8Array | null) ?? new Uint8Array(0), width);
  if (at.length < offsets.length) {
    at = new Float64Array(Math.max(offsets.length, 2 * at.length));
    excerpt = new Int32Array(at.length);
  }
  const into2 = excerpts ? excerpt : null;
  if (width === 1) placeRow(docs, freq, count, start, offsets as Uint8Array, at, into2);
  else if (width === 2) placeRow(docs, freq, count, start, offsets as Uint16Array, at, into2);
  else placeRow(docs, freq, count, start, offsets as Uint32Array, at, into2);
  return { at, excerpt, n: offsets.length, docs, freq };
}

function placeRow<T extends Uint8Array | Uint16Array | Uint32Array>(
  docs: Int32Array,
  freq: Int32Array,
  count: number,
  start: Float64Array,
  offsets: T,
  at: Float64Array,
  excerpt: Int32Array | null,
): void {
  for (let k = 0, o = 0; k < count; k++) {
    const i = docs[k]!;
    const first = start[i]!;
    const end = o + freq[k]!;
    if (excerpt) for (let e = o; e < end; e++) excerpt[e] = i;
    for (; o < end; o++) at[o] = first + offsets[o]!;
  }
}

/** Reads the search tables back into tokens in place. */
export function placeTokens(db: SqliteDb): PlacedTokens {
  const [excerptsValue, sizesBlob] = db.selectArray('SELECT excerpts, sizes FROM search_documents') ?? [0, null];
  const excerpts = Number(excerptsValue);
  const sizes = decodeVarints(sizesBlob instanceof Uint8Array ? sizesBlob : new Uint8Array(0), excerpts);
  const minDocs = bigramMinDocs(excerpts);
  const start = new Float64Array(excerpts + 1);
  for (let i = 0; i < excerpts; i++) start[i + 1] = start[i]! + sizes[i]!;
  const tokenAt = new Int32Array(start[excerpts]!).fill(-1);
  const names: string[] = [];
  const common: number[] = [];
  const read = db.prepare(TERM_ROWS);
  let list = emptyTokenList();
  try {
    while (read.step()) {
      const term = names.length;
      names.push(read.getString(0)!);
      common.push(read.getInt(1)! >= minDocs ? 1 : 0);
      list = rowTokens(read, start, list, false);
      for (let k = 0; k < list.n; k++) tokenAt[list.at[k]!] = term;
    }
  } finally {
    read.finalize();
  }
  return { names, common: Uint8Array.from(common), minDocs, start, tokenAt };
}

/**
 * The terms' tokens read again from `search_terms`, row by row as they are asked for (`eachBigram`'s pairs
 * range by range without scanning every token for each); `close` ends the read.
 */
export function readTermTokens(db: SqliteDb, start: Float64Array): { tokens: TermTokens; close: () => void } {
  const read = db.prepare(TERM_ROWS);
  let row = -1;
  let list = emptyTokenList();
  return {
    tokens: (term) => {
      if (term <= row) throw new Error(`search terms asked for out of order (${term} after ${row})`);
      while (row < term) {
        if (!read.step()) throw new Error(`search_terms has no row ${term}`);
        row++;
      }
      return (list = rowTokens(read, start, list, true));
    },
    close: () => read.finalize(),
  };
}

/**
 * Visits every stored pair in (first, second) term order with its excerpts (1-based ids, ascending) and counts.
 * No map of pairs: the pairs' positions are put in order by two stable counting sorts (by second term, then by
 * first), starting from excerpt order, a range of first terms holding at most `budget` pairs at a time (a term
 * with more is a range of its own), so memory is bounded whatever the corpus's size. `ids` and `counts` are
 * reused between visits.
 */
export function eachBigram(
  t: PlacedTokens,
  budget: number,
  visit: (first: number, second: number, ids: Int32Array, counts: Int32Array, n: number) => void,
  termTokens?: TermTokens,
): void {
  const { start, tokenAt, common } = t;
  const V = t.names.length;
  const excerpts = start.length - 1;
  // A position j starts a stored pair when j and j + 1 are in one excerpt, both have a term, and one is common.
  // (The three scans below are written out: a visitor function per position cost twice as much.)
  const pairsOf = new Float64Array(V);
  for (let i = 0; i < excerpts; i++)
    for (let j = start[i]!, end = start[i + 1]! - 1; j < end; j++) {
      const a = tokenAt[j]!;
      const b = tokenAt[j + 1]!;
      if (a >= 0 && b >= 0 && (common[a] === 1 || common[b] === 1)) pairsOf[a]!++;
    }
  const bySecond = new Int32Array(V + 1);
  let biggest = 0;
  for (let lo = 0; lo < V; ) {
    let hi = lo + 1;
    let total = pairsOf[lo]!;
    while (hi < V && total + pairsOf[hi]! <= budget) total += pairsOf[hi++]!;
    biggest = Math.max(biggest, total);
    lo = hi;
  }
  // The pairs in second-term order, then in (first, second) order: their terms and excerpt carried along, so
  // that no step looks a term up at a pair's position (random reads over the whole token array). Once in
  // (first, second) order the first-order arrays are free: they hold each visit's ids and counts.
  const firstB = new Int32Array(biggest);
  const secondB = new Int32Array(biggest);
  const excB = new Int32Array(biggest);
  const secondA = new Int32Array(biggest);
  const excA = new Int32Array(biggest);
  const ids = firstB;
  const counts = secondB;
  // With `termTokens`, a range's pairs are first gathered from its first terms' own tokens (first term, then
  // position order) instead of two scans of every token per range; excA and secondA hold them until the sort.
  const firstC = termTokens ? new Int32Array(biggest) : null;
  for (let lo = 0; lo < V; ) {
    let hi = lo + 1;
    let total = pairsOf[lo]!;
    while (hi < V && total + pairsOf[hi]! <= budget) total += pairsOf[hi++]!;
    if (total === 0) {
      lo = hi;
      continue;
    }
    // By second term, stable (excerpt order kept within each).
    bySecond.fill(0);
    if (termTokens) {
      let m = 0;
      for (let a = lo; a < hi; a++) {
        if (pairsOf[a] === 0) continue;
        const { at, excerpt, n } = termTokens(a);
        const ca = common[a] === 1;
        for (let k = 0; k < n; k++) {
          const j = at[k]!;
          const i = excerpt[k]!;
          if (j + 1 >= start[i + 1]!) continue;
          const b = tokenAt[j + 1]!;
          if (b >= 0 && (ca || common[b] === 1)) {
            if (m === total) throw new Error(`term ${a}'s tokens make more pairs than the tokens in place`);
            firstC![m] = a;
            secondA[m] = b;
            excA[m++] = i;
            bySecond[b + 1]!++;
          }
        }
      }
      if (m !== total) throw new Error(`terms ${lo} … ${hi - 1}'s tokens make ${m} pairs; the tokens in place ${total}`);
      for (let b = 0; b < V; b++) bySecond[b + 1]! += bySecond[b]!;
      // Stable: within a second term, first term then position order; the sort by first term below keeps it.
      for (let k = 0; k < m; k++) {
        const at = bySecond[secondA[k]!]!++;
        firstB[at] = firstC![k]!;
        secondB[at] = secondA[k]!;
        excB[at] = excA[k]!;
      }
    } else {
      for (let i = 0; i < excerpts; i++)
        for (let j = start[i]!, end = start[i + 1]! - 1; j < end; j++) {
          const a = tokenAt[j]!;
          const b = tokenAt[j + 1]!;
          if (a >= lo && a < hi && b >= 0 && (common[a] === 1 || common[b] === 1)) bySecond[b + 1]!++;
        }
      for (let b = 0; b < V; b++) bySecond[b + 1]! += bySecond[b]!;
      for (let i = 0; i < excerpts; i++)
        for (let j = start[i]!, end = start[i + 1]! - 1; j < end; j++) {
          const a = tokenAt[j]!;
          const b = tokenAt[j + 1]!;
          if (a >= lo && a < hi && b >= 0 && (common[a] === 1 || common[b] === 1)) {
            const at = bySecond[b]!++;
            firstB[at] = a;
            secondB[at] = b;
            excB[at] = i;
          }
        }
    }
    // Then by first term, stable: in (first, second, excerpt) order; `from[a - lo]` is where first term a starts.
    const from = new Int32Array(hi - lo + 1);
    for (let k = 0; k < total; k++) from[firstB[k]! - lo + 1]!++;
    for (let a = 0; a < hi - lo; a++) from[a + 1]! += from[a]!;
    const fill = from.slice(0, hi - lo);
    for (let k = 0; k < total; k++) {
      const at = fill[firstB[k]! - lo]!++;
      secondA[at] = secondB[k]!;
      excA[at] = excB[k]!;
    }
    for (let a = lo; a < hi; a++)
      for (let k = from[a - lo]!, end = from[a - lo + 1]!; k < end; ) {
        const b = secondA[k]!;
        let n = 0;
        for (; k < end && secondA[k] === b; k++) {
          const id = excA[k]! + 1;
          if (n > 0 && ids[n - 1] === id) counts[n - 1]!++;
          else {
            ids[n] = id;
            counts[n++] = 1;
          }
        }
        visit(a, b, ids, counts, n);
      }
    lo = hi;
  }
}

/**
 * Fills `search_bigrams` from the search tables, or from `tokens` when the caller placed them while writing those
 * tables (the carried-over index); returns the number of pairs written.
 */
export function writeSearchBigrams(db: SqliteDb, budget = READ_PAIR_BUDGET, tokens: PlacedTokens = placeTokens(db)): { bigrams: number; minDocs: number } {
  let bigrams = 0;
  const put = db.prepare('INSERT INTO search_bigrams (first, second, docs, postings) VALUES (?, ?, ?, ?)');
  const source = readTermTokens(db, tokens.start);
  try {
    eachBigram(
      tokens,
      budget,
      (a, b, ids, counts, n) => {
        put.bind([tokens.names[a]!, tokens.names[b]!, n, encodePostings(ids, counts, n)]).stepReset();
        bigrams++;
      },
      source.tokens,
    );
  } finally {
    source.close();
    put.finalize();
  }
  db.prepare('UPDATE search_documents SET bigram_min_docs = ?').bind([tokens.minDocs]).stepFinalize();
  return { bigrams, minDocs: tokens.minDocs };
}
