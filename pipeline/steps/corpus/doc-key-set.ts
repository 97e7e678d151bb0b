/**
 * The set of stored documents' keys a build used (previous-build.ts): each key is an article's key (a sha256 in
 * hex) and the version of the documents' meta, `<64 hex digits>-<version>`. Held as 32 bytes a key in an
 * open-addressing table per version instead of a `Set` of strings (issue 21 session 25: ~120 bytes a key, 16 MiB
 * of JS heap at 100,000 articles, alive from the documents to the end of the step). Any other text is kept as it is.
 */
import { KEY_BYTES, keySlot } from './key-slots.ts';

const HEX_KEY = /^([0-9a-f]{64})-(.+)$/;

/** 32-byte keys in one open-addressing table (linear probing, at most 3/4 full). */
class KeyTable {
  private keys = new Uint8Array(KEY_BYTES * 1024);
  private filled = new Uint8Array(1024);
  private count = 0;

  add(key: Uint8Array): void {
    if ((this.count + 1) * 4 > this.filled.length * 3) this.grow();
    const i = this.slot(key);
    if (this.filled[i] === 1) return;
    this.keys.set(key, i * KEY_BYTES);
    this.filled[i] = 1;
    this.count++;
  }

  has(key: Uint8Array): boolean {
    return this.filled[this.slot(key)] === 1;
  }

  private slot(key: Uint8Array): number {
    return keySlot(this.keys, this.filled, 0, key);
  }

  private grow(): void {
    const { keys, filled } = this;
    this.keys = new Uint8Array(keys.length * 2);
    this.filled = new Uint8Array(filled.length * 2);
    this.count = 0;
    for (let j = 0; j < filled.length; j++) if (filled[j] === 1) this.add(keys.subarray(j * KEY_BYTES, (j + 1) * KEY_BYTES));
  }
}

export class DocKeySet {
  private readonly byVersion = new Map<string, KeyTable>();
  private readonly other = new Set<string>();

  add(docKey: string): void {
    const m = HEX_KEY.exec(docKey);
    if (!m) return void this.other.add(docKey);
    let table = this.byVersion.get(m[2]!);
    if (!table) this.byVersion.set(m[2]!, (table = new KeyTable()));
    table.add(Buffer.from(m[1]!, 'hex'));
  }

  has(docKey: string): boolean {
    const m = HEX_KEY.exec(docKey);
    if (!m) return this.other.has(docKey);
    return this.byVersion.get(m[2]!)?.has(Buffer.from(m[1]!, 'hex')) ?? false;
  }
}
