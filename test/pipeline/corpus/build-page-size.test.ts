/**
 * The corpus database is built with large pages and compacted into the page size the server reads
 * (pipeline/lib/sqlite.ts, BUILD_PAGE_SIZE and `vacuumInto`): the compacted file's bytes must not depend on the
 * building page size. The same rows (and full-text index) written with 4 KiB and with 64 KiB pages give the same file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS_DB_PAGE_SIZE, CORPUS_DB_SCHEMA } from '../../../contracts/corpus/database.ts';
import { BUILD_PAGE_SIZE, createDatabase, sqlite3, vacuumInto } from '../../../pipeline/lib/sqlite.ts';
import { buildFtsIndex } from '../../../pipeline/steps/corpus/corpus.sqlite.ts';
import { mulberry32 } from '../../helpers/random.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

const tmp = tempDir('build-page-size');
afterAll(() => tmp.remove());

const WORDS = ['trend', 'toward', 'significance', 'marginally', 'significant', 'p', 'café', 'naïve', 'approached', 'the', 'of', 'was'];

async function build(pageSize: number): Promise<Uint8Array> {
  const s = await sqlite3();
  const building = join(tmp.path, `b-${pageSize}.sqlite`);
  const out = join(tmp.path, `out-${pageSize}.sqlite`);
  const db = createDatabase(s, building, pageSize);
  try {
    db.exec(CORPUS_DB_SCHEMA);
    db.exec('BEGIN');
    const random = mulberry32(7);
    const article = db.prepare("INSERT INTO articles (id, pmcid, id_kind, title, year) VALUES (?, ?, 'pmcid', ?, 2020)");
    const excerpt = db.prepare(
      "INSERT INTO excerpts (id, article, key, section, section_title, paragraph, sentence, text, also_in) VALUES (?, ?, ?, 'body', 'Results', 1, ?, ?, '[]')",
    );
    let id = 0;
    for (let a = 1; a <= 3000; a++) {
      article.bind([a, `PMC${a}`, `Title ${a} ${'x'.repeat(a % 300)}`]).stepReset();
      for (let e = 0; e < 4; e++) {
        const text = Array.from({ length: 8 + Math.floor(random() * 30) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
        excerpt.bind([++id, a, `PMC${a}/${e}`, e, text]).stepReset();
      }
    }
    article.finalize();
    excerpt.finalize();
    buildFtsIndex(db);
    db.exec('COMMIT');
    vacuumInto(db, out, CORPUS_DB_PAGE_SIZE);
  } finally {
    db.close();
  }
  return new Uint8Array(readFileSync(out));
}

describe('the building page size', () => {
  it('leaves no trace in the compacted file', async () => {
    expect(BUILD_PAGE_SIZE).not.toBe(CORPUS_DB_PAGE_SIZE);
    const small = await build(CORPUS_DB_PAGE_SIZE);
    const large = await build(BUILD_PAGE_SIZE);
    expect(small.length).toBeGreaterThan(1_000_000);
    expect(new DataView(large.buffer, large.byteOffset).getUint16(16)).toBe(CORPUS_DB_PAGE_SIZE);
    expect(Buffer.compare(Buffer.from(large), Buffer.from(small))).toBe(0);
  });
});
