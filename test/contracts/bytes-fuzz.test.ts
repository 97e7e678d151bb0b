/**
 * Every binary format's reader on damaged bytes: bytes flipped and the data cut short, in a work store row, a packed
 * cohort list and the cohort index's typed column files, the corpus search postings, the excerpt index (in a real
 * sqlite database) and the extraction cache's segment files. Each read ends in a named error (a BytesError, or the
 * reader's own error naming what it reads) or in data, never in a hang (the test's timeout), another exception or
 * a read past the bytes (the readers are bounded: test/contracts/bytes.test.ts).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByteBuffer, BytesError } from '../../contracts/common/bytes.ts';
import { completeExcerptIndex, readExcerptIndex, writeExcerptIndex } from '../../contracts/corpus/excerpt-index-data.ts';
import { decodePositions, decodePostings, decodeVarints, encodeTerm, encodeVarints } from '../../contracts/corpus/search-postings.ts';
import { Texts } from '../../contracts/frame/author-table.ts';
import { readArray, readOffsets } from '../../contracts/frame/typed-arrays.ts';
import { workCsvLine, workItemJson } from '../../contracts/frame/work-serialize.ts';
import { decodeWork, encodeWork, LABEL_FIELDS, symbolCodes, symbolFields, type SymbolTables, WORK_FIELDS } from '../../contracts/frame/work-store.ts';
import type { LabelRow } from '../../contracts/frame/work-record.ts';
import { decodeDeltas } from '../../api-dynamic/src/services/frame/cohort/cohort-index.ts';
import { sqlite3 } from '../../api-dynamic/src/services/corpus/sqlite.ts';
import { ExtractionCache } from '../../pipeline/steps/corpus/extraction-cache.ts';
import type { ExtractedArticle } from '../../pipeline/corpus/extract.ts';
import { tempDir } from '../helpers/fixture-build.ts';

const RUNS = 150;

const tmp = tempDir('bytes-fuzz');
beforeAll(() => mkdirSync(tmp.path, { recursive: true }));
afterAll(tmp.remove);

/** A damage: some bytes replaced (xor with a non-zero byte), then perhaps the data cut at some length. */
const damage = fc.record({
  flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 4 }),
  cut: fc.option(fc.nat(), { freq: 3 }),
});
type Damage = { flips: [number, number][]; cut: number | null };

function damaged(bytes: Uint8Array, d: Damage): Buffer {
  const out = Buffer.from(bytes);
  if (out.length > 0) for (const [at, x] of d.flips) out[at % out.length]! ^= x;
  return d.cut === null ? out : out.subarray(0, d.cut % (out.length + 1));
}

/** Runs a read: it returns, or throws an error `named` accepts; anything else fails the test. */
function boundedRead(read: () => unknown, named: (err: Error) => boolean = () => false): void {
  try {
    read();
  } catch (err) {
    if (err instanceof BytesError) return;
    if (err instanceof Error && named(err)) return;
    throw err;
  }
}

describe('binary formats on damaged bytes', () => {
  it('the work store: a damaged row decodes and serializes, or ends in a BytesError', () => {
    // Every field kind with a value, so every reader path runs; the symbol tables hold what the row names.
    const id = 'W42';
    const valueOf: Record<string, unknown> = {
      text: 'a reason, "quoted"',
      words: 'a title of rare words',
      prefixed: '10.1234/abc.5',
      sym: 's1',
      symlist: 's1; s2',
      int: -2020,
      num: 0.125,
      numlist: '0.1;0.25;-3',
      bool: true,
      self: id,
    };
    const values = WORK_FIELDS.map((f) => valueOf[f.kind]);
    const tables: SymbolTables = {};
    for (const { table, kind } of symbolFields()) tables[table] = kind === 'words' ? ['title', 'of'] : kind === 'prefixed' ? ['10.1234'] : ['s1', 's2'];
    const label = Object.fromEntries(LABEL_FIELDS.map(([f, kind]) => [f, kind === 'bool' ? false : 's2'])) as unknown as LabelRow;
    const people = { row: (n: number) => (n === 7 ? 0 : -1), names: Texts.of(['A. Name']), orcids: Texts.of(['']) };
    const w = new ByteBuffer();
    encodeWork(w, id, values, [{ author: 7, position: 1, is_ca: true }], [label], symbolCodes(tables));
    const full = w.take();
    encodeWork(
      w,
      id,
      WORK_FIELDS.map(() => null),
      [],
      [],
      symbolCodes(tables),
    );
    const empty = w.take();
    // The undamaged rows read back.
    expect(workItemJson(decodeWork(full, id, tables, people))).toContain('a title of rare words');
    workCsvLine(decodeWork(empty, id, tables, people));
    fc.assert(
      fc.property(fc.boolean(), damage, (whole, d) => {
        const row = damaged(whole ? full : empty, d);
        boundedRead(() => {
          const work = decodeWork(row, id, tables, people, 'works.bin', 1000);
          JSON.parse(workItemJson(work));
          workCsvLine(work);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('the cohort index: a packed list decodes or ends in a BytesError; a typed column file is whole elements or a BytesError', () => {
    const values = [3, 9, 200, 1000, 70_000, 2 ** 31];
    const w = new ByteBuffer();
    values.forEach((v, k) => w.uvar(k === 0 ? v : v - values[k - 1]!));
    const packed = w.take();
    expect([...decodeDeltas(packed, values.length)]).toEqual(values);
    const dir = tmp.path;
    const u32 = Buffer.from(Uint32Array.from(values).buffer);
    const f64 = Buffer.from(Float64Array.from([0, 4, 9, 2 ** 33]).buffer);
    fc.assert(
      fc.property(damage, fc.nat({ max: 8 }), (d, n) => {
        boundedRead(() => decodeDeltas(damaged(packed, d), n === 8 ? values.length : n, 'title_terms.values.dv'));
        writeFileSync(join(dir, 'col.u32'), damaged(u32, d));
        boundedRead(() => readArray(join(dir, 'col.u32'), 'u32'));
        writeFileSync(join(dir, 'off.f64'), damaged(f64, d));
        boundedRead(() => readOffsets(join(dir, 'off.f64')));
      }),
      { numRuns: RUNS },
    );
  });

  it('the search postings: a damaged blob decodes or ends in a BytesError', () => {
    const term = encodeTerm({ ids: [1, 2, 40, 300, 70_000], offsets: [[0], [3, 9], [1], [2, 5, 600], [7]] });
    const sizes = encodeVarints([12, 0, 300, 2 ** 20]);
    fc.assert(
      fc.property(damage, fc.nat({ max: 6 }), (d, n) => {
        boundedRead(() => decodePostings(damaged(term.postings, d), n === 6 ? 5 : n, 'search_terms.postings'));
        boundedRead(() => decodePositions(damaged(term.positions, d), term.offsetWidth, 'search_terms.positions'));
        boundedRead(() => decodeVarints(damaged(sizes, d), n === 6 ? 4 : n, 'search_documents.sizes'));
      }),
      { numRuns: RUNS },
    );
  });

  it('the excerpt index: a damaged row of its table reads back as an index or ends in a named error', async () => {
    const s = await sqlite3();
    // Six excerpts of three articles, with occurrences of two phrases.
    const occStart = Int32Array.from([0, 1, 3, 3, 4, 6, 7]);
    const occurrences = occStart[6]!;
    const data = completeExcerptIndex(
      {
        size: 6,
        occStart,
        occPhrase: Uint16Array.from([0, 1, 0, 1, 0, 1, 1]),
        occBand: Uint8Array.from([0, 1, 2, 0, 1, 2, 3]),
        occStatus: Uint8Array.from([0, 0, 1, 0, 2, 0, 1]),
        occP: Float64Array.from([0.06, NaN, 0.07, 0.051, NaN, 0.09, 0.1]),
        occPAny: Float64Array.from([0.06, 0.1, 0.07, 0.051, NaN, 0.09, 0.1]),
        articleOf: Int32Array.from([0, 0, 1, 1, 2, 2]),
        yearOf: Int16Array.from([2001, 2001, -1, -1, 2020, 2020]),
      },
      2,
    );
    expect(data.occPhrase.length).toBe(occurrences);
    const db = new s.oo1.DB(':memory:');
    try {
      const fresh = () => {
        db.exec('DROP TABLE IF EXISTS excerpt_index; CREATE TABLE excerpt_index (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data BLOB)');
        writeExcerptIndex(db, data);
      };
      fresh();
      expect(readExcerptIndex(db)).toEqual(data);
      const rows = Number(db.selectValue('SELECT count(*) FROM excerpt_index'));
      fc.assert(
        fc.property(fc.nat(), damage, (row, d) => {
          fresh();
          const id = (row % rows) + 1;
          const blob = db.selectValue('SELECT data FROM excerpt_index WHERE id = ?', [id]) as Uint8Array;
          db.exec({ sql: 'UPDATE excerpt_index SET data = ? WHERE id = ?', bind: [damaged(blob, d), id] });
          boundedRead(
            () => readExcerptIndex(db),
            (err) => /^the excerpt index/.test(err.message),
          );
        }),
        { numRuns: RUNS },
      );
    } finally {
      db.close();
    }
  });

  it("the extraction cache: a damaged segment or index is a miss or the entry's data, never an exception", () => {
    const dir = join(tmp.path, 'cache');
    mkdirSync(dir, { recursive: true });
    const sha = (i: number) => String(i).padStart(64, '0');
    const first = new ExtractionCache(dir, 'lex');
    for (let i = 0; i < 6; i++)
      first.putArticle(sha(i), { pmcid: `PMC${i}`, text: 'x'.repeat(50 * i) } as unknown as ExtractedArticle, JSON.stringify({ pmcid: `PMC${i}` }));
    first.prune();
    const seg = join(dir, 'segments');
    const files = ['idx', 'jsonl'].map((ext) => {
      const name = readdirSync(seg).find((n) => n.endsWith(`.${ext}`))!;
      return { path: join(seg, name), bytes: readFileSync(join(seg, name)) };
    });
    fc.assert(
      fc.property(fc.boolean(), damage, (index, d) => {
        for (const f of files) writeFileSync(f.path, f.bytes);
        const f = files[index ? 0 : 1]!;
        writeFileSync(f.path, damaged(f.bytes, d));
        const cache = new ExtractionCache(dir, 'lex');
        for (let i = 0; i < 6; i++) {
          cache.getSummary(sha(i));
          cache.getArticle(sha(i));
        }
        cache.getSummaries([0, 1, 2, 3, 4, 5].map(sha));
      }),
      { numRuns: RUNS },
    );
  });
});
