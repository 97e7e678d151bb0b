/** Worker-thread entry for the record encoding of step 3b (records-encode.ts). */
import { parentPort } from 'node:worker_threads';
import { type EncodeTask, encodeWorks } from './records-encode.ts';

parentPort!.on('message', (task: EncodeTask & { id: number }) => {
  try {
    parentPort!.postMessage({ id: task.id, result: encodeWorks(task) });
  } catch (err) {
    parentPort!.postMessage({ id: task.id, error: String((err as Error).stack ?? err) });
  }
});
