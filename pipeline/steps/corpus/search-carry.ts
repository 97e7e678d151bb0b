/**
 * The search index of a rebuild carried over from the previous build (issue 21): the previous build's terms and
 * two-word phrases re-numbered (an excerpt dropped leaves them, the others take their new ids), merged with the
 * tokens of the new excerpts only. The result is the rows reading every token back from FTS5 gives
 * (search-index.ts, `writeSearchIndex`), in the same order: tested against it, row by row, on random corpora.
 *
 * What a carried excerpt holds does not change, so neither do its tokens' offsets nor its pairs of tokens:
 *
 *   - A term's `positions` are copied as runs of bytes, from one excerpt dropped or added to the next, unless its
 *     offset width changes (an excerpt dropped held its only long offsets, or a new one brings one). Its postings
 *     are delta-coded: an excerpt kept right after the previous one, its id moved by as much, keeps its bytes, so
 *     they too are copied as runs, and only the first excerpt after a change is written anew (`PostingsMerger`).
 *   - The two-word phrases (`search_bigrams`: every pair of tokens where one of the two is a common term) are the
 *     previous build's rows, re-numbered, with the pairs of the new excerpts added, when that gives every pair the
 *     counting would: when no term is common now that was not before (a pair of two terms uncommon before is in
 *     no previous row). Terms that are no longer common only take rows away, which is checked row by row. Otherwise
 *     the pairs are counted from every token put back in place (search-bigrams.ts, `eachBigram`), as a full build
 *     counts them.
 *
 * Session 27: the terms' postings and offsets were decoded and written again one by one, every token was put in
 * place and the pairs counted again from all of them: 2.1 s of the rebuild worker's time at 100,000 articles, on the
 * rebuild's critical path.
 */
import { bigramMinDocs, decodePostingsInto, encodePostings, encodeVarints, offsetWidth } from '../../../contracts/corpus/search-postings.ts';
import { ByteBuffer, varintLength } from '../../../contracts/common/bytes.ts';
import type { Sqlite3 } from '../../lib/sqlite.ts';
import { eachBigram, PAIR_BUDGET } from './search-bigrams.ts';
import { compareCodePoints, type FreshTerm, type PreviousSearchIndex, type SearchRows, tokenizeExcerpts } from './search-index.ts';

/** How the two-word phrases were made: the previous rows carried, or every pair counted again. */
export type BigramWay = 'carried' | 'counted';

/**
 * The search tables' rows from the previous build's index and the new excerpts' texts, into `out` (written whole
 * by `writeSearchRows`): `remap[i]` is the new id of previous excerpt i + 1 (0: not carried over), ascending
 * wherever it is not 0; `fresh` are the excerpts written anew. Returns null (making no rows) when the two do not
 * make up excerpts 1 … `excerpts` exactly; the caller then reads the index from FTS5 (`writeSearchIndex`). Needs no
 * connection to the database being built: a rebuild's worker thread makes them while that database is written
 * (rebuild-worker.ts).
 */
export function carrySearchRows(
  s: Sqlite3,
  previous: PreviousSearchIndex,
  remap: Int32Array,
  fresh: readonly { id: number; text: string }[],
  excerpts: number,
  out: { rows: SearchRows },
  /** `fresh`'s tokens, when made already (`tokenizeExcerpts`). */
  freshTokens?: Map<string, FreshTerm>,
): { terms: number; tokens: number; bigrams: BigramWay } | null {
  if (remap.length !== previous.sizes.length) return null;
  const sizes = new Int32Array(excerpts);
  const seen = new Uint8Array(excerpts + 1);
  let last = 0;
  for (let i = 0; i < remap.length; i++) {
    const id = remap[i]!;
    if (id === 0) continue;
    if (id <= last || id > excerpts) return null;
    last = id;
    seen[id] = 1;
    sizes[id - 1] = previous.sizes[i]!;
  }
  for (const { id } of fresh) {
    if (id < 1 || id > excerpts || seen[id]) return null;
    seen[id] = 1;
  }
  if (seen.reduce((n, v) => n + v, 0) !== excerpts) return null;

  const freshTerms = freshTokens ?? tokenizeExcerpts(s, fresh);
  for (const t of freshTerms.values()) t.ids.forEach((id, k) => (sizes[id - 1]! += t.counts[k]!));
  const byTerm = new Map(previous.terms.map((p) => [p.term, p]));
  const order = [...previous.terms.map((p) => p.term), ...[...freshTerms.keys()].filter((t) => !byTerm.has(t))].sort(compareCodePoints);

  const minDocs = bigramMinDocs(excerpts);
  const merger = new TermMerger(remap);
  /** Per term written, in order: its number among them, whether it is common now, and whether it was before. */
  const number = new Map<string, number>();
  const common: number[] = [];
  let carryPairs = true;
  for (const term of order) {
    const old = byTerm.get(term);
    const row = merger.merge(term, old, freshTerms.get(term));
    if (row === null) continue; // every excerpt holding it is gone, and FTS5 rebuilt from the rows no longer has it
    const isCommon = row[1] >= minDocs;
    if (isCommon && !(old && old.docs >= previous.bigramMinDocs)) carryPairs = false;
    number.set(term, out.rows.terms.length);
    common.push(isCommon ? 1 : 0);
    out.rows.terms.push(row);
  }
  let tokens = 0;
  for (const v of sizes) tokens += v;
  out.rows.documents = [excerpts, tokens, encodeVarints(sizes)];
  out.rows.bigramMinDocs = minDocs;
  const commonNow = Uint8Array.from(common);
  if (carryPairs) out.rows.bigrams = carryBigrams(previous.bigrams, remap, freshPairs(freshTerms, fresh, number, commonNow), number, commonNow);
  else countBigrams(out.rows, sizes, commonNow, minDocs);
  return { terms: out.rows.terms.length, tokens, bigrams: carryPairs ? 'carried' : 'counted' };
}

type TermRow = SearchRows['terms'][number];

/** What `PostingsMerger` visits, in id order: a previous excerpt dropped or kept, or a new one (with its count). */
const DROPPED = 0;
const KEPT = 1;
const ADDED = 2;

/**
 * Re-numbers a postings blob (contracts/corpus/search-postings.ts) by `remap` and merges new excerpts into it. An
 * excerpt kept right after the previous one, its id moved by as much, has the same bytes: they are copied, a run
 * of such excerpts at a time; only the first of a run, and the new ones, are written anew.
 */
class PostingsMerger {
  private readonly out = new ByteBuffer(1024);
  private lastId = 0;
  private docs = new Int32Array(1024);
  private freq = new Int32Array(1024);

  constructor(private readonly remap: Int32Array) {}

  private write(id: number, count: number): void {
    const many = count > 1 ? 1 : 0;
    this.out.uvar((id - this.lastId) * 2 + many);
    if (many) this.out.uvar(count - 2);
    this.lastId = id;
  }

  /**
   * Merges `blob` (`count` excerpts) with the new excerpts `addIds` (ascending) and `addCounts`; `visit`, if given,
   * sees every excerpt in order. Returns the number of excerpts written; `bytes` gives them.
   */
  merge(
    blob: Uint8Array,
    count: number,
    addIds: ArrayLike<number>,
    addCounts: ArrayLike<number>,
    visit: ((kind: number, count: number, index: number) => void) | null,
  ): number {
    const { remap, out } = this;
    out.reset();
    this.lastId = 0;
    if (this.docs.length < count) {
      this.docs = new Int32Array(Math.max(count, 2 * this.docs.length));
      this.freq = new Int32Array(this.docs.length);
    }
    const { docs, freq } = this;
    decodePostingsInto(blob, count, docs, freq);
    const addN = addIds.length;
    let n = 0;
    let fi = 0;
    /** Where excerpt k's bytes start in `blob` (their length follows from its values: the format's own varints). */
    let p = 0;
    /** The previous excerpt was kept and written last: the next one's bytes are its own if its id moves as much. */
    let following = false;
    let previousOld = 0;
    let runFrom = -1;
    for (let k = 0; k < count; k++) {
      const from = p;
      const oldId = docs[k]! + 1;
      const c = freq[k]!;
      const v = (oldId - (k === 0 ? 0 : docs[k - 1]! + 1)) * 2 + (c > 1 ? 1 : 0);
      p += varintLength(v);
      if (c > 1) p += varintLength(c - 2);
      const id = remap[oldId - 1]!;
      if (id === 0) {
        if (runFrom >= 0) out.bytes(blob, runFrom, from);
        runFrom = -1;
        following = false;
        visit?.(DROPPED, c, k);
        continue;
      }
      if (fi < addN && addIds[fi]! < id) {
        if (runFrom >= 0) out.bytes(blob, runFrom, from);
        runFrom = -1;
        following = false;
        for (; fi < addN && addIds[fi]! < id; fi++, n++) {
          this.write(addIds[fi]!, addCounts[fi]!);
          visit?.(ADDED, addCounts[fi]!, fi);
        }
      }
      if (following && id - this.lastId === oldId - previousOld) {
        if (runFrom < 0) runFrom = from;
        this.lastId = id;
      } else {
        if (runFrom >= 0) out.bytes(blob, runFrom, from);
        runFrom = -1;
        this.write(id, c);
      }
      following = true;
      previousOld = oldId;
      n++;
      visit?.(KEPT, c, k);
    }
    // Lengths taken from the values must be the bytes there (varints of the format's own encoder, no padding).
    if (p !== blob.length) throw new Error(`search postings: ${blob.length} bytes, ${p} by their values`);
    if (runFrom >= 0) out.bytes(blob, runFrom, p);
    for (; fi < addN; fi++, n++) {
      this.write(addIds[fi]!, addCounts[fi]!);
      visit?.(ADDED, addCounts[fi]!, fi);
    }
    return n;
  }

  bytes(): Uint8Array {
    return this.out.slice();
  }
}

const NO_IDS: readonly number[] = [];

/**
 * Merges one term's previous postings (re-numbered) with its new excerpts' tokens. Its offsets are copied a run of
 * bytes at a time in the width they had; should the width change (a new excerpt brings a longer offset, or those
 * needing it were all dropped), the offsets are written again one by one.
 */
class TermMerger {
  private readonly postings: PostingsMerger;
  private positions = new Uint8Array(1 << 16);

  constructor(private readonly remap: Int32Array) {
    this.postings = new PostingsMerger(remap);
  }

  /** The term's row, or null when it is in no excerpt any more. */
  merge(term: string, old: PreviousSearchIndex['terms'][number] | undefined, add: FreshTerm | undefined): TermRow | null {
    const w0 = old?.width ?? 1;
    const oldBytes = old?.positions ?? EMPTY;
    const addOffsets = add?.offsets ?? NO_IDS;
    const room = oldBytes.length + addOffsets.length * 4;
    if (this.positions.length < room) this.positions = new Uint8Array(Math.max(room, 2 * this.positions.length));
    const positions = this.positions;
    const read = (at: number) => (w0 === 1 ? oldBytes[at]! : w0 === 2 ? oldBytes[at]! | (oldBytes[at + 1]! << 8) : oldBytes[at]! + oldBytes[at + 1]! * 0x100 + oldBytes[at + 2]! * 0x10000 + oldBytes[at + 3]! * 0x1000000);
    // Offsets in the previous width as they come: kept runs copied, new ones written; the largest noted.
    let written = 0;
    let op = 0; // bytes of the previous offsets passed
    let runFrom = 0;
    let fp = 0; // new offsets passed
    let max = 0;
    const flush = () => {
      positions.set(oldBytes.subarray(runFrom, op), written);
      written += op - runFrom;
    };
    const n = this.postings.merge(old?.postings ?? EMPTY, old?.docs ?? 0, add?.ids ?? NO_IDS, add?.counts ?? NO_IDS, (kind, c) => {
      if (kind === KEPT) {
        op += c * w0;
        max = Math.max(max, read(op - w0)); // an excerpt's offsets ascend: its last is its largest
      } else {
        flush();
        if (kind === DROPPED) op += c * w0;
        else
          for (let i = 0; i < c; i++, fp++) {
            const o = addOffsets[fp]!;
            if (i > 0 && o <= addOffsets[fp - 1]!) throw new Error(`search postings: offsets must ascend (term ${term})`);
            max = Math.max(max, o);
            // Little-endian; an offset too long for the width makes the width change (below), and all is written again.
            for (let j = 0; j < w0; j++) positions[written + j] = (o >>> (8 * j)) & 0xff;
            written += w0;
          }
        runFrom = op;
      }
    });
    if (n === 0) return null;
    flush();
    const width = offsetWidth(max);
    if (width === w0) return [term, n, this.postings.bytes(), positions.slice(0, written), width];
    // Another width: every offset again, in order (kept ones read back from the previous bytes).
    const total = written / w0;
    const wide = new Uint8Array(total * width);
    const view = new DataView(wide.buffer);
    let at = 0;
    op = 0;
    fp = 0;
    const put = (o: number) => {
      if (width === 1) wide[at] = o;
      else if (width === 2) view.setUint16(at, o, true);
      else view.setUint32(at, o, true);
      at += width;
    };
    this.postings.merge(old?.postings ?? EMPTY, old?.docs ?? 0, add?.ids ?? NO_IDS, add?.counts ?? NO_IDS, (kind, c) => {
      if (kind === ADDED) for (let i = 0; i < c; i++) put(addOffsets[fp++]!);
      else if (kind === DROPPED) op += c * w0;
      else for (let i = 0; i < c; i++, op += w0) put(read(op));
    });
    return [term, n, this.postings.bytes(), wide, width];
  }
}

const EMPTY = new Uint8Array(0);

/** Pairs of the new excerpts, by (first, second) term number (`first * terms + second`): their excerpts (ascending ids) and counts. */
type FreshPairs = Map<number, { ids: number[]; counts: number[] }>;

/**
 * The stored pairs of the new excerpts (one of the two terms common now): their tokens put in place, excerpt by
 * excerpt, as `eachBigram` visits them.
 */
function freshPairs(freshTerms: Map<string, FreshTerm>, fresh: readonly { id: number; text: string }[], number: Map<string, number>, common: Uint8Array): FreshPairs {
  const local = new Map<number, number>();
  fresh.forEach(({ id }, i) => local.set(id, i));
  const start = new Float64Array(fresh.length + 1);
  for (const t of freshTerms.values()) t.ids.forEach((id, k) => (start[local.get(id)! + 1]! += t.counts[k]!));
  for (let i = 0; i < fresh.length; i++) start[i + 1]! += start[i]!;
  const tokenAt = new Int32Array(start[fresh.length]!).fill(-1);
  for (const [term, t] of freshTerms) {
    const n = number.get(term)!;
    for (let k = 0, o = 0; k < t.ids.length; k++) {
      const first = start[local.get(t.ids[k]!)!]!;
      for (let c = 0; c < t.counts[k]!; c++) tokenAt[first + t.offsets[o++]!] = n;
    }
  }
  const terms = common.length;
  const pairs: FreshPairs = new Map();
  // Excerpts in id order (`fresh` ascends), so each pair's ids ascend.
  const ids = fresh.map((f) => f.id);
  for (let i = 1; i < ids.length; i++) if (ids[i]! <= ids[i - 1]!) throw new Error('the new excerpts are not in id order');
  for (let i = 0; i < fresh.length; i++)
    for (let j = start[i]!, end = start[i + 1]! - 1; j < end; j++) {
      const a = tokenAt[j]!;
      const b = tokenAt[j + 1]!;
      if (a < 0 || b < 0 || (common[a] !== 1 && common[b] !== 1)) continue;
      const key = a * terms + b;
      let p = pairs.get(key);
      if (!p) pairs.set(key, (p = { ids: [], counts: [] }));
      if (p.ids.at(-1) === ids[i]) p.counts[p.counts.length - 1]!++;
      else {
        p.ids.push(ids[i]!);
        p.counts.push(1);
      }
    }
  return pairs;
}

/**
 * The two-word phrases: the previous rows whose pair is still stored (one of its terms common now), re-numbered,
 * merged in (first, second) order with the new excerpts' pairs. `number` gives each term written its number, in
 * term order.
 */
function carryBigrams(
  rows: PreviousSearchIndex['bigrams'],
  remap: Int32Array,
  fresh: FreshPairs,
  number: Map<string, number>,
  common: Uint8Array,
): SearchRows['bigrams'] {
  const terms = common.length;
  const names: string[] = new Array(terms);
  for (const [name, n] of number) names[n] = name;
  const freshKeys = [...fresh.keys()].sort((a, b) => a - b);
  const out: SearchRows['bigrams'] = [];
  const merger = new PostingsMerger(remap);
  let fi = 0;
  const emitFresh = (key: number) => {
    const p = fresh.get(key)!;
    out.push([names[Math.floor(key / terms)]!, names[key % terms]!, p.ids.length, encodePostings(p.ids, p.counts, p.ids.length)]);
  };
  for (const row of rows) {
    const a = number.get(row.first);
    const b = number.get(row.second);
    // A term no longer written is in no excerpt: neither is the pair. A pair of two terms no longer common is not stored.
    if (a === undefined || b === undefined || (common[a] !== 1 && common[b] !== 1)) continue;
    const key = a * terms + b;
    while (fi < freshKeys.length && freshKeys[fi]! < key) emitFresh(freshKeys[fi++]!);
    const add = fi < freshKeys.length && freshKeys[fi] === key ? fresh.get(freshKeys[fi++]!)! : null;
    const n = merger.merge(row.postings, row.docs, add?.ids ?? NO_IDS, add?.counts ?? NO_IDS, null);
    if (n > 0) out.push([row.first, row.second, n, merger.bytes()]);
  }
  while (fi < freshKeys.length) emitFresh(freshKeys[fi++]!);
  return out;
}

/** The two-word phrases counted from every token, put back in place from the terms' rows just made. */
function countBigrams(rows: SearchRows, sizes: Int32Array, common: Uint8Array, minDocs: number): void {
  const excerpts = sizes.length;
  const start = new Float64Array(excerpts + 1);
  for (let i = 0; i < excerpts; i++) start[i + 1] = start[i]! + sizes[i]!;
  const tokenAt = new Int32Array(start[excerpts]!).fill(-1);
  let docs = new Int32Array(1024);
  let freq = new Int32Array(1024);
  const names: string[] = [];
  rows.terms.forEach(([term, n, postings, positions, width], t) => {
    names.push(term);
    if (docs.length < n) {
      docs = new Int32Array(Math.max(n, 2 * docs.length));
      freq = new Int32Array(docs.length);
    }
    decodePostingsInto(postings, n, docs, freq);
    const view = new DataView(positions.buffer, positions.byteOffset, positions.byteLength);
    for (let k = 0, at = 0; k < n; k++) {
      const first = start[docs[k]!]!;
      for (let c = 0; c < freq[k]!; c++, at += width) tokenAt[first + (width === 1 ? positions[at]! : width === 2 ? view.getUint16(at, true) : view.getUint32(at, true))] = t;
    }
  });
  eachBigram({ names, common, minDocs, start, tokenAt }, PAIR_BUDGET, (a, b, ids, counts, n) => {
    rows.bigrams.push([names[a]!, names[b]!, n, encodePostings(ids, counts, n)]);
  });
}
