/**
 * sqlite-wasm for the pipeline: one module instance per process (initialising it compiles the wasm, ~20 ms),
 * an in-memory database to build in, and the export of its bytes. In Node sqlite-wasm has no file system
 * persistence (DECISIONS.md §2), so the database is built in memory and written out as one file.
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

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

/** The database's bytes, exactly as a database file holds them. */
export function exportDatabase(s: Sqlite3, db: SqliteDb): Uint8Array {
  return s.capi.sqlite3_js_db_export(db.pointer!);
}
