/**
 * sqlite-wasm for the pipeline: one module instance per process (initialising it compiles the wasm, ~20 ms),
 * an in-memory database to build in, and the export of its bytes. In Node sqlite-wasm has no file system
 * persistence (DECISIONS.md §2), so the database is built in memory and written out as one file.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
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

/** Bytes read per call when loading a database file into the wasm heap. */
const READ_CHUNK = 16 << 20;

/**
 * Attaches the database file at `path`, read-only, as `schema`: its bytes read straight into the wasm heap (no
 * second copy in a Buffer) and deserialized there, freed on DETACH; only when they have the sha256 `expected`
 * (else it throws). The server has its twin for opening (api-dynamic/src/services/corpus/sqlite.ts); the
 * server never imports pipeline code.
 */
export function attachDatabase(s: Sqlite3, db: SqliteDb, schema: string, path: string, expected: string): void {
  const hash = createHash('sha256');
  const size = statSync(path).size;
  const pointer = s.wasm.alloc(Math.max(size, 1));
  try {
    const fd = openSync(path, 'r');
    try {
      for (let done = 0; done < size; ) {
        const chunk = Math.min(READ_CHUNK, size - done);
        // A fresh view per chunk: the heap's buffer is replaced whenever wasm memory grows.
        const view = new Uint8Array(s.wasm.heap8u().buffer, pointer + done, chunk);
        const n = readSync(fd, view, 0, chunk, done);
        if (n <= 0) throw new Error(`${path}: the file ended after ${done} of ${size} bytes`);
        hash.update(view.subarray(0, n));
        done += n;
      }
    } finally {
      closeSync(fd);
    }
    if (hash.digest('hex') !== expected) throw new Error(`${path}: not the database that was recorded (sha256 differs)`);
    db.exec(`ATTACH ':memory:' AS ${schema}`);
  } catch (err) {
    s.wasm.dealloc(pointer);
    throw err;
  }
  const flags = s.capi.SQLITE_DESERIALIZE_FREEONCLOSE | s.capi.SQLITE_DESERIALIZE_READONLY;
  const rc = s.capi.sqlite3_deserialize(db.pointer!, schema, pointer, size, size, flags);
  if (rc !== 0) {
    db.exec(`DETACH ${schema}`);
    throw new Error(`${path}: sqlite3_deserialize failed (${s.capi.sqlite3_js_rc_str(rc)})`);
  }
}
