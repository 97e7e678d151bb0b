/**
 * sqlite-wasm for the pipeline: one module instance per process (initialising it compiles the wasm, ~20 ms),
 * databases written to and read from real files page by page through the file VFS
 * (contracts/common/sqlite-file-vfs.ts): a database being built lives on disk as it grows, not in the wasm heap
 * (issue 21: a 2 GiB database used to need 4–6 GiB of wasm memory, built in `:memory:` and exported).
 */
import { existsSync, unlinkSync } from 'node:fs';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { openDatabaseFile } from '../../contracts/common/sqlite-file-vfs.ts';
import { sha256FileSync } from './hash.ts';

export type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;
/** The module's init accepts Emscripten options at run time; its type declaration omits them. */
const init = sqlite3InitModule as unknown as (options: { print: (...a: unknown[]) => void; printErr: (...a: unknown[]) => void }) => Promise<Sqlite3>;
export type SqliteDb = InstanceType<Sqlite3['oo1']['DB']>;

let module: Promise<Sqlite3> | null = null;

/** The sqlite3 module (initialised once); its diagnostics go to stderr only when they are errors. */
export function sqlite3(): Promise<Sqlite3> {
  module ??= init({ print: () => {}, printErr: (...args: unknown[]) => console.error('sqlite3:', ...args) });
  return module;
}

/**
 * SQLite's page cache while a database is built, in KiB: 256 MiB. Inserts in id order touch the right edge of
 * each b-tree, so a small cache would do for the tables; FTS5's rebuild and optimize merge segments page by
 * page and are the part that gains from more. Pages beyond it are written to the file (no journal: a failed
 * build's file is thrown away, never reused).
 */
export const BUILD_CACHE_KIB = 262144;

/**
 * A new, empty database file at `path` (an existing one is removed), open for writing through the file VFS:
 * rollback journal off, no fsync per transaction, `pageSize`-byte pages, a BUILD_CACHE_KIB page cache.
 */
export function createDatabase(s: Sqlite3, path: string, pageSize: number): SqliteDb {
  const db = openDatabaseFile(s, path, 'create');
  db.exec(`PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = ${pageSize}; PRAGMA cache_size = -${BUILD_CACHE_KIB}`);
  return db;
}

/**
 * Writes the database's compacted copy to `path` with VACUUM INTO (page by page through the file VFS: the copy
 * is never whole in memory). Its bytes are those `VACUUM` then `sqlite3_serialize` gave when the database was
 * built in memory (tested: test/pipeline/corpus/database-file.test.ts).
 */
export function vacuumInto(db: SqliteDb, path: string): void {
  if (existsSync(path)) unlinkSync(path);
  // VACUUM INTO gives the new file a page cache as large as the source's: with both at BUILD_CACHE_KIB the
  // wasm heap grew by a second 256 MiB (measured: 259 → 538 MiB at 500k excerpts). A copy reads and writes in
  // order, so a small cache does; the source's pages freed by the shrink are reused for the target's.
  db.exec(`PRAGMA cache_size = -${VACUUM_CACHE_KIB}`);
  db.exec({ sql: 'VACUUM INTO ?', bind: [path] });
}

/** Page cache of the source (and so of the target) while VACUUM INTO copies, in KiB: 32 MiB. */
const VACUUM_CACHE_KIB = 32768;

/**
 * Attaches the database file at `path`, read-only, as `schema`, read page by page through the file VFS; only
 * when it has the sha256 `expected` (else it throws), hashed as it is read in 4 MiB pieces before attaching.
 */
export function attachDatabase(db: SqliteDb, schema: string, path: string, expected: string): void {
  if (sha256FileSync(path) !== expected) throw new Error(`${path}: not the database that was recorded (sha256 differs)`);
  // A URI for mode=ro (sqlite-wasm is built with SQLITE_USE_URI); the attached file uses the connection's VFS.
  const uri = `file:${path.replace(/[%?#]/g, (c) => encodeURIComponent(c))}?mode=ro`;
  db.exec({ sql: `ATTACH ? AS ${schema}`, bind: [uri] });
}
