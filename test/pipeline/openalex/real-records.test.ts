/**
 * The OpenAlex builder on real OpenAlex records (../shared/reference/openalex/): every work's routes, fields
 * and authorships checked against an independent oracle (helpers/openalex-oracle.ts), then end to end:
 * builder → pipeline → server, with /cohort totals per route equal to the oracle's counts.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPipeline } from '../../../pipeline/build.ts';
import { silentProgress } from '../../../pipeline/lib/progress.ts';
import { buildFromOpenAlex, type BuildReport } from '../../../pipeline/openalex/build.ts';
import { appFor } from '../../helpers/app.ts';
import { tempDir } from '../../helpers/fixture-build.ts';
import { type ExpectedWork, expectedWork, latestVersions, type OracleRecord } from '../../helpers/openalex-oracle.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const REF = sharedPath('reference/openalex');
const present = needShared('reference/openalex/works-api', "the OpenAlex builder's real-record tests");

const readCsv = (path: string) => parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];
const tail = (url: unknown) => (typeof url === 'string' ? (url.split('/').pop() ?? '') : '');

describe.skipIf(!present)('snapshot:from-openalex on real OpenAlex records', () => {
  const tmp = tempDir('oa-real');
  const flat = join(tmp.path, 'flat');
  const out = join(tmp.path, 'snapshot');
  const records: OracleRecord[] = [];
  const files: string[] = [];
  let expected: Map<string, ExpectedWork>;
  let report: BuildReport;

  beforeAll(async () => {
    mkdirSync(flat);
    // A flat directory: each reference file as JSON Lines (gzipped or not), plus the real legacy partition.
    const sources = readdirSync(join(REF, 'works-api')).sort();
    sources.forEach((f, k) => {
      const doc = JSON.parse(readFileSync(join(REF, 'works-api', f), 'utf8'));
      const list: Record<string, unknown>[] = Array.isArray(doc) ? doc : (doc.results ?? [doc]);
      const name = f.replace(/\.json$/, k % 2 ? '.jsonl' : '.jsonl.gz');
      const text = `${list.map((w) => JSON.stringify(w)).join('\n')}\n`;
      writeFileSync(join(flat, name), k % 2 ? text : gzipSync(text));
      list.forEach((rec, i) => records.push({ rec, file: name, line: i + 1 }));
    });
    const legacy = readFileSync(join(REF, 'snapshot-legacy-sample/data/works/updated_date=2023-05-16/part_000.gz'));
    writeFileSync(join(flat, 'legacy-part_000.gz'), legacy);
    gunzipSync(legacy)
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .forEach((l, i) => records.push({ rec: JSON.parse(l), file: 'legacy-part_000.gz', line: i + 1 }));
    files.push(...readdirSync(flat).sort());

    // Pinned lists chosen from the records themselves, so that routes fund and venue admit real works.
    const funderIds = [
      ...new Set(
        records.flatMap(({ rec }: OracleRecord) => [
          ...((rec.funders as { id: string }[]) ?? []).map((f) => tail(f.id)),
          ...((rec.grants as { funder: string }[]) ?? []).map((g) => tail(g.funder)),
        ]),
      ),
    ].sort();
    const sourceIds = [
      ...new Set(records.map(({ rec }) => tail((rec.primary_location as { source?: { id: string } } | null)?.source?.id)).filter((s) => s !== '')),
    ].sort();
    const funders = funderIds.filter((_, k) => k % 3 === 0);
    const sourcesPinned = sourceIds.filter((_, k) => k % 7 === 0);
    writeFileSync(join(tmp.path, 'funders.csv'), `id,name\n${funders.map((id) => `${id},Funder ${id}`).join('\n')}\n`);
    writeFileSync(join(tmp.path, 'sources.csv'), `id,name\n${sourcesPinned.map((id) => `${id},Source ${id}`).join('\n')}\n`);

    const lists = { funders: new Set(funders), sources: new Set(sourcesPinned) };
    expected = new Map();
    for (const [, r] of latestVersions(records, files)) {
      const w = expectedWork(r.rec, lists);
      if (w) expected.set(w.id, w);
    }

    ({ report } = await buildFromOpenAlex({
      works: flat,
      out,
      name: 'oa-real',
      allowIncomplete: false,
      excludeXpac: false,
      funders: { csv: join(tmp.path, 'funders.csv') },
      sources: { csv: join(tmp.path, 'sources.csv') },
      retractionWatch: join(REF, 'retraction-watch', 'radRetraction_RWD_RAD.csv'),
      labels: {},
      maxBadFraction: 0.001,
      threads: 2,
      buildDate: '2026-11-24',
      memoryLimit: '512MB',
      progress: silentProgress,
    }));
  }, 120_000);
  afterAll(() => tmp.remove());

  it('reads every record, none bad, and the oracle admits works by each route', () => {
    expect(report.records).toBe(records.length);
    expect(report.bad).toBe(0);
    const byRoute = (k: keyof ExpectedWork['routes']) => [...expected.values()].filter((w) => w.routes[k]).length;
    // The fixture exercises every route (else the comparisons below would prove little).
    for (const k of ['aff', 'fund', 'venue', 'about'] as const) expect(byRoute(k), k).toBeGreaterThan(0);
  });

  it('works.csv holds exactly the oracle works, every cell equal', () => {
    const rows = readCsv(join(out, 'works.csv'));
    expect(rows.map((r) => r.id).sort()).toEqual([...expected.keys()].sort());
    for (const row of rows) expect(row, row.id).toEqual(expected.get(row.id!)!.cells);
  });

  it('authorships and authors follow the byline, is_ca per authorship', () => {
    const rows = readCsv(join(out, 'authorships.csv'));
    const want = [...expected.values()].flatMap((w) =>
      w.authorships.map((a) => ({ work_id: w.id, author_id: a.author_id, position: String(a.position), is_ca: String(a.is_ca) })),
    );
    const key = (r: { work_id?: string; position?: string }) => `${r.work_id}#${r.position}`;
    expect(rows.map(key).sort()).toEqual(want.map(key).sort());
    const byKey = new Map(want.map((a) => [key(a), a]));
    for (const r of rows) expect(r).toEqual(byKey.get(key(r)));
    const authors = readCsv(join(out, 'authors.csv'));
    expect(authors.map((a) => a.id).sort()).toEqual([...new Set(want.map((a) => a.author_id))].sort());
  });

  it('writes the manifest with synthetic false and its provenance', () => {
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(m.synthetic).toBe(false);
    expect(m.provenance.upstream.layout).toBe('flat');
    expect(m.provenance.partitions).toHaveLength(files.length);
    expect(m.provenance.partitions.reduce((s: number, p: { records: number }) => s + p.records, 0)).toBe(records.length);
    expect(m.provenance.label_tables).toEqual({ direct_labels: null, predictions: null, screened: null, legacy_scores: null });
    expect(m.provenance.retraction_watch.rows).toBe(6);
    expect(m.tables.predictions.rows).toBe(0);
  });

  it('end to end: the pipeline builds it and the server answers /cohort with the oracle counts per route', async () => {
    const build = join(tmp.path, 'build');
    await runPipeline({ snapshot: out, out: build, workFiles: true, threads: 0, keep: 1, progress: silentProgress });
    const { app, close } = await appFor(build);
    try {
      const total = async (q: string) => {
        const res = await app.inject({ url: `/frame/api/v1/cohort${q}` });
        expect(res.statusCode, q).toBe(200);
        return JSON.parse(res.body).meta.total as number;
      };
      expect(await total('')).toBe(expected.size);
      for (const route of ['aff', 'fund', 'venue', 'about'] as const)
        expect(await total(`?route=${route}`), route).toBe([...expected.values()].filter((w) => w.routes[route]).length);
      // No labels in this snapshot: every label-dependent answer is honest (coverage 0), never a 500.
      const cohort = JSON.parse((await app.inject({ url: '/frame/api/v1/cohort?category=metaresearch&label_source=predicted' })).body);
      expect(cohort.meta.total).toBe(0);
      expect(cohort.meta.predictions_cover).toBe(0);
      for (const path of [
        '/stats/summary',
        '/stats/labels',
        '/stats/by-route',
        '/stats/by-year',
        '/stats/by-field',
        '/findings',
        '/predictions',
        '/screened',
        '/network',
        '/cohort/facets?facet=route',
        '/works',
        '/cohort/export?format=csv',
      ]) {
        const res = await app.inject({ url: `/frame/api/v1${path}` });
        expect(res.statusCode, path).toBe(200);
      }
    } finally {
      await close();
    }
  }, 180_000);

  it('reads the real legacy layout: refuses the incomplete download, then builds from the one partition present', async () => {
    const legacy = join(REF, 'snapshot-legacy-sample');
    const base = {
      out: join(tmp.path, 'legacy'),
      name: 'legacy',
      excludeXpac: false,
      labels: {},
      maxBadFraction: 0.001,
      threads: 1,
      buildDate: '2026-11-24',
      memoryLimit: '256MB',
      progress: silentProgress,
    };
    await expect(buildFromOpenAlex({ ...base, works: legacy, allowIncomplete: false })).rejects.toThrow(/464 of 465 files the manifest lists are missing/);
    const { manifest, report: r } = await buildFromOpenAlex({
      ...base,
      works: legacy,
      allowIncomplete: true,
      sources: { dir: join(legacy, 'data', 'sources') },
      funders: { dir: join(legacy, 'data', 'funders') },
    });
    expect(manifest.provenance!.upstream).toMatchObject({
      layout: 'legacy',
      partitions_read: 1,
      partitions_missing_count: 464,
      records_read: 27,
      manifest_records: 244371844,
    });
    expect(manifest.provenance!.partitions[0]).toMatchObject({
      file: 'updated_date=2023-05-16/part_000.gz',
      records: 27,
      manifest_records: 27,
      sha256: '319b451c5cacb257f14f50f6fe59d2f8f113fb8a2ba9b8a6bbb6d27efcbf1d0c',
    });
    // The three Canadian journals of the real source partition (SOURCES.md), none of the three funders.
    expect(readCsv(join(tmp.path, 'legacy', 'canadian_sources.csv')).map((x) => x.id)).toEqual(['S4210168420', 'S4210206500', 'S4210206923']);
    expect(manifest.tables.canadian_funders.rows).toBe(0);
    expect(r.bad).toBe(0);
    expect(r.works).toBe(0); // 26 grants and one 1992 article: nothing Canadian
  }, 60_000);
});
