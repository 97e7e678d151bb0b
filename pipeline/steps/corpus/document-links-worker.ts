/**
 * Worker-thread entry of PreviousBuild's background linking (previous-build.ts): hard-links stored article
 * documents into the build, a batch of jobs at a time, while the main thread writes the database. A job is a
 * line `<document key>\t<path in the build>\t<article index>`; the lines that could not be linked (no such
 * stored document, no hard links here) are answered at the end, for the main thread to write those documents.
 */
import { linkSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { documents, out } = workerData as { documents: string; out: string };
const failed: string[] = [];
let linked = 0;

parentPort!.on('message', (message: { jobs: string } | { end: true }) => {
  if ('end' in message) {
    parentPort!.postMessage({ linked, failed });
    return;
  }
  for (const line of message.jobs.split('\n')) {
    const tab = line.indexOf('\t');
    try {
      linkSync(join(documents, `${line.slice(0, tab)}.json`), join(out, line.slice(tab + 1, line.lastIndexOf('\t'))));
      linked++;
    } catch {
      failed.push(line);
    }
  }
});
