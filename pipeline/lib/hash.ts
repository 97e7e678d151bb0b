/** Streamed SHA-256 of a file (hex). */
import { createHash, hash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';

/** `onBytes` hears how many bytes are hashed so far. */
export async function sha256File(path: string, onBytes?: (bytes: number) => void): Promise<string> {
  const hash = createHash('sha256');
  let read = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 4 << 20 })) {
    hash.update(chunk as Buffer);
    onBytes?.((read += (chunk as Buffer).length));
  }
  return hash.digest('hex');
}

/** SHA-256 of a text or bytes (hex): one-shot `crypto.hash`, about twice as fast as a Hash object for short inputs. */
export function sha256Text(text: string | Buffer): string {
  return hash('sha256', text, 'hex');
}

/** SHA-256 of a file read in 4 MiB pieces, synchronously (for `--if-stale`, which is): never the whole file in memory. */
export function sha256FileSync(path: string): string {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(4 << 20);
  const fd = openSync(path, 'r');
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
