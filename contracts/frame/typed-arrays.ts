/**
 * Typed-array files of the cohort index as the readers hold them: read straight into an aligned buffer, offsets
 * narrowed to 32 bits when they fit, and sorted numeric ids found through a cached sample. What is on disk does not
 * change (pipeline version 8 files); only what a reader keeps in memory does, which is what the server's RSS
 * after start is made of (at 4.3M works the f64 offsets of two lists and of the work store are ~110 MB,
 * half of it zero high words).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { BytesError, typedColumn, type TypedArrayOf, type TypedName } from '../common/bytes.ts';

/** Bytes read per system call (large enough to be cheap, small enough that a conversion buffer stays small). */
const CHUNK = 8 * 2 ** 20;

/** Fills `target` from the file's bytes at `position` on, or throws if the file ends first. */
function readInto(fd: number, target: Uint8Array, path: string, position = 0): void {
  for (let done = 0; done < target.length;) {
    const n = readSync(fd, target, done, Math.min(CHUNK, target.length - done), position + done);
    if (n <= 0) throw new BytesError(path, position + done, `the file ends; ${position + target.length} bytes needed`);
    done += n;
  }
}

/**
 * A typed column file (contracts/common/bytes.ts), read straight into an aligned buffer of its own (no second copy
 * of the file while it loads).
 */
export function readArray<T extends TypedName>(path: string, type: T): TypedArrayOf<T> {
  const fd = openSync(path, 'r');
  try {
    const buffer = new ArrayBuffer(fstatSync(fd).size);
    readInto(fd, new Uint8Array(buffer), path);
    return typedColumn(type, buffer, path);
  } finally {
    closeSync(fd);
  }
}

/** Ascending offsets (of list values or bytes), 32 bits wide when the last one fits. */
export type Offsets = Uint32Array | Float64Array;

/** Reads an f64 file chunk by chunk, handing each chunk (a reused buffer) and its first index to `each`. */
function eachF64Chunk(fd: number, path: string, n: number, each: (chunk: Float64Array, at: number) => void): void {
  const chunk = new Float64Array(CHUNK / 8);
  for (let at = 0; at < n;) {
    const count = Math.min(chunk.length, n - at);
    readInto(fd, new Uint8Array(chunk.buffer, 0, count * 8), path, at * 8);
    each(chunk.subarray(0, count), at);
    at += count;
  }
}

/** The number of f64 values in a file, and its first and last value. */
function f64Extent(fd: number, path: string): { n: number; first: number; last: number } {
  const size = fstatSync(fd).size;
  if (size % 8 !== 0) throw new BytesError(path, size - (size % 8), `${size} bytes is not a whole number of f64 values`);
  const n = size / 8;
  const v = new Float64Array(2);
  if (n > 0) {
    readInto(fd, new Uint8Array(v.buffer, 0, 8), path);
    readInto(fd, new Uint8Array(v.buffer, 8, 8), path, size - 8);
  }
  return { n, first: v[0]!, last: v[1]! };
}

/**
 * An ascending f64 offsets file, held as a Uint32Array when its last (largest) value is below 2^32, else as
 * written. Converted chunk by chunk, so the f64 form is never held whole.
 */
export function readOffsets(path: string): Offsets {
  const fd = openSync(path, 'r');
  try {
    const { n, last } = f64Extent(fd, path);
    const out = n > 0 && last > 0xffffffff ? new Float64Array(n) : new Uint32Array(n);
    eachF64Chunk(fd, path, n, (chunk, at) => out.set(chunk, at));
    return out;
  } finally {
    closeSync(fd);
  }
}

/** Values per block of a SortedSearch: one binary search over 64 values touches about 4 cache lines. */
const BLOCK = 64;

/** Index of `x` in `sorted[lo..hi]` (inclusive, ascending), or -1. */
function bisect(sorted: Float64Array | Uint32Array, x: number, lo: number, hi: number): number {
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === x) return mid;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Finds values in an ascending array of distinct numbers through a sample of every 64th value. The sample (1/64
 * of the array: 290 KB for 4.6M author ids) stays in the CPU cache across lookups, so a lookup costs the misses
 * of one 64-value block instead of the ~10 a plain bisection over millions of values takes once its first
 * levels are cached. (Interpolation was tried first: on the generated ids, spread about evenly but not exactly,
 * it took twice the time of plain bisection, each probe landing on a line not in cache.)
 */
export class SortedSearch {
  private readonly sample: Float64Array;
  constructor(private readonly sorted: Float64Array | Uint32Array) {
    this.sample = new Float64Array(Math.ceil(sorted.length / BLOCK));
    for (let b = 0; b < this.sample.length; b++) this.sample[b] = sorted[b * BLOCK]!;
  }
  get bytes(): number {
    return this.sample.byteLength;
  }
  /** Index of `x`, or -1. */
  indexOf(x: number): number {
    const sample = this.sample;
    // The last block whose first value is <= x.
    let lo = 0;
    let hi = sample.length - 1;
    if (hi < 0 || x < sample[0]!) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (sample[mid]! <= x) lo = mid;
      else hi = mid - 1;
    }
    const first = lo * BLOCK;
    return bisect(this.sorted, x, first, Math.min(first + BLOCK, this.sorted.length) - 1);
  }
}

/**
 * Ascending numeric ids held as a base and 32-bit differences when their range allows (author ids: A5… numbers
 * above 2^32, spread over far less than 2^32), else as the f64 values written.
 */
export class SortedIds {
  private constructor(
    private readonly base: number,
    private readonly values: Uint32Array | Float64Array,
  ) {
    this.search = new SortedSearch(values);
  }
  private readonly search: SortedSearch;
  static load(path: string): SortedIds {
    const fd = openSync(path, 'r');
    try {
      const { n, first, last } = f64Extent(fd, path);
      const narrow = n > 0 && last - first <= 0xffffffff;
      const base = narrow ? first : 0;
      const values = narrow ? new Uint32Array(n) : new Float64Array(n);
      eachF64Chunk(fd, path, n, (chunk, at) => {
        for (let k = 0; k < chunk.length; k++) values[at + k] = chunk[k]! - base;
      });
      return new SortedIds(base, values);
    } finally {
      closeSync(fd);
    }
  }
  get length(): number {
    return this.values.length;
  }
  get bytes(): number {
    return this.values.byteLength + this.search.bytes;
  }
  /** The id at a row. */
  at(row: number): number {
    return this.base + this.values[row]!;
  }
  /** Row of an id, or -1. */
  indexOf(id: number): number {
    return this.search.indexOf(id - this.base);
  }
}
