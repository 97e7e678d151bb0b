/** Worker-thread entry: generates one range of works and posts back the per-work flags and author use. */
import { parentPort, workerData } from 'node:worker_threads';
import { type GenerateOptions, generateRange } from './frame-range.ts';

const { options, start, end, dir } = workerData as {
  options: GenerateOptions;
  start: number;
  end: number;
  dir: string;
};
const result = generateRange(options, start, end, dir, (done) => parentPort!.postMessage({ progress: done }));
parentPort!.postMessage({ result }, [result.flags.buffer as ArrayBuffer, result.authorUsed.buffer as ArrayBuffer]);
