/**
 * The worker thread of a rebuild (previous-build.ts, `startLinking`): the second core's share of carrying the
 * previous build over, while the main thread makes the documents and writes the database. Messages, handled in
 * the order they come:
 *
 *   { jobs }    hard-link stored article documents into the build: lines `<document key>\t<path>\t<index>`
 *   { end }     answer `{ kind: 'links', linked, failed }`: the lines that could not be linked (no such stored
 *               document, no hard links here), for the main thread to write those documents
 *   { search }  make the carried-over search index's rows (search-index.ts, `carrySearchRows`) from the
 *               previous database, read-only through the file VFS in this thread's own sqlite3 module; answer
 *               `{ kind: 'search', rows, result }`, `{ kind: 'search', result: null }` when the previous index
 *               does not fit (the main thread then reads the index from FTS5), or `{ kind: 'search', error }`
 *
 * One thread for both, rather than one each: the main thread is the rebuild's critical path, and a third busy
 * thread on two cores slowed it more than the second one sped it up.
 */
import { linkSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabaseFile } from '../../../contracts/common/sqlite-file-vfs.ts';
import { sqlite3 } from '../../lib/sqlite.ts';
import { carrySearchRows, collectSearchRows, readSearchIndex } from './search-index.ts';

export interface SearchPlan {
  previousDb: string;
  remap: Int32Array;
  fresh: { id: number; text: string }[];
  excerpts: number;
}

const { documents, out } = workerData as { documents: string; out: string };
const failed: string[] = [];
let linked = 0;

function link(jobs: string): void {
  for (const line of jobs.split('\n')) {
    const tab = line.indexOf('\t');
    try {
      linkSync(join(documents, `${line.slice(0, tab)}.json`), join(out, line.slice(tab + 1, line.lastIndexOf('\t'))));
      linked++;
    } catch {
      failed.push(line);
    }
  }
}

async function search(plan: SearchPlan): Promise<void> {
  try {
    const s = await sqlite3();
    const db = openDatabaseFile(s, plan.previousDb, 'read');
    let previous;
    try {
      previous = readSearchIndex(db, 'main');
    } finally {
      db.close();
    }
    const rows = collectSearchRows();
    const result = carrySearchRows(s, previous, plan.remap, plan.fresh, plan.excerpts, rows);
    parentPort!.postMessage(result ? { kind: 'search', rows: rows.rows, result } : { kind: 'search', result: null });
  } catch (err) {
    parentPort!.postMessage({ kind: 'search', error: String((err as Error).stack ?? err) });
  }
}

parentPort!.on('message', (message: { jobs: string } | { end: true } | { search: SearchPlan }) => {
  if ('jobs' in message) link(message.jobs);
  else if ('end' in message) parentPort!.postMessage({ kind: 'links', linked, failed });
  else void search(message.search);
});
