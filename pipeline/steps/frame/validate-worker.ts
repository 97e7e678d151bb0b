/** Worker-thread entry for row validation: receives range tasks, answers with their results. */
import { parentPort } from 'node:worker_threads';
import { type RangeTask, validateRange } from './validate-rows.ts';

parentPort!.on('message', async (task: RangeTask & { id: number }) => {
  try {
    parentPort!.postMessage({ id: task.id, result: await validateRange(task) });
  } catch (err) {
    parentPort!.postMessage({ id: task.id, error: String((err as Error).stack ?? err) });
  }
});
