/**
 * The corpus database read through the file VFS (contracts/common/sqlite-file-vfs.ts, pages read on demand)
 * against the same file deserialized whole into the wasm heap (how the server opened it before issue 21, done
 * here independently with sqlite3_deserialize): every row of every table, FTS5's matches with bm25 and
 * highlights, byte for byte. And a missing, truncated or foreign file is refused at open with an error naming it.
 */
import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReadOnly, SERVE_CACHE_KIB, sqlite3, type SqliteDb } from '../../api-dynamic/src/services/corpus/sqlite.ts';
import { FILE_VFS } from '../../contracts/common/sqlite-file-vfs.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { sharedCorpusDatabase } from '../helpers/shared-fixture.ts';

const tmp = tempDir('corpus-file-vfs');
let path: string;
let onDisk: SqliteDb;
let inHeap: SqliteDb;

/** The file's bytes copied into the wasm heap and deserialized (the oracle: no VFS involved). */
async function deserialized(file: string): Promise<SqliteDb> {
  const s = await sqlite3();
  const bytes = readFileSync(file);
  const pointer = s.wasm.alloc(bytes.length);
  s.wasm.heap8u().set(bytes, pointer);
  const db = new s.oo1.DB(':memory:');
  const rc = s.capi.sqlite3_deserialize(
    db.pointer!,
    'main',
    pointer,
    bytes.length,
    bytes.length,
    s.capi.SQLITE_DESERIALIZE_FREEONCLOSE | s.capi.SQLITE_DESERIALIZE_READONLY,
  );
  if (rc !== 0) throw new Error(`sqlite3_deserialize: ${rc}`);
  return db;
}

beforeAll(async () => {
  path = await sharedCorpusDatabase();
  onDisk = await openReadOnly(path);
  inHeap = await deserialized(path);
});
afterAll(() => {
  onDisk?.close();
  inHeap?.close();
  tmp.remove();
});

describe('the corpus database read through the file VFS', () => {
  it('is opened through the VFS, read-only, with the documented page cache', () => {
    expect(onDisk.dbVfsName()).toBe(FILE_VFS);
    expect(onDisk.selectValue('PRAGMA cache_size')).toBe(-SERVE_CACHE_KIB);
    expect(() => onDisk.exec("INSERT INTO info (key, value) VALUES ('x', 'y')")).toThrow(/readonly/i);
  });

  it('holds every row of every table as the deserialized file does', () => {
    const tables = inHeap.selectValues("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map(String);
    expect(tables).toEqual(onDisk.selectValues("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map(String));
    expect(tables).toEqual(expect.arrayContaining(['articles', 'excerpts', 'occurrences', 'info']));
    let rows = 0;
    for (const t of tables) {
      const sql = `SELECT * FROM "${t}"`;
      const expected = inHeap.selectArrays(sql);
      expect(onDisk.selectArrays(sql), t).toEqual(expected);
      rows += expected.length;
    }
    expect(rows).toBeGreaterThan(1000);
    expect(onDisk.selectValue('PRAGMA integrity_check')).toBe('ok');
  });

  it('answers full-text searches (matches, bm25, highlights) as the deserialized file does', () => {
    const words = inHeap.selectValues('SELECT text FROM excerpts ORDER BY id LIMIT 40').flatMap(
      (t) =>
        String(t)
          .toLowerCase()
          .match(/[a-z]{4,}/g) ?? [],
    );
    const queries = [...new Set(words)].slice(0, 60).concat(['marg*', '"trend toward"', 'significant OR trend']);
    const sql =
      "SELECT rowid, bm25(excerpts_fts), highlight(excerpts_fts, 0, '[', ']') FROM excerpts_fts WHERE excerpts_fts MATCH ? ORDER BY bm25(excerpts_fts), rowid";
    let hits = 0;
    for (const q of queries) {
      const expected = inHeap.selectArrays(sql, [q]);
      expect(onDisk.selectArrays(sql, [q]), q).toEqual(expected);
      hits += expected.length;
    }
    expect(hits).toBeGreaterThan(100);
  });
});

describe('a database file that is not whole', () => {
  it('is refused at open when missing, truncated or not a database, naming the file', async () => {
    await expect(openReadOnly(join(tmp.path, 'nowhere.sqlite'))).rejects.toThrow(/nowhere\.sqlite: no such database file/);
    const size = readFileSync(path).length;
    for (const [name, cut] of [
      ['one-page-short', size - 4096],
      ['mid-page', size - 100],
      ['header-only', 100],
    ] as const) {
      const copy = join(tmp.path, `${name}.sqlite`);
      copyFileSync(path, copy);
      truncateSync(copy, cut);
      await expect(openReadOnly(copy), name).rejects.toThrow(new RegExp(`${name}\\.sqlite: truncated or damaged database file: ${cut} bytes`));
    }
    const text = join(tmp.path, 'text.sqlite');
    writeFileSync(text, 'not a database at all, but long enough to have a header of one hundred bytes or so, the length of one: ok');
    await expect(openReadOnly(text)).rejects.toThrow(/text\.sqlite: not a SQLite database/);
    const empty = join(tmp.path, 'empty.sqlite');
    writeFileSync(empty, '');
    await expect(openReadOnly(empty)).rejects.toThrow(/empty\.sqlite: not a SQLite database/);
  });
});
