/**
 * The byte format of the corpus search index (tables `search_terms` and `search_documents`,
 * contracts/corpus/database.ts): written by the pipeline from FTS5's own tokens, read by the server's search
 * index, so the two share one encoder and one decoder.
 *
 * Per term, two blobs:
 *   - `postings`: for each excerpt containing the term, in id order, the varint `2·(id − previous id) + m`
 *     (previous id 0 at the start), where m = 1 when the term occurs more than once in the excerpt, then,
 *     only when m = 1, the varint `count − 2`. Most counts are 1, so most excerpts cost one or two bytes.
 *   - `positions`: for each excerpt in the same order, its `count` token offsets (0-based, as FTS5 numbers
 *     them), the first as is and the others as the difference to the one before.
 * The token counts of the excerpts (FTS5's document sizes) are one blob of varints in id order.
 *
 * Varints are LEB128: 7 bits per byte, low bits first, the high bit set on every byte but the last.
 */

/** A growable byte buffer of varints. */
export class VarintWriter {
  private bytes = new Uint8Array(1024);
  private length = 0;

  /** Appends a whole number 0 … 2^53 − 1. */
  write(value: number): void {
    if (this.length + 8 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.bytes[this.length++] = v;
  }

  /** The bytes written so far (a copy of exactly that length). */
  finish(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** One term's occurrences: excerpt ids ascending, each with its sorted token offsets. */
export interface TermOccurrences {
  ids: readonly number[];
  /** `offsets[k]`: the term's token offsets in excerpt `ids[k]`, ascending, at least one. */
  offsets: readonly (readonly number[])[];
}

export function encodeTerm(term: TermOccurrences): { postings: Uint8Array; positions: Uint8Array } {
  const postings = new VarintWriter();
  const positions = new VarintWriter();
  let previous = 0;
  for (let k = 0; k < term.ids.length; k++) {
    const id = term.ids[k]!;
    const offsets = term.offsets[k]!;
    if (id <= previous || offsets.length === 0) throw new Error(`search postings: ids must ascend and have offsets (id ${id})`);
    const many = offsets.length > 1 ? 1 : 0;
    postings.write((id - previous) * 2 + many);
    if (many) postings.write(offsets.length - 2);
    let before = 0;
    offsets.forEach((o, i) => {
      if (i > 0 && o <= before) throw new Error(`search postings: offsets must ascend (id ${id})`);
      positions.write(i === 0 ? o : o - before);
      before = o;
    });
    previous = id;
  }
  return { postings: postings.finish(), positions: positions.finish() };
}

/**
 * Decodes a `postings` blob of `count` excerpts into 0-based excerpt indexes (id − 1, ascending) and the
 * number of occurrences in each.
 */
export function decodePostings(blob: Uint8Array, count: number): { docs: Int32Array; freq: Int32Array } {
  const docs = new Int32Array(count);
  const freq = new Int32Array(count);
  let p = 0;
  let id = 0;
  for (let k = 0; k < count; k++) {
    // Inline varint reads: this loop runs once per excerpt of a search's terms.
    let b = blob[p++]!;
    let v = b & 0x7f;
    for (let shift = 128; b >= 0x80; shift *= 128) {
      b = blob[p++]!;
      v += (b & 0x7f) * shift;
    }
    id += Math.floor(v / 2);
    docs[k] = id - 1;
    if (v % 2 === 1) {
      b = blob[p++]!;
      let c = b & 0x7f;
      for (let shift = 128; b >= 0x80; shift *= 128) {
        b = blob[p++]!;
        c += (b & 0x7f) * shift;
      }
      freq[k] = c + 2;
    } else freq[k] = 1;
  }
  if (p !== blob.length) throw new Error(`search postings: ${blob.length - p} bytes left over after ${count} excerpts`);
  return { docs, freq };
}

/** Decodes a `positions` blob: every offset, excerpt after excerpt (`total` = the sum of the counts). */
export function decodePositions(blob: Uint8Array, freq: Int32Array, total: number): Int32Array {
  const out = new Int32Array(total);
  let p = 0;
  let k = 0;
  for (let d = 0; d < freq.length; d++) {
    let before = 0;
    for (let i = 0, n = freq[d]!; i < n; i++) {
      let b = blob[p++]!;
      let v = b & 0x7f;
      for (let shift = 128; b >= 0x80; shift *= 128) {
        b = blob[p++]!;
        v += (b & 0x7f) * shift;
      }
      before = i === 0 ? v : before + v;
      out[k++] = before;
    }
  }
  if (p !== blob.length || k !== total) throw new Error('search positions: the blob does not match the counts');
  return out;
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
