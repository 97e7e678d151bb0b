/**
 * The extraction cache's index (extraction-cache.ts) held in typed arrays: per entry its key (a sha256, 32
 * bytes), its segment, offset, length and summary length, and whether this run used it, in one open-addressing
 * hash table. About 55 bytes an entry at the table's fullest, ~110 at its emptiest, against ~370 bytes as a `Map`
 * of hex strings to objects with a `Set` of the keys used and a second `Map` memoising each article's key (peak
 * RSS flat with input size; 100,000 articles hold ~37 MB in those, 5 million would hold ~1.8 GB).
 */
/** A key's bytes (a sha256). */
const KEY_BYTES = 32;

export interface Located {
  segment: string;
  offset: number;
  length: number;
  /** Bytes of the summary and the tab after it at the start of the line; 0: unknown (or no summary). */
  summary: number;
}

const EMPTY = -1;

export class CacheIndex {
  private segmentNames: string[] = [];
  private readonly segmentIds = new Map<string, number>();
  private keys!: Uint8Array;
  /** Per slot: its segment's id, or EMPTY. */
  private segment!: Int32Array;
  private offset!: Float64Array;
  private length!: Int32Array;
  private summary!: Int32Array;
  private used!: Uint8Array;
  private mask!: number;
  private count = 0;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.allocate(size);
  }

  /** Empty slots for `size` entries (a power of two). */
  private allocate(size: number): void {
    this.mask = size - 1;
    this.keys = new Uint8Array(size * KEY_BYTES);
    this.segment = new Int32Array(size).fill(EMPTY);
    this.offset = new Float64Array(size);
    this.length = new Int32Array(size);
    this.summary = new Int32Array(size);
    this.used = new Uint8Array(size);
  }

  get size(): number {
    return this.count;
  }

  /** Makes room for `entries` in all without growing (a run's indexes are read at once). */
  reserve(entries: number): void {
    while (entries * 4 > (this.mask + 1) * 3) this.grow();
  }

  /**
   * The slot holding `key` (32 bytes), or the empty slot where it would go: linear probing from a start taken from
   * the key's first four bytes (a sha256's bytes are as good a hash as any); the table is never full.
   */
  private slot(key: Uint8Array): number {
    const { keys, segment, mask } = this;
    let i = (key[0]! | (key[1]! << 8) | (key[2]! << 16) | (key[3]! << 24)) & mask;
    for (;;) {
      if (segment[i] === EMPTY) return i;
      const at = i * KEY_BYTES;
      let k = 0;
      while (k < KEY_BYTES && keys[at + k] === key[k]) k++;
      if (k === KEY_BYTES) return i;
      i = (i + 1) & mask;
    }
  }

  get(key: Uint8Array): Located | undefined {
    const i = this.slot(key);
    if (this.segment[i] === EMPTY) return undefined;
    return { segment: this.segmentNames[this.segment[i]!]!, offset: this.offset[i]!, length: this.length[i]!, summary: this.summary[i]! };
  }

  has(key: Uint8Array): boolean {
    return this.segment[this.slot(key)] !== EMPTY;
  }

  /** Adds or replaces the entry of `key`; a replaced entry keeps its used mark and its slot. */
  set(key: Uint8Array, at: Located): void {
    let i = this.slot(key);
    if (this.segment[i] === EMPTY) {
      // Only a new key grows the table (so `entries` may be walked while existing entries are moved).
      if ((this.count + 1) * 4 > (this.mask + 1) * 3) {
        this.grow();
        i = this.slot(key);
      }
      this.count++;
      this.keys.set(key.subarray(0, KEY_BYTES), i * KEY_BYTES);
    }
    let seg = this.segmentIds.get(at.segment);
    if (seg === undefined) {
      seg = this.segmentNames.push(at.segment) - 1;
      this.segmentIds.set(at.segment, seg);
    }
    this.segment[i] = seg;
    this.offset[i] = at.offset;
    this.length[i] = at.length;
    this.summary[i] = at.summary;
  }

  markUsed(key: Uint8Array): void {
    const i = this.slot(key);
    if (this.segment[i] !== EMPTY) this.used[i] = 1;
  }

  isUsed(key: Uint8Array): boolean {
    const i = this.slot(key);
    return this.segment[i] !== EMPTY && this.used[i] === 1;
  }

  /** Every entry: its key (a view, valid until the next `set`), where it is, and whether this run used it. */
  *entries(): Generator<[key: Uint8Array, at: Located, used: boolean]> {
    for (let i = 0; i <= this.mask; i++)
      if (this.segment[i] !== EMPTY)
        yield [
          this.keys.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES),
          { segment: this.segmentNames[this.segment[i]!]!, offset: this.offset[i]!, length: this.length[i]!, summary: this.summary[i]! },
          this.used[i] === 1,
        ];
  }

  private grow(): void {
    const old = {
      keys: this.keys,
      segment: this.segment,
      offset: this.offset,
      length: this.length,
      summary: this.summary,
      used: this.used,
      size: this.mask + 1,
    };
    this.allocate(old.size * 2);
    for (let j = 0; j < old.size; j++) {
      if (old.segment[j] === EMPTY) continue;
      const key = old.keys.subarray(j * KEY_BYTES, (j + 1) * KEY_BYTES);
      const i = this.slot(key);
      this.keys.set(key, i * KEY_BYTES);
      this.segment[i] = old.segment[j]!;
      this.offset[i] = old.offset[j]!;
      this.length[i] = old.length[j]!;
      this.summary[i] = old.summary[j]!;
      this.used[i] = old.used[j]!;
    }
  }
}
