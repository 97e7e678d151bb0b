/**
 * A list of sha256 hashes (or nulls) held as 32 bytes each in one growable buffer, given and read back as hex
 * (issue 21: peak RSS flat with input size; a hex string costs ~80 bytes of heap and a slot in an array, and the
 * corpus step holds two per article, its bytes' hash and its key, from extraction to the end of the build).
 */
const HASH = 32;

export class HashList {
  private bytes = new Uint8Array(HASH * 1024);
  private present = new Uint8Array(1024);
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** Appends a hash (64 hex digits) or null. */
  push(hex: string | null): void {
    if (hex !== null && !/^[0-9a-f]{64}$/.test(hex)) throw new Error(`not a sha256 in hex: ${hex.slice(0, 80)}`);
    this.grow();
    this.write(this.count++, hex);
  }

  /** Appends `other`'s hash at `i` (or null), as bytes: no text made, nothing to check again. */
  pushFrom(other: HashList, i: number): void {
    if (i < 0 || i >= other.count) throw new RangeError(`hash ${i} of ${other.count}`);
    this.grow();
    this.bytes.set(other.bytes.subarray(i * HASH, (i + 1) * HASH), this.count * HASH);
    this.present[this.count++] = other.present[i]!;
  }

  private grow(): void {
    if (this.count === this.present.length) {
      const bytes = new Uint8Array(this.bytes.length * 2);
      bytes.set(this.bytes);
      this.bytes = bytes;
      const present = new Uint8Array(this.present.length * 2);
      present.set(this.present);
      this.present = present;
    }
  }

  /** Replaces the hash at `i` (one already pushed) with a hash or null. */
  set(i: number, hex: string | null): void {
    if (i < 0 || i >= this.count) throw new RangeError(`hash ${i} of ${this.count}`);
    if (hex !== null && !/^[0-9a-f]{64}$/.test(hex)) throw new Error(`not a sha256 in hex: ${hex.slice(0, 80)}`);
    this.write(i, hex);
  }

  private write(i: number, hex: string | null): void {
    if (hex !== null) Buffer.from(this.bytes.buffer, this.bytes.byteOffset + i * HASH, HASH).write(hex, 'hex');
    this.present[i] = hex === null ? 0 : 1;
  }

  get(i: number): string | null {
    if (i < 0 || i >= this.count) throw new RangeError(`hash ${i} of ${this.count}`);
    return this.present[i] === 1 ? Buffer.from(this.bytes.buffer, this.bytes.byteOffset + i * HASH, HASH).toString('hex') : null;
  }

  static from(hexes: Iterable<string | null>): HashList {
    const list = new HashList();
    for (const h of hexes) list.push(h);
    return list;
  }
}
