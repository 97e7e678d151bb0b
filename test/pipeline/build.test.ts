import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANADIAN_LISTS_FILE, canadianListsSchema } from '../../contracts/frame/canadian-lists.ts';
import { MAX_CA_AUTHORS, OVERVIEW_EDGES } from '../../contracts/frame/network.ts';
import { titleTerms } from '../../contracts/frame/title-terms.ts';
import { ROUTE_COLUMN, ROUTES } from '../../contracts/frame/vocab.ts';
import { isUpToDate } from '../../pipeline/build.ts';
import { openDuck } from '../../pipeline/lib/duckdb.ts';
import { sha256File } from '../../pipeline/lib/hash.ts';
import { silentProgress } from '../../pipeline/lib/progress.ts';
import { buildFrameDatabase } from '../../pipeline/steps/frame/frame.duckdb.ts';
import { SERVED_TABLES } from '../../pipeline/steps/frame/served.duckdb.ts';
import { readManifest } from '../../pipeline/steps/frame/validate.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';
import { isTrue, readTable, type Row } from '../helpers/oracle.ts';

const tmp = tempDir('build');
let snapshot = '';
let works: Row[] = [];
const outA = () => join(tmp.path, 'out-a');
const outB = () => join(tmp.path, 'out-b');
const doc = (out: string, path: string) => JSON.parse(readFileSync(join(out, 'current', `${path}.json`), 'utf8'));

beforeAll(async () => {
  snapshot = await fixtureSnapshot(tmp.path);
  works = readTable(snapshot, 'works.csv');
  await fixtureBuild(snapshot, outA(), true);
  await fixtureBuild(snapshot, outB(), true);
});
afterAll(tmp.remove);

function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

describe('pipeline output', () => {
  it('is byte-identical for the same snapshot (the database by content fingerprint)', async () => {
    const a = join(outA(), 'current');
    const b = join(outB(), 'current');
    expect(readlinkSync(a)).toBe(readlinkSync(b));
    const files = tree(a);
    expect(files).toEqual(tree(b));
    expect(files.length).toBeGreaterThan(3_000);
    for (const f of files) {
      if (f === 'frame/frame.duckdb' || f === 'manifest.json') continue;
      expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
    }
    const ma = JSON.parse(readFileSync(join(a, 'manifest.json'), 'utf8'));
    const mb = JSON.parse(readFileSync(join(b, 'manifest.json'), 'utf8'));
    expect(ma.database_content).toEqual(mb.database_content);
    delete ma.files['frame/frame.duckdb'];
    delete mb.files['frame/frame.duckdb'];
    expect(ma).toEqual(mb);
  });

  it('lists the sha256 of every output in the manifest (work documents through their index)', async () => {
    const dir = join(outA(), 'current');
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    for (const [rel, e] of Object.entries(m.files) as [string, { sha256: string }][]) expect(await sha256File(join(dir, rel)), rel).toBe(e.sha256);
    const index = readFileSync(join(dir, m.work_documents.index), 'utf8').trim().split('\n');
    expect(index).toHaveLength(works.length);
    for (const line of index.slice(0, 50)) {
      const [sha, rel] = line.split('  ');
      expect(await sha256File(join(dir, rel!))).toBe(sha);
    }
  });

  it('knows when it is up to date with a snapshot', () => {
    expect(isUpToDate(snapshot, outA())).toBe(true);
    expect(isUpToDate(join(import.meta.dirname, '../../snapshots/sample'), outA())).toBe(false);
  });
});

describe('frozen statistics against the oracle (plain TypeScript over the CSV rows)', () => {
  it('summary', () => {
    const s = doc(outA(), 'frame/api/v1/stats/summary');
    const screened = readTable(snapshot, 'screened.csv');
    expect(s.works).toBe(works.length);
    expect(s.no_aff).toBe(works.filter((w) => !isTrue(w.route_ca_aff)).length);
    expect(s.no_abstract).toBe(works.filter((w) => !isTrue(w.has_abstract)).length);
    expect(s.retracted_openalex).toBe(works.filter((w) => isTrue(w.is_retracted)).length);
    for (const r of ROUTES) expect(s.routes[r], r).toBe(works.filter((w) => isTrue(w[ROUTE_COLUMN[r]])).length);
    expect(s.coverage.french).toBe(works.filter((w) => w.lang === 'fr').length);
    expect(s.coverage.has_venue).toBe(works.filter((w) => w.venue !== '').length);
    expect(s.screened).toBe(screened.length);
    for (let k = 0; k <= 3; k++) expect(s.screen_consensus[`n_in_${k}`]).toBe(screened.filter((r) => Number(r.n_in) === k).length);
    expect(s.retraction_notices).toBe(readTable(snapshot, 'retractions.csv').length);
  });

  it('by-route: combinations count each work once and sum to the total', () => {
    const d = doc(outA(), 'frame/api/v1/stats/by-route');
    const combos = new Map<string, number>();
    for (const w of works) {
      const c = ROUTES.filter((r) => isTrue(w[ROUTE_COLUMN[r]])).join('+');
      combos.set(c, (combos.get(c) ?? 0) + 1);
    }
    expect(Object.fromEntries(d.combinations.map((c: { combo: string; works: number }) => [c.combo, c.works]))).toEqual(Object.fromEntries(combos));
    expect(d.combinations.reduce((s: number, c: { works: number }) => s + c.works, 0)).toBe(works.length);
    expect(d.meta.no_aff).toBe(works.filter((w) => !isTrue(w.route_ca_aff)).length);
  });

  it('by-year', () => {
    const d = doc(outA(), 'frame/api/v1/stats/by-year');
    const years = new Map<number, number>();
    for (const w of works) if (w.year) years.set(Number(w.year), (years.get(Number(w.year)) ?? 0) + 1);
    expect(d.results.map((r: { year: number; works: number }) => [r.year, r.works])).toEqual([...years].sort((a, b) => a[0] - b[0]));
  });

  it('labels: any_model and all_models per category', () => {
    const d = doc(outA(), 'frame/api/v1/stats/labels');
    const labels = readTable(snapshot, 'direct_labels.csv');
    const byWork = new Map<string, Row[]>();
    for (const l of labels) byWork.set(l.work_id!, [...(byWork.get(l.work_id!) ?? []), l]);
    expect(d.coverage.labeled_works).toBe(byWork.size);
    for (const c of d.by_category as { category: string; any_model: number; all_models: number }[]) {
      const has = (l: Row) => l.categories!.split(';').includes(c.category);
      expect(c.any_model, c.category).toBe([...byWork.values()].filter((ls) => ls.some(has)).length);
      expect(c.all_models, c.category).toBe([...byWork.values()].filter((ls) => ls.every(has)).length);
    }
  });

  it('the title-term table holds exactly the terms the query side would cut from each title', async () => {
    // title_terms lives in the working database only (the cohort index is built from it): build that here.
    const db = join(tmp.path, 'working', 'frame-full.duckdb');
    mkdirSync(join(db, '..'), { recursive: true });
    await buildFrameDatabase(snapshot, db, readManifest(snapshot), silentProgress, join(tmp.path, 'working', 'spill'));
    const duck = await openDuck(db, { access_mode: 'READ_ONLY' });
    try {
      const rows = await duck.all<{ term: string; work_id: string }>('SELECT t.term, w.id AS work_id FROM title_terms t JOIN works w ON w.cohort_row = t.row');
      const expected = new Set(works.flatMap((w) => titleTerms(w.title!).map((t) => `${t}\u0000${w.id}`)));
      expect(rows.length).toBe(expected.size);
      for (const r of rows) expect(expected.has(`${r.term}\u0000${r.work_id}`), `${r.term} ${r.work_id}`).toBe(true);
    } finally {
      duck.close();
    }
  });

  it('work documents carry the row of works.csv', () => {
    for (const w of works.filter((_, i) => i % 300 === 0)) {
      const d = JSON.parse(readFileSync(join(outA(), 'current', 'frame/api/v1/works', `${w.id}.json`), 'utf8'));
      expect(d.id).toBe(w.id);
      expect(d.title).toBe(w.title);
      expect(d.cited_by).toBe(Number(w.cited_by));
      expect(d.routes).toEqual(ROUTES.filter((r) => isTrue(w[ROUTE_COLUMN[r]])));
      expect(d.funders).toEqual(w.funders ? w.funders.split('; ') : []);
    }
    expect(existsSync(join(outA(), 'current', 'frame/api/v1/works', 'W1.json'))).toBe(false);
  });
});

describe('frame/canadian-lists.json (the pinned lists of routes CA-FUND and CA-VENUE)', () => {
  const lists = () => JSON.parse(readFileSync(join(outA(), 'current', CANADIAN_LISTS_FILE), 'utf8'));
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const entries = (file: string) =>
    readTable(snapshot, file)
      .map((r) => ({ id: r.id!, name: r.name! }))
      .sort(byId);

  it('holds the rows of canadian_funders.csv and canadian_sources.csv, sorted by id', () => {
    const d = lists();
    expect(Object.keys(d).sort()).toEqual(['funders', 'route_version', 'sources']);
    expect(d.funders).toEqual(entries('canadian_funders.csv'));
    expect(d.sources).toEqual(entries('canadian_sources.csv'));
    expect(d.funders.length).toBe(2_182);
    expect(d.sources.length).toBe(Math.ceil(85_000 / 63));
    expect(canadianListsSchema.parse(d)).toEqual(d);
  });

  it('stamps the route version: the first 12 hex of sha256 over the stable JSON of the two lists', () => {
    const d = lists();
    // Key order funders < sources and id < name is already the sorted order, so plain JSON is stable JSON.
    const text = JSON.stringify({
      funders: entries('canadian_funders.csv'),
      sources: entries('canadian_sources.csv'),
    });
    expect(d.route_version).toBe(createHash('sha256').update(text).digest('hex').slice(0, 12));
    expect(canadianListsSchema.safeParse({ ...d, route_version: '000000000000' }).success).toBe(false);
  });

  it('is listed in the build manifest with its checksum', async () => {
    const dir = join(outA(), 'current');
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(m.files[CANADIAN_LISTS_FILE]).toEqual({
      bytes: statSync(join(dir, CANADIAN_LISTS_FILE)).size,
      sha256: await sha256File(join(dir, CANADIAN_LISTS_FILE)),
    });
    // (The row counts of the lists are checked against the CSV rows above; the served database does not hold them.)
  });

  it('names the venue of every work admitted by route venue, and of no other work', () => {
    const names = new Set(lists().sources.map((s: { name: string }) => s.name));
    const venueWorks = works.filter((w) => isTrue(w.route_ca_venue));
    expect(venueWorks.length).toBeGreaterThan(100);
    for (const w of venueWorks) expect(names.has(w.venue!), `${w.id} ${w.venue}`).toBe(true);
    for (const w of works.filter((x) => !isTrue(x.route_ca_venue))) expect(names.has(w.venue!), `${w.id} ${w.venue}`).toBe(false);
  });

  it('names a funder of every work admitted by route fund, and of no other work', () => {
    const names = new Set(lists().funders.map((f: { name: string }) => f.name));
    const listed = (w: Row) => (w.funders ? w.funders.split('; ') : []).some((f) => names.has(f));
    const fundWorks = works.filter((w) => isTrue(w.route_ca_fund));
    expect(fundWorks.length).toBeGreaterThan(100);
    for (const w of fundWorks) expect(listed(w), `${w.id} ${w.funders}`).toBe(true);
    for (const w of works.filter((x) => !isTrue(x.route_ca_fund))) expect(listed(w), w.id).toBe(false);
  });
});

describe('the served database (frame/frame.duckdb): only what the server queries', () => {
  const served = async <T>(sql: string): Promise<T[]> => {
    const duck = await openDuck(join(outA(), 'current', 'frame', 'frame.duckdb'), { access_mode: 'READ_ONLY' });
    try {
      return await duck.all<T>(sql);
    } finally {
      duck.close();
    }
  };

  it('holds the served tables and nothing else; the working database is gone', async () => {
    const tables = await served<{ name: string }>('SELECT table_name AS name FROM information_schema.tables ORDER BY 1');
    expect(tables.map((t) => t.name)).toEqual(SERVED_TABLES.map(([name]) => name).sort());
    const files = tree(join(outA(), 'current'));
    expect(files.filter((f) => f.startsWith('.') || f.includes('frame-full'))).toEqual([]);
    const m = JSON.parse(readFileSync(join(outA(), 'current', 'manifest.json'), 'utf8'));
    // The manifest names the served database by its content (its bytes may differ between runs).
    expect(Object.keys(m.database_content).sort()).toEqual(SERVED_TABLES.map(([name]) => name).sort());
    const [s] = await served<{ n: number }>('SELECT count(*)::INTEGER AS n FROM screened');
    expect(m.database_content.screened).toMatch(new RegExp(`/${s!.n}$`));
  });

  it('screened_works: the bibliographic columns of exactly the screened works', async () => {
    const screened = new Set(readTable(snapshot, 'screened.csv').map((r) => r.work_id!));
    expect(screened.size).toBeGreaterThan(10);
    const got = await served<Record<string, string | number | null>>('SELECT * FROM screened_works ORDER BY id');
    const want = works.filter((w) => screened.has(w.id!));
    expect(got.map((r) => r.id).sort()).toEqual(want.map((w) => w.id).sort());
    const byId = new Map(got.map((r) => [r.id as string, r]));
    for (const w of want) {
      const r = byId.get(w.id!)!;
      expect(r.title, w.id).toBe(w.title);
      expect(r.year, w.id).toBe(w.year === '' ? null : Number(w.year));
      for (const c of ['lang', 'type', 'venue', 'topic', 'field']) expect(r[c], `${w.id} ${c}`).toBe(w[c] === '' ? null : w[c]);
    }
  });

  it('network_meta and the overview edges and nodes, against the authorship rows', async () => {
    // Oracle: an edge joins two Canadian-affiliated authorships of a work with at least two authors and at most
    // MAX_CA_AUTHORS Canadian ones; its weight sums 1 / (authors - 1) over the works the two share.
    const byWork = new Map<string, Row[]>();
    for (const a of readTable(snapshot, 'authorships.csv')) byWork.set(a.work_id!, [...(byWork.get(a.work_id!) ?? []), a]);
    const edges = new Map<string, { a: string; b: string; shared_works: number; weight: number }>();
    const caAuthors = new Set<string>();
    let excluded = 0;
    let included = 0;
    for (const rows of byWork.values()) {
      const ca = rows.filter((r) => isTrue(r.is_ca)).map((r) => r.author_id!);
      for (const id of ca) caAuthors.add(id);
      if (ca.length > MAX_CA_AUTHORS) excluded++;
      else if (ca.length >= 2) included++;
      if (ca.length > MAX_CA_AUTHORS || rows.length < 2) continue;
      for (const x of ca)
        for (const y of ca) {
          if (!(x < y)) continue;
          const e = edges.get(`${x} ${y}`) ?? { a: x, b: y, shared_works: 0, weight: 0 };
          e.shared_works++;
          e.weight += 1 / (rows.length - 1);
          edges.set(`${x} ${y}`, e);
        }
    }
    const [meta] = await served<Record<string, number>>('SELECT * FROM network_meta');
    expect(meta).toEqual({
      max_ca_authors: MAX_CA_AUTHORS,
      works_excluded: excluded,
      works_included: included,
      ca_authors: caAuthors.size,
      ca_edges: edges.size,
    });
    const top = [...edges.values()]
      .sort((p, q) => q.weight - p.weight || q.shared_works - p.shared_works || (p.a < q.a ? -1 : p.a > q.a ? 1 : p.b < q.b ? -1 : 1))
      .slice(0, OVERVIEW_EDGES);
    expect(top.length).toBeGreaterThan(10);
    const got = await served<{ a: string; b: string; shared_works: number; weight: number }>(
      'SELECT * FROM network_overview_edges ORDER BY weight DESC, shared_works DESC, a, b',
    );
    expect(got.map(({ a, b, shared_works }) => ({ a, b, shared_works }))).toEqual(top.map(({ a, b, shared_works }) => ({ a, b, shared_works })));
    got.forEach((e, k) => expect(e.weight).toBeCloseTo(top[k]!.weight, 8));
    const names = new Map(readTable(snapshot, 'authors.csv').map((a) => [a.id!, a.name!]));
    const nodes = await served<{ id: string; name: string }>('SELECT id, name FROM network_authors ORDER BY id');
    const endpoints = [...new Set(top.flatMap((e) => [e.a, e.b]))].sort();
    expect(nodes).toEqual(endpoints.map((id) => ({ id, name: names.get(id) })));
  });
});
