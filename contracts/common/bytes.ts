/**
 * The binary toolkit every format of the project is written and read with (the work store, the cohort index,
 * the corpus search postings, the excerpt index): one varint, one growable byte buffer, one bounded reader, one
 * rank bitset and one table of typed-array columns, so that a rule about bytes is kept in one place.
 *
 * - Varints are LEB128: 7 bits a byte, low bits first, the high bit set on every byte but the last; whole
 *   numbers 0 … 2^53 − 1 (at most 8 bytes). Signed numbers are zig-zag coded first (0, -1, 1, -2 … → 0, 1, 2, 3 …).
 * - A reader never reads past the end of its bytes: a varint, a length or a count that runs past it, or a
 *   varint longer than 8 bytes, throws a BytesError naming the source (a file, or a blob of a database table)
 *   and the byte offset in it, so a damaged file ends in an error that says where, never in a loop or a
 *   garbage value.
 * - Typed columns are little-endian typed arrays stored as their raw bytes (the byte order of every platform
 *   Node runs on here; checked where they are read).
 */

/** A damaged or truncated binary source: where (the source and the byte offset in it) and what. */
export class BytesError extends Error {
  constructor(
    readonly source: string,
    readonly offset: number,
    what: string,
  ) {
    super(`${source}, byte ${offset}: ${what}`);
    this.name = 'BytesError';
  }
}

/** The most bytes a varint takes (2^53 − 1 needs 8). */
export const MAX_VARINT_BYTES = 8;

/** How many bytes the varint of `v` (0 … 2^53 − 1) takes. */
export function varintLength(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 4 + varintLength(Math.floor(v / 0x10000000));
}

/** Zig-zag: a signed integer as the unsigned one its varint holds, and back. */
export const zigzag = (v: number): number => (v < 0 ? -2 * v - 1 : 2 * v);
export const unzigzag = (u: number): number => (u % 2 === 1 ? -(u + 1) / 2 : u / 2);

/** A growable byte buffer: bytes, varints, doubles and texts appended; `buf` and `length` are open to fast loops. */
export class ByteBuffer {
  buf: Buffer;
  /** Bytes written. */
  length = 0;
  constructor(size = 1 << 16) {
    this.buf = Buffer.allocUnsafe(size);
  }
  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }
  /** An unsigned integer 0 … 2^53 − 1 as a varint. */
  uvar(v: number): void {
    this.room(MAX_VARINT_BYTES);
    const buf = this.buf;
    let n = this.length;
    if (v < 0x80000000) {
      // Bit operations below 2^31 (nearly every value): `%` on a double is a call to fmod.
      while (v >= 0x80) {
        buf[n++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
    } else
      while (v >= 0x80) {
        buf[n++] = (v % 0x80) | 0x80;
        v = Math.floor(v / 0x80);
      }
    buf[n++] = v;
    this.length = n;
  }
  /** A signed integer (zig-zag varint). */
  svar(v: number): void {
    this.uvar(zigzag(v));
  }
  f64(v: number): void {
    this.room(8);
    this.buf.writeDoubleLE(v, this.length);
    this.length += 8;
  }
  /** Bytes as they are. */
  bytes(b: Uint8Array, from = 0, to = b.length): void {
    const len = to - from;
    this.room(len);
    const buf = this.buf;
    let n = this.length;
    // A loop for short fragments: set() is a call into C++ that costs more below ~16 bytes.
    if (len < 16) for (let k = from; k < to; k++) buf[n++] = b[k]!;
    else {
      buf.set(from === 0 && to === b.length ? b : b.subarray(from, to), n);
      n += len;
    }
    this.length = n;
  }
  /** A string known to be ASCII: one byte a character. */
  ascii(s: string): void {
    const len = s.length;
    this.room(len);
    const buf = this.buf;
    const n = this.length;
    for (let k = 0; k < len; k++) buf[n + k] = s.charCodeAt(k);
    this.length = n + len;
  }
  /** A string as UTF-8, without its length. */
  utf8(s: string): void {
    this.room(3 * s.length);
    this.length += this.buf.write(s, this.length, 'utf8');
  }
  /** A text: its UTF-8 length (varint), then its UTF-8 bytes (ByteReader.text reads it). */
  text(s: string): void {
    if (s.length < 0x80 && this.asciiText(s)) return;
    const n = Buffer.byteLength(s, 'utf8');
    this.uvar(n);
    this.room(n);
    this.buf.write(s, this.length, 'utf8');
    this.length += n;
  }
  /**
   * Writes a short string as text() would when it is ASCII, and says whether it was (else nothing is written).
   * Short texts (a title's rare word, a DOI) cost less in this loop than measured and written through Buffer's
   * calls into C++.
   */
  private asciiText(s: string): boolean {
    const len = s.length;
    this.room(len + 1);
    const buf = this.buf;
    const at = this.length + 1;
    for (let k = 0; k < len; k++) {
      const c = s.charCodeAt(k);
      if (c >= 0x80) return false;
      buf[at + k] = c;
    }
    buf[this.length] = len;
    this.length = at + len;
    return true;
  }
  /** The bytes written so far, not copied (valid until the next write or `reset`). */
  view(): Buffer {
    return this.buf.subarray(0, this.length);
  }
  /** The bytes written since `from`, copied into memory of their own (not a shared pool's: safe to transfer). */
  slice(from = 0): Buffer {
    const out = Buffer.allocUnsafeSlow(this.length - from);
    this.buf.copy(out, 0, from, this.length);
    return out;
  }
  /** The bytes written, copied, and the buffer emptied. */
  take(): Buffer {
    const out = this.slice(0);
    this.length = 0;
    return out;
  }
  reset(): void {
    this.length = 0;
  }
}

/**
 * Reads what a ByteBuffer wrote, bounded by `end`: every read past it throws a BytesError naming `source` and the
 * offset (`base`, where these bytes start in the source, plus the position). `pos` is open to callers that skip.
 */
export class ByteReader {
  pos: number;
  end: number;
  /** `buf` as a Buffer, made on first use (doubles and texts): most readers read varints only. */
  private node: Buffer | null = null;
  constructor(
    readonly buf: Uint8Array,
    /** What the bytes are, for errors: a file's path, or a table, row and column. */
    readonly source: string,
    /** Where `buf` starts in the source (a row's offset in its file). */
    readonly base = 0,
    pos = 0,
    end = buf.length,
  ) {
    this.pos = pos;
    this.end = end;
  }
  /** Throws a BytesError at `at` (by default the current position). */
  fail(what: string, at = this.pos): never {
    throw new BytesError(this.source, this.base + at, what);
  }
  byte(): number {
    if (this.pos >= this.end) this.fail('the bytes end where a byte was expected');
    return this.buf[this.pos++]!;
  }
  /** An unsigned varint. */
  uvar(): number {
    // One and two bytes inline (nearly every value of a list's gaps and counts); longer ones in longVar.
    const p = this.pos;
    const buf = this.buf;
    if (p + 1 < this.end) {
      const b = buf[p]!;
      if (b < 0x80) {
        this.pos = p + 1;
        return b;
      }
      const c = buf[p + 1]!;
      if (c < 0x80) {
        this.pos = p + 2;
        return (b & 0x7f) | (c << 7);
      }
    } else if (p < this.end && buf[p]! < 0x80) {
      this.pos = p + 1;
      return buf[p]!;
    }
    return this.longVar();
  }
  /** A varint of more than one byte (or none left). */
  private longVar(): number {
    const buf = this.buf;
    const start = this.pos;
    const last = Math.min(this.end, start + MAX_VARINT_BYTES);
    let v = 0;
    let mul = 1;
    for (let p = start; p < last; p++) {
      const b = buf[p]!;
      v += (b & 0x7f) * mul;
      if (b < 0x80) {
        if (v > Number.MAX_SAFE_INTEGER) this.fail('a varint above 2^53', start);
        this.pos = p + 1;
        return v;
      }
      mul *= 0x80;
    }
    return this.fail(
      last === this.end && last - start < MAX_VARINT_BYTES ? 'a varint runs past the end' : `a varint longer than ${MAX_VARINT_BYTES} bytes`,
      start,
    );
  }
  /** A signed (zig-zag) varint. */
  svar(): number {
    return unzigzag(this.uvar());
  }
  /** Passes over a varint (signed or not). */
  skipVar(): void {
    this.uvar();
  }
  /** A count of things each at least `each` bytes long that follow: a varint no larger than the bytes left allow. */
  count(each = 1): number {
    const at = this.pos;
    const n = this.uvar();
    if (n * each > this.end - this.pos) this.fail(`a count of ${n} runs past the end (${this.end - this.pos} bytes left)`, at);
    return n;
  }
  /** Passes over `n` bytes and gives where they start. */
  skip(n: number): number {
    const at = this.pos;
    if (n > this.end - at) this.fail(`${n} bytes run past the end (${this.end - at} left)`);
    this.pos = at + n;
    return at;
  }
  f64(): number {
    return this.nodeBuffer().readDoubleLE(this.skip(8));
  }
  /** A text (its varint length, then its UTF-8). */
  text(): string {
    const n = this.uvar();
    const at = this.skip(n);
    return this.nodeBuffer().toString('utf8', at, at + n);
  }
  /** Passes over a text. */
  skipText(): void {
    this.skip(this.uvar());
  }
  private nodeBuffer(): Buffer {
    const b = this.buf;
    return (this.node ??= Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  }
  /** Throws unless every byte was read. */
  done(): void {
    if (this.pos !== this.end) this.fail(`${this.end - this.pos} bytes left over at the end`);
  }
}

/** The number of set bits of a 32-bit word. */
export function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) | 0;
}

/**
 * A set of indexes 0 … size − 1 as one bit each (bit i of word i >>> 5), with the number of set bits before each
 * word, so the rank of a member (its position among the members in ascending order) is
 * `before[i >>> 5] + popcount(bits below it)`: a sorted list's entry for a member found without a search.
 */
export class RankBitset {
  private constructor(
    readonly words: Uint32Array,
    readonly before: Int32Array,
  ) {}
  /** The bitset of `members` (ascending or not, each below `size`). */
  static of(members: ArrayLike<number>, size: number): RankBitset {
    const words = new Uint32Array((size + 31) >>> 5);
    for (let k = 0; k < members.length; k++) words[members[k]! >>> 5]! |= 1 << (members[k]! & 31);
    const before = new Int32Array(words.length);
    for (let w = 0, n = 0; w < words.length; w++) {
      before[w] = n;
      n += popcount(words[w]!);
    }
    return new RankBitset(words, before);
  }
  has(i: number): boolean {
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
  /** Members below `i`: a member's position in the ascending list. */
  rank(i: number): number {
    return this.before[i >>> 5]! + popcount(this.words[i >>> 5]! & ((1 << (i & 31)) - 1));
  }
  get byteLength(): number {
    return this.words.byteLength + this.before.byteLength;
  }
}

/** Element types of typed columns, by the name a layout gives them (a file's extension, a format's type). */
export const TYPED_ARRAYS = {
  u8: Uint8Array,
  i8: Int8Array,
  u16: Uint16Array,
  i16: Int16Array,
  u32: Uint32Array,
  i32: Int32Array,
  f64: Float64Array,
} as const;
export type TypedName = keyof typeof TYPED_ARRAYS;
export type TypedArrayOf<T extends TypedName> = InstanceType<(typeof TYPED_ARRAYS)[T]>;
export type TypedColumn = TypedArrayOf<TypedName>;

/** True on a little-endian platform, the byte order typed columns are stored in. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Throws unless the platform is little-endian (typed columns are read as they are stored). */
export function assertLittleEndian(source: string): void {
  if (!LITTLE_ENDIAN) throw new BytesError(source, 0, 'stored little-endian; this platform is not');
}

/**
 * A typed column over `byteLength` bytes of `buffer` from `byteOffset` (no copy; the offset must be a multiple of
 * the element size). A length that is not a whole number of elements is a BytesError naming `source`.
 */
export function typedColumn<T extends TypedName>(
  type: T,
  buffer: ArrayBuffer,
  source: string,
  byteOffset = 0,
  byteLength = buffer.byteLength - byteOffset,
): TypedArrayOf<T> {
  assertLittleEndian(source);
  const Ctor = TYPED_ARRAYS[type];
  const size = Ctor.BYTES_PER_ELEMENT;
  if (byteLength % size !== 0) throw new BytesError(source, byteLength - (byteLength % size), `${byteLength} bytes is not a whole number of ${type} values`);
  return new Ctor(buffer, byteOffset, byteLength / size) as TypedArrayOf<T>;
}

/** A typed array's own bytes (a view, not a copy), as a column stores them. */
export const columnBytes = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
