/**
 * A rebuild worker (pipeline/steps/corpus/rebuild-worker.ts) that dies: it hard-links the first five documents
 * it is asked to link, as the real one does, then exits with code 3 (packages.test.ts).
 */
import { linkSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { documents, out } = workerData as { documents: string; out: string };
parentPort!.on('message', (m: { links?: string }) => {
  if (m.links === undefined) return;
  for (const line of m.links.split('\n').slice(0, 5)) {
    const [key, path] = line.split('\t') as [string, string];
    linkSync(join(documents, `${key}.json`), join(out, path));
  }
  process.exit(3);
});
