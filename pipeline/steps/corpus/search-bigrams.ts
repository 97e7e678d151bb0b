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
import { bigramMinDocs, decodePositions, decodePostings, decodeVarints, encodePostings } from '../../../contracts/corpus/search-postings.ts';
import type { SqliteDb } from '../../lib/sqlite.ts';

/**
 * Pairs sorted at a time (`eachBigram`): 20 bytes each in five Int32Arrays, 40 MiB at this many (unless one term
 * starts more pairs). Each range costs two scans of every token: at 100,000 articles, 7.4M pairs in four ranges.
 */
export const PAIR_BUDGET = 1 << 21;

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
  const read = db.prepare('SELECT term, docs, postings, positions, offset_width FROM search_terms ORDER BY term');
  try {
    while (read.step()) {
      const term = names.length;
      names.push(read.getString(0)!);
      const docsCount = read.getInt(1)!;
      common.push(docsCount >= minDocs ? 1 : 0);
      const { docs, freq } = decodePostings(read.get(2) as Uint8Array, docsCount);
      const offsets = decodePositions((read.get(3) as Uint8Array | null) ?? new Uint8Array(0), read.getInt(4)!);
      for (let k = 0, o = 0; k < docs.length; k++) {
        const at = start[docs[k]!]!;
        for (let c = 0; c < freq[k]!; c++) tokenAt[at + offsets[o++]!] = term;
      }
    }
  } finally {
    read.finalize();
  }
  return { names, common: Uint8Array.from(common), minDocs, start, tokenAt };
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
export function writeSearchBigrams(db: SqliteDb, budget = PAIR_BUDGET, tokens: PlacedTokens = placeTokens(db)): { bigrams: number; minDocs: number } {
  let bigrams = 0;
  const put = db.prepare('INSERT INTO search_bigrams (first, second, docs, postings) VALUES (?, ?, ?, ?)');
  try {
    eachBigram(tokens, budget, (a, b, ids, counts, n) => {
      put.bind([tokens.names[a]!, tokens.names[b]!, n, encodePostings(ids, counts, n)]).stepReset();
      bigrams++;
    });
  } finally {
    put.finalize();
  }
  db.prepare('UPDATE search_documents SET bigram_min_docs = ?').bind([tokens.minDocs]).stepFinalize();
  return { bigrams, minDocs: tokens.minDocs };
}
