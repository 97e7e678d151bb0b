/** Worker-thread entry of the builder's pool: maps one partition per task (partition.ts), reporting progress. */
import { parentPort } from 'node:worker_threads';
import type { PartitionFile } from './layout.ts';
import { readPartition } from './partition.ts';
import type { RuleLists } from '../../contracts/frame/rules-sql.ts';

export interface PartitionTask {
  file: PartitionFile;
  dir: string;
  rules: RuleLists & { fingerprint: string };
}

parentPort!.on('message', (task: PartitionTask & { id: number }) => {
  // Bytes read so far, for the progress bar (at most every 200 ms: a message per MiB would be noise).
  let last = 0;
  const onBytes = (bytes: number) => {
    const now = performance.now();
    if (now - last < 200) return;
    last = now;
    parentPort!.postMessage({ id: task.id, progress: bytes });
  };
  readPartition(task.file, task.dir, task.rules, onBytes).then(
    (result) => parentPort!.postMessage({ id: task.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
