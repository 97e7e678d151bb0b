import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSnapshot } from '../../pipeline/generate/snapshot.ts';
import { sha256File } from '../../pipeline/lib/hash.ts';
import { silentProgress } from '../../pipeline/lib/progress.ts';
import { readTable } from '../helpers/oracle.ts';
import { tempDir } from '../helpers/fixture-build.ts';

const tmp = tempDir('generate');
afterAll(tmp.remove);
const SAMPLE = join(import.meta.dirname, '../../snapshots/sample');

const gen = (out: string, works: number, threads: number, name = 'g') =>
  generateSnapshot({
    works,
    seed: 20260624,
    out,
    name,
    releaseDate: '2026-06-24',
    buildDate: '2026-07-12',
    threads,
    progress: silentProgress,
  });

function filesOf(dir: string): Record<string, Buffer> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => statSync(join(dir, f)).isFile())
      .map((f) => [f, readFileSync(join(dir, f))]),
  );
}

describe('snapshot generator', () => {
  it('reproduces the committed sample byte for byte', async () => {
    const out = join(tmp.path, 'sample');
    await gen(out, 20_000, 1, 'sample');
    const ours = filesOf(out);
    const committed = filesOf(SAMPLE);
    expect(Object.keys(ours).sort()).toEqual(
      Object.keys(committed)
        .filter((f) => f !== 'README.md')
        .sort(),
    );
    for (const [f, bytes] of Object.entries(ours)) expect(bytes.equals(committed[f]!), f).toBe(true);
  });

  it('writes the same bytes whatever the number of threads', async () => {
    await gen(join(tmp.path, 't1'), 120_000, 1);
    await gen(join(tmp.path, 't3'), 120_000, 3);
    for (const f of readdirSync(join(tmp.path, 't1'))) {
      expect(await sha256File(join(tmp.path, 't3', f)), f).toBe(await sha256File(join(tmp.path, 't1', f)));
    }
  });

  it('lists every file in the manifest with its size, rows and checksum', async () => {
    const m = JSON.parse(readFileSync(join(SAMPLE, 'manifest.json'), 'utf8'));
    for (const entry of [...Object.values(m.tables), ...Object.values(m.documents)] as {
      file: string;
      bytes: number;
      sha256: string;
      rows?: number;
    }[]) {
      const path = join(SAMPLE, entry.file);
      expect(statSync(path).size).toBe(entry.bytes);
      expect(await sha256File(path)).toBe(entry.sha256);
      if (entry.rows !== undefined) expect(readFileSync(path, 'utf8').split('\n').length - 2).toBe(entry.rows);
    }
  });

  it('writes the pinned Canadian lists: unique ids in order, and the routes of the sample agree with them', () => {
    const funders = readTable(SAMPLE, 'canadian_funders.csv');
    const sources = readTable(SAMPLE, 'canadian_sources.csv');
    expect(funders).toHaveLength(2_182);
    expect(sources).toHaveLength(Math.ceil(85_000 / 63));
    for (const list of [funders, sources]) {
      const ids = list.map((r) => r.id!);
      expect(ids).toEqual([...new Set(ids)].sort());
      expect(new Set(list.map((r) => r.name)).size).toBe(list.length);
    }
    const sourceNames = new Set(sources.map((r) => r.name));
    const funderNames = new Set(funders.map((r) => r.name));
    for (const w of [...readTable(SAMPLE, 'works.csv'), ...readTable(SAMPLE, 'recent_works.csv')]) {
      expect(sourceNames.has(w.venue!), `${w.id} ${w.venue}`).toBe(w.route_ca_venue === 'true');
      const cited = w.funders ? w.funders.split('; ') : [];
      expect(
        cited.some((f) => funderNames.has(f)),
        `${w.id} ${w.funders}`,
      ).toBe(w.route_ca_fund === 'true');
    }
  });

  it('matches the published frame marginals within sampling error at sample size', () => {
    // Published: 4,299,418 works (../shared/reference/metacan/frame_summary.json, restated in model.ts).
    const published = {
      aff: 2_734_192,
      fund: 788_103,
      venue: 638_161,
      about: 1_316_408,
      withVenue: 3_902_048,
      withAbstract: 3_296_301,
      french: 237_207,
    };
    const works = readTable(SAMPLE, 'works.csv');
    const n = works.length;
    const share = (pred: (w: Record<string, string>) => boolean) => works.filter(pred).length / n;
    const observed = {
      aff: share((w) => w.route_ca_aff === 'true'),
      fund: share((w) => w.route_ca_fund === 'true'),
      venue: share((w) => w.route_ca_venue === 'true'),
      about: share((w) => w.route_about_ca === 'true'),
      withVenue: share((w) => w.venue !== ''),
      withAbstract: share((w) => w.has_abstract === 'true'),
      french: share((w) => w.lang === 'fr'),
    };
    for (const [k, count] of Object.entries(published)) {
      const p = count / 4_299_418;
      const sd = Math.sqrt((p * (1 - p)) / n);
      expect(Math.abs(observed[k as keyof typeof observed] - p), k).toBeLessThan(4 * sd);
    }
    // Every work has a route; the no-affiliation works are exactly the complement of route aff.
    expect(works.every((w) => [w.route_ca_aff, w.route_ca_fund, w.route_ca_venue, w.route_about_ca].includes('true'))).toBe(true);
  });
});
