/**
 * Worker-thread entry of a rebuild's carried-over search index (corpus.sqlite.ts): reads the previous build's
 * search index from its database (read-only, through the file VFS, in this thread's own sqlite3 module) and
 * makes the new index's rows (search-index.ts, `carrySearchRows`), while the main thread copies the rows and
 * rebuilds the full-text index. Answers `{ rows, result }`, or `{ result: null }` when the previous index does
 * not fit (the main thread then reads the index from FTS5), or `{ error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabaseFile } from '../../../contracts/common/sqlite-file-vfs.ts';
import { sqlite3 } from '../../lib/sqlite.ts';
import { carrySearchRows, collectSearchRows, readSearchIndex } from './search-index.ts';

const { previousDb, remap, fresh, excerpts } = workerData as {
  previousDb: string;
  remap: Int32Array;
  fresh: { id: number; text: string }[];
  excerpts: number;
};

try {
  const s = await sqlite3();
  const db = openDatabaseFile(s, previousDb, 'read');
  let previous;
  try {
    previous = readSearchIndex(db, 'main');
  } finally {
    db.close();
  }
  const out = collectSearchRows();
  const result = carrySearchRows(s, previous, remap, fresh, excerpts, out);
  parentPort!.postMessage(result ? { rows: out.rows, result } : { result: null });
} catch (err) {
  parentPort!.postMessage({ error: String((err as Error).stack ?? err) });
}
