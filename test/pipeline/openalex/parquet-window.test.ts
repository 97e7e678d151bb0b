/**
 * The Parquet source of the SQL rules casts nested columns by name to the types the rules read and turns the
 * inverted index into a map only inside the harvest window. Records on every edge of the window, and a file
 * whose structs lack a key the rules read, must give the same snapshot as the JSON Lines source.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck } from '../../../pipeline/lib/duckdb.ts';
import { silentProgress } from '../../../pipeline/lib/progress.ts';
import { type BuildOptions, buildFromOpenAlex } from '../../../pipeline/openalex/build.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

const OA = 'https://openalex.org/';
const ca = (n: number) => ({
  author: { id: `${OA}A${n}`, display_name: `Author ${n}`, orcid: null },
  institutions: [{ id: `${OA}I1`, display_name: 'Université Laval', country_code: 'CA' }],
  countries: ['CA'],
});
const work = (n: number, extra: Record<string, unknown>) => ({
  id: `${OA}W${n}`,
  title: `Soil chemistry ${n}`,
  publication_year: 2015,
  publication_date: '2015-06-01',
  type: 'article',
  updated_date: '2026-01-01T00:00:00',
  authorships: [ca(n)],
  ...extra,
});

const FILES = [
  [
    work(201, { publication_year: 2000 }),
    work(202, { publication_year: 2025 }),
    work(203, { publication_year: 1999 }),
    work(204, { publication_year: null, publication_date: '2010-05-05' }), // the year from the date
    work(205, { publication_year: null, publication_date: '1990-01-01' }),
    work(206, { publication_year: 2026, publication_date: '2010-01-01' }), // the year wins over the date
    work(207, { publication_year: null, publication_date: null }),
    work(208, { title: null, display_name: 'Display title', publication_year: 2012 }),
    work(209, { title: null, display_name: null, publication_year: 2012 }),
  ],
  // Authorships without `countries`: the schema knows the key, this file's structs do not have it.
  [
    work(210, {
      authorships: [
        { author: { id: `${OA}A10`, display_name: 'Author 10' }, institutions: [{ id: `${OA}I1`, display_name: 'Université Laval', country_code: 'CA' }] },
      ],
    }),
  ],
];

describe('snapshot:from-openalex, Parquet window and projection', () => {
  const tmp = tempDir('oa-pq-window');
  const root = join(tmp.path, 'openalex');
  const options = (out: string, format: 'jsonl' | 'parquet'): BuildOptions => ({
    works: root,
    out,
    name: 'window',
    format,
    allowIncomplete: false,
    excludeXpac: false,
    labels: {},
    maxBadFraction: 0,
    threads: 1,
    buildDate: '2026-11-24',
    memoryLimit: '256MB',
    progress: silentProgress,
  });

  beforeAll(async () => {
    const duck = await openDuck(':memory:');
    for (const format of ['jsonl', 'parquet'] as const) {
      const dir = join(root, 'data', format, 'works');
      const files = [];
      for (const [k, recs] of FILES.entries()) {
        const rel = `updated_date=2026-01-0${k + 1}/part_0000.${format === 'jsonl' ? 'gz' : 'parquet'}`;
        mkdirSync(join(dir, rel, '..'), { recursive: true });
        const text = `${recs.map((r) => JSON.stringify(r)).join('\n')}\n`;
        if (format === 'jsonl') writeFileSync(join(dir, rel), gzipSync(text));
        else {
          const src = join(tmp.path, `src-${k}.jsonl`);
          writeFileSync(src, text);
          await duck.run(`COPY (SELECT * FROM read_json('${src}', format = 'newline_delimited', sample_size = -1)) TO '${join(dir, rel)}' (FORMAT parquet)`);
        }
        files.push({ url: `s3://openalex/data/${format}/works/${rel}`, meta: { content_length: statSync(join(dir, rel)).size, record_count: recs.length } });
      }
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ date: '2026-03-15', format, entity: 'works', files }));
    }
    duck.close();
  }, 60_000);
  afterAll(() => tmp.remove());

  it('admits the same works, with the same fields and authorships, as the JSON Lines reader', async () => {
    await buildFromOpenAlex(options(join(tmp.path, 'jsonl'), 'jsonl'));
    await buildFromOpenAlex(options(join(tmp.path, 'parquet'), 'parquet'));
    const read = (format: string, file: string) => readFileSync(join(tmp.path, format, file), 'utf8');
    const ids = read('jsonl', 'works.csv')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[0]);
    expect(ids).toEqual(['W201', 'W202', 'W204', 'W208', 'W210']);
    // report.json too: the same records read, the same skipped per reason (window 5), no bad record.
    for (const file of ['works.csv', 'authorships.csv', 'authors.csv', 'report.json']) expect(read('parquet', file)).toBe(read('jsonl', file));
    expect(JSON.parse(read('parquet', 'report.json'))).toMatchObject({ records: 10, bad: 0, skipped: { window: 5 } });
  }, 60_000);
});
