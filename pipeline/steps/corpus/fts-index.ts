/**
 * The corpus database's full-text index (`excerpts_fts`, contracts/corpus/database.ts), built once after the rows
 * are written: FTS5's rebuild, then its optimize (cheaper than indexing row by row).
 *
 * A rebuild that carries unchanged articles over builds it in its worker thread instead (rebuild-worker.ts), while
 * the main thread writes the rows: `writeFtsFile` makes a scratch database of the excerpts' ids and texts alone
 * (the carried ones copied from the previous database, renumbered; the new ones from their articles) with the same
 * FTS5 table, and `copyFtsIndex` copies FTS5's shadow tables from it into the database being built. What FTS5
 * stores follows from the texts, their ids and the statements run, all the same, so the tables hold the same rows
 * as when the index is built in place (tested byte for byte against a full build; issue 21 session 24: 1.3 s of
 * a rebuild's main thread became a 0.2 s copy).
 */
import { CORPUS_FTS_TABLE } from '../../../contracts/corpus/database.ts';
import { attachReadOnly, createDatabase, type Sqlite3, type SqliteDb } from '../../lib/sqlite.ts';

/**
 * FTS5's pending-terms limit while the full-text index is rebuilt: 8 MiB of the wasm heap, which never shrinks (32
 * until session 25: reached at ~60,000 articles, it stayed for the rest of the step; docs/decisions.md).
 */
const FTS_PENDING_BYTES = 8 << 20;

/** FTS5's tables behind `excerpts_fts`: everything it stores. */
const SHADOW_TABLES = ['excerpts_fts_data', 'excerpts_fts_idx', 'excerpts_fts_docsize', 'excerpts_fts_config'] as const;

/** Builds `excerpts_fts` over the rows of `excerpts` (inside the caller's transaction). */
export function buildFtsIndex(db: SqliteDb): void {
  // FTS5 writes its pending terms out as a new segment every `hashsize` bytes (1 MiB by default) and the
  // optimize merges the segments: with FTS_PENDING_BYTES there are few to merge (issue 21 session 23: rebuild
  // and optimize 2.5 → 1.2 s at 413k excerpts). A setting, kept in the table's config: the index is the same.
  db.exec(`INSERT INTO excerpts_fts (excerpts_fts, rank) VALUES ('hashsize', ${FTS_PENDING_BYTES})`);
  db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('rebuild')");
  db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('optimize')");
}

/**
 * Writes to `path` a scratch database whose `excerpts_fts` is the full-text index of a rebuild's excerpts: those of
 * the previous database `previousDb` that `remap` gives a new id (index: previous id - 1; 0: not carried), and the
 * `fresh` ones. The caller checked `previousDb` (its sha256) or does not use the result.
 */
export function writeFtsFile(s: Sqlite3, path: string, previousDb: string, remap: Int32Array, fresh: readonly { id: number; text: string }[]): void {
  const db = createDatabase(s, path);
  try {
    db.exec(`CREATE TABLE excerpts (id INTEGER PRIMARY KEY, text TEXT NOT NULL); ${CORPUS_FTS_TABLE}`);
    attachReadOnly(db, 'prev', previousDb);
    db.exec('BEGIN');
    // Runs of previous excerpts that keep their order and their distance: one statement each.
    const copy = db.prepare('INSERT INTO excerpts (id, text) SELECT id + ?1, text FROM prev.excerpts WHERE id BETWEEN ?2 AND ?3');
    try {
      for (let e = 0; e < remap.length; ) {
        if (remap[e] === 0) {
          e++;
          continue;
        }
        const delta = remap[e]! - (e + 1);
        let f = e + 1;
        while (f < remap.length && remap[f] !== 0 && remap[f]! - (f + 1) === delta) f++;
        copy.bind([delta, e + 1, f]).stepReset();
        e = f;
      }
    } finally {
      copy.finalize();
    }
    const put = db.prepare('INSERT INTO excerpts (id, text) VALUES (?, ?)');
    try {
      for (const { id, text } of fresh) put.bind([id, text]).stepReset();
    } finally {
      put.finalize();
    }
    buildFtsIndex(db);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/**
 * Replaces the (empty) full-text index of `db` by the one `writeFtsFile` wrote to `path`. Outside a transaction
 * (it attaches); the next statement on `excerpts_fts` reads the copied tables.
 */
export function copyFtsIndex(db: SqliteDb, path: string): void {
  attachReadOnly(db, 'fts', path);
  try {
    db.exec('BEGIN');
    for (const table of SHADOW_TABLES) db.exec(`DELETE FROM main.${table}; INSERT INTO main.${table} SELECT * FROM fts.${table}`);
    db.exec('COMMIT');
  } catch (err) {
    // Nothing half-copied stays: the caller builds the index in place instead.
    try {
      db.exec('ROLLBACK');
    } catch {
      // no transaction left to roll back
    }
    throw err;
  } finally {
    db.exec('DETACH fts');
  }
}
