/**
 * A list of sha256 hashes (or nulls) held as 32 bytes each in one growable buffer, given and read back as hex
 * (peak RSS flat with input size; a hex string costs ~80 bytes of heap and a slot in an array, and the
 * corpus step holds two per article, its bytes' hash and its key, from extraction to the end of the build).
 */
const HASH = 32;
/** Any character that is not a lower-case hex digit (Buffer's hex decoder alone takes upper case, and in Node 20
 * reads only the low byte of each UTF-16 unit, so "İ" (U+0130) would pass as "0"). */
const NOT_HEX = /[^0-9a-f]/;

export class HashList {
  private bytes = Buffer.alloc(HASH * 1024);
  private present = new Uint8Array(1024);
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** Appends a hash (64 lower-case hex digits) or null. */
  push(hex: string | null): void {
    this.grow();
    this.write(this.count, hex);
    this.count++;
  }

  /** Appends `other`'s hash at `i` (or null), as bytes: no text made, nothing to check again. */
  pushFrom(other: HashList, i: number): void {
    if (i < 0 || i >= other.count) throw new RangeError(`hash ${i} of ${other.count}`);
    this.grow();
    other.bytes.copy(this.bytes, this.count * HASH, i * HASH, (i + 1) * HASH);
    this.present[this.count++] = other.present[i]!;
  }

  private grow(): void {
    if (this.count === this.present.length) {
      const bytes = Buffer.alloc(this.bytes.length * 2);
      this.bytes.copy(bytes);
      this.bytes = bytes;
      const present = new Uint8Array(this.present.length * 2);
      present.set(this.present);
      this.present = present;
    }
  }

  /** Replaces the hash at `i` (one already pushed) with a hash or null. */
  set(i: number, hex: string | null): void {
    if (i < 0 || i >= this.count) throw new RangeError(`hash ${i} of ${this.count}`);
    // Checked before the slot is touched (a refused text must not leave half a hash in a slot in use).
    if (hex !== null && !/^[0-9a-f]{64}$/.test(hex)) throw new Error(`not a sha256 in hex: ${hex.slice(0, 80)}`);
    this.write(i, hex);
  }

  /**
   * Writes slot `i` (within the buffers; a refused text may leave bytes in it, so `push` writes the slot after the
   * last and counts it only then): 64 characters, none but a lower-case hex digit (one unanchored character class:
   * an anchored, counted expression is slower, and this runs for every article of a rebuild).
   */
  private write(i: number, hex: string | null): void {
    if (hex !== null && (hex.length !== 2 * HASH || this.bytes.write(hex, i * HASH, HASH, 'hex') !== HASH || NOT_HEX.test(hex)))
      throw new Error(`not a sha256 in hex: ${hex.slice(0, 80)}`);
    this.present[i] = hex === null ? 0 : 1;
  }

  get(i: number): string | null {
    if (i < 0 || i >= this.count) throw new RangeError(`hash ${i} of ${this.count}`);
    return this.present[i] === 1 ? this.bytes.toString('hex', i * HASH, (i + 1) * HASH) : null;
  }

  static from(hexes: Iterable<string | null>): HashList {
    const list = new HashList();
    for (const h of hexes) list.push(h);
    return list;
  }
}
