/**
 * The CSV for Excel (`/cohort/export?format=csv-excel`, issue 19): the UTF-8 byte order mark (so Excel reads
 * accents right), then the export's provenance as quoted one-cell lines (snapshot, query, permalink, time of
 * export, rows), then exactly the bytes of the plain CSV. The oracle for the rows is the plain CSV export and
 * the cohort's total from `/cohort`; for the provenance, the build manifest and the permalink the API mints.
 */
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFor } from '../helpers/app.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';

const API = '/frame/api/v1';
const tmp = tempDir('cohort-export-excel');
let h: Awaited<ReturnType<typeof appFor>>;

beforeAll(async () => {
  const snapshot = await fixtureSnapshot(tmp.path, { works: 800, articles: 0 });
  const out = join(tmp.path, 'out');
  await fixtureBuild(snapshot, out, false);
  h = await appFor(out);
}, 180_000);
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

describe('GET /cohort/export?format=csv-excel', () => {
  for (const query of ['year_from=2015', 'lang=fr', '']) {
    it(`?${query}: BOM, provenance, then the plain CSV byte for byte`, async () => {
      const sep = query ? '&' : '';
      const plain = await h.app.inject(`${API}/cohort/export?${query}`);
      const before = Date.now();
      const excel = await h.app.inject(`${API}/cohort/export?${query}${sep}format=csv-excel`);
      expect(excel.statusCode).toBe(200);
      expect(excel.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(String(excel.headers['content-disposition'])).toMatch(/^attachment; filename="frame-cohort-[0-9a-f]{16}-[\w.-]+-synthetic-excel\.csv"$/);
      const bytes = excel.rawPayload;
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = bytes.subarray(3).toString('utf8');
      const lines = text.split('\n');
      const provenance = lines.slice(0, 6);
      expect(text.slice(provenance.join('\n').length + 1)).toBe(plain.body);

      const cohort = (await h.app.inject(`${API}/cohort?${query}${sep}per_page=1`)).json() as {
        meta: { total: number; query_hash: string; snapshot: { id: string } };
      };
      const cells = provenance.map((l) => (parse(l) as string[][])[0]!);
      for (const c of cells) expect(c).toHaveLength(1);
      const [title, snapshot, q, permalink, at, rows] = cells.map((c) => c[0]!);
      expect(title).toBe('# Research Cohort Query: cohort export');
      expect(snapshot).toBe(`# snapshot: ${cohort.meta.snapshot.id} (generated sample data, not real works)`);
      expect(q).toMatch(new RegExp(`^# query: http://[^/]+${API.replace(/\//g, '\\/')}/cohort${query ? `\\?${query}` : ''}$`));
      expect(permalink).toMatch(new RegExp(`^# permalink: http://[^/]+/frame/q/${cohort.meta.query_hash}$`));
      const time = Date.parse(at!.replace('# exported at: ', ''));
      expect(time).toBeGreaterThanOrEqual(before - 1000);
      expect(time).toBeLessThanOrEqual(Date.now() + 1000);
      expect(rows).toBe(`# rows: ${cohort.meta.total} of ${cohort.meta.total} works`);
      // The rows: as many as the cohort's total.
      expect((parse(plain.body, { columns: true }) as unknown[]).length).toBe(cohort.meta.total);
    });
  }
});
