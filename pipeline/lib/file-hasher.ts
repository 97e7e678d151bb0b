/**
 * Files' sha256s taken in a worker thread (file-hasher-worker.ts), in the order given, while the caller goes on:
 * each is asked for when it is needed (`get`). The corpus step hashes its inputs so (issue 21 session 27: 0.3–0.5 s
 * of 200 MB of packages, on a rebuild's critical path, before anything else could start, while the second core
 * was still loading the rebuild worker's code). Should the thread fail, a file is hashed here when asked for.
 */
import type { Worker } from 'node:worker_threads';
import { sha256FileSync } from './hash.ts';
import { spawnTsWorker } from './spawn-ts-worker.ts';

export class FileHasher {
  private readonly worker: Worker;
  private readonly answers = new Map<string, Promise<string | null>>();
  private readonly resolvers = new Map<string, (sha: string | null) => void>();

  /** Starts hashing `paths` (absolute), in this order. */
  constructor(paths: readonly string[]) {
    for (const path of paths) this.answers.set(path, new Promise((resolve) => this.resolvers.set(path, resolve)));
    this.worker = spawnTsWorker(new URL('./file-hasher-worker.ts', import.meta.url), { paths: [...paths] });
    this.worker.on('message', (m: { path: string; sha256: string | null }) => this.answer(m.path, m.sha256));
    // Whatever stops it, the files it has not hashed are hashed by `get`.
    this.worker.on('error', () => this.release());
    this.worker.on('exit', () => this.release());
  }

  /** Answers every file not hashed yet with null (`get` hashes it). */
  private release(): void {
    for (const path of [...this.resolvers.keys()]) this.answer(path, null);
  }

  private answer(path: string, sha: string | null): void {
    this.resolvers.get(path)?.(sha);
    this.resolvers.delete(path);
  }

  /** The sha256 (hex) of `path`: the thread's, or taken here when it could not (or `path` was not given). */
  async get(path: string): Promise<string> {
    return (await this.answers.get(path)) ?? sha256FileSync(path);
  }

  /** Stops the thread (its work done or not wanted). */
  async close(): Promise<void> {
    await this.worker.terminate();
    this.release();
  }
}
