/**
 * The excerpt index stored in the corpus database by the pipeline (contracts/corpus/excerpt-index-data.ts)
 * against the index computed from the database's rows: every array equal, element for element. And a stored
 * index that is damaged (a chunk missing, another version, no rows) is refused with a reason, not half-read.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReadOnly, sqlite3, type SqliteDb } from '../../api-dynamic/src/services/corpus/sqlite.ts';
import { computeExcerptIndex, EXCERPT_INDEX_VERSION, readExcerptIndex } from '../../contracts/corpus/excerpt-index-data.ts';
import { CORPUS_DB_FILE, CORPUS_DB_VERSION } from '../../contracts/corpus/database.ts';
import { CorpusData } from '../../api-dynamic/src/services/corpus/corpus-data.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { sharedCorpusDatabase } from '../helpers/shared-fixture.ts';

const tmp = tempDir('corpus-excerpt-index');
let path: string;
let db: SqliteDb;
let phrases: string[];

beforeAll(async () => {
  path = await sharedCorpusDatabase();
  db = await openReadOnly(path);
  phrases = JSON.parse(String(db.selectValue("SELECT value FROM info WHERE key = 'phrases'"))) as string[];
});
afterAll(() => {
  db?.close();
  tmp.remove();
});

/** A writable in-memory copy of the database, to damage. */
async function copy(): Promise<SqliteDb> {
  const s = await sqlite3();
  const bytes = readFileSync(path);
  const pointer = s.wasm.alloc(bytes.length);
  s.wasm.heap8u().set(bytes, pointer);
  const c = new s.oo1.DB(':memory:');
  expect(
    s.capi.sqlite3_deserialize(
      c.pointer!,
      'main',
      pointer,
      bytes.length,
      bytes.length,
      s.capi.SQLITE_DESERIALIZE_FREEONCLOSE | s.capi.SQLITE_DESERIALIZE_RESIZEABLE,
    ),
  ).toBe(0);
  return c;
}

describe('the stored excerpt index', () => {
  it('equals the index computed from the rows, array for array', () => {
    const stored = readExcerptIndex(db);
    const computed = computeExcerptIndex(db, phrases);
    expect(stored.size).toBe(Number(db.selectValue('SELECT count(*) FROM excerpts')));
    expect(stored.size).toBeGreaterThan(100);
    expect(stored.occPhrase.length).toBe(Number(db.selectValue('SELECT count(*) FROM occurrences')));
    expect(stored).toEqual(computed);
    // NaN marks "no exact p": equal where both are NaN, and present.
    expect(Array.from(stored.occP).some(Number.isNaN)).toBe(true);
    expect(Buffer.from(stored.occP.buffer).equals(Buffer.from(computed.occP.buffer))).toBe(true);
  });

  it('is refused when damaged, saying how', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'a chunk missing',
        "DELETE FROM excerpt_index WHERE id = (SELECT max(id) FROM excerpt_index WHERE name = 'occPhrase')",
        /occPhrase has \d+ of its \d+ bytes/,
      ],
      [
        'another version',
        `UPDATE excerpt_index SET data = CAST(replace(CAST(data AS TEXT), '"version":${EXCERPT_INDEX_VERSION}', '"version":99') AS BLOB) WHERE name = 'format'`,
        /has version 99; this server reads/,
      ],
      ['no rows', 'DELETE FROM excerpt_index', /the excerpt index is missing/],
      ['a row too many', "INSERT INTO excerpt_index (id, name, data) VALUES (1000000, 'extra', x'00')", /unexpected row "extra"/],
    ];
    for (const [what, sql, error] of cases) {
      const c = await copy();
      try {
        c.exec(sql);
        expect(() => readExcerptIndex(c), what).toThrow(error);
      } finally {
        c.close();
      }
    }
  });
});

describe('a corpus database of another version', () => {
  it('is refused when opened, naming both versions (version 4 had no two-token phrases)', async () => {
    const s = await sqlite3();
    const c = await copy();
    let bytes: Uint8Array;
    try {
      c.exec("UPDATE info SET value = '4' WHERE key = 'schema_version'");
      bytes = s.capi.sqlite3_js_db_export(c);
    } finally {
      c.close();
    }
    const build = join(tmp.path, 'old-build');
    mkdirSync(join(build, 'corpus'), { recursive: true });
    writeFileSync(join(build, CORPUS_DB_FILE), bytes);
    expect(CORPUS_DB_VERSION).toBe('5');
    await expect(CorpusData.open(build)).rejects.toThrow(/has schema version 4; this server reads 5: rebuild/);
  });
});
