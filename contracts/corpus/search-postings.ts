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
 * Varints are LEB128: 7 bits per byte, low bits first, the high bit set on every byte but the last.
 */

/**
 * Terms in at least this many of `excerpts` excerpts are common: every two-token phrase with a common token is
 * stored as its own posting list (`search_bigrams`, pipeline/steps/corpus/search-bigrams.ts); the number is
 * stored with the index (`search_documents.bigram_min_docs`), so the server knows which pairs are there.
 */
export function bigramMinDocs(excerpts: number): number {
  return Math.max(1, Math.ceil(excerpts / 32));
}

/** How many bytes `VarintWriter.write` takes for `v` (0 … 2^53 − 1): 7 bits a byte. */
export function varintLength(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 4 + varintLength(Math.floor(v / 0x10000000));
}

/** A growable byte buffer of varints. */
export class VarintWriter {
  private bytes = new Uint8Array(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Appends a whole number 0 … 2^53 − 1. */
  write(value: number): void {
    this.room(8);
    let v = value;
    if (v < 0x80000000)
      // Bit operations below 2^31 (nearly every value): `%` and `Math.floor` on a double cost more.
      while (v >= 0x80) {
        this.bytes[this.length++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
    else
      while (v >= 0x80) {
        this.bytes[this.length++] = (v % 0x80) | 0x80;
        v = Math.floor(v / 0x80);
      }
    this.bytes[this.length++] = v;
  }

  /** Appends bytes `from` … `to` of `src` as they are (varints written before, copied). */
  copy(src: Uint8Array, from: number, to: number): void {
    this.room(to - from);
    this.bytes.set(src.subarray(from, to), this.length);
    this.length += to - from;
  }

  /** The bytes written so far (a copy of exactly that length). */
  finish(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  /** Empties it for the next blob (its buffer is kept). */
  reset(): void {
    this.length = 0;
  }
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
  const postings = new VarintWriter();
  let previous = 0;
  for (let k = 0; k < n; k++) {
    const id = ids[k]!;
    const count = counts[k]!;
    if (id <= previous || count === 0) throw new Error(`search postings: ids must ascend and have offsets (id ${id})`);
    const many = count > 1 ? 1 : 0;
    postings.write((id - previous) * 2 + many);
    if (many) postings.write(count - 2);
    previous = id;
  }
  return postings.finish();
}

/**
 * Decodes a `postings` blob of `count` excerpts into 0-based excerpt indexes (id − 1, ascending) and the
 * number of occurrences in each. Ids and counts are below 2^30 (the bit operations below rely on it).
 */
export function decodePostings(blob: Uint8Array, count: number): { docs: Int32Array; freq: Int32Array } {
  const docs = new Int32Array(count);
  const freq = new Int32Array(count);
  decodePostingsInto(blob, count, docs, freq);
  return { docs, freq };
}

/**
 * `decodePostings` into the first `count` entries of `docs` and `freq` (at least that long), so that a caller
 * decoding every term in turn reuses two arrays instead of making two per term (the pipeline's two-word
 * phrases: ~80 MiB of short-lived arrays at 100,000 articles).
 */
export function decodePostingsInto(blob: Uint8Array, count: number, docs: Int32Array, freq: Int32Array): void {
  if (docs.length < count || freq.length < count) throw new Error(`search postings: room for ${Math.min(docs.length, freq.length)} of ${count} excerpts`);
  let p = 0;
  let id = 0;
  for (let k = 0; k < count; k++) {
    // Inline varint reads: this loop runs once per excerpt of a search's words.
    let b = blob[p++]!;
    let v = b;
    if (b >= 0x80) {
      v = b & 0x7f;
      let shift = 7;
      do {
        b = blob[p++]!;
        v |= (b & 0x7f) << shift;
        shift += 7;
      } while (b >= 0x80);
    }
    id += v >>> 1;
    docs[k] = id - 1;
    if ((v & 1) === 0) freq[k] = 1;
    else {
      b = blob[p++]!;
      let c = b;
      if (b >= 0x80) {
        c = b & 0x7f;
        let shift = 7;
        do {
          b = blob[p++]!;
          c |= (b & 0x7f) << shift;
          shift += 7;
        } while (b >= 0x80);
      }
      freq[k] = c + 2;
    }
  }
  if (p !== blob.length) throw new Error(`search postings: ${blob.length - p} bytes left over after ${count} excerpts`);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Token offsets of a term, excerpt after excerpt, in the width they are stored in. */
export type TokenOffsets = Uint8Array | Uint16Array | Uint32Array;

/**
 * A `positions` blob as numbers: every offset, excerpt after excerpt. A view of the blob's own bytes (no copy)
 * unless they do not start on a multiple of the width.
 */
export function decodePositions(blob: Uint8Array, width: number): TokenOffsets {
  if (blob.length % width !== 0) throw new Error(`search positions: ${blob.length} bytes is not a multiple of ${width}`);
  if (width === 1) return blob;
  if (!LITTLE_ENDIAN) throw new Error('search positions: the offsets are little-endian; this platform is not');
  const bytes = blob.byteOffset % width === 0 ? blob : blob.slice();
  const n = blob.length / width;
  return width === 2 ? new Uint16Array(bytes.buffer, bytes.byteOffset, n) : new Uint32Array(bytes.buffer, bytes.byteOffset, n);
}

/** A list of whole numbers as one varint blob (the excerpts' token counts). */
export function encodeVarints(values: ArrayLike<number>): Uint8Array {
  const w = new VarintWriter();
  for (let i = 0; i < values.length; i++) w.write(values[i]!);
  return w.finish();
}

export function decodeVarints(blob: Uint8Array, count: number): Int32Array {
  const out = new Int32Array(count);
  let p = 0;
  for (let k = 0; k < count; k++) {
    let b = blob[p++]!;
    let v = b & 0x7f;
    for (let shift = 128; b >= 0x80; shift *= 128) {
      b = blob[p++]!;
      v += (b & 0x7f) * shift;
    }
    out[k] = v;
  }
  if (p !== blob.length) throw new Error(`search index: ${blob.length - p} bytes left over after ${count} varints`);
  return out;
}
