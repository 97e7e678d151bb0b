/** Starts a worker thread that runs a TypeScript module (see ./ts-worker.mjs). */
import { Worker } from 'node:worker_threads';

export function spawnTsWorker(entry: URL, data: Record<string, unknown> = {}): Worker {
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), {
    workerData: { ...data, entry: entry.href },
  });
}
