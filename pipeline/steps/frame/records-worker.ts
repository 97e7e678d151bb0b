/** Worker-thread entry for step 3b (records-encode.ts): one read-only connection to the frame database per worker. */
import { parentPort } from 'node:worker_threads';
import { type Duck, openDuck } from '../../lib/duckdb.ts';
import { type EncodeTask, encodeRange } from './records-encode.ts';

let duck: Promise<Duck> | null = null;

parentPort!.on('message', async (task: EncodeTask & { id: number; dbPath: string }) => {
  try {
    duck ??= openDuck(task.dbPath, { access_mode: 'READ_ONLY', threads: '1', memory_limit: '400MB' });
    parentPort!.postMessage({ id: task.id, result: await encodeRange(await duck, task) });
  } catch (err) {
    parentPort!.postMessage({ id: task.id, error: String((err as Error).stack ?? err) });
  }
});
