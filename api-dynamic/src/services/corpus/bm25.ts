/**
 * FTS5's `bm25()` (sqlite ext/fts5/fts5_aux.c, fts5Bm25Function and fts5Bm25GetData), and the relevance order
 * it gives: lower is better, ties by excerpt id. The search index must list a search's excerpts in the very
 * order `ORDER BY bm25(excerpts_fts), rowid` gives, so the arithmetic here is FTS5's, operation for
 * operation in doubles (the same roundings give the same ties):
 *
 *   idf(phrase)  = log((N − n + 0.5) / (n + 0.5)), replaced by 1e-6 when ≤ 0 (n: rows holding the phrase)
 *   bm25(row)    = −1 · Σ over the query's phrases of idf · (f · (k1 + 1)) / (f + k1 · (1 − b + b · D / avgdl))
 *
 * with k1 = 1.2, b = 0.75, f the phrase's number of instances in the row, D the row's token count and
 * avgdl = total tokens / N. The logarithm is sqlite's own `ln()` (the same C `log` FTS5 calls, in the same
 * wasm build): JavaScript's Math.log is another implementation and may round the last bit differently.
 */

const K1 = 1.2;
const B = 0.75;

/** FTS5's IDF of a phrase found in `n` of `rows` rows; `ln` is sqlite's natural logarithm. */
export function bm25Idf(rows: number, n: number, ln: (x: number) => number): number {
  const idf = ln((rows - n + 0.5) / (n + 0.5));
  return idf <= 0.0 ? 1e-6 : idf;
}

/** bm25 of a row of `size` tokens in which phrase i of the query has `freq[i]` instances. */
export function bm25(idfs: ArrayLike<number>, freq: ArrayLike<number>, size: number, avgdl: number): number {
  let score = 0.0;
  for (let i = 0; i < idfs.length; i++) {
    const f = freq[i]!;
    // As in C: `1 - b + b * D / avgdl` is (1 − b) + ((b · D) / avgdl).
    score += idfs[i]! * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * size) / avgdl)));
  }
  return -1.0 * score;
}

/** A search's matches, ready to be scored. */
export interface ScoredMatch {
  /** Excerpt indexes, ascending. */
  docs: Int32Array;
  /** Per phrase of the query, its instances in each excerpt of `docs`. */
  freqs: Int32Array[];
  /** Per phrase, its IDF. */
  idfs: number[];
}

/** The token counts of a corpus's excerpts, with each count's rank among the distinct counts. */
export interface DocumentSizes {
  /** Token count of each excerpt (by excerpt index). */
  size: Int32Array;
  /** Rank of each excerpt's token count among the distinct counts. */
  sizeCode: Int32Array;
  /** The distinct counts, ascending: `sizeValues[sizeCode[i]] === size[i]`. */
  sizeValues: Int32Array;
  avgdl: number;
}

export function documentSizes(size: Int32Array, tokens: number): DocumentSizes {
  const sizeValues = Int32Array.from(new Set(size)).sort();
  const rank = new Map<number, number>();
  sizeValues.forEach((v, i) => rank.set(v, i));
  const sizeCode = Int32Array.from(size, (v) => rank.get(v)!);
  // As FTS5: (double) total tokens / (double) rows.
  return { size, sizeCode, sizeValues, avgdl: tokens / size.length };
}

/** Larger key spaces are ranked by a comparison sort instead (see bm25Order). */
const MAX_KEYS = 1 << 20;

/**
 * The excerpts of `m` in bm25 order (ties by index). A row's score depends only on its token count and its
 * phrase frequencies, and a search has few distinct combinations of those (hundreds for one word), so each
 * row gets an integer key for its combination, each distinct key is scored once, and a counting sort by score
 * (stable, over rows in index order) gives the order in a few passes: a comparison sort of 300,000 rows takes
 * 60 ms, this about 2.
 */
export function bm25Order(m: ScoredMatch, sizes: DocumentSizes, maxKeys = MAX_KEYS): Int32Array {
  const { docs, freqs, idfs } = m;
  const n = docs.length;
  const phrases = freqs.length;
  const L = sizes.sizeValues.length;
  // Key = size code + L · (mixed-radix number of the frequencies − 1, phrase 0 least significant).
  const radix: number[] = [];
  let space = L;
  for (const f of freqs) {
    let max = 1;
    for (let r = 0; r < n; r++) if (f[r]! > max) max = f[r]!;
    radix.push(max);
    space *= max;
  }
  if (space > maxKeys) return comparisonOrder(m, sizes);

  const counts = new Int32Array(space);
  const code = sizes.sizeCode;
  // One word or phrase (most searches): keys are cheap, so they are computed again below rather than kept.
  const f0 = freqs[0]!;
  const keys = phrases === 1 ? null : new Int32Array(n);
  if (keys === null) for (let r = 0; r < n; r++) counts[(f0[r]! - 1) * L + code[docs[r]!]!]!++;
  else
    for (let r = 0; r < n; r++) {
      let k = 0;
      for (let i = phrases - 1; i >= 0; i--) k = k * radix[i]! + (freqs[i]![r]! - 1);
      k = k * L + code[docs[r]!]!;
      keys[r] = k;
      counts[k]!++;
    }
  // Score each key present once; keys of equal score form one group so their rows interleave by index.
  const used: number[] = [];
  for (let k = 0; k < space; k++) if (counts[k]! > 0) used.push(k);
  const score = new Float64Array(used.length);
  const f = new Float64Array(phrases);
  used.forEach((key, u) => {
    let rest = Math.floor(key / L);
    for (let i = 0; i < phrases; i++) {
      f[i] = (rest % radix[i]!) + 1;
      rest = Math.floor(rest / radix[i]!);
    }
    score[u] = bm25(idfs, f, sizes.sizeValues[key % L]!, sizes.avgdl);
  });
  const byScore = Array.from(used.keys()).sort((a, b) => score[a]! - score[b]!);
  // From here on `counts[key]` is the key's group, and `next[group]` where its next row goes.
  const next = new Int32Array(used.length);
  let groups = 0;
  let start = 0;
  byScore.forEach((u, j) => {
    if (j === 0 || score[u] !== score[byScore[j - 1]!]) next[groups++] = start;
    start += counts[used[u]!]!;
    counts[used[u]!] = groups - 1;
  });
  const out = new Int32Array(n);
  if (keys === null) for (let r = 0; r < n; r++) out[next[counts[(f0[r]! - 1) * L + code[docs[r]!]!]!]!++] = docs[r]!;
  else for (let r = 0; r < n; r++) out[next[counts[keys[r]!]!]!++] = docs[r]!;
  return out;
}

/** The same order by a comparison sort (for searches with very many frequency combinations). */
function comparisonOrder(m: ScoredMatch, sizes: DocumentSizes): Int32Array {
  const n = m.docs.length;
  const scores = new Float64Array(n);
  const f = new Float64Array(m.freqs.length);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < f.length; i++) f[i] = m.freqs[i]![r]!;
    scores[r] = bm25(m.idfs, f, sizes.size[m.docs[r]!]!, sizes.avgdl);
  }
  const rows = Int32Array.from({ length: n }, (_, r) => r).sort((a, b) => scores[a]! - scores[b]! || a - b);
  return rows.map((r) => m.docs[r]!);
}
