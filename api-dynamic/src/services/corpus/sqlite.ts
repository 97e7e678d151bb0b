/**
 * sqlite-wasm for the server: one module per process, and a read-only database deserialized from a file's
 * bytes (in Node sqlite-wasm has no persistent file system; DECISIONS.md §2). The pipeline has its own twin
 * of this module for writing (pipeline/lib/sqlite.ts): the server never imports pipeline code.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';

export type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;
export type SqliteDb = InstanceType<Sqlite3['oo1']['DB']>;
/** The module's init accepts Emscripten options at run time; its type declaration omits them. */
const init = sqlite3InitModule as unknown as (options: { print: (...a: unknown[]) => void; printErr: (...a: unknown[]) => void }) => Promise<Sqlite3>;

let module: Promise<Sqlite3> | null = null;

export function sqlite3(): Promise<Sqlite3> {
  module ??= init({ print: () => {}, printErr: (...args: unknown[]) => console.error('sqlite3:', ...args) });
  return module;
}

/**
 * Opens the database file read-only, entirely in memory (the wasm heap owns the copy and frees it on close).
 * The file is read straight into the wasm heap, chunk by chunk, instead of into a Buffer that is then copied:
 * opening a database of N bytes no longer needs 2N of memory for a moment (issue 21: 939 MiB peak for the
 * 402 MiB 1M-excerpt build, and a 2 GiB database at 5M excerpts would have needed 4 GiB).
 */
export async function openReadOnly(path: string): Promise<SqliteDb> {
  const s = await sqlite3();
  const size = statSync(path).size;
  const pointer = s.wasm.alloc(Math.max(size, 1));
  const fd = openSync(path, 'r');
  try {
    for (let done = 0; done < size; ) {
      const chunk = Math.min(READ_CHUNK, size - done);
      // A fresh view per chunk: the heap's buffer is replaced whenever wasm memory grows.
      const n = readSync(fd, new Uint8Array(s.wasm.heap8u().buffer, pointer + done, chunk), 0, chunk, done);
      if (n <= 0) throw new Error(`${path}: the file ended after ${done} of ${size} bytes`);
      done += n;
    }
  } catch (err) {
    s.wasm.dealloc(pointer);
    throw err;
  } finally {
    closeSync(fd);
  }
  const db = new s.oo1.DB(':memory:');
  const flags = s.capi.SQLITE_DESERIALIZE_FREEONCLOSE | s.capi.SQLITE_DESERIALIZE_READONLY;
  const rc = s.capi.sqlite3_deserialize(db.pointer!, 'main', pointer, size, size, flags);
  if (rc !== 0) {
    db.close();
    throw new Error(`${path}: sqlite3_deserialize failed (${s.capi.sqlite3_js_rc_str(rc)})`);
  }
  return db;
}

/** Bytes read per system call while loading a database (large enough to be cheap, small enough to not matter). */
const READ_CHUNK = 16 * 2 ** 20;
