/**
 * The corpus's own full-text search, in memory: which excerpts match `q`, and in which bm25 order, exactly as
 * `excerpts_fts MATCH <ftsExpression(q)> ORDER BY bm25(excerpts_fts), rowid` would answer (FTS5 stays the
 * reference: test/api-dynamic/corpus-search-index.test.ts compares the two). FTS5 in sqlite-wasm takes
 * 50–400 ms to decode and rank the posting list of a word in a quarter of a million sentences; this index
 * takes a few milliseconds (docs/benchmarks.md, Corpus).
 *
 * The postings were read from FTS5 at build time (pipeline/steps/corpus/search-index.ts), so the tokens are
 * FTS5's. Each term's blob is decoded on first use and kept in an LRU (the most frequent words are decoded
 * once; start-up only reads the excerpts' token counts). Matching follows FTS5's query semantics:
 *   - a search term (a word or a quoted phrase) is a phrase of its tokens (search-tokens.ts): the excerpt must
 *     hold the tokens at consecutive offsets; its frequency in an excerpt is the number of offsets it starts at;
 *   - a trailing `*` makes the last token a prefix: any term that starts with it;
 *   - a term without tokens matches nothing; all terms are required (AND).
 */
import { LRUCache } from 'lru-cache';
import type { SearchTerm } from '../../../../contracts/corpus/excerpts-query.ts';
import { decodePositions, decodePostings, decodeVarints, encodeTerm } from '../../../../contracts/corpus/search-postings.ts';
import { popcount, RankBitset } from '../../../../contracts/common/bytes.ts';
import {
  bm25,
  bm25Idf,
  bm25Order,
  bm25Ranked,
  type DocumentSizes,
  documentSizes,
  type ExcerptTags,
  type RankedGroups,
  type ScoredMatch,
  sizeTagsOf,
} from './bm25.ts';
import { SearchTokenizer } from './search-tokens.ts';
import type { SqliteDb } from './sqlite.ts';

/** Size and rounds of the start-up warm-up (warmUp). */
const WARM_EXCERPTS = 20_000;
const WARM_ROUNDS = 10;

/**
 * Postings of the most frequent words decoded at start-up, in bytes (preload). At 5M excerpts the single most
 * frequent word's ids and counts are ~31 MiB, and a common word not preloaded makes its first search decode
 * 0.5–1.4M postings; 256 MiB holds the ~40 most frequent words there, for ~0.5 s more start-up
 * (docs/decisions.md has the measurement).
 */
const PRELOAD_BYTES = 256 * 2 ** 20;

/**
 * Decoded term postings kept, in bytes. At 5M excerpts the positions and postings of "the" and "was"
 * alone (a quoted phrase with either) take 120 MiB, so a smaller cache would have them evict each other and
 * every common word. The process stays well under the 2 GiB budget (docs/benchmarks.md).
 */
const TERM_CACHE_BYTES = 512 * 2 ** 20;

/** Excerpts holding a term (or a union of terms, or a phrase), ascending, with its count in each. */
interface Postings {
  docs: Int32Array;
  freq: Int32Array;
  /** Token offsets, excerpt after excerpt: those of `docs[k]` are `pos[start[k]] … pos[start[k + 1] − 1]`. */
  pos: Int32Array | null;
  start: Int32Array | null;
  /**
   * With positions: per excerpt its single token offset, or −1 when the term occurs there more than once. A
   * phrase check of excerpts where every token occurs once then reads one number per token instead of a start
   * and an offset (at 5M excerpts those reads in a common word's arrays, two dependent cache misses
   * each, would be most of a phrase search).
   */
  single: Int32Array | null;
  /**
   * For a term in many excerpts: its excerpts as a rank bitset, to intersect a shorter list with. A shorter list
   * is intersected with it by one probe per element in an array that stays in the CPU cache (625 KiB at 5M
   * excerpts), instead of a merge or gallop through the long list's ids ("the" is in 4M of 5M excerpts, and
   * merging it with a word in 400,000 would be most of a phrase search).
   */
  bits: RankBitset | null;
}

/** Lists in at least this share of the excerpts get bits when first intersected (denser than a list of 32-bit ids). */
const BITS_SHARE = 1 / 32;

/**
 * Every Postings object is made here, so all have one shape and V8's compiled loops over them stay valid (an
 * object spread or a literal elsewhere gives another hidden class, and the first search with it recompiles).
 */
function postings(docs: Int32Array, freq: Int32Array, pos: Int32Array | null = null, start: Int32Array | null = null): Postings {
  return { docs, freq, pos, start, single: pos === null || start === null ? null : singleOffsets(pos, start), bits: null };
}

/** `Postings.single` from the offsets and their starts. */
function singleOffsets(pos: Int32Array, start: Int32Array): Int32Array {
  const single = new Int32Array(start.length - 1);
  for (let k = 0; k < single.length; k++) single[k] = start[k + 1]! - start[k]! === 1 ? pos[start[k]!]! : -1;
  return single;
}

const EMPTY = postings(new Int32Array(0), new Int32Array(0), new Int32Array(0), new Int32Array(1));

/** Running offsets of `freq`: where each excerpt's positions start in the flat list. */
function offsetsOf(freq: Int32Array): Int32Array {
  const start = new Int32Array(freq.length + 1);
  for (let k = 0; k < freq.length; k++) start[k + 1] = start[k]! + freq[k]!;
  return start;
}

/** Unions of at most this many lists without offsets are merged pairwise; larger ones go through an array. */
const MERGE_LISTS = 4;

/** Two posting lists as one: every excerpt of either, ascending, with the counts added. */
function mergeTwo(a: Postings, b: Postings): Postings {
  const docs = new Int32Array(a.docs.length + b.docs.length);
  const freq = new Int32Array(docs.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.docs.length && j < b.docs.length) {
    const x = a.docs[i]!;
    const y = b.docs[j]!;
    if (x < y) {
      docs[n] = x;
      freq[n++] = a.freq[i++]!;
    } else if (y < x) {
      docs[n] = y;
      freq[n++] = b.freq[j++]!;
    } else {
      docs[n] = x;
      freq[n++] = a.freq[i++]! + b.freq[j++]!;
    }
  }
  for (; i < a.docs.length; i++, n++) {
    docs[n] = a.docs[i]!;
    freq[n] = a.freq[i]!;
  }
  for (; j < b.docs.length; j++, n++) {
    docs[n] = b.docs[j]!;
    freq[n] = b.freq[j]!;
  }
  // Views, not copies: a prefix's union is made per search and kept only with its candidates.
  return postings(docs.subarray(0, n), freq.subarray(0, n));
}

/** `values[at[r]]` for every r. */
function gather(values: Int32Array, at: Int32Array): Int32Array {
  const out = new Int32Array(at.length);
  for (let r = 0; r < at.length; r++) out[r] = values[at[r]!]!;
  return out;
}

/** First index ≥ `from` with `list[index] ≥ target` (galloping, then binary search). */
function gallop(list: Int32Array, from: number, target: number): number {
  if (from >= list.length || list[from]! >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < list.length && list[hi]! < target) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > list.length) hi = list.length;
  // list[lo] < target; the answer is in (lo, hi].
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** A list this many times longer than the shortest is searched by galloping; a shorter one is stepped through. */
const GALLOP_RATIO = 8;

/** The excerpts of `a` (the shorter) also in `b`, ascending, with the index of each in `a` and in `b`. */
function intersectTwo(a: Int32Array, b: Int32Array, bBits: RankBitset | null): { docs: Int32Array; atA: Int32Array; atB: Int32Array } {
  const docs = new Int32Array(a.length);
  const atA = new Int32Array(a.length);
  const atB = new Int32Array(a.length);
  if (bBits !== null) {
    const { words, before } = bBits;
    let n = 0;
    for (let k = 0; k < a.length; k++) {
      const doc = a[k]!;
      const word = words[doc >>> 5]!;
      const bit = 1 << (doc & 31);
      if ((word & bit) === 0) continue;
      docs[n] = doc;
      atA[n] = k;
      atB[n++] = before[doc >>> 5]! + popcount(word & (bit - 1));
    }
    return { docs: docs.slice(0, n), atA: atA.subarray(0, n), atB: atB.subarray(0, n) };
  }
  const far = b.length > a.length * GALLOP_RATIO;
  const end = b.length;
  let c = 0;
  let n = 0;
  for (let k = 0; k < a.length; k++) {
    const doc = a[k]!;
    if (far) c = gallop(b, c, doc);
    else while (c < end && b[c]! < doc) c++;
    if (c >= end) break;
    if (b[c] === doc) {
      docs[n] = doc;
      atA[n] = k;
      atB[n++] = c++;
    }
  }
  return { docs: docs.slice(0, n), atA: atA.subarray(0, n), atB: atB.subarray(0, n) };
}

/**
 * The excerpts in both lists, ascending, with the count of each list in them: `intersectTwo` and two gathers in
 * one pass (two common words at 5M have ~1M excerpts in common, and each pass over them
 * costs a few milliseconds).
 */
function intersectFreqs(a: Postings, b: Postings): { docs: Int32Array; freqA: Int32Array; freqB: Int32Array } {
  if (a.bits !== null && b.bits !== null) return intersectBits(a, b, a.bits, b.bits);
  const swap = a.docs.length > b.docs.length;
  const short = swap ? b : a;
  const long = swap ? a : b;
  const s = short.docs;
  const docs = new Int32Array(s.length);
  const fs = new Int32Array(s.length);
  const fl = new Int32Array(s.length);
  let n = 0;
  if (long.bits !== null) {
    const { words, before } = long.bits;
    const lf = long.freq;
    for (let k = 0; k < s.length; k++) {
      const doc = s[k]!;
      const word = words[doc >>> 5]!;
      const bit = 1 << (doc & 31);
      if ((word & bit) === 0) continue;
      docs[n] = doc;
      fs[n] = short.freq[k]!;
      fl[n++] = lf[before[doc >>> 5]! + popcount(word & (bit - 1))]!;
    }
  } else {
    const { docs: both, atA, atB } = intersectTwo(s, long.docs, null);
    n = both.length;
    docs.set(both);
    for (let r = 0; r < n; r++) {
      fs[r] = short.freq[atA[r]!]!;
      fl[r] = long.freq[atB[r]!]!;
    }
  }
  // Views, not copies (three copies of ~1M entries for two common words); the search cache counts their length.
  const freqShort = fs.subarray(0, n);
  const freqLong = fl.subarray(0, n);
  return { docs: docs.subarray(0, n), freqA: swap ? freqLong : freqShort, freqB: swap ? freqShort : freqLong };
}

/**
 * `intersectFreqs` of two dense lists: their bitsets ANDed word by word, and only the excerpts in both visited,
 * each one's count in either list found through that list's bits (probing every excerpt of the shorter list
 * would visit 0.5–1M of them at 5M for a median of 86,000 in common; the words are 157,000 whatever the lists'
 * lengths; docs/decisions.md).
 */
function intersectBits(a: Postings, b: Postings, x: RankBitset, y: RankBitset): { docs: Int32Array; freqA: Int32Array; freqB: Int32Array } {
  const wa = x.words;
  const wb = y.words;
  let n = 0;
  for (let w = 0; w < wa.length; w++) n += popcount(wa[w]! & wb[w]!);
  const docs = new Int32Array(n);
  const freqA = new Int32Array(n);
  const freqB = new Int32Array(n);
  let r = 0;
  for (let w = 0; w < wa.length; w++) {
    const xa = wa[w]!;
    const xb = wb[w]!;
    let both = xa & xb;
    if (both === 0) continue;
    const ba = x.before[w]!;
    const bb = y.before[w]!;
    while (both !== 0) {
      const low = both & -both;
      // Bits below this one, in each list (ToInt32 wraps low − 1 right for bit 31 too).
      const below = low - 1;
      docs[r] = (w << 5) | (31 - Math.clz32(low));
      freqA[r] = a.freq[ba + popcount(xa & below)]!;
      freqB[r++] = b.freq[bb + popcount(xb & below)]!;
      both ^= low;
    }
  }
  return { docs, freqA, freqB };
}

/**
 * The excerpts in every list (two or more), ascending, and for each list the index in it of every one of
 * them. The lists are taken shortest first, so a rare word with a common one costs about the rare word's length.
 */
function intersect(slots: readonly Postings[]): { docs: Int32Array; at: Int32Array[] } {
  const lists = slots.map((p) => p.docs);
  const order = lists.map((_, j) => j).sort((x, y) => lists[x]!.length - lists[y]!.length);
  const first = intersectTwo(lists[order[0]!]!, lists[order[1]!]!, slots[order[1]!]!.bits);
  let docs = first.docs;
  const at: Int32Array[] = [];
  at[order[0]!] = first.atA;
  at[order[1]!] = first.atB;
  for (let o = 2; o < order.length; o++) {
    const next = intersectTwo(docs, lists[order[o]!]!, slots[order[o]!]!.bits);
    // Narrow the lists taken so far to the excerpts left.
    for (let q = 0; q < o; q++) at[order[q]!] = gather(at[order[q]!]!, next.atA);
    at[order[o]!] = next.atB;
    docs = next.docs;
  }
  return { docs, at };
}

export class SearchIndex {
  private readonly terms = new LRUCache<string, Postings>({
    maxSize: TERM_CACHE_BYTES,
    // A dense list's bits are counted whether made yet or not (they are made by its first intersection).
    sizeCalculation: (p) =>
      64 +
      p.docs.byteLength +
      p.freq.byteLength +
      (p.pos?.byteLength ?? 0) +
      (p.start?.byteLength ?? 0) +
      (p.single?.byteLength ?? 0) +
      (this.dense(p) ? 8 * ((this.rows + 31) >>> 5) : 0),
  });
  /** useTags: the tags' own array (to know them again) and the combined array. */
  private sizeTags: { tag: Uint16Array; combined: Uint16Array } | null = null;
  /** A zeroed excerpt-sized scratch array for unions (zeroed again after each use). */
  private scratch: Int32Array | null = null;
  private readonly tokenizer: SearchTokenizer;

  private constructor(
    private readonly db: SqliteDb,
    /** Number of excerpts (FTS5's row count). */
    readonly rows: number,
    readonly sizes: DocumentSizes,
    /** Two-token phrases with a token in at least this many excerpts are stored whole (search_bigrams); 0: none. */
    private readonly bigramMinDocs: number,
  ) {
    this.tokenizer = new SearchTokenizer(db);
  }

  /** Reads the excerpts' token counts; term postings are read when a search first needs them. */
  static load(db: SqliteDb): SearchIndex {
    const row = db.selectArray('SELECT excerpts, tokens, sizes, bigram_min_docs FROM search_documents');
    if (!row) throw new Error('the corpus database has no search index (search_documents is empty): rebuild');
    const rows = Number(row[0]);
    const size = decodeVarints(row[2] as Uint8Array, rows, 'corpus.sqlite search_documents.sizes');
    const index = new SearchIndex(db, rows, documentSizes(size, Number(row[1])), Number(row[3]));
    index.warmUp();
    index.preload();
    return index;
  }

  /**
   * Runs the matching and ranking code a few times over made-up posting lists (among the first 20,000
   * excerpts), so V8 has compiled every loop of it before the first request: until then they run many times
   * slower (a phrase search right after start-up took 20 ms, the same search compiled 2.5; docs/benchmarks.md,
   * Corpus). The lists are made so that every branch is taken (multi-byte ids and counts, galloping and
   * stepping intersections, merges from either side, array unions, phrases, one- and several-phrase ranking):
   * a branch first taken by a real search throws the compiled code away. Nothing is cached.
   */
  private warmUp(): void {
    const n = Math.min(this.rows, WARM_EXCERPTS);
    if (n < 2) return;
    const made = (step: number, first: number): Postings => {
      const ids: number[] = [];
      const offsets: number[][] = [];
      for (let d = first; d < n; d += step) {
        ids.push(d + 1);
        offsets.push(d % 997 === 0 ? Array.from({ length: 140 }, (_, i) => 2 * i) : d % 7 === 0 ? [0, 2] : [1]);
      }
      const encoded = encodeTerm({ ids, offsets });
      const { docs, freq } = decodePostings(encoded.postings, ids.length);
      // Offsets added afterwards, as `term` adds them: the objects' shape then changes here, not in a search.
      const p = postings(docs, freq);
      p.start = offsetsOf(freq);
      p.pos = new Int32Array(decodePositions(encoded.positions, encoded.offsetWidth));
      p.single = singleOffsets(p.pos, p.start);
      // Bits for the denser lists, so both ways of intersecting are compiled.
      if (step <= 3) p.bits = RankBitset.of(docs, n);
      return p;
    };
    // Made-up tags over every excerpt, so the keyed grouping (one and two phrases, with and without the
    // combined size-and-tag array) is compiled before the first search: a branch first taken by a request
    // throws the compiled code away.
    const tag = new Uint16Array(this.rows);
    for (let i = 0; i < tag.length; i++) tag[i] = i % 5;
    const tags = { tag, tags: 5 };
    const combined = sizeTagsOf(this.sizes, tags);
    const group = (m: ScoredMatch) => {
      bm25Ranked(m, this.sizes, tags, undefined, combined);
      bm25Ranked(m, this.sizes, tags);
    };
    for (let round = 0; round < WARM_ROUNDS; round++) {
      const all = made(1, 0);
      const third = made(3, 1);
      const seventh = made(7, 5);
      const rare = made(50, 0);
      const sparse = made(211, 3);

      for (const slots of [
        [all, third],
        [rare, all],
        [sparse, third],
        [third, seventh],
        [all, third, rare],
      ]) {
        const { docs, at } = intersect(slots);
        this.relevanceOrder({ docs, freqs: slots.map((p, i) => gather(p.freq, at[i]!)), idfs: slots.map((_, i) => 0.5 + i) });
        if (slots.length === 2) {
          const both = intersectFreqs(slots[0]!, slots[1]!);
          group({ docs: both.docs, freqs: [both.freqA, both.freqB], idfs: [0.5, 1.5] });
        }
        const phrase = this.consecutive(slots);
        this.relevanceOrder({ docs: phrase.docs, freqs: [phrase.freq], idfs: [0.5] });
        group({ docs: phrase.docs, freqs: [phrase.freq], idfs: [0.5] });
      }
      this.relevanceOrder({ docs: all.docs, freqs: [all.freq], idfs: [0.5] });
      group({ docs: all.docs, freqs: [all.freq], idfs: [0.5] });
      this.union([third, seventh], false);
      this.union([seventh, sparse, third], false);
      this.union([all, third, rare, seventh, sparse], false);
      this.union([third, seventh], true);
    }
    // And the way in, on the two rarest words (statements, tokenizer, logarithm; a few microseconds each).
    const words = this.db.selectValues('SELECT term FROM search_terms ORDER BY docs, term LIMIT 2').map(String);
    if (words.length === 2) {
      const [a, b] = words as [string, string];
      const word = (text: string, prefix = false): SearchTerm => ({ text, phrase: false, prefix });
      for (const terms of [[word(a)], [word(a), word(b)], [{ text: `${a} ${b}`, phrase: true, prefix: false }], [word(a, true)]])
        this.relevanceOrder(this.match(terms));
    }
  }

  /**
   * Decodes the most frequent words into the term cache (at most PRELOAD_BYTES of ids and counts), so the
   * first search for "the" or "p" only ranks: those lists are the longest to decode (3 ms for 800,000
   * excerpts). The cache may drop them later like any other.
   */
  private preload(): void {
    let bytes = 0;
    for (const [term, docs] of this.db.selectArrays('SELECT term, docs FROM search_terms ORDER BY docs DESC, term LIMIT 1000')) {
      bytes += Number(docs) * 8;
      if (bytes > PRELOAD_BYTES) break;
      this.withBits(this.term(String(term), false)); // bits too: these are the words most often intersected
    }
  }

  /** How large the index is in the database (for the benchmark). */
  storage(): { terms: number; postingsBytes: number; positionsBytes: number } {
    const [terms, postings, positions] = this.db.selectArray('SELECT count(*), sum(length(postings)), sum(length(positions)) FROM search_terms')!;
    return { terms: Number(terms), postingsBytes: Number(postings ?? 0), positionsBytes: Number(positions ?? 0) };
  }

  /** Excerpts matching every term, ascending, with each phrase's frequencies and IDF. */
  match(terms: readonly SearchTerm[]): ScoredMatch {
    const phrases = terms.map((t) => this.phrase(t));
    const idfs = phrases.map((p) => bm25Idf(this.rows, p.docs.length, this.ln));
    if (phrases.length === 1) return { docs: phrases[0]!.docs, freqs: [phrases[0]!.freq], idfs };
    for (const p of phrases) this.withBits(p);
    if (phrases.length === 2) {
      const { docs, freqA, freqB } = intersectFreqs(phrases[0]!, phrases[1]!);
      return { docs, freqs: [freqA, freqB], idfs };
    }
    const { docs, at } = intersect(phrases);
    return { docs, freqs: phrases.map((p, i) => gather(p.freq, at[i]!)), idfs };
  }

  /** The excerpts of a match in bm25 order, ties by id (FTS5's `ORDER BY bm25(...), rowid`). */
  relevanceOrder(m: ScoredMatch): Int32Array {
    return bm25Order(m, this.sizes);
  }

  /** The bm25 groups of a match's excerpts (that order without placing every excerpt; bm25.ts), with `tags` counted per group. */
  relevanceGroups(m: ScoredMatch, tags: ExcerptTags | null = null): RankedGroups {
    return bm25Ranked(m, this.sizes, tags, undefined, tags !== null && this.sizeTags?.tag === tags.tag ? this.sizeTags.combined : null);
  }

  /** Excerpt sizes and the server's tags in one array (bm25.ts sizeTagsOf), made once at open for the tags given. */
  useTags(tags: ExcerptTags | null): void {
    const combined = tags === null ? null : sizeTagsOf(this.sizes, tags);
    this.sizeTags = tags === null || combined === null ? null : { tag: tags.tag, combined };
  }

  /** bm25 of each excerpt of a match, as FTS5's bm25() would return it (for tests). */
  scores(m: ScoredMatch): Float64Array {
    return Float64Array.from(m.docs, (doc, r) =>
      bm25(
        m.idfs,
        m.freqs.map((f) => f[r]!),
        this.sizes.size[doc]!,
        this.sizes.avgdl,
      ),
    );
  }

  /** sqlite's `ln()`, the logarithm FTS5's IDF uses (bm25.ts). */
  private readonly ln = (x: number) => Number(this.db.selectValue('SELECT ln(?)', [x]));

  /** A search term as a phrase of token slots (the last one a prefix for `word*`). */
  private phrase(term: SearchTerm): Postings {
    const tokens = this.tokenizer.tokens(term.text);
    if (tokens.length === 0) return EMPTY;
    if (tokens.length === 2 && !term.prefix) {
      const pair = this.bigram(tokens[0]!, tokens[1]!);
      if (pair !== null) return pair;
    }
    const last = tokens.length - 1;
    const single = tokens.length === 1;
    const slots = tokens.map((t, i) => (term.prefix && i === last ? this.prefix(t, !single) : this.term(t, !single)));
    return single ? slots[0]! : this.consecutive(slots);
  }

  /**
   * A two-token phrase's postings from `search_bigrams` when it is stored there (one of its tokens common): the
   * same excerpts and counts `consecutive` would find, read as one list. Null when neither token is common
   * (then the phrase is matched from its tokens' offsets). Kept in the term cache under "first second" (a
   * token never holds a space).
   */
  private bigram(first: string, second: string): Postings | null {
    if (this.bigramMinDocs === 0) return null;
    const key = `${first} ${second}`;
    const cached = this.terms.get(key);
    if (cached !== undefined) return cached;
    const a = this.termDocs(first);
    const b = this.termDocs(second);
    if (a === 0 || b === 0) return EMPTY;
    if (a < this.bigramMinDocs && b < this.bigramMinDocs) return null;
    const row = this.db.selectArray('SELECT docs, postings FROM search_bigrams WHERE first = ? AND second = ?', [first, second]);
    if (!row) return EMPTY;
    const { docs, freq } = decodePostings(row[1] as Uint8Array, Number(row[0]), `corpus.sqlite search_bigrams.postings of "${key}"`);
    const p = postings(docs, freq);
    this.terms.set(key, p);
    return p;
  }

  /** How many excerpts hold a term (0 when none). */
  private termDocs(term: string): number {
    const p = this.terms.get(term);
    if (p !== undefined) return p.docs.length;
    return Number(this.db.selectValue('SELECT docs FROM search_terms WHERE term = ?', [term]) ?? 0);
  }

  /** True when a list is long enough to be intersected through its bits (Postings.bits). */
  private dense(p: Postings): boolean {
    return p.docs.length >= this.rows * BITS_SHARE;
  }

  /**
   * Makes a dense list's bits on its first intersection, not when the term is decoded, so a one-word search does
   * not pay for bits it never uses. The term cache counts them from the start.
   */
  private withBits(p: Postings): void {
    if (p.bits === null && p !== EMPTY && this.dense(p)) p.bits = RankBitset.of(p.docs, this.rows);
  }

  /** One term's postings (decoded on first use; positions too when `positions`). */
  private term(term: string, positions: boolean): Postings {
    let p = this.terms.get(term);
    if (p === undefined) {
      const row = this.db.selectArray('SELECT docs, postings FROM search_terms WHERE term = ?', [term]);
      if (row) {
        const { docs, freq } = decodePostings(row[1] as Uint8Array, Number(row[0]), `corpus.sqlite search_terms.postings of "${term}"`);
        p = postings(docs, freq);
      } else p = EMPTY;
      if (p !== EMPTY) this.terms.set(term, p);
    }
    if (positions && p.pos === null) {
      const [blob, width] = this.db.selectArray('SELECT positions, offset_width FROM search_terms WHERE term = ?', [term])!;
      p.start = offsetsOf(p.freq);
      // Widened to 32 bits: phrase matching then reads one kind of array whatever the stored width.
      p.pos = new Int32Array(decodePositions(blob as Uint8Array, Number(width), `corpus.sqlite search_terms.positions of "${term}"`));
      if (p.pos.length !== p.start[p.freq.length]) throw new Error(`search index: the offsets of "${term}" do not match its counts`);
      p.single = singleOffsets(p.pos, p.start);
      this.terms.set(term, p); // again, so the cache counts the positions' size
    }
    return p;
  }

  /** Every term starting with `prefix`, as one posting list (counts summed, positions merged). */
  private prefix(prefix: string, positions: boolean): Postings {
    const names: string[] = [];
    const st = this.db.prepare('SELECT term FROM search_terms WHERE term >= ? ORDER BY term');
    try {
      st.bind([prefix]);
      // Terms sort by their UTF-8 bytes, so those with the prefix come together, right from the prefix on.
      while (st.step()) {
        const name = st.getString(0)!;
        if (!name.startsWith(prefix)) break;
        names.push(name);
      }
    } finally {
      st.finalize();
    }
    const lists = names.map((name) => this.term(name, positions));
    if (lists.length === 0) return EMPTY;
    if (lists.length === 1) return lists[0]!;
    return this.union(lists, positions);
  }

  /** The union of disjoint-offset posting lists (the terms of a prefix), through an excerpt-sized array. */
  private union(lists: readonly Postings[], positions: boolean): Postings {
    // A few lists without offsets (a word's prefix, most often): merged pairwise, in one pass over each.
    if (!positions && lists.length <= MERGE_LISTS) return lists.reduce((a, b) => mergeTwo(a, b));
    this.scratch ??= new Int32Array(this.rows);
    const acc = this.scratch;
    let entries = 0;
    for (const p of lists) entries += p.docs.length;
    const touched = new Int32Array(entries);
    let distinct = 0;
    for (const p of lists)
      for (let k = 0; k < p.docs.length; k++) {
        const d = p.docs[k]!;
        if (acc[d] === 0) touched[distinct++] = d;
        acc[d]! += p.freq[k]!;
      }
    // Ascending: a pass over the whole array when the union is large, else a sort of the excerpts touched.
    let docs: Int32Array;
    if (distinct * 16 > this.rows) {
      docs = new Int32Array(distinct);
      for (let d = 0, n = 0; d < this.rows; d++) if (acc[d] !== 0) docs[n++] = d;
    } else docs = touched.slice(0, distinct).sort();
    const freq = new Int32Array(distinct);
    for (let r = 0; r < distinct; r++) {
      freq[r] = acc[docs[r]!]!;
      acc[docs[r]!] = r; // from here on: the excerpt's row in the union
    }
    let pos: Int32Array | null = null;
    let start: Int32Array | null = null;
    if (positions) {
      start = offsetsOf(freq);
      pos = new Int32Array(start[distinct]!);
      const fill = start.slice(0, distinct);
      for (const p of lists)
        for (let k = 0; k < p.docs.length; k++) {
          const r = acc[p.docs[k]!]!;
          for (let i = p.start![k]!; i < p.start![k + 1]!; i++) pos[fill[r]!++] = p.pos![i]!;
        }
      // Each excerpt's offsets came from several terms: sort them (a handful per excerpt).
      for (let r = 0; r < distinct; r++) {
        for (let i = start[r]! + 1; i < start[r + 1]!; i++) {
          const v = pos[i]!;
          let j = i - 1;
          while (j >= start[r]! && pos[j]! > v) {
            pos[j + 1] = pos[j]!;
            j--;
          }
          pos[j + 1] = v;
        }
      }
    }
    for (let r = 0; r < distinct; r++) acc[docs[r]!] = 0;
    return postings(docs, freq, pos, start);
  }

  /** Excerpts where the slots' tokens follow one another, with the number of offsets each such run starts at. */
  private consecutive(slots: readonly Postings[]): Postings {
    if (slots.some((s) => s.docs.length === 0)) return EMPTY;
    for (const p of slots) this.withBits(p);
    const { docs, at } = intersect(slots);
    const m = slots.length;
    const pos = slots.map((s) => s.pos!);
    const start = slots.map((s) => s.start!);
    const keep = new Int32Array(docs.length);
    const freq = new Int32Array(docs.length);
    const cursor = new Int32Array(m);
    const end = new Int32Array(m);
    const pos0 = pos[0]!;
    const start0 = start[0]!;
    const at0 = at[0]!;
    const single = slots.map((s) => s.single!);
    let n = 0;
    docs: for (let r = 0; r < docs.length; r++) {
      // Every token once in the excerpt (most excerpts): one offset each, compared directly.
      const p0 = single[0]![at0[r]!]!;
      if (p0 >= 0) {
        let j = 1;
        for (; j < m; j++) {
          const pj = single[j]![at[j]![r]!]!;
          if (pj < 0) break;
          if (pj !== p0 + j) continue docs;
        }
        if (j === m) {
          keep[n] = docs[r]!;
          freq[n++] = 1;
          continue;
        }
      }
      for (let j = 1; j < m; j++) {
        const k = at[j]![r]!;
        cursor[j] = start[j]![k]!;
        end[j] = start[j]![k + 1]!;
      }
      let count = 0;
      // Each offset of the first token where the others follow, one offset further each.
      starts: for (let i = start0[at0[r]!]!, last = start0[at0[r]! + 1]!; i < last; i++) {
        const p = pos0[i]!;
        for (let j = 1; j < m; j++) {
          const list = pos[j]!;
          const e = end[j]!;
          let c = cursor[j]!;
          while (c < e && list[c]! < p + j) c++;
          cursor[j] = c;
          if (c >= e) break starts;
          if (list[c] !== p + j) continue starts;
        }
        count++;
      }
      if (count > 0) {
        keep[n] = docs[r]!;
        freq[n++] = count;
      }
    }
    return postings(keep.slice(0, n), freq.slice(0, n));
  }
}
