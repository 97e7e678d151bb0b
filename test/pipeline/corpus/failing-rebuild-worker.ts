/**
 * A rebuild worker (pipeline/steps/corpus/rebuild-worker.ts) that dies (packages.test.ts), with exit code 3:
 *
 * - by default, at its first message of links: it hard-links the first five documents, as the real one does,
 *   then exits;
 * - with REBUILD_WORKER_DIES_AT=plan in the environment, it is the real worker until the plan comes (the links
 *   and the previous database's excerpt index are made), then exits before building anything from it;
 * - with REBUILD_WORKER_DIES_AT=compact, it is the real worker until it is asked to compact the database written
 *   or to hash it, whichever comes first (its indexes are made), then exits before doing either.
 */
import { linkSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const diesAt = process.env.REBUILD_WORKER_DIES_AT;
if (diesAt === 'plan' || diesAt === 'compact') {
  // The real handler first; this one, added after it, exits before the work asked (queued by the real one) starts.
  await import('../../../pipeline/steps/corpus/rebuild-worker.ts');
  parentPort!.on('message', (m: object) => {
    if (diesAt in m || (diesAt === 'compact' && 'hash' in m)) process.exit(3);
  });
} else {
  const { documents, out } = workerData as { documents: string; out: string };
  parentPort!.on('message', (m: { links?: string }) => {
    if (m.links === undefined) return;
    for (const line of m.links.split('\n').slice(0, 5)) {
      const [key, path] = line.split('\t') as [string, string];
      linkSync(join(documents, `${key}.json`), join(out, path));
    }
    process.exit(3);
  });
}
