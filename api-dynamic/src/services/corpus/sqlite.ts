/**
 * sqlite-wasm for the server: one module per process, and a read-only database read from its file page by page
 * through the file VFS (contracts/common/sqlite-file-vfs.ts), so that neither start-up time nor memory grows with
 * the database: the wasm heap holds SQLite's page cache (at most SERVE_CACHE_KIB) and the operating system's
 * file cache the rest (deserializing the whole file into the wasm heap would take gigabytes at millions of
 * excerpts).
 */
import { openDatabaseFile, sqlite3, type SqliteDb } from '../../../../contracts/common/sqlite-file-vfs.ts';

export { sqlite3, type SqliteDb };

/**
 * SQLite's page cache per open database, in KiB: 64 MiB. A page of `/excerpts` reads a few hundred pages (its
 * rows, their occurrences and articles, FTS5's doclists for the highlights), so the cache holds the b-tree
 * interior pages and recent leaves of every table many times over; what it misses, the operating system's file
 * cache serves without a disk access once warm (a read is one pread of 4 KiB). Bounded, so RSS after start
 * does not grow with the database.
 */
export const SERVE_CACHE_KIB = 65536;

/** Opens the database file read-only, read on demand (see above); a missing or truncated file throws, naming it. */
export async function openReadOnly(path: string): Promise<SqliteDb> {
  const s = await sqlite3();
  const db = openDatabaseFile(s, path, 'read');
  db.exec(`PRAGMA cache_size = -${SERVE_CACHE_KIB}`);
  return db;
}
