/** Worker-thread entry of the builder's pool: reads one partition per task (partition.ts). */
import { parentPort } from 'node:worker_threads';
import { routeRules } from '../../contracts/frame/route-rules.ts';
import type { PartitionFile } from './layout.ts';
import { readPartition } from './partition.ts';

export interface PartitionTask {
  file: PartitionFile;
  dir: string;
  lists: { funders: { id: string }[]; sources: { id: string }[]; route_version: string };
  excludeXpac: boolean;
  fingerprint: string;
}

parentPort!.on('message', (task: PartitionTask & { id: number }) => {
  const rules = routeRules(task.lists);
  readPartition(task.file, task.dir, { rules, excludeXpac: task.excludeXpac, fingerprint: task.fingerprint }).then(
    (result) => parentPort!.postMessage({ id: task.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: task.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
