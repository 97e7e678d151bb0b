/**
 * Every byte of a build is checked before it is served: one byte flipped (same size) in any file of a fixture
 * build, binary or JSON, frame or corpus, makes the load that start-up and every reload run refuse the build,
 * naming that file. The oracle is the list of files on disk, independent of the manifest the server reads.
 */
import { closeSync, openSync, readdirSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Build, BuildLoadError } from '../../api-dynamic/src/services/build-store.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';

const tmp = tempDir('build-verify');
let dir: string;
beforeAll(async () => {
  const snapshot = await fixtureSnapshot(tmp.path, { works: 300, articles: 20 });
  dir = (await fixtureBuild(snapshot, join(tmp.path, 'out'), true)).buildDir;
}, 180_000);
afterAll(() => tmp.remove());

/** Every file of the build the server reads: all but the manifest and the per-work documents. */
function servedFiles(): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((rel) => rel !== 'manifest.json' && !rel.startsWith('frame/api/v1/works/') && !rel.startsWith('.serving-'))
    .sort();
}

/** Inverts the byte in the middle of a file; calling it again restores the file. */
function flipByte(path: string, size: number): void {
  const fd = openSync(path, 'r+');
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size >> 1);
    b[0] = ~b[0]! & 0xff;
    writeSync(fd, b, 0, 1, size >> 1);
  } finally {
    closeSync(fd);
  }
}

/**
 * What Build.load (start-up and every reload) throws, or null. `corpus: false` leaves the corpus database closed,
 * as for a retained build, to save time: every file is checked either way.
 */
async function loadError(corpus = true): Promise<unknown> {
  try {
    const build = await Build.load(dir, { corpus });
    build.retire();
    return null;
  } catch (err) {
    return err;
  }
}

describe('a build is refused when any of its bytes changed', () => {
  it('loads untouched', async () => {
    expect(await loadError()).toBeNull();
  });

  it('a byte flipped in any file: refused, naming the file', async () => {
    const files = servedFiles();
    // The build has binary and JSON files of the frame and the corpus, and the per-work index.
    for (const part of ['frame/cohort/flags.u8', 'frame/frame.duckdb', 'frame/api/v1/works.sha256', 'frame/api/v1/stats/summary.json'])
      expect(files).toContain(part);
    expect(files.some((f) => f.startsWith('corpus/') && !f.endsWith('.json'))).toBe(true);
    for (const rel of files) {
      const size = statSync(join(dir, rel)).size;
      if (size === 0) continue;
      flipByte(join(dir, rel), size);
      try {
        const err = await loadError(false);
        expect(err, rel).toBeInstanceOf(BuildLoadError);
        expect((err as Error).message, rel).toContain(`${join(dir, rel)} does not match its checksum`);
      } finally {
        flipByte(join(dir, rel), size);
      }
    }
    expect(await loadError()).toBeNull();
  }, 300_000);

  it('a file the manifest does not list: refused, naming it', async () => {
    const extra = join(dir, 'frame/cohort/extra.u32');
    writeFileSync(extra, 'x');
    try {
      expect(((await loadError()) as Error).message).toContain(`${extra} is not listed in the manifest`);
    } finally {
      rmSync(extra);
    }
  });
});
