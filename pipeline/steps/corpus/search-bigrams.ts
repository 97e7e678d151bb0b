/**
 * The two-token phrases of the corpus search index (`search_bigrams`, contracts/corpus/database.ts): for every
 * pair of tokens that follow one another in some excerpt where at least one of the two is a common term (in
 * at least `bigramMinDocs` excerpts), the excerpts holding the pair and how many times. A quoted phrase of two
 * words is then one posting list, as FTS5 would count it (the offsets where the first token is followed by
 * the second), instead of an intersection of two long lists and a check of their offsets (issue 21 session
 * 22: at 5M excerpts a first `"was marginally"` took 35–100 ms, most of it those two steps over lists of
 * 0.5–4M excerpts). Pairs of two rarer terms are left out: their lists are short and cheap to intersect.
 *
 * Made from `search_terms` and `search_documents` once they are written (by either way: read from FTS5 or
 * carried over), so it holds exactly their tokens and both ways give the same bytes. Every excerpt's tokens
 * are put back in place (one 32-bit term number per token), then two passes over them count and place the
 * pairs; rows are written in (first, second) order.
 */
import { bigramMinDocs, decodePositions, decodePostings, decodeVarints, encodePostings } from '../../../contracts/corpus/search-postings.ts';
import type { SqliteDb } from '../../lib/sqlite.ts';

/** Fills `search_bigrams` from the search tables; returns the number of pairs written. */
export function writeSearchBigrams(db: SqliteDb): { bigrams: number; minDocs: number } {
  const [excerptsValue, sizesBlob] = db.selectArray('SELECT excerpts, sizes FROM search_documents') ?? [0, null];
  const excerpts = Number(excerptsValue);
  const sizes = decodeVarints(sizesBlob instanceof Uint8Array ? sizesBlob : new Uint8Array(0), excerpts);
  const minDocs = bigramMinDocs(excerpts);
  // Where each excerpt's tokens start in `tokenAt`.
  const start = new Float64Array(excerpts + 1);
  for (let i = 0; i < excerpts; i++) start[i + 1] = start[i]! + sizes[i]!;
  const tokenAt = new Int32Array(start[excerpts]!).fill(-1);
  const names: string[] = [];
  const common: boolean[] = [];
  const read = db.prepare('SELECT term, docs, postings, positions, offset_width FROM search_terms ORDER BY term');
  try {
    while (read.step()) {
      const term = names.length;
      names.push(read.getString(0)!);
      const docsCount = read.getInt(1)!;
      common.push(docsCount >= minDocs);
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
  const V = names.length;
  // A pair's key: first · V + second (below 2^53 for any vocabulary this side of 94 million terms).
  const pairAt = (j: number): number => {
    const a = tokenAt[j]!;
    const b = tokenAt[j + 1]!;
    return a >= 0 && b >= 0 && (common[a] || common[b]) ? a * V + b : -1;
  };
  // Pass 1: per pair, the number of excerpts holding it.
  const excerptsOf = new Map<number, number>();
  const inExcerpt = new Map<number, number>();
  const eachPair = (visit: (key: number, count: number, excerpt: number) => void) => {
    for (let i = 0; i < excerpts; i++) {
      inExcerpt.clear();
      for (let j = start[i]!, end = start[i + 1]! - 1; j < end; j++) {
        const key = pairAt(j);
        if (key >= 0) inExcerpt.set(key, (inExcerpt.get(key) ?? 0) + 1);
      }
      for (const [key, count] of inExcerpt) visit(key, count, i);
    }
  };
  eachPair((key) => excerptsOf.set(key, (excerptsOf.get(key) ?? 0) + 1));
  // Pass 2: each pair's excerpts (ascending, as the excerpts are visited in order) and counts, in one array.
  const keys = Float64Array.from(excerptsOf.keys()).sort();
  const slot = new Map<number, number>();
  const from = new Float64Array(keys.length + 1);
  keys.forEach((key, s) => {
    slot.set(key, s);
    from[s + 1] = from[s]! + excerptsOf.get(key)!;
  });
  excerptsOf.clear();
  const ids = new Int32Array(from[keys.length]!);
  const counts = new Int32Array(ids.length);
  const fill = from.slice(0, keys.length);
  eachPair((key, count, excerpt) => {
    const s = slot.get(key)!;
    const at = fill[s]!++;
    ids[at] = excerpt + 1;
    counts[at] = count;
  });
  const put = db.prepare('INSERT INTO search_bigrams (first, second, docs, postings) VALUES (?, ?, ?, ?)');
  try {
    for (let s = 0; s < keys.length; s++) {
      const n = from[s + 1]! - from[s]!;
      const postings = encodePostings(ids.subarray(from[s]!, from[s + 1]!), counts.subarray(from[s]!, from[s + 1]!), n);
      const key = keys[s]!;
      put.bind([names[Math.floor(key / V)]!, names[key % V]!, n, postings]).stepReset();
    }
  } finally {
    put.finalize();
  }
  db.prepare('UPDATE search_documents SET bigram_min_docs = ?').bind([minDocs]).stepFinalize();
  return { bigrams: keys.length, minDocs };
}
