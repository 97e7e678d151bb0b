/**
 * Hand-written OpenAlex records for every edge of the frame rules and the snapshot's layouts (2026 JSON
 * Lines and Parquet with manifest.json and deleted_ids.csv, the legacy layout, an incomplete download), bad
 * input and resuming from checkpoints.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '../../../pipeline/lib/progress.ts';
import { silentProgress } from '../../../pipeline/lib/progress.ts';
import { openDuck } from '../../../pipeline/lib/duckdb.ts';
import { type BuildOptions, buildFromOpenAlex } from '../../../pipeline/openalex/build.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

const OA = 'https://openalex.org/';
const ca = { institutions: [{ id: `${OA}I1`, display_name: 'Université Laval', country_code: 'CA' }], countries: ['CA'] };
const elsewhere = { institutions: [{ id: `${OA}I2`, display_name: 'Universität Wien', country_code: 'AT' }], countries: ['AT'] };
const by = (n: number, aff: object) => ({
  author: { id: `${OA}A${n}`, display_name: `Author ${n}`, orcid: n % 2 ? `https://orcid.org/0000-0002-1825-00${String(n).padStart(2, '0')}` : null },
  ...aff,
});
const work = (n: number, extra: Record<string, unknown>) => ({
  id: `${OA}W${n}`,
  title: `Study number ${n} of soil chemistry`,
  publication_year: 2015,
  publication_date: '2015-06-01',
  language: 'en',
  type: 'article',
  cited_by_count: n,
  is_retracted: false,
  updated_date: '2026-01-01T00:00:00',
  authorships: [by(n, elsewhere)],
  ...extra,
});

const A = [
  work(101, { authorships: [by(1, { institutions: [{ id: `${OA}I3`, display_name: 'Unresolved lab', country_code: null }], countries: ['CA'] })] }), // CA only in countries
  work(102, { awards: [{ funder_id: `${OA}F1001`, funder_display_name: 'Conseil de recherches' }] }), // award funder only
  work(103, { title: 'Fog over London, Victoria and Windsor' }), // Tier C without Tier A
  work(104, { title: 'La santé des aînés au Québec', language: 'fr' }), // French-only title
  work(105, { publication_year: 1999, authorships: [by(5, ca)] }),
  work(106, { publication_year: 2026, authorships: [by(6, ca)] }),
  work(107, { title: null, authorships: [by(7, ca)] }),
  work(108, { type: 'grant', authorships: [by(8, ca)] }),
  work(109, { title: 'Old title', authorships: [by(9, ca)] }), // superseded by partition B
  work(110, { authorships: [by(10, ca)] }), // deleted
  work(111, { authorships: [by(11, ca)] }), // loses its last route in partition B
  work(112, { primary_location: undefined, host_venue: { id: `${OA}S2001`, display_name: 'Revue canadienne' } }), // old schema venue
  work(113, { grants: [{ funder: `${OA}F1001`, funder_display_name: 'Conseil de recherches', award_id: 'X' }] }), // old schema fund
  work(114, { is_xpac: true, authorships: [by(14, ca)] }),
  work(115, { doi: 'https://doi.org/10.1234/ABC.1', is_retracted: true, authorships: [by(15, ca)] }),
  work(116, { doi: 'https://doi.org/10.1234/eoc.2', authorships: [by(16, ca)] }),
  work(117, { doi: 'https://doi.org/10.1234/eoc.3', authorships: [by(17, ca)] }),
  work(118, { doi: 'https://doi.org/10.1234/cor.4', authorships: [by(18, ca)] }),
  work(119, { abstract_inverted_index: { Patients: [0], in: [1], Saskatoon: [2] } }), // about via the abstract only
  work(120, { keywords: [{ id: 'k', display_name: 'Nunavut', score: 0.5 }] }), // about via a keyword only
];
const B = [
  work(109, { title: 'New title', updated_date: '2026-03-01T00:00:00', authorships: [by(9, ca)] }),
  work(111, { updated_date: '2026-03-01T00:00:00' }),
];
const BAD = ['{"id": "https://openalex.org/W999", "title": ', '{"title": "a record without an id", "publication_year": 2010}'];
const RW_HEADER =
  'Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,RetractionDate,RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,OriginalPaperPubMedID,RetractionNature,Reason,Paywalled,Notes';
const rw = (id: number, date: string, doi: string, nature: string, reason: string) =>
  `${id},T,S,I,J,P,Canada,Au,,Research Article;,${date} 0:00,10.9/r${id},0,1/1/2015 0:00,${doi},0,${nature},${reason},No,`;
const RW = [
  RW_HEADER,
  rw(1, '3/4/2020', '10.1234/abc.1', 'Retraction', '+Paper Mill;'),
  rw(2, '1/2/2020', '10.1234/eoc.2', 'Retraction', '+Error in Data;'),
  rw(3, '5/6/2022', '10.1234/EOC.2', 'Reinstatement', '+Investigation by Journal/Publisher;'),
  rw(4, '7/8/2021', '10.1234/eoc.3', 'Expression of concern', '+Concerns/Issues About Data;'),
  rw(5, '9/10/2021', '10.1234/cor.4', 'Correction', '+Error in Figure;'),
].join('\n');

const lines = (records: object[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const readCsv = (path: string) => parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];

function capture(): Progress & { lines: string[] } {
  const lines: string[] = [];
  return { ...silentProgress, lines, log: (m) => lines.push(m) };
}

describe('snapshot:from-openalex on hand-written edge records', () => {
  const tmp = tempDir('oa-edge');
  const root = join(tmp.path, 'openalex');
  const jsonl = join(root, 'data', 'jsonl', 'works');
  const parts = [
    { rel: 'updated_date=2026-01-01/part_0000.gz', text: lines(A).replace(/\n$/, `\n${BAD.join('\n')}\n`), records: A.length + BAD.length },
    { rel: 'updated_date=2026-03-01/part_0000.gz', text: lines(B), records: B.length },
  ];
  const options = (out: string, extra: Partial<BuildOptions> = {}): BuildOptions => ({
    works: root,
    out,
    name: 'edge',
    allowIncomplete: false,
    excludeXpac: false,
    funders: { csv: join(tmp.path, 'funders.csv') },
    sources: { csv: join(tmp.path, 'sources.csv') },
    retractionWatch: join(tmp.path, 'rw.csv'),
    labels: {},
    maxBadFraction: 0.2,
    threads: 1,
    buildDate: '2026-11-24',
    memoryLimit: '256MB',
    progress: silentProgress,
    ...extra,
  });
  const manifest = (dir: string, entries: { rel: string; bytes: number; records: number }[]) =>
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        date: '2026-03-15',
        format: 'jsonl',
        entity: 'works',
        record_count: entries.reduce((s, e) => s + e.records, 0),
        files: entries.map((e) => ({ url: `s3://openalex/data/jsonl/works/${e.rel}`, meta: { content_length: e.bytes, record_count: e.records } })),
      }),
    );

  let works: Map<string, Record<string, string>>;
  beforeAll(async () => {
    for (const p of parts) {
      mkdirSync(join(jsonl, p.rel, '..'), { recursive: true });
      writeFileSync(join(jsonl, p.rel), gzipSync(p.text));
    }
    manifest(
      jsonl,
      parts.map((p) => ({ rel: p.rel, bytes: statSync(join(jsonl, p.rel)).size, records: p.records })),
    );
    writeFileSync(join(jsonl, 'deleted_ids.csv'), `work_id,deleted_date\n${OA}W110,2026-02-01\n`);
    writeFileSync(join(tmp.path, 'funders.csv'), 'id,name\nF1001,Conseil de recherches\n');
    writeFileSync(join(tmp.path, 'sources.csv'), `id,name\n${OA}S2001,Revue canadienne\n`);
    writeFileSync(join(tmp.path, 'rw.csv'), `${RW}\n`);
    await buildFromOpenAlex(options(join(tmp.path, 'out')));
    works = new Map(readCsv(join(tmp.path, 'out', 'works.csv')).map((r) => [r.id!, r]));
  }, 60_000);
  afterAll(() => tmp.remove());

  const routes = (id: string) => {
    const r = works.get(id);
    return r ? (['aff', 'fund', 'venue', 'about'] as const).filter((k) => r[k === 'about' ? 'route_about_ca' : `route_ca_${k}`] === 'true') : null;
  };

  it('admits each route by its own evidence', () => {
    expect(routes('W101')).toEqual(['aff']); // CA only in countries
    expect(routes('W102')).toEqual(['fund']); // award funder only
    expect(routes('W113')).toEqual(['fund']); // grants (older schema)
    expect(routes('W112')).toEqual(['venue']); // host_venue (older schema)
    expect(routes('W104')).toEqual(['about']); // French-only title
    expect(routes('W119')).toEqual(['about']); // abstract only
    expect(routes('W120')).toEqual(['about']); // keyword only
    expect(works.get('W101')!.ca_institutions).toBe('');
    expect(works.get('W102')!.funders).toBe('Conseil de recherches');
    expect(works.get('W112')!.venue).toBe('Revue canadienne');
  });

  it('leaves out Tier C alone, years 1999 and 2026, no title, type grant', () => {
    for (const id of ['W103', 'W105', 'W106', 'W107', 'W108']) expect(routes(id), id).toBeNull();
  });

  it('keeps the latest version, applies deletions, drops a work whose newer version lost its last route', () => {
    expect(works.get('W109')!.title).toBe('New title');
    expect(routes('W110')).toBeNull();
    expect(routes('W111')).toBeNull();
    expect(routes('W114')).toEqual(['aff']); // expansion corpus included by default
    const m = JSON.parse(readFileSync(join(tmp.path, 'out', 'manifest.json'), 'utf8'));
    expect(m.provenance.deletions).toMatchObject({ ids: 1, works_removed: 1 });
    expect(m.provenance.superseded_versions).toBe(2); // W109 and W111 of partition A
    expect(m.provenance.upstream).toMatchObject({ layout: 'jsonl-2026', release_date: '2026-03-15', records_read: 24, bad_records: 2 });
    expect(m.release_date).toBe('2026-03-15');
    expect(works.size).toBe(13);
  });

  it('joins Retraction Watch on the lower-cased DOI: four natures, the latest notice, openalex_flagged from is_retracted', () => {
    const r = new Map(readCsv(join(tmp.path, 'out', 'retractions.csv')).map((x) => [x.work_id!, x]));
    expect(r.get('W115')).toMatchObject({ nature: 'Retraction', openalex_flagged: 'true', reason: '+Paper Mill;' });
    expect(r.get('W116')).toMatchObject({ nature: 'Reinstatement', openalex_flagged: 'false', retraction_date: '5/6/2022 0:00' });
    expect(r.get('W117')!.nature).toBe('Expression of concern');
    expect(r.get('W118')!.nature).toBe('Correction');
    expect(r.size).toBe(4);
  });

  it('authorships carry is_ca and bare ORCID iDs', () => {
    const a = readCsv(join(tmp.path, 'out', 'authorships.csv')).filter((x) => x.work_id === 'W101');
    expect(a).toEqual([{ work_id: 'W101', author_id: 'A1', position: '1', is_ca: 'true' }]);
    const authors = new Map(readCsv(join(tmp.path, 'out', 'authors.csv')).map((x) => [x.id!, x]));
    expect(authors.get('A1')).toEqual({ id: 'A1', name: 'Author 1', orcid: '0000-0002-1825-0001' });
  });

  it('reports bad lines (file, line, reason) and counts them', () => {
    const report = JSON.parse(readFileSync(join(tmp.path, 'out', 'report.json'), 'utf8'));
    expect(report.bad).toBe(2);
    expect(report.first_bad).toEqual([
      { file: parts[0]!.rel, line: A.length + 1, reason: expect.stringMatching(/^malformed JSON/) },
      { file: parts[0]!.rel, line: A.length + 2, reason: 'record without an id' },
    ]);
  });

  it('fails over the bad-line threshold, leaves the output untouched, and a rerun resumes from the checkpoints', async () => {
    const out = join(tmp.path, 'out');
    const before = readFileSync(join(out, 'manifest.json'), 'utf8');
    const work = join(tmp.path, 'work');
    await expect(buildFromOpenAlex(options(out, { maxBadFraction: 0.001, workDir: work }))).rejects.toThrow(/2 of 24 records are bad/);
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(before);
    expect(JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')).first_bad).toHaveLength(2);
    const progress = capture();
    await buildFromOpenAlex(options(out, { workDir: work, progress }));
    expect(progress.lines.some((l) => l.startsWith('resuming: 2 of 2 partitions already read'))).toBe(true);
    expect(existsSync(work)).toBe(false);
  }, 60_000);

  it('leaves the expansion corpus out with --exclude-xpac', async () => {
    const out = join(tmp.path, 'no-xpac');
    await buildFromOpenAlex(options(out, { excludeXpac: true }));
    const ids = readCsv(join(out, 'works.csv')).map((r) => r.id);
    expect(ids).not.toContain('W114');
    expect(ids).toHaveLength(12);
  }, 60_000);

  it('refuses an incomplete download, naming the missing files', async () => {
    const dir = join(tmp.path, 'incomplete', 'data', 'jsonl', 'works');
    mkdirSync(join(dir, 'updated_date=2026-01-01'), { recursive: true });
    writeFileSync(join(dir, parts[1]!.rel.replace('2026-03-01', '2026-01-01')), gzipSync(parts[1]!.text));
    manifest(dir, [
      { rel: 'updated_date=2026-01-01/part_0000.gz', bytes: statSync(join(dir, 'updated_date=2026-01-01/part_0000.gz')).size, records: 2 },
      { rel: 'updated_date=2026-02-02/part_0001.gz', bytes: 100, records: 5 },
    ]);
    await expect(buildFromOpenAlex(options(join(tmp.path, 'inc-out'), { works: join(tmp.path, 'incomplete') }))).rejects.toThrow(
      /1 of 2 files .*\n.*updated_date=2026-02-02\/part_0001\.gz \(absent\)/,
    );
    expect(existsSync(join(tmp.path, 'inc-out'))).toBe(false);
  });

  it('reads the Parquet copy of the 2026 layout to the same frame', async () => {
    const pq = join(root, 'data', 'parquet', 'works');
    const entries = [];
    for (const [k, recs] of [A, B].entries()) {
      const rel = parts[k]!.rel.replace('.gz', '.parquet');
      mkdirSync(join(pq, rel, '..'), { recursive: true });
      // As in OpenAlex's Parquet, the inverted index travels as JSON text.
      const src = join(tmp.path, `pq-${k}.jsonl`);
      writeFileSync(
        src,
        lines(recs.map((r) => ({ ...r, abstract_inverted_index: 'abstract_inverted_index' in r ? JSON.stringify(r.abstract_inverted_index) : null }))),
      );
      const duck = await openDuck(':memory:');
      await duck.run(`COPY (SELECT * FROM read_json('${src}', format = 'newline_delimited', sample_size = -1)) TO '${join(pq, rel)}' (FORMAT parquet)`);
      duck.close();
      entries.push({ rel, bytes: statSync(join(pq, rel)).size, records: recs.length });
    }
    manifest(pq, entries);
    writeFileSync(join(pq, 'deleted_ids.csv'), `work_id,deleted_date\n${OA}W110,2026-02-01\n`);
    const out = join(tmp.path, 'pq-out');
    await buildFromOpenAlex(options(out, { format: 'parquet' }));
    const pqWorks = readCsv(join(out, 'works.csv'));
    expect(pqWorks).toEqual([...works.values()]);
    await expect(buildFromOpenAlex(options(join(tmp.path, 'either'), {}))).rejects.toThrow(/choose one with --format/);
  }, 60_000);
});
