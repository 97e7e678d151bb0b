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
  /**
   * Rank of each excerpt's token count among the distinct counts; 16 bits, so the array read once per candidate
   * of every relevance search is a quarter of the 32-bit counts' bytes (at millions of excerpts those reads
   * miss the CPU cache). Null when there are more than 65,536 distinct counts (rows are then scored one by one).
   */
  sizeCode: Uint16Array | null;
  /** The distinct counts, ascending: `sizeValues[sizeCode[i]] === size[i]`. */
  sizeValues: Int32Array;
  avgdl: number;
}

export function documentSizes(size: Int32Array, tokens: number): DocumentSizes {
  const sizeValues = Int32Array.from(new Set(size)).sort();
  let sizeCode: Uint16Array | null = null;
  if (sizeValues.length <= 0x10000) {
    // Counts are small whole numbers: rank by a table indexed by the count, not a Map lookup per excerpt.
    const rank = new Uint16Array((sizeValues.at(-1) ?? 0) + 1);
    sizeValues.forEach((v, i) => (rank[v] = i));
    sizeCode = new Uint16Array(size.length);
    for (let i = 0; i < size.length; i++) sizeCode[i] = rank[size[i]!]!;
  }
  // As FTS5: (double) total tokens / (double) rows.
  return { size, sizeCode, sizeValues, avgdl: tokens / size.length };
}

/** Larger key spaces are ranked by comparing the rows' scores instead (see bm25Groups). */
const MAX_KEYS = 1 << 20;

/**
 * A match's rows grouped by bm25: `group[r]` is the rank of row r's score among the match's distinct scores
 * (0 the best, i.e. the lowest), so the relevance order is the rows by group, ties (one group) by index. Kept
 * per search instead of the whole order: a page needs only the rows of the groups it reaches
 * (ExcerptIndex.pageRanked), not every row placed (at millions of excerpts, placing every row of a common
 * word would be most of a first search's time).
 *
 * A row's score depends only on its token count and its phrase frequencies, and a search has few distinct
 * combinations of those (hundreds for one word), so each row gets an integer key for its combination and each
 * distinct key is scored once; with too many combinations the rows' scores are computed and compared instead.
 */
export interface ScoreGroups {
  group: Int32Array;
  groups: number;
  /** With `tags`: how many rows of each group carry each tag (group-major, groups × tags); else null. */
  tagCounts: Int32Array | null;
}

/** A small number per excerpt (by excerpt index), below `tags`, to count per group with the grouping. */
export interface ExcerptTags {
  tag: Uint16Array;
  tags: number;
}

/**
 * Each excerpt's token-count code and tag as one number, `sizeCode · tags + tag` (null when that exceeds 16
 * bits): the keyed grouping then reads one array per candidate instead of two, at scattered places (half the
 * cache misses).
 */
export function sizeTagsOf(sizes: DocumentSizes, tags: ExcerptTags): Uint16Array | null {
  const code = sizes.sizeCode;
  if (code === null || sizes.sizeValues.length * tags.tags > 0x10000) return null;
  const out = new Uint16Array(code.length);
  for (let i = 0; i < code.length; i++) out[i] = code[i]! * tags.tags + tags.tag[i]!;
  return out;
}

/** Largest tag histogram made (groups × tags entries); beyond it `tagCounts` is null. */
const MAX_TAG_COUNTS = 1 << 18;

/**
 * `tags`, when given, are counted per group in the same passes: the grouping reads each row's token count code
 * at a random place anyway, and reading its tag beside it costs far less than a second pass over the rows
 * (the search's histogram of excerpt mask codes, ExcerptIndex.codeCounts, for its totals).
 */
export function bm25Groups(m: ScoredMatch, sizes: DocumentSizes, maxKeys = MAX_KEYS, tags: ExcerptTags | null = null): ScoreGroups {
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
  const code = sizes.sizeCode;
  if (space > maxKeys || code === null) return withTags(comparisonGroups(m, sizes), docs, tags);

  const counts = new Int32Array(space);
  // The rows' keys, replaced in place by their groups once the keys are ranked; their tags, read in the same pass.
  const group = new Int32Array(n);
  const tag = tags === null ? null : new Uint16Array(n);
  const f0 = freqs[0]!;
  if (phrases === 1 && tag === null)
    for (let r = 0; r < n; r++) {
      const k = (f0[r]! - 1) * L + code[docs[r]!]!;
      group[r] = k;
      counts[k]!++;
    }
  else if (phrases === 1)
    for (let r = 0; r < n; r++) {
      const d = docs[r]!;
      const k = (f0[r]! - 1) * L + code[d]!;
      tag![r] = tags!.tag[d]!;
      group[r] = k;
      counts[k]!++;
    }
  else
    for (let r = 0; r < n; r++) {
      let k = 0;
      for (let i = phrases - 1; i >= 0; i--) k = k * radix[i]! + (freqs[i]![r]! - 1);
      const d = docs[r]!;
      k = k * L + code[d]!;
      if (tag !== null) tag[r] = tags!.tag[d]!;
      group[r] = k;
      counts[k]!++;
    }
  // Score each key present once; keys of equal score form one group.
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
  // From here on `counts[key]` is the key's group.
  let groups = 0;
  byScore.forEach((u, j) => {
    if (j === 0 || score[u] !== score[byScore[j - 1]!]) groups++;
    counts[used[u]!] = groups - 1;
  });
  let tagCounts: Int32Array | null = null;
  if (tag !== null && groups * tags!.tags <= MAX_TAG_COUNTS) {
    const t = tags!.tags;
    tagCounts = new Int32Array(groups * t);
    for (let r = 0; r < n; r++) {
      const g = counts[group[r]!]!;
      group[r] = g;
      tagCounts[g * t + tag[r]!]!++;
    }
  } else for (let r = 0; r < n; r++) group[r] = counts[group[r]!]!;
  return { group, groups, tagCounts };
}

/**
 * A search's bm25 groups as its pages read them: each candidate's group either stored per candidate (`group`,
 * from bm25Groups) or, for a search of one or two phrases, found from the candidate's frequencies and token-count
 * code through a table of the few distinct keys (groupOf). The table is made by one pass over the candidates
 * that only counts keys and tags (bm25KeyGroups), where bm25Groups writes and rewrites a group per candidate
 * (at 5M excerpts its four passes over a common word's candidates cost several times one bare pass;
 * docs/decisions.md has the measurement).
 */
export interface RankedGroups {
  groups: number;
  /** As ScoreGroups.tagCounts. */
  tagCounts: Int32Array | null;
  /** Per candidate its group (three or more phrases, or too many keys); null when `keyGroup` gives it. */
  group: Int32Array | null;
  /**
   * Group of each key `((freq2[k] − 1) · radix + freq[k] − 1) · sizeKeys + sizeCode[docs[k]]` (freq2 taken as 1
   * for one phrase); −1 for keys no candidate has. Null with `group`.
   */
  keyGroup: Int32Array | null;
  /** With `keyGroup`: the phrases' frequencies per candidate, the largest of the first, the excerpts' token-count codes and their number. */
  freq: Int32Array | null;
  freq2: Int32Array | null;
  radix: number;
  sizeCode: Uint16Array | null;
  sizeKeys: number;
  /** With `keyGroup`: the first candidates of each key, so a front page needs no pass (KeyHeads); else null. */
  heads: KeyHeads | null;
}

/**
 * The first HEAD_ROWS candidates (indexes into the match, ascending) of every key of a keyed grouping, and which
 * keys make each group: the rows of a group in id order are the merge of its keys' heads, complete up to the
 * page's end whenever no key of the group runs out of its head with more rows behind it (the best
 * groups are often rare, e.g. the shortest excerpts with the word twice, spread over the whole list, so
 * without the heads collecting a first page reads every candidate).
 */
export interface KeyHeads {
  /** Candidates kept per head (HEAD_ROWS; fewer in tests). */
  width: number;
  /** Per head, its candidates: `rows[h · width …]`, `count[h]` of them; `more[h]` 1 when the key has more. */
  rows: Int32Array;
  count: Int32Array;
  more: Uint8Array;
  /** Per group, its heads: `heads[start[g] … start[g + 1])`. */
  start: Int32Array;
  heads: Int32Array;
}

/** Candidates kept per key in KeyHeads (enough for the first pages at any per_page up to 100, unfiltered). */
export const HEAD_ROWS = 256;

/** Candidate `k` (excerpt `doc`)'s group in `r`. */
export function groupOf(r: RankedGroups, k: number, doc: number): number {
  if (r.group !== null) return r.group[k]!;
  const f2 = r.freq2 === null ? 0 : r.freq2[k]! - 1;
  return r.keyGroup![(f2 * r.radix + r.freq![k]! - 1) * r.sizeKeys + r.sizeCode![doc]!]!;
}

/**
 * Largest frequency the keyed one-pass grouping takes (of each phrase, with two); a search with a higher one is
 * grouped per candidate. Lower for two phrases: their histogram has cap² × token counts × tags entries, zeroed
 * per search.
 */
const KEY_FREQ_CAP = 64;
const KEY_FREQ_CAP_TWO = 16;

/** The groups of a match as RankedGroups: keyed for one or two phrases when the key space allows, else bm25Groups. */
export function bm25Ranked(
  m: ScoredMatch,
  sizes: DocumentSizes,
  tags: ExcerptTags | null,
  headRows = HEAD_ROWS,
  sizeTags: Uint16Array | null = null,
): RankedGroups {
  const keyed = m.freqs.length <= 2 && tags !== null ? bm25KeyGroups(m, sizes, tags, headRows, sizeTags) : null;
  if (keyed !== null) return keyed;
  const g = bm25Groups(m, sizes, undefined, tags);
  return {
    groups: g.groups,
    tagCounts: g.tagCounts,
    group: g.group,
    keyGroup: null,
    freq: null,
    freq2: null,
    radix: 0,
    sizeCode: null,
    sizeKeys: 0,
    heads: null,
  };
}

/**
 * bm25KeyGroups: one pass counts, per key (frequencies, token-count code) and tag, the candidates carrying it;
 * each key present is scored once (bm25, as bm25Groups does), and keys of equal score form one group. Null
 * when the key space is too large (a frequency above the cap, or more keys × tags than MAX_KEYS).
 */
function bm25KeyGroups(m: ScoredMatch, sizes: DocumentSizes, tags: ExcerptTags, W: number, sizeTags: Uint16Array | null): RankedGroups | null {
  const code = sizes.sizeCode;
  const L = sizes.sizeValues.length;
  const T = tags.tags;
  if (code === null) return null;
  const two = m.freqs.length === 2;
  const room = Math.floor(MAX_KEYS / (L * T));
  const fcap = two ? Math.min(KEY_FREQ_CAP_TWO, Math.floor(Math.sqrt(room))) : Math.min(KEY_FREQ_CAP, room);
  if (fcap < 1) return null;
  const { docs } = m;
  const f0 = m.freqs[0]!;
  const f1 = two ? m.freqs[1]! : null;
  const tag = tags.tag;
  const n = docs.length;
  // Counted with radix fcap; the table below uses the largest frequencies met. Each key's first rows are
  // kept as it goes (a head per key met, numbered in the order met). The heads' arrays are made for every
  // possible key at once: only the pages of those met are ever touched.
  const LT = L * T;
  const hist = new Int32Array((two ? fcap * fcap : fcap) * LT);
  // The head of each key, and the same by (key, tag) so the loop finds it without dividing by T.
  const keyHead = new Int32Array(hist.length / T).fill(-1);
  const headOf = new Int32Array(hist.length).fill(-1);
  const headRows = new Int32Array(keyHead.length * W);
  const headCount = new Int32Array(keyHead.length);
  let heads = 0;
  let max0 = 1;
  let max1 = 1;
  // Two copies of the loop (one phrase, two), each without a test per row of what does not change.
  if (f1 === null)
    for (let r = 0; r < n; r++) {
      const f = f0[r]!;
      if (f > max0) {
        if (f > fcap) return null;
        max0 = f;
      }
      const d = docs[r]!;
      const at = (f - 1) * LT + (sizeTags !== null ? sizeTags[d]! : code[d]! * T + tag[d]!);
      hist[at]!++;
      let h = headOf[at]!;
      if (h < 0) {
        const key = Math.floor(at / T);
        h = keyHead[key]!;
        if (h < 0) h = keyHead[key] = heads++;
        headOf[at] = h;
      }
      const c = headCount[h]!;
      if (c < W) {
        headRows[h * W + c] = r;
        headCount[h] = c + 1;
      }
    }
  else
    for (let r = 0; r < n; r++) {
      const f = f0[r]!;
      const g = f1[r]!;
      if (f > max0 || g > max1) {
        if (f > fcap || g > fcap) return null;
        if (f > max0) max0 = f;
        if (g > max1) max1 = g;
      }
      const d = docs[r]!;
      const at = ((g - 1) * fcap + f - 1) * LT + (sizeTags !== null ? sizeTags[d]! : code[d]! * T + tag[d]!);
      hist[at]!++;
      let h = headOf[at]!;
      if (h < 0) {
        const key = Math.floor(at / T);
        h = keyHead[key]!;
        if (h < 0) h = keyHead[key] = heads++;
        headOf[at] = h;
      }
      const c = headCount[h]!;
      if (c < W) {
        headRows[h * W + c] = r;
        headCount[h] = c + 1;
      }
    }
  // The keys present, in the table's layout (radix max0), each with its place in `hist`.
  const used: number[] = [];
  const at: number[] = [];
  const headAt: number[] = [];
  const f = new Float64Array(m.freqs.length);
  const score: number[] = [];
  for (let b = 0; b < max1; b++)
    for (let a = 0; a < max0; a++)
      for (let c = 0; c < L; c++) {
        const h = ((b * fcap + a) * L + c) * T;
        let any = false;
        for (let t = 0; t < T && !any; t++) any = hist[h + t]! > 0;
        if (!any) continue;
        used.push((b * max0 + a) * L + c);
        at.push(h);
        headAt.push(keyHead[(b * fcap + a) * L + c]!);
        f[0] = a + 1;
        if (two) f[1] = b + 1;
        score.push(bm25(m.idfs, f, sizes.sizeValues[c]!, sizes.avgdl));
      }
  const byScore = Array.from(used.keys()).sort((x, y) => score[x]! - score[y]!);
  const keyGroup = new Int32Array(max1 * max0 * L).fill(-1);
  let groups = 0;
  byScore.forEach((u, j) => {
    if (j === 0 || score[u] !== score[byScore[j - 1]!]) groups++;
    keyGroup[used[u]!] = groups - 1;
  });
  let tagCounts: Int32Array | null = null;
  if (groups * T <= MAX_TAG_COUNTS) {
    tagCounts = new Int32Array(groups * T);
    used.forEach((key, u) => {
      for (let t = 0; t < T; t++) tagCounts![keyGroup[key]! * T + t]! += hist[at[u]! + t]!;
    });
  }
  // Each group's heads, and whether a key has rows beyond its head.
  const start = new Int32Array(groups + 1);
  for (const key of used) start[keyGroup[key]! + 1]!++;
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, groups);
  const groupHeads = new Int32Array(used.length);
  const more = new Uint8Array(heads);
  used.forEach((key, u) => {
    let total = 0;
    for (let t = 0; t < T; t++) total += hist[at[u]! + t]!;
    more[headAt[u]!] = total > W ? 1 : 0;
    groupHeads[fill[keyGroup[key]!]!++] = headAt[u]!;
  });
  return {
    groups,
    tagCounts,
    group: null,
    keyGroup,
    freq: f0,
    freq2: f1,
    radix: max0,
    sizeCode: code,
    sizeKeys: L,
    heads: { width: W, rows: headRows.slice(0, heads * W), count: headCount.slice(0, heads), more, start, heads: groupHeads },
  };
}

/** `tagCounts` of groups made without tags (the comparison path). */
function withTags(g: ScoreGroups, docs: Int32Array, tags: ExcerptTags | null): ScoreGroups {
  if (tags === null || g.groups * tags.tags > MAX_TAG_COUNTS) return g;
  const tagCounts = new Int32Array(g.groups * tags.tags);
  for (let r = 0; r < docs.length; r++) tagCounts[g.group[r]! * tags.tags + tags.tag[docs[r]!]!]!++;
  return { ...g, tagCounts };
}

/** The same groups from every row's own score (for searches with very many frequency combinations). */
function comparisonGroups(m: ScoredMatch, sizes: DocumentSizes): ScoreGroups {
  const n = m.docs.length;
  const scores = new Float64Array(n);
  const f = new Float64Array(m.freqs.length);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < f.length; i++) f[i] = m.freqs[i]![r]!;
    scores[r] = bm25(m.idfs, f, sizes.size[m.docs[r]!]!, sizes.avgdl);
  }
  const distinct = Float64Array.from(new Set(scores)).sort();
  const rankOf = new Map<number, number>();
  distinct.forEach((s, g) => rankOf.set(s, g));
  return { group: Int32Array.from(scores, (s) => rankOf.get(s)!), groups: distinct.length, tagCounts: null };
}

/**
 * The excerpts of `m` in bm25 order, ties by index (a counting sort of the rows by group, stable over the rows
 * in index order): a comparison sort of 300,000 rows takes 60 ms, this a few.
 */
export function bm25Order(m: ScoredMatch, sizes: DocumentSizes, maxKeys = MAX_KEYS): Int32Array {
  const { group, groups } = bm25Groups(m, sizes, maxKeys);
  const next = new Int32Array(groups + 1);
  for (let r = 0; r < group.length; r++) next[group[r]! + 1]!++;
  for (let g = 0; g < groups; g++) next[g + 1]! += next[g]!;
  const out = new Int32Array(group.length);
  for (let r = 0; r < group.length; r++) out[next[group[r]!]!++] = m.docs[r]!;
  return out;
}
