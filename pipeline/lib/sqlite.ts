/**
 * sqlite-wasm for the pipeline: databases written to and read from real files page by page through the file VFS
 * (contracts/common/sqlite-file-vfs.ts): a database being built lives on disk as it grows, not in the wasm heap
 * (built in `:memory:` and exported, a database needs two to three times its size in wasm memory).
 */
import { existsSync, unlinkSync } from 'node:fs';
import { openDatabaseFile, type Sqlite3, type SqliteDb } from '../../contracts/common/sqlite-file-vfs.ts';

export { loadedSqlite3, sqlite3, type Sqlite3, type SqliteDb } from '../../contracts/common/sqlite-file-vfs.ts';

/**
 * The page cache of a database while it is built, in KiB: 4 MiB. Pages beyond it are written to the file (no
 * journal: a failed build's file is thrown away, never reused). Inserts in id order touch the right edge of each
 * b-tree, and FTS5's rebuild and optimize read the table and their segments in order, so a small cache does: the
 * same CPU time as with 64 MiB, and a wasm heap (which never shrinks) that does not grow with the corpus
 * (docs/decisions.md).
 */
export const BUILD_CACHE_KIB = 4096;

/**
 * The page size of a database while it is built: large pages mean fewer calls through the file VFS and fewer
 * b-tree splits; the compacted copy takes the page size the reader wants (`vacuumInto`), and its bytes do not
 * depend on this one (tested). With 64 KiB pages rather than 4 KiB, copying the excerpts' rows and their VACUUM
 * INTO each take about a quarter less time (docs/decisions.md has the measurement).
 */
export const BUILD_PAGE_SIZE = 65536;

/**
 * A new, empty database file at `path` (an existing one is removed), open for writing through the file VFS:
 * rollback journal off, no fsync per transaction, `pageSize`-byte pages, a `cacheKib` KiB page cache.
 */
export function createDatabase(s: Sqlite3, path: string, pageSize: number = BUILD_PAGE_SIZE, cacheKib = BUILD_CACHE_KIB): SqliteDb {
  const db = openDatabaseFile(s, path, 'create');
  db.exec(`PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = ${pageSize}; PRAGMA cache_size = -${cacheKib}`);
  return db;
}

/**
 * Writes the database's compacted copy to `path` with VACUUM INTO (page by page through the file VFS: the copy
 * is never whole in memory), with `pageSize`-byte pages. Its bytes are those `VACUUM` then `sqlite3_serialize`
 * gave when the database was built in memory (tested: test/pipeline/corpus/database-file.test.ts).
 */
export function vacuumInto(db: SqliteDb, path: string, pageSize: number, cacheKib = VACUUM_CACHE_KIB): void {
  if (existsSync(path)) unlinkSync(path);
  // Applies to the copy only (VACUUM INTO takes a pending page size; the source keeps its own).
  db.exec(`PRAGMA page_size = ${pageSize}`);
  // VACUUM INTO gives the new file a page cache as large as the source's: with both at a 256 MiB cache the
  // wasm heap grows by a second 256 MiB (docs/decisions.md has the measurement). A copy reads and writes in
  // order, so a small cache does; the source's pages freed by the shrink are reused for the target's.
  db.exec(`PRAGMA cache_size = -${cacheKib}`);
  db.exec({ sql: 'VACUUM INTO ?', bind: [path] });
}

/**
 * Page cache of the source (and so of the target) while VACUUM INTO copies, in KiB: 4 MiB. A copy touches
 * each page once, so a larger cache only costs: a 32 MiB one nearly doubles a full build's compaction CPU time and
 * grows the wasm heap past the full-text index's size (docs/decisions.md has the measurement).
 */
export const VACUUM_CACHE_KIB = 4096;

/** A value of a row: what `Stmt.bind` accepts in the corpus writer (booleans already as 0/1). */
export type RowValue = string | number | null;

/**
 * Runs one prepared INSERT per row with the values bound straight through sqlite-wasm's exported C functions:
 * `Stmt.bind(array)` + `stepReset()` check and convert every value in JS wrappers (parameter index, type,
 * a heap allocation per string), which would be most of the corpus writer's binding time. The
 * values bound are the same as `Stmt.bind` binds, by the same rules: null → NULL; a number → int when it is an
 * int32 (-0 included), int64 when it is another integer, else double; a string → its UTF-8 by TextEncoder (as
 * `allocCString`), here encoded into one reused scratch area and copied by SQLite (SQLITE_TRANSIENT).
 * Tested: the corpus database is byte-identical (test/pipeline/corpus/database-file.test.ts and the builds).
 */
export class RowInserter {
  private readonly x: RawExports;
  private readonly pStmt: number;
  private scratch = 0;
  private scratchBytes = 0;

  constructor(
    private readonly s: Sqlite3,
    private readonly db: SqliteDb,
    stmt: ReturnType<SqliteDb['prepare']>,
  ) {
    this.x = s.wasm.exports as unknown as RawExports;
    this.pStmt = Number(stmt.pointer);
  }

  /** Binds `values` to parameters 1…n, steps the statement once (it must not return a row) and resets it. */
  run(values: readonly RowValue[]): void {
    const { x, pStmt } = this;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      let rc: number;
      if (v === null || v === undefined) rc = x.sqlite3_bind_null(pStmt, i + 1);
      else if (typeof v === 'string') rc = this.bindText(i + 1, v);
      else if (v === (v | 0)) rc = x.sqlite3_bind_int(pStmt, i + 1, v);
      else if (Number.isInteger(v)) rc = x.sqlite3_bind_int64(pStmt, i + 1, BigInt(v));
      else rc = x.sqlite3_bind_double(pStmt, i + 1, v);
      if (rc !== 0) this.fail(rc);
    }
    const rc = x.sqlite3_step(pStmt);
    if (rc !== SQLITE_DONE) {
      x.sqlite3_reset(pStmt);
      this.fail(rc);
    }
    x.sqlite3_reset(pStmt);
  }

  private bindText(index: number, text: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const need = text.length * 3 + 1;
    if (need > this.scratchBytes) {
      if (this.scratch) this.s.wasm.dealloc(this.scratch);
      this.scratchBytes = Math.max(need, 2 * this.scratchBytes, 1 << 16);
      this.scratch = Number(this.s.wasm.alloc(this.scratchBytes));
    }
    const { written } = UTF8.encodeInto(text, this.s.wasm.heap8u().subarray(this.scratch, this.scratch + need));
    return this.x.sqlite3_bind_text(this.pStmt, index, this.scratch, written, SQLITE_TRANSIENT);
  }

  private fail(rc: number): never {
    throw new Error(`sqlite3 result code ${rc}: ${this.s.capi.sqlite3_errmsg(this.db.pointer!)}`);
  }

  /** Frees the scratch area (the statement is the caller's to finalize). */
  dispose(): void {
    if (this.scratch) this.s.wasm.dealloc(this.scratch);
    this.scratch = 0;
    this.scratchBytes = 0;
  }
}

const UTF8 = new TextEncoder();
const SQLITE_DONE = 101;
/** `(sqlite3_destructor_type)-1`: SQLite copies the bytes before the call returns. */
const SQLITE_TRANSIENT = -1;

/** The C functions RowInserter calls, as the wasm module exports them (pointers as numbers, int64 as BigInt). */
interface RawExports {
  sqlite3_bind_null(p: number, i: number): number;
  sqlite3_bind_int(p: number, i: number, v: number): number;
  sqlite3_bind_int64(p: number, i: number, v: bigint): number;
  sqlite3_bind_double(p: number, i: number, v: number): number;
  sqlite3_bind_text(p: number, i: number, text: number, bytes: number, destructor: number): number;
  sqlite3_step(p: number): number;
  sqlite3_reset(p: number): number;
}
