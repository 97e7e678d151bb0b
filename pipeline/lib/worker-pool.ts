/**
 * A small pool of worker threads running one TypeScript module (through tsx) that answers
 * `{id, result}` or `{id, error}` for each task it is sent, and may send `{id, progress}` while it works
 * (handed to the task's `onProgress`).
 */
import type { Worker } from 'node:worker_threads';
import { spawnTsWorker } from './spawn-ts-worker.ts';

export class WorkerPool<T, R> {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private nextId = 0;
  private closing = false;

  constructor(
    private readonly moduleUrl: URL,
    size: number,
  ) {
    for (let k = 0; k < size; k++) {
      const w = spawnTsWorker(moduleUrl);
      w.unref();
      this.idle.push(w);
      this.all.push(w);
    }
  }

  async run(task: T, onProgress?: (progress: unknown) => void): Promise<R> {
    while (this.idle.length === 0) await new Promise<void>((r) => this.waiting.push(r));
    let worker = this.idle.pop()!;
    const id = this.nextId++;
    try {
      return await new Promise<R>((resolve, reject) => {
        const cleanup = () => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        const onMessage = (m: { id: number; result?: R; error?: string; progress?: unknown }) => {
          if (m.id !== id) return;
          if (m.progress !== undefined && m.result === undefined && m.error === undefined) {
            onProgress?.(m.progress);
            return;
          }
          cleanup();
          if (m.error !== undefined) reject(new Error(m.error));
          else resolve(m.result as R);
        };
        // A worker that crashed or exited cannot answer: fail the task and replace the worker.
        const onError = (err: Error) => {
          cleanup();
          // While closing, workers end on purpose: nothing to replace.
          if (!this.closing) worker = this.replace(worker);
          reject(err);
        };
        const onExit = (code: number) => onError(new Error(`worker thread exited with code ${code}`));
        worker.on('message', onMessage);
        worker.once('error', onError);
        worker.once('exit', onExit);
        worker.postMessage({ ...task, id });
      });
    } finally {
      this.idle.push(worker);
      this.waiting.shift()?.();
    }
  }

  private replace(dead: Worker): Worker {
    void dead.terminate();
    const fresh = spawnTsWorker(this.moduleUrl);
    fresh.unref();
    this.all[this.all.indexOf(dead)] = fresh;
    return fresh;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}
