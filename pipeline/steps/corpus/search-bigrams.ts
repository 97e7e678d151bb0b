/**
 * The two-token phrases of the corpus search index (`search_bigrams`, contracts/corpus/database.ts): for every
 * pair of tokens that follow one another in some excerpt where at least one of the two is a common term (in
 * at least `bigramMinDocs` excerpts), the excerpts holding the pair and how many times. A quoted phrase of two
 * words is then one posting list, as FTS5 would count it (the offsets where the first token is followed by
 * the second), instead of an intersection of two long lists and a check of their offsets (at
 * 5M excerpts those two steps run over lists of millions of excerpts and are most of a first quoted search's
 * time). Pairs of two rarer terms are left out: their lists are short and cheap to intersect.
 *
 * Made from the search terms' own tokens, read back from `search_terms` and `search_documents` once written
 * (`writeSearchBigrams`), so it holds exactly their tokens. Tokens are put back in place (one 32-bit term
 * number per token), then the pairs are put in (first, second) order by counting sorts (`eachBigram`); rows are
 * written in that order.
 *
 * A full build puts the tokens in place a chunk of excerpts at a time (peak RSS flat with
 * the corpus's size; all of them at once would be 4 bytes a token, 30 MiB at 100,000 articles and 1.5 GB at the
 * whole OA subset). One read of the terms spills each token to its chunk's scratch file; each chunk's pairs are
 * sorted and written to a run file in (first, second) order; the runs are merged, and a pair's excerpts from
 * successive chunks simply follow one another, since chunks are runs of excerpts in id order.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bigramMinDocs, decodePositions, decodePostingsInto, decodeVarints, encodePostings } from '../../../contracts/corpus/search-postings.ts';
import { IntFileReader, IntFileWriter } from '../../lib/int-file.ts';
import type { SqliteDb } from '../../lib/sqlite.ts';

/**
 * Tokens put in place at a time by `writeSearchBigrams` (an excerpt with more is a chunk of its own): 4 bytes each,
 * and up to 20 bytes a pair while a chunk's pairs are sorted, ~12 MiB at this many.
 */
export const CHUNK_TOKENS = 1 << 19;

/** Integers of spill buffer shared by all chunks while the tokens are spilled (4 MiB). */
const SPILL_BUFFER_INTS = 1 << 20;

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

const TERM_ROWS = 'SELECT term, docs, postings, positions, offset_width FROM search_terms ORDER BY term';

/** The terms in order with their "common" marks, and every excerpt's token count (which `planChunks` turns into starts). */
interface TermTable {
  names: string[];
  common: Uint8Array;
  minDocs: number;
  sizes: Int32Array;
}

function readTermTable(db: SqliteDb): TermTable {
  const [excerptsValue, sizesBlob] = db.selectArray('SELECT excerpts, sizes FROM search_documents') ?? [0, null];
  const excerpts = Number(excerptsValue);
  const sizes = decodeVarints(sizesBlob instanceof Uint8Array ? sizesBlob : new Uint8Array(0), excerpts);
  const minDocs = bigramMinDocs(excerpts);
  const names: string[] = [];
  const common: number[] = [];
  const read = db.prepare('SELECT term, docs FROM search_terms ORDER BY term');
  try {
    while (read.step()) {
      names.push(read.getString(0)!);
      common.push(read.getInt(1)! >= minDocs ? 1 : 0);
    }
  } finally {
    read.finalize();
  }
  return { names, common: Uint8Array.from(common), minDocs, sizes };
}

/**
 * Visits every `search_terms` row in term order with its postings (0-based excerpts ascending, counts) and its
 * offsets (excerpt after excerpt, in their stored width); the arrays are reused from row to row.
 */
function eachTermRow(
  db: SqliteDb,
  visit: (term: number, docs: Int32Array, freq: Int32Array, count: number, offsets: Uint8Array | Uint16Array | Uint32Array) => void,
): void {
  const read = db.prepare(TERM_ROWS);
  let docs = new Int32Array(0);
  let freq = new Int32Array(0);
  try {
    for (let term = 0; read.step(); term++) {
      const count = read.getInt(1)!;
      if (docs.length < count) {
        docs = new Int32Array(Math.max(count, 2 * docs.length));
        freq = new Int32Array(docs.length);
      }
      decodePostingsInto(read.get(2) as Uint8Array, count, docs, freq);
      visit(term, docs, freq, count, decodePositions((read.get(3) as Uint8Array | null) ?? new Uint8Array(0), read.getInt(4)!));
    }
  } finally {
    read.finalize();
  }
}

/** Puts one term's tokens at `start[excerpt] + offset` in `tokenAt`. One loop per offset width (a loop reading all three widths' arrays took several times as long). */
function placeRow<T extends Uint8Array | Uint16Array | Uint32Array>(
  term: number,
  docs: Int32Array,
  freq: Int32Array,
  count: number,
  offsets: T,
  start: Float64Array,
  tokenAt: Int32Array,
): void {
  for (let k = 0, o = 0; k < count; k++) {
    const first = start[docs[k]!]!;
    for (const end = o + freq[k]!; o < end; o++) tokenAt[first + offsets[o]!] = term;
  }
}

/** Every token in place, each excerpt's starting at `start[excerpt]` (one entry more for the end). */
function placeAll(db: SqliteDb, table: TermTable, start: Float64Array): PlacedTokens {
  const tokenAt = new Int32Array(start[start.length - 1]!).fill(-1);
  eachTermRow(db, (term, docs, freq, count, offsets) => {
    if (offsets instanceof Uint8Array) placeRow(term, docs, freq, count, offsets, start, tokenAt);
    else if (offsets instanceof Uint16Array) placeRow(term, docs, freq, count, offsets, start, tokenAt);
    else placeRow(term, docs, freq, count, offsets, start, tokenAt);
  });
  return { names: table.names, common: table.common, minDocs: table.minDocs, start, tokenAt };
}

/** Runs of whole excerpts of at most `limit` tokens each (an excerpt with more is one of its own). */
interface Chunks {
  /** Per chunk its first excerpt (0-based), one entry more for the end. */
  first: number[];
  /** Per excerpt: where its tokens start within its chunk. */
  local: Int32Array;
  /** Per chunk: its tokens. */
  tokens: number[];
}

/** Plans the chunks of excerpts whose token counts are `sizes`, which becomes their `local` starts (in place: one array of 4 bytes an excerpt). */
export function planChunks(sizes: Int32Array, limit: number): Chunks {
  const first = [0];
  const tokens: number[] = [];
  let inChunk = 0;
  for (let i = 0; i < sizes.length; i++) {
    const size = sizes[i]!;
    if (inChunk > 0 && size > 0 && inChunk + size > limit) {
      first.push(i);
      tokens.push(inChunk);
      inChunk = 0;
    }
    sizes[i] = inChunk;
    inChunk += size;
  }
  first.push(sizes.length);
  tokens.push(inChunk);
  return { first, local: sizes, tokens };
}

/** Spills each term's tokens, as (position in its chunk, term) pairs, to its chunk's file under `dir`. */
function spillTokens(db: SqliteDb, chunks: Chunks, dir: string): string[] {
  const k = chunks.tokens.length;
  const files = chunks.tokens.map((_, c) => join(dir, `tokens-${c}`));
  const writers: IntFileWriter[] = [];
  try {
    for (const f of files) writers.push(new IntFileWriter(f, Math.max(1024, Math.floor(SPILL_BUFFER_INTS / k))));
    const { first, local } = chunks;
    const spill = <T extends Uint8Array | Uint16Array | Uint32Array>(term: number, docs: Int32Array, freq: Int32Array, count: number, offsets: T) => {
      let c = 0;
      let w = writers[0]!;
      for (let j = 0, o = 0; j < count; j++) {
        const i = docs[j]!;
        if (i >= first[c + 1]!) {
          while (i >= first[c + 1]!) c++;
          w = writers[c]!;
        }
        const base = local[i]!;
        for (const end = o + freq[j]!; o < end; o++) w.push2(base + offsets[o]!, term);
      }
    };
    eachTermRow(db, (term, docs, freq, count, offsets) => {
      if (offsets instanceof Uint8Array) spill(term, docs, freq, count, offsets);
      else if (offsets instanceof Uint16Array) spill(term, docs, freq, count, offsets);
      else spill(term, docs, freq, count, offsets);
    });
  } finally {
    for (const w of writers) w.close();
  }
  return files;
}

/**
 * Chunk `c`'s tokens in place, read from its spill file into `tokenAt` (at least its tokens long), numbered by the
 * chunk's own terms: `global[l]` is local term l's number, ascending, so local order is term order. `eachBigram`'s
 * work and arrays per term then follow the terms the chunk has, not the corpus's whole vocabulary (millions of
 * terms at the OA subset's size, against a few hundred thousand in a chunk). `localOf` (one entry per term, -1
 * where unused) is scratch, left as it was found.
 */
function placeChunk(
  table: TermTable,
  chunks: Chunks,
  c: number,
  file: string,
  tokenAt: Int32Array,
  localOf: Int32Array,
): { placed: PlacedTokens; global: Int32Array } {
  const from = chunks.first[c]!;
  const to = chunks.first[c + 1]!;
  const n = chunks.tokens[c]!;
  const start = new Float64Array(to - from + 1);
  for (let i = from; i < to; i++) start[i - from] = chunks.local[i]!;
  start[to - from] = n;
  const placed = tokenAt.subarray(0, n).fill(-1);
  const used: number[] = [];
  const r = new IntFileReader(file);
  try {
    while (r.ensure(2)) {
      const { buffer } = r;
      let at = r.at;
      for (const end = r.end - 1; at < end; at += 2) {
        const term = buffer[at + 1]!;
        if (localOf[term] === -1) {
          localOf[term] = 0;
          used.push(term);
        }
        placed[buffer[at]!] = term;
      }
      r.at = at;
    }
    if (r.end !== r.at) throw new Error(`${file}: ends within a token`);
  } finally {
    r.close();
  }
  const global = Int32Array.from(used).sort();
  const common = new Uint8Array(global.length);
  global.forEach((term, l) => {
    localOf[term] = l;
    common[l] = table.common[term]!;
  });
  for (let j = 0; j < n; j++) if (placed[j]! >= 0) placed[j] = localOf[placed[j]!]!;
  for (const term of global) localOf[term] = -1;
  return { placed: { names: table.names, common, minDocs: table.minDocs, start, tokenAt: placed }, global };
}

/** `eachBigram`'s five sorting arrays, kept from one call to the next (a full build's chunks), grown when too short. */
class PairArrays {
  private arrays: Int32Array[] = [];
  get(n: number): [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array] {
    if ((this.arrays[0]?.length ?? -1) < n) this.arrays = Array.from({ length: 5 }, () => new Int32Array(n));
    return this.arrays as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  }
}

/**
 * Visits every stored pair in (first, second) term order with its excerpts (1-based ids, ascending) and counts.
 * No map of pairs: the pairs' positions are put in order by two stable counting sorts (by second term, then by
 * first), starting from excerpt order. `ids` and `counts` are reused between visits.
 */
function eachBigram(
  t: PlacedTokens,
  visit: (first: number, second: number, ids: Int32Array, counts: Int32Array, n: number) => void,
  arrays: PairArrays = new PairArrays(),
): void {
  const { start, tokenAt, common } = t;
  const V = common.length;
  const excerpts = start.length - 1;
  // A position j starts a stored pair when j and j + 1 are in one excerpt, both have a term, and one is common.
  // (The two scans below are written out: a visitor function per position cost twice as much.)
  const bySecond = new Int32Array(V + 1);
  for (let i = 0; i < excerpts; i++)
    for (let j = start[i]!, end = start[i + 1]! - 1; j < end; j++) {
      const a = tokenAt[j]!;
      const b = tokenAt[j + 1]!;
      if (a >= 0 && b >= 0 && (common[a] === 1 || common[b] === 1)) bySecond[b + 1]!++;
    }
  for (let b = 0; b < V; b++) bySecond[b + 1]! += bySecond[b]!;
  const total = bySecond[V]!;
  // The pairs in second-term order, then in (first, second) order: their terms and excerpt carried along, so
  // that no step looks a term up at a pair's position (random reads over the whole token array). Once in
  // (first, second) order the first-order arrays are free: they hold each visit's ids and counts.
  const [firstB, secondB, excB, secondA, excA] = arrays.get(total);
  const ids = firstB;
  const counts = secondB;
  // By second term, stable (excerpt order kept within each).
  for (let i = 0; i < excerpts; i++)
    for (let j = start[i]!, end = start[i + 1]! - 1; j < end; j++) {
      const a = tokenAt[j]!;
      const b = tokenAt[j + 1]!;
      if (a >= 0 && b >= 0 && (common[a] === 1 || common[b] === 1)) {
        const at = bySecond[b]!++;
        firstB[at] = a;
        secondB[at] = b;
        excB[at] = i;
      }
    }
  // Then by first term, stable: in (first, second, excerpt) order; `from[a]` is where first term a starts.
  const from = new Int32Array(V + 1);
  for (let k = 0; k < total; k++) from[firstB[k]! + 1]!++;
  for (let a = 0; a < V; a++) from[a + 1]! += from[a]!;
  const fill = from.slice(0, V);
  for (let k = 0; k < total; k++) {
    const at = fill[firstB[k]!]!++;
    secondA[at] = secondB[k]!;
    excA[at] = excB[k]!;
  }
  for (let a = 0; a < V; a++)
    for (let k = from[a]!, end = from[a + 1]!; k < end;) {
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
}

/** Writes one `search_bigrams` row per pair given, counting them. */
function bigramRows(
  db: SqliteDb,
  names: readonly string[],
): { put: (a: number, b: number, ids: Int32Array, counts: Int32Array, n: number) => void; rows: () => number; close: () => void } {
  const st = db.prepare('INSERT INTO search_bigrams (first, second, docs, postings) VALUES (?, ?, ?, ?)');
  let rows = 0;
  return {
    put: (a, b, ids, counts, n) => {
      st.bind([names[a]!, names[b]!, n, encodePostings(ids, counts, n)]).stepReset();
      rows++;
    },
    rows: () => rows,
    close: () => st.finalize(),
  };
}

/**
 * Fills `search_bigrams` from the search tables, `chunkTokens` tokens in place at a time (see the module comment);
 * returns the number of pairs written. Scratch files go in the directory `scratch` (made, then removed; by default
 * one under the system's temporary directory), used only when the corpus has more than one chunk.
 */
export function writeSearchBigrams(db: SqliteDb, o: { scratch?: string; chunkTokens?: number } = {}): { bigrams: number; minDocs: number } {
  const limit = o.chunkTokens ?? CHUNK_TOKENS;
  const table = readTermTable(db);
  const chunks = planChunks(table.sizes, limit);
  const out = bigramRows(db, table.names);
  try {
    if (chunks.tokens.length === 1) {
      // One chunk: its local starts are the excerpts' starts.
      const start = new Float64Array(chunks.local.length + 1);
      start.set(chunks.local);
      start[chunks.local.length] = chunks.tokens[0]!;
      eachBigram(placeAll(db, table, start), out.put);
    } else {
      const dir = o.scratch ?? join(tmpdir(), `bigrams-${process.pid}-${Date.now()}`);
      mkdirSync(dir, { recursive: true });
      try {
        mergeRuns(chunkRuns(db, table, chunks, dir), out.put);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    out.close();
  }
  db.prepare('UPDATE search_documents SET bigram_min_docs = ?').bind([table.minDocs]).stepFinalize();
  return { bigrams: out.rows(), minDocs: table.minDocs };
}

/**
 * Each chunk's pairs in (first, second) order in a run file of its own under `dir`: per pair its two terms, its
 * number of excerpts, their ids (global, ascending) and their counts.
 */
function chunkRuns(db: SqliteDb, table: TermTable, chunks: Chunks, dir: string): string[] {
  const spilled = spillTokens(db, chunks, dir);
  const tokenAt = new Int32Array(chunks.tokens.reduce((m, n) => Math.max(m, n), 0));
  const localOf = new Int32Array(table.names.length).fill(-1);
  const arrays = new PairArrays();
  return spilled.map((file, c) => {
    const { placed, global } = placeChunk(table, chunks, c, file, tokenAt, localOf);
    rmSync(file);
    const run = new IntFileWriter(join(dir, `run-${c}`));
    const shift = chunks.first[c]!;
    try {
      eachBigram(
        placed,
        (a, b, ids, counts, n) => {
          run.push(global[a]!);
          run.push(global[b]!);
          run.push(n);
          for (let k = 0; k < n; k++) run.push(ids[k]! + shift);
          run.pushRange(counts, 0, n);
        },
        arrays,
      );
    } finally {
      run.close();
    }
    return run.path;
  });
}

/**
 * Merges the runs (in chunk order, so in excerpt order) into one pair at a time: the runs holding the smallest
 * (first, second) give their excerpts, one run after another. The runs' heads are kept in a binary heap ordered by
 * (first, second, run): the whole OA subset makes hundreds of runs.
 */
function mergeRuns(files: string[], put: (a: number, b: number, ids: Int32Array, counts: Int32Array, n: number) => void): void {
  const readers: IntFileReader[] = [];
  try {
    for (const f of files) readers.push(new IntFileReader(f, Math.max(4096, Math.floor(SPILL_BUFFER_INTS / files.length))));
    const before = (x: number, y: number) => {
      const rx = readers[x]!;
      const ry = readers[y]!;
      const ax = rx.buffer[rx.at]!;
      const ay = ry.buffer[ry.at]!;
      if (ax !== ay) return ax < ay;
      const bx = rx.buffer[rx.at + 1]!;
      const by = ry.buffer[ry.at + 1]!;
      return bx !== by ? bx < by : x < y;
    };
    const heap: number[] = [];
    const down = (from: number) => {
      for (let i = from; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
        if (m === i) return;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    readers.forEach((r, k) => {
      if (r.ensure(3)) heap.push(k);
      else if (r.end !== r.at) throw new Error(`${r.path}: ends within a pair`);
    });
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    let ids = new Int32Array(1024);
    let counts = new Int32Array(1024);
    while (heap.length > 0) {
      const top = readers[heap[0]!]!;
      const a = top.buffer[top.at]!;
      const b = top.buffer[top.at + 1]!;
      let n = 0;
      // Popped in run order: the heap breaks ties by run.
      while (heap.length > 0) {
        const r = readers[heap[0]!]!;
        if (r.buffer[r.at] !== a || r.buffer[r.at + 1] !== b) break;
        const m = r.buffer[r.at + 2]!;
        if (!r.ensure(3 + 2 * m)) throw new Error(`${r.path}: ends within a pair`);
        if (n + m > ids.length) {
          const size = Math.max(n + m, 2 * ids.length);
          const grownIds = new Int32Array(size);
          const grownCounts = new Int32Array(size);
          grownIds.set(ids.subarray(0, n));
          grownCounts.set(counts.subarray(0, n));
          ids = grownIds;
          counts = grownCounts;
        }
        const at = r.at + 3;
        ids.set(r.buffer.subarray(at, at + m), n);
        counts.set(r.buffer.subarray(at + m, at + 2 * m), n);
        n += m;
        r.at = at + 2 * m;
        if (!r.ensure(3)) {
          if (r.end !== r.at) throw new Error(`${r.path}: ends within a pair`);
          heap[0] = heap[heap.length - 1]!;
          heap.pop();
        }
        down(0);
      }
      put(a, b, ids, counts, n);
    }
  } finally {
    for (const r of readers) r.close();
  }
}
