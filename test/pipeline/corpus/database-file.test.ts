/**
 * The corpus database written on disk as it grows (the file VFS, contracts/common/sqlite-file-vfs.ts, and
 * VACUUM INTO; pipeline/lib/sqlite.ts) against the database compacted in memory as it was before issue 21
 * (`VACUUM` on an in-memory copy, then `sqlite3_serialize`): the same pages byte for byte; the only bytes that
 * may differ are three header fields counting commits (the former writer's `:memory:` database left them zero). And a build that
 * fails leaves neither an output file nor its work file behind.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../../pipeline/lib/progress.ts';
import { sqlite3 } from '../../../pipeline/lib/sqlite.ts';
import type { ArticleSummary } from '../../../pipeline/steps/corpus/article-summary.ts';
import { writeCorpusDatabase } from '../../../pipeline/steps/corpus/corpus.sqlite.ts';
import { tempDir } from '../../helpers/fixture-build.ts';
import { sharedCorpusDatabase } from '../../helpers/shared-fixture.ts';

const tmp = tempDir('corpus-db-file');
let file: Uint8Array;

beforeAll(async () => {
  file = new Uint8Array(readFileSync(await sharedCorpusDatabase()));
});
afterAll(() => tmp.remove());

/** The header's big-endian 32-bit field at `offset` (https://sqlite.org/fileformat.html#the_database_header). */
const u32 = (b: Uint8Array, offset: number) => new DataView(b.buffer, b.byteOffset).getUint32(offset);

describe('the corpus database written on disk', () => {
  it('has the pages of the database compacted in memory, byte for byte', async () => {
    const s = await sqlite3();
    // The file's bytes deserialized (writable, growable), VACUUMed in memory and serialized: the former writer's end.
    const pointer = s.wasm.alloc(file.length);
    s.wasm.heap8u().set(file, pointer);
    const db = new s.oo1.DB(':memory:');
    const rc = s.capi.sqlite3_deserialize(
      db.pointer!,
      'main',
      pointer,
      file.length,
      file.length,
      s.capi.SQLITE_DESERIALIZE_FREEONCLOSE | s.capi.SQLITE_DESERIALIZE_RESIZEABLE,
    );
    expect(rc).toBe(0);
    db.exec('VACUUM');
    const memory = s.capi.sqlite3_js_db_export(db.pointer!);
    db.close();
    expect(memory.length).toBe(file.length);
    expect(file.length).toBeGreaterThan(100_000);
    // Header fields a file's pager writes at commit: change counter (24), version-valid-for (92), SQLite version
    // (96). The former writer's `:memory:` database left them zero; this VACUUM of a copy counts its own commit.
    expect([u32(file, 24), u32(file, 92), u32(file, 96)]).toEqual([1, 1, s.capi.sqlite3_libversion_number()]);
    // VACUUM adds one to the schema cookie (40): the copy was vacuumed once more than the file.
    expect(u32(memory, 40)).toBe(u32(file, 40) + 1);
    const differing: number[] = [];
    for (let i = 0; i < file.length; i++) if (file[i] !== memory[i]) differing.push(i);
    expect(differing.filter((i) => !((i >= 24 && i < 28) || (i >= 40 && i < 44) || (i >= 92 && i < 100)))).toEqual([]);
    // The page count (28) is valid, as the header's change counter and version-valid-for agree.
    expect(u32(file, 28) * 4096).toBe(file.length);
  });

  it('leaves neither the output nor its work file behind when the build fails', async () => {
    const dir = join(tmp.path, 'failing');
    mkdirSync(dir);
    const summary = {
      pmcid: 'PMC1',
      id_kind: 'pmcid',
      pmid: null,
      licence: null,
      year: 2020,
      sentences_scanned: 1,
      occurrences: 0,
      excerpts: [],
    } as unknown as ArticleSummary;
    const info = { snapshot: 'x', lexiconVersion: 'v', lexiconSource: 's', phrases: [] };
    await expect(
      writeCorpusDatabase(join(dir, 'corpus.sqlite'), [summary], info, silentProgress, () => {
        throw new Error('the article cannot be read');
      }),
    ).rejects.toThrow(/the article cannot be read/);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(dir, 'corpus.sqlite.building'))).toBe(false);
  });
});
