/**
 * Every byte of a build checked before it is served: each file the manifest lists has its size and sha256
 * (binary files included), and the build holds no file the manifest does not list, apart from the servers'
 * marker files and the per-work documents (the server never reads those; their index, which is listed, hashes
 * each one). The frozen JSON files (below 64 MiB) are read and hashed in this thread, since they are kept in
 * memory anyway; the other files are hashed in worker threads, shared out by size, so that the check costs the
 * largest file's hash or the total over the threads, whichever is longer (docs/decisions.md).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type BuildManifest, manifestFiles } from '../../../contracts/common/build-manifest.ts';

/** A build that differs from its manifest, or cannot be read. */
export class BuildLoadError extends Error {}

/** JSON files below this size are served from memory (frozen), read and hashed here; larger ones are not. */
const FROZEN_BELOW = 64 << 20;
const HASH_THREADS = Math.min(4, availableParallelism());
const WORKER = new URL('./sha256-worker.mjs', import.meta.url);

type Listed = [rel: string, entry: BuildManifest['files'][string]];

const mismatch = (path: string, expected: string, found: string) =>
  new BuildLoadError(
    `${path} does not match its checksum in the manifest (sha256 ${found}, manifest ${expected}): the build was changed after it was made; rebuild with npm run pipeline`,
  );

/**
 * Checks the build in `dir` against `manifest`; resolves to the bytes of its frozen JSON files, by path, as
 * checked. Everything but the worker threads' hashing happens before the first await, so a caller can load the
 * build in this thread while they run.
 */
export async function verifyBuild(dir: string, manifest: BuildManifest): Promise<Map<string, Buffer>> {
  const unlisted = manifestFiles(dir, manifest.work_documents.directory).find((rel) => !(rel in manifest.files));
  if (unlisted !== undefined)
    throw new BuildLoadError(`${join(dir, unlisted)} is not listed in the manifest: the build was changed after it was made; rebuild with npm run pipeline`);
  const json: Listed[] = [];
  const binary: Listed[] = [];
  for (const [rel, entry] of Object.entries(manifest.files)) {
    const path = join(dir, rel);
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      throw new BuildLoadError(`${path} is listed in the manifest but missing`);
    }
    if (size !== entry.bytes) throw new BuildLoadError(`${path} has the wrong size (${size} bytes, manifest: ${entry.bytes})`);
    (rel.endsWith('.json') && entry.bytes < FROZEN_BELOW ? json : binary).push([rel, entry]);
  }
  const hashed = hashInWorkers(dir, binary);
  hashed.catch(() => undefined);
  const bodies = new Map<string, Buffer>();
  for (const [rel, entry] of json) {
    const body = readFileSync(join(dir, rel));
    const sha256 = createHash('sha256').update(body).digest('hex');
    if (sha256 !== entry.sha256) throw mismatch(join(dir, rel), entry.sha256, sha256);
    bodies.set(rel, body);
  }
  await hashed;
  return bodies;
}

/**
 * Hashes `files` in up to HASH_THREADS worker threads, each sent its whole share at once (largest file to the
 * least loaded thread), so the threads go on while this one is busy; throws for a file that differs.
 */
async function hashInWorkers(dir: string, files: Listed[]): Promise<void> {
  const shares = Array.from({ length: Math.min(HASH_THREADS, files.length) }, () => ({ bytes: 0, files: [] as Listed[] }));
  for (const f of files.sort((a, b) => b[1].bytes - a[1].bytes)) {
    const least = shares.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    least.bytes += f[1].bytes;
    least.files.push(f);
  }
  await Promise.all(
    shares.map(async (share) => {
      const worker = new Worker(WORKER);
      try {
        const results = await new Promise<{ sha256?: string; bytes?: number; error?: string }[]>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage(share.files.map(([rel]) => join(dir, rel)));
        });
        share.files.forEach(([rel, entry], k) => {
          const got = results[k]!;
          const path = join(dir, rel);
          if (got.error !== undefined) throw new BuildLoadError(`${path} cannot be read: ${got.error}`);
          if (got.sha256 !== entry.sha256 || got.bytes !== entry.bytes) throw mismatch(path, entry.sha256, got.sha256!);
        });
      } finally {
        await worker.terminate();
      }
    }),
  );
}
