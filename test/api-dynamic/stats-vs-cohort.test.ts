/**
 * The frozen statistics (computed by the pipeline in DuckDB SQL) against live /cohort counts (computed by the
 * cohort engine over its own index): two independent routes to the same numbers, on the committed sample.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../contracts/frame/vocab.ts';
import { appFor } from '../helpers/app.ts';
import { fixtureBuild, tempDir } from '../helpers/fixture-build.ts';

const ROOT = join(import.meta.dirname, '../..');
const tmp = tempDir('stats-vs-cohort');
let h: Awaited<ReturnType<typeof appFor>>;

beforeAll(async () => {
  await fixtureBuild(join(ROOT, 'snapshots/sample'), join(tmp.path, 'out'), false);
  h = await appFor(join(tmp.path, 'out'));
}, 120_000);
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

const get = async (path: string) => {
  const res = await h.app.inject(`/frame/api/v1/${path}`);
  expect(res.statusCode, path).toBe(200);
  return res.json();
};
const total = async (query: string) => (await get(`cohort?per_page=1&${query}`)).meta.total as number;
const enc = encodeURIComponent;

describe('every stats marginal equals a /cohort count', () => {
  it('stats/summary', async () => {
    const s = await get('stats/summary');
    expect(await total('')).toBe(s.works);
    expect(await total('route=no_aff')).toBe(s.no_aff);
    expect(await total('abstract=none')).toBe(s.no_abstract);
    expect(await total('abstract=has')).toBe(s.coverage.has_abstract);
    expect(await total('retracted=1')).toBe(s.retracted_openalex);
    expect(await total('lang=fr')).toBe(s.coverage.french);
    for (const r of ROUTES) expect(await total(`route=${r}`), r).toBe(s.routes[r]);
    for (const k of [0, 1, 2, 3]) expect(await total(`n_in=${k}`), `n_in=${k}`).toBe(s.screen_consensus[`n_in_${k}`]);
  });

  it('stats/by-route: marginals and every combination', async () => {
    const s = await get('stats/by-route');
    for (const m of s.marginals) expect(await total(`route=${m.route}`)).toBe(m.works);
    let sum = 0;
    for (const c of s.combinations) {
      const on = new Set(c.combo === 'none' ? [] : c.combo.split('+'));
      const q = ROUTES.map((r) => `route_${r}=${on.has(r) ? 1 : 0}`).join('&');
      expect(await total(q), c.combo).toBe(c.works);
      sum += c.works;
    }
    expect(sum).toBe(s.meta.total);
  });

  it('stats/by-year: works, no_aff and no_abstract per year', async () => {
    const s = await get('stats/by-year');
    expect(s.results.length).toBeGreaterThan(10);
    for (const y of s.results) {
      const year = `year_from=${y.year}&year_to=${y.year}`;
      expect(await total(year), String(y.year)).toBe(y.works);
      expect(await total(`${year}&route_aff=0`)).toBe(y.no_aff);
      expect(await total(`${year}&abstract=none`)).toBe(y.no_abstract);
    }
  });

  it('stats/by-field: fields, languages, abstract gap by type, top venues', async () => {
    const s = await get('stats/by-field');
    for (const f of s.fields.filter((x: { field: string }) => x.field !== 'Unclassified')) {
      expect(await total(`field=${enc(f.field)}`), f.field).toBe(f.works);
      expect(await total(`field=${enc(f.field)}&abstract=none`)).toBe(f.no_abstract);
    }
    for (const l of s.languages.filter((x: { lang: string }) => x.lang !== 'unknown')) expect(await total(`lang=${l.lang}`), l.lang).toBe(l.works);
    for (const t of s.abstract_gap_by_type) {
      expect(await total(`type=${t.type}`), t.type).toBe(t.works);
      expect(await total(`type=${t.type}&no_abstract=1`)).toBe(t.no_abstract);
    }
    for (const v of s.top_venues) expect(await total(`venue=${enc(v.venue)}`), v.venue).toBe(v.works);
  });

  it('stats/labels: coverage, categories and designs by any and all models, by year and language', async () => {
    const s = await get('stats/labels');
    expect(await total('labeled=1')).toBe(s.coverage.labeled_works);
    expect((await get('cohort?per_page=1')).meta.direct_labels_cover).toBe(s.coverage.labeled_works);
    for (const c of s.by_category) {
      expect(await total(`category=${c.category}`), c.category).toBe(c.any_model);
      expect(await total(`category=${c.category}&agreement=all`), `${c.category} all`).toBe(c.all_models);
    }
    for (const d of s.by_design) {
      expect(await total(`design=${d.design}`), d.design).toBe(d.any_model);
      expect(await total(`design=${d.design}&agreement=all`), `${d.design} all`).toBe(d.all_models);
    }
    for (const y of s.by_year) expect(await total(`labeled=1&year_from=${y.year}&year_to=${y.year}`)).toBe(y.labeled);
    for (const l of s.by_lang.filter((x: { lang: string }) => x.lang !== 'unknown')) expect(await total(`labeled=1&lang=${l.lang}`)).toBe(l.labeled);
  });

  it('cohort facets partition the cohort the way stats do', async () => {
    const s = await get('stats/by-year');
    const years = await get('cohort/facets?facet=year');
    expect(years.results.filter((r: { value: number | null }) => r.value !== null).map((r: { value: number; works: number }) => [r.value, r.works])).toEqual(
      s.results.map((y: { year: number; works: number }) => [y.year, y.works]),
    );
  });
});
