/**
 * Files hashed by a thread of their own (pipeline/lib/file-hasher.ts) give the sha256s the main thread would
 * (sha256FileSync, the oracle), in any order asked; a file the thread cannot read, or any file once the thread is
 * gone, is hashed by the caller, so the error is the caller's to meet.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileHasher } from '../../pipeline/lib/file-hasher.ts';
import { sha256FileSync } from '../../pipeline/lib/hash.ts';
import { tempDir } from '../helpers/fixture-build.ts';

const tmp = tempDir('file-hasher');
afterAll(tmp.remove);

describe('FileHasher', () => {
  it('gives each file its sha256, asked in any order, and hashes here what it could not or was not given', async () => {
    const paths = Array.from({ length: 6 }, (_, i) => join(tmp.path, `f${i}`));
    paths.forEach((p, i) => writeFileSync(p, Buffer.alloc(i * 3_000_000 + 1, i)));
    const missing = join(tmp.path, 'missing');
    const hasher = new FileHasher([...paths, missing]);
    try {
      for (const p of [...paths].reverse()) expect(await hasher.get(p)).toBe(sha256FileSync(p));
      await expect(hasher.get(missing)).rejects.toThrow(/ENOENT/);
      const extra = join(tmp.path, 'extra');
      writeFileSync(extra, 'not in the list');
      expect(await hasher.get(extra)).toBe(sha256FileSync(extra));
    } finally {
      await hasher.close();
    }
  });

  it('hashes here once its thread is gone', async () => {
    const p = join(tmp.path, 'late');
    writeFileSync(p, 'x'.repeat(1000));
    const hasher = new FileHasher([p]);
    await hasher.close();
    expect(await hasher.get(p)).toBe(sha256FileSync(p));
  });
});
