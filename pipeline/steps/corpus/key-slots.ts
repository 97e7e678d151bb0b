/**
 * Open addressing over 32-byte keys (sha256s) held in one byte array, slot after slot: the probe shared by the
 * extraction cache's index (cache-index.ts) and the set of document keys a build used (doc-key-set.ts).
 */
export const KEY_BYTES = 32;

/**
 * The slot holding `key`, or the empty slot where it would go: linear probing from a start taken from the key's
 * first four bytes (a sha256's bytes are as good a hash as any). `occupied[i] === empty` marks an empty slot; its
 * length (a power of two) is the table's size, and the table is never full.
 */
export function keySlot(keys: Uint8Array, occupied: Int32Array | Uint8Array, empty: number, key: Uint8Array): number {
  const mask = occupied.length - 1;
  let i = (key[0]! | (key[1]! << 8) | (key[2]! << 16) | (key[3]! << 24)) & mask;
  for (;;) {
    if (occupied[i] === empty) return i;
    const at = i * KEY_BYTES;
    let k = 0;
    while (k < KEY_BYTES && keys[at + k] === key[k]) k++;
    if (k === KEY_BYTES) return i;
    i = (i + 1) & mask;
  }
}
