/**
 * The byte format of the corpus search index (tables `search_terms`, `search_documents` and `search_bigrams`,
 * contracts/corpus/database.ts): written by the pipeline from FTS5's own tokens, read by the server's search
 * index, so the two share one encoder and one decoder.
 *
 * Per term, two blobs:
 *   - `postings`: for each excerpt containing the term, in id order, the varint `2·(id − previous id) + m`
 *     (previous id 0 at the start), where m = 1 when the term occurs more than once in the excerpt, then,
 *     only when m = 1, the varint `count − 2`. Most counts are 1, so most excerpts cost one or two bytes.
 *   - `positions`: for each excerpt in the same order, its `count` token offsets (0-based, as FTS5 numbers
 *     them), ascending, each a little-endian unsigned number of `offset_width` bytes (1 when every offset of
 *     the term is below 256, else 2, else 4). Fixed width rather than varints: a phrase search reads the
 *     offsets of its words in every excerpt they occur in, and a fixed-width array is copied, not decoded.
 * The token counts of the excerpts (FTS5's document sizes) are one blob of varints in id order. A two-token
 * phrase of `search_bigrams` has a `postings` blob only, in the same format, its counts being the phrase's
 * occurrences (offsets where the first token is followed by the second).
 *
 * Varints are the toolkit's (contracts/common/bytes.ts: LEB128), and so is every read: a blob that is cut or
 * damaged ends in a BytesError naming the blob and the offset.
 */
import { ByteBuffer, ByteReader, typedColumn } from '../common/bytes.ts';

/**
 * Terms in at least this many of `excerpts` excerpts are common: every two-token phrase with a common token is
 * stored as its own posting list (`search_bigrams`, pipeline/steps/corpus/search-bigrams.ts); the number is
 * stored with the index (`search_documents.bigram_min_docs`), so the server knows which pairs are there.
 */
export function bigramMinDocs(excerpts: number): number {
  return Math.max(1, Math.ceil(excerpts / 32));
}

/** One term's occurrences: excerpt ids ascending, each with its sorted token offsets. */
export interface TermOccurrences {
  ids: readonly number[];
  /** `offsets[k]`: the term's token offsets in excerpt `ids[k]`, ascending, at least one. */
  offsets: readonly (readonly number[])[];
}

/** The bytes per offset `positions` uses for offsets up to `max`. */
export function offsetWidth(max: number): 1 | 2 | 4 {
  return max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
}

export function encodeTerm(term: TermOccurrences): { postings: Uint8Array; positions: Uint8Array; offsetWidth: 1 | 2 | 4 } {
  const counts = term.offsets.map((o) => o.length);
  return encodeTermFlat(term.ids, counts, term.offsets.flat(), term.ids.length);
}

/**
 * `encodeTerm` over flat arrays: the first `n` excerpt ids (ascending), their occurrence counts, and all their
 * offsets one excerpt after the other (each excerpt's ascending). The form a carried-over index is re-numbered in
 * (pipeline/steps/corpus/search-index.ts), without an array per excerpt.
 */
export function encodeTermFlat(
  ids: ArrayLike<number>,
  counts: ArrayLike<number>,
  offsets: ArrayLike<number>,
  n: number,
): { postings: Uint8Array; positions: Uint8Array; offsetWidth: 1 | 2 | 4 } {
  let total = 0;
  let max = 0;
  for (let k = 0; k < n; k++) {
    const count = counts[k]!;
    for (let i = total + 1; i < total + count; i++) if (offsets[i]! <= offsets[i - 1]!) throw new Error(`search postings: offsets must ascend (id ${ids[k]})`);
    total += count;
    if (count > 0) max = Math.max(max, offsets[total - 1]!);
  }
  const postings = encodePostings(ids, counts, n);
  const width = offsetWidth(max);
  const positions = new Uint8Array(total * width);
  const view = new DataView(positions.buffer);
  for (let i = 0, at = 0; i < total; i++, at += width) {
    const o = offsets[i]!;
    if (width === 1) positions[at] = o;
    else if (width === 2) view.setUint16(at, o, true);
    else view.setUint32(at, o, true);
  }
  return { postings, positions, offsetWidth: width };
}

/**
 * A `postings` blob alone: the first `n` excerpt ids (ascending) with their counts (at least 1). Also the
 * format of a two-token phrase's postings (`search_bigrams`), where the count is the phrase's occurrences.
 */
export function encodePostings(ids: ArrayLike<number>, counts: ArrayLike<number>, n: number): Uint8Array {
  const postings = new ByteBuffer(1024);
  let previous = 0;
  for (let k = 0; k < n; k++) {
    const id = ids[k]!;
    const count = counts[k]!;
    if (id <= previous || count === 0) throw new Error(`search postings: ids must ascend and have offsets (id ${id})`);
    const many = count > 1 ? 1 : 0;
    postings.uvar((id - previous) * 2 + many);
    if (many) postings.uvar(count - 2);
    previous = id;
  }
  return postings.slice();
}

/**
 * Decodes a `postings` blob of `count` excerpts into 0-based excerpt indexes (id − 1, ascending) and the
 * number of occurrences in each. Ids and counts are below 2^30. `source` names the blob for errors.
 */
export function decodePostings(blob: Uint8Array, count: number, source = 'a postings blob'): { docs: Int32Array; freq: Int32Array } {
  if (count > blob.length) new ByteReader(blob, source).fail(`${count} excerpts cannot fit in ${blob.length} bytes`);
  const docs = new Int32Array(count);
  const freq = new Int32Array(count);
  decodePostingsInto(blob, count, docs, freq, source);
  return { docs, freq };
}

/**
 * `decodePostings` into the first `count` entries of `docs` and `freq` (at least that long), so that a caller
 * decoding every term in turn reuses two arrays instead of making two per term (the pipeline's two-word
 * phrases: ~80 MiB of short-lived arrays at 100,000 articles).
 */
export function decodePostingsInto(blob: Uint8Array, count: number, docs: Int32Array, freq: Int32Array, source = 'a postings blob'): void {
  if (docs.length < count || freq.length < count) throw new Error(`search postings: room for ${Math.min(docs.length, freq.length)} of ${count} excerpts`);
  const r = new ByteReader(blob, source);
  let id = 0;
  for (let k = 0; k < count; k++) {
    const v = r.uvar();
    id += v >>> 1;
    if (v > 0x7fffffff || id > 0x3fffffff) r.fail('an excerpt id at or above 2^30');
    docs[k] = id - 1;
    if ((v & 1) === 0) freq[k] = 1;
    else {
      const c = r.uvar();
      if (c > 0x3fffffff) r.fail('an occurrence count at or above 2^30');
      freq[k] = c + 2;
    }
  }
  r.done();
}

/** Token offsets of a term, excerpt after excerpt, in the width they are stored in. */
export type TokenOffsets = Uint8Array | Uint16Array | Uint32Array;

/**
 * A `positions` blob as numbers: every offset, excerpt after excerpt. A view of the blob's own bytes (no copy)
 * unless they do not start on a multiple of the width.
 */
export function decodePositions(blob: Uint8Array, width: number, source = 'a positions blob'): TokenOffsets {
  if (width === 1) return blob;
  if (width !== 2 && width !== 4) return new ByteReader(blob, source).fail(`an offset width of ${width}`);
  const bytes = blob.byteOffset % width === 0 ? blob : blob.slice();
  return typedColumn(width === 2 ? 'u16' : 'u32', bytes.buffer as ArrayBuffer, source, bytes.byteOffset, bytes.byteLength);
}

/** A list of whole numbers as one varint blob (the excerpts' token counts). */
export function encodeVarints(values: ArrayLike<number>): Uint8Array {
  const w = new ByteBuffer(1024);
  for (let i = 0; i < values.length; i++) w.uvar(values[i]!);
  return w.slice();
}

/** `count` varints below 2^31 from a blob that holds exactly those (`source` names it for errors). */
export function decodeVarints(blob: Uint8Array, count: number, source = 'a varint blob'): Int32Array {
  const r = new ByteReader(blob, source);
  if (count > blob.length) r.fail(`${count} varints cannot fit in ${blob.length} bytes`);
  const out = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    const v = r.uvar();
    if (v > 0x7fffffff) r.fail('a value at or above 2^31');
    out[k] = v;
  }
  r.done();
  return out;
}
