/**
 * sqlite-wasm for the server: one module per process, and a read-only database deserialized from a file's
 * bytes (in Node sqlite-wasm has no persistent file system; DECISIONS.md §2). The pipeline has its own twin
 * of this module for writing (pipeline/lib/sqlite.ts): the server never imports pipeline code.
 */
import { readFileSync } from 'node:fs';
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

/** Opens the database file read-only, entirely in memory (the wasm heap owns the copy and frees it on close). */
export async function openReadOnly(path: string): Promise<SqliteDb> {
  const s = await sqlite3();
  const file = readFileSync(path);
  // A plain Uint8Array: sqlite-wasm's allocator rejects Node's Buffer subclass.
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const db = new s.oo1.DB(':memory:');
  const pointer = s.wasm.allocFromTypedArray(bytes);
  const flags = s.capi.SQLITE_DESERIALIZE_FREEONCLOSE | s.capi.SQLITE_DESERIALIZE_READONLY;
  const rc = s.capi.sqlite3_deserialize(db.pointer!, 'main', pointer, bytes.length, bytes.length, flags);
  if (rc !== 0) {
    db.close();
    throw new Error(`${path}: sqlite3_deserialize failed (${s.capi.sqlite3_js_rc_str(rc)})`);
  }
  return db;
}
