/**
 * The worker thread of a rebuild (previous-build.ts, `startWorker`): the second core's share of carrying the
 * previous build over. It starts before extraction, which leaves it nothing else to do, and handles, in the order
 * they come:
 *
 *   { previous } check the previous database file against the sha256 recorded and read its excerpt index
 *               (excerpt-index-builder.ts, `readPreviousExcerptIndex`); answer `{ kind: 'previous', index }`,
 *               `{ kind: 'previous', differs }` (not the recorded file) or `{ kind: 'previous', failed }`; then
 *               read its search index for the plan (search-index.ts, `readSearchIndex`)
 *   { links }   hard-link the previous build's article documents into the build: lines `<document key>\t<path>`
 *   { linksEnd } answer `{ kind: 'links', failed }`, the paths not linked (no such stored document, no hard links)
 *   { plan }    the carried-over database's indexes, while the main thread writes its rows: first the full-text
 *               index in the scratch file `plan.ftsFile` (fts-index.ts, `writeFtsFile`), answered
 *               `{ kind: 'fts' }` or `{ kind: 'fts', error }`; then the search index's rows (search-carry.ts,
 *               `carrySearchRows`) from the previous database, read-only through the file VFS in this thread's own
 *               sqlite3 module, and the new excerpts' tokens (the next message), answered `{ kind: 'search', rows, result }`, `{ kind: 'search', result: null }`
 *               when the previous index does not fit (the main thread then reads the index from FTS5), or
 *               `{ kind: 'search', error }`
 *   { compact } the database the main thread has written and closed, compacted into the output file (pipeline/lib/
 *               sqlite.ts, `compactFile`) while that thread writes the documents; answered `{ kind: 'compact' }` or
 *               `{ kind: 'compact', error }` (the main thread then compacts it itself)
 *   { hash }    the sha256 of the database the main thread has just written (its record's), answered
 *               `{ kind: 'hash', sha256 }`, or `{ kind: 'hash', sha256: null }` when the file could not be read
 *   { tokens }  the new excerpts' tokens (search-index.ts, `tokenizeExcerpts`), made by the main thread meanwhile
 *               (taken as they come, not after the plan's work), or null when it could not: made here then
 *
 * One thread for all of it, rather than one each: the main thread is the rebuild's critical path, and a third busy
 * thread on two cores slowed it more than the second one sped it up (session 23).
 */
import { linkSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabaseFile } from '../../../contracts/common/sqlite-file-vfs.ts';
import { sha256FileSync } from '../../lib/hash.ts';
import { compactFile, recordedDatabaseDiffers, sqlite3 } from '../../lib/sqlite.ts';
import { readPreviousExcerptIndex } from './excerpt-index-builder.ts';
import { writeFtsFile } from './fts-index.ts';
import { carrySearchRows } from './search-carry.ts';
import { collectSearchRows, type FreshTerm, type PreviousSearchIndex, readSearchIndex } from './search-index.ts';

/** What the main thread knows of the rebuild's excerpts once the articles are extracted (corpus.sqlite.ts, `carryPlan`). */
export interface SearchPlan {
  previousDb: string;
  /** Per previous excerpt (id - 1), its new id, or 0 when it is not carried over. */
  remap: Int32Array;
  /** The new excerpts, with their ids. */
  fresh: { id: number; text: string }[];
  excerpts: number;
}

/** The plan sent to this thread, with the scratch file for the full-text index. */
export type WorkerPlan = SearchPlan & { ftsFile: string };

const { documents, out } = workerData as { documents: string; out: string };
// Compiled while the main thread extracts, not when the plan comes.
void sqlite3();

/** The paths the links asked for so far could not be made at. */
const failed: string[] = [];

function link(lines: string): void {
  for (const line of lines.split('\n')) {
    const tab = line.indexOf('\t');
    const path = line.slice(tab + 1);
    try {
      linkSync(join(documents, `${line.slice(0, tab)}.json`), join(out, path));
    } catch {
      failed.push(path);
    }
  }
}

/**
 * The previous database's search index, read once its file is checked, before the plan comes (issue 21 session 27:
 * read after the full-text index, it was 0.4 s of the rebuild's critical path); null when it could not be read then.
 */
let previousSearch: { path: string; index: PreviousSearchIndex } | null = null;

async function previous(path: string, sha256: string): Promise<void> {
  try {
    const differs = recordedDatabaseDiffers(path, sha256);
    if (differs) return void parentPort!.postMessage({ kind: 'previous', differs });
    const db = openDatabaseFile(await sqlite3(), path, 'read');
    try {
      parentPort!.postMessage({ kind: 'previous', index: readPreviousExcerptIndex(db, 'main') });
      try {
        previousSearch = { path, index: readSearchIndex(db, 'main') };
      } catch {
        // read again with the plan, where a failure is answered
      }
    } finally {
      db.close();
    }
  } catch (err) {
    // Not a verdict on the file: the main thread checks and reads it itself.
    parentPort!.postMessage({ kind: 'previous', failed: (err as Error).message });
  }
}

/** A compaction asked of this thread: from the written database into the output file, with these settings. */
export interface Compaction {
  from: string;
  to: string;
  pageSize: number;
  cacheKib: number;
}

async function compact(c: Compaction): Promise<void> {
  try {
    compactFile(await sqlite3(), c.from, c.to, c.pageSize, c.cacheKib);
    parentPort!.postMessage({ kind: 'compact' });
  } catch (err) {
    parentPort!.postMessage({ kind: 'compact', error: String((err as Error).stack ?? err) });
  }
}

function hashFile(path: string): string | null {
  try {
    return sha256FileSync(path);
  } catch {
    return null;
  }
}

let onTokens!: (tokens: Map<string, FreshTerm> | null) => void;
const tokens = new Promise<Map<string, FreshTerm> | null>((resolve) => (onTokens = resolve));

async function indexes(plan: WorkerPlan): Promise<void> {
  const s = await sqlite3();
  try {
    writeFtsFile(s, plan.ftsFile, plan.previousDb, plan.remap, plan.fresh);
    parentPort!.postMessage({ kind: 'fts' });
  } catch (err) {
    parentPort!.postMessage({ kind: 'fts', error: String((err as Error).stack ?? err) });
  }
  try {
    let previous = previousSearch?.path === plan.previousDb ? previousSearch.index : null;
    previousSearch = null;
    if (!previous) {
      const db = openDatabaseFile(s, plan.previousDb, 'read');
      try {
        previous = readSearchIndex(db, 'main');
      } finally {
        db.close();
      }
    }
    const rows = collectSearchRows();
    // The main thread's tokens, or null when it could not make them: then they are made here.
    const result = carrySearchRows(s, previous, plan.remap, plan.fresh, plan.excerpts, rows, (await tokens) ?? undefined);
    parentPort!.postMessage(result ? { kind: 'search', rows: rows.rows, result } : { kind: 'search', result: null });
  } catch (err) {
    parentPort!.postMessage({ kind: 'search', error: String((err as Error).stack ?? err) });
  }
}

// Handled one after the other, in the order they came (the next only once the one before has answered).
let queue = Promise.resolve();
type Message =
  | { previous: { db: string; sha256: string } }
  | { links: string }
  | { linksEnd: true }
  | { plan: WorkerPlan }
  | { tokens: Map<string, FreshTerm> | null }
  | { hash: string }
  | { compact: Compaction };
parentPort!.on('message', (message: Message) => {
  if ('tokens' in message) return onTokens(message.tokens);
  queue = queue.then(() => {
    if ('previous' in message) return previous(message.previous.db, message.previous.sha256);
    if ('links' in message) link(message.links);
    else if ('linksEnd' in message) parentPort!.postMessage({ kind: 'links', failed });
    else if ('hash' in message) parentPort!.postMessage({ kind: 'hash', sha256: hashFile(message.hash) });
    else if ('compact' in message) return compact(message.compact);
    else return indexes(message.plan);
  });
});
