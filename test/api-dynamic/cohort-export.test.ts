/**
 * `/cohort/export` against real pipeline builds: the 100,000-row cap on a frame just over it (100,050 works),
 * the order of the exported rows, agreement with `/cohort` paged by cursor, the CSV formula-injection guard,
 * and parameter errors. The large build dominates the run time, so it is made once for the file.
 */
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFor } from '../helpers/app.ts';
import { expectError } from '../helpers/cohort.ts';
import { fixtureBuild, tempDir } from '../helpers/fixture-build.ts';
import { sharedFixture, sharedSnapshot } from '../helpers/shared-fixture.ts';
import { readTable } from '../helpers/oracle.ts';
import { mutate, removeTempDirs } from '../helpers/snapshot.ts';

const API = '/frame/api/v1';
const CAP = 100_000;
const BIG = 100_050;

type App = Awaited<ReturnType<typeof appFor>>;

/** Numeric part of a work id: ties sort by it, not by the string (W10 after W9). */
const num = (id: string) => BigInt(id.slice(1));

/** Splits an export CSV into its text without a trailing `#` comment line, and that line (or null). */
function splitComment(body: string): { csv: string; comment: string | null } {
  const end = body.endsWith('\n') ? body.length - 1 : body.length;
  const start = body.lastIndexOf('\n', end - 1) + 1;
  const last = body.slice(start, end);
  return last.startsWith('#') ? { csv: body.slice(0, start), comment: last } : { csv: body, comment: null };
}

/** Lines of a text ending with a line break (counted, not split: the big export is a few hundred MB). */
function lineCount(text: string): number {
  let n = 0;
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) n++;
  return n;
}

/** Every id of a cohort query, paging `/cohort` by `meta.next_cursor` to the end. */
async function pagedIds(h: App, query: string): Promise<string[]> {
  const ids: string[] = [];
  let url = `${API}/cohort?${query}&per_page=100`;
  for (;;) {
    const res = await h.app.inject(url);
    expect(res.statusCode, url).toBe(200);
    const body = res.json() as { meta: { next_cursor: string | null }; results: { id: string }[] };
    ids.push(...body.results.map((r) => r.id));
    if (body.meta.next_cursor === null) return ids;
    url = `${API}/cohort?${query}&per_page=100&cursor=${encodeURIComponent(body.meta.next_cursor)}`;
  }
}

describe('export at the real cap (100,050 works)', () => {
  let h: App;
  let snapshot = '';
  /** Ids of the CSV export of the whole frame, in export order (kept for the JSON comparison). */
  let csvIds: string[] = [];

  beforeAll(async () => {
    // Shared with test/e2e/export-disconnect.test.ts; no per-work files: the export reads the cohort index and record blob only.
    const big = await sharedFixture({ works: BIG });
    snapshot = big.snapshot;
    h = await appFor(big.out);
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it('CSV: truncated at 100,000 rows in the default order, with headers and a closing comment line', async () => {
    const res = await h.app.inject(`${API}/cohort/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['x-export-truncated']).toBe('true');
    expect(res.headers['x-cohort-total']).toBe(String(BIG));
    expect(res.headers['x-export-rows']).toBe(String(CAP));
    expect(res.headers['cache-control']).toBe('no-store');
    // The file name carries the cohort's hash, the one /cohort reports for the same (empty) filters, and where
    // the rows come from: the snapshot id /cohort reports, marked synthetic (the fixture is generated).
    const cohort = (await h.app.inject(`${API}/cohort?per_page=1`)).json() as { meta: { query_hash: string; snapshot: { id: string; synthetic: boolean } } };
    expect(cohort.meta.snapshot.synthetic).toBe(true);
    expect(String(res.headers['content-disposition'])).toBe(
      `attachment; filename="frame-cohort-${cohort.meta.query_hash}-${cohort.meta.snapshot.id}-synthetic.csv"`,
    );

    const { csv, comment } = splitComment(res.body);
    expect(comment).not.toBeNull();
    expect(comment!.startsWith(`# TRUNCATED: cohort has ${BIG} works`)).toBe(true);
    // The URL it names for the rest is the cohort's page on this server, and answers with the same total.
    const rest = new URL(/ Page (\S+) with cursor/.exec(comment!)![1]!);
    const page = await h.app.inject(`${rest.pathname}${rest.search}`);
    expect(page.statusCode).toBe(200);
    expect((page.json() as { meta: { total: number } }).meta.total).toBe(BIG);
    // Only the last line is a comment: nothing else in the body starts with '#'.
    expect(csv.includes('\n#')).toBe(false);

    // Keep two columns per row: 100,000 full rows would hold a few hundred MB for no purpose here.
    let header: string[] = [];
    const rows = parse(csv, {
      on_record: (record: string[], { lines }: { lines: number }) => {
        if (lines === 1) {
          header = record;
          return null;
        }
        return [record[header.indexOf('id')]!, record[header.indexOf('cited_by')]!];
      },
    }) as [string, string][];
    expect(header.slice(0, 3)).toEqual(['id', 'doi', 'title']);
    expect(header).toContain('cited_by');
    expect(rows).toHaveLength(CAP);
    // Header + rows + comment, one per line: no row spilled over a line break.
    expect(lineCount(res.body)).toBe(1 + CAP + 1);

    csvIds = rows.map(([id]) => id);
    expect(new Set(csvIds).size).toBe(CAP);
    for (let k = 1; k < rows.length; k++) {
      const [prevId, prevCited] = rows[k - 1]!;
      const [id, cited] = rows[k]!;
      const a = Number(prevCited);
      const b = Number(cited);
      if (!(a > b || (a === b && num(prevId) < num(id))))
        expect.fail(`row ${k + 1} (${id}, cited_by ${cited}) is out of the cited order after ${prevId} (cited_by ${prevCited})`);
    }

    // The oracle: the first 100,000 works of the snapshot by cited_by desc, then numeric id.
    const expected = readTable(snapshot, 'works.csv')
      .map((w) => ({ id: w.id!, cited: Number(w.cited_by) }))
      .sort((x, y) => y.cited - x.cited || (num(x.id) < num(y.id) ? -1 : 1))
      .slice(0, CAP)
      .map((w) => w.id);
    expect(csvIds).toEqual(expected);
  });

  it('JSON: the same rows, with meta saying it was truncated', async () => {
    expect(csvIds).toHaveLength(CAP);
    const res = await h.app.inject(`${API}/cohort/export?format=json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-export-truncated']).toBe('true');
    expect(res.headers['x-cohort-total']).toBe(String(BIG));
    expect(res.headers['x-export-rows']).toBe(String(CAP));
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="frame-cohort-[0-9a-f]{16}-[\w.-]+-synthetic\.json"$/);
    const body = JSON.parse(res.body) as {
      meta: { truncated: boolean; exported: number; cohort_total: number; export_cap: number };
      results: { id: string }[];
    };
    expect(body.meta).toMatchObject({ truncated: true, exported: CAP, cohort_total: BIG, export_cap: CAP });
    expect(body.results).toHaveLength(CAP);
    const ids = body.results.map((r) => r.id);
    expect(ids.slice(0, 100)).toEqual(csvIds.slice(0, 100));
    expect(ids).toEqual(csvIds);
  });

  it('a cohort under the cap: not truncated, and exactly the works /cohort pages through, in order', async () => {
    const csvRes = await h.app.inject(`${API}/cohort/export?lang=fr`);
    expect(csvRes.statusCode).toBe(200);
    expect(csvRes.headers['x-export-truncated']).toBe('false');
    const { csv, comment } = splitComment(csvRes.body);
    expect(comment).toBeNull();
    const csvRows = parse(csv, { columns: true }) as { id: string; lang: string }[];

    const jsonRes = await h.app.inject(`${API}/cohort/export?lang=fr&format=json`);
    expect(jsonRes.statusCode).toBe(200);
    expect(jsonRes.headers['x-export-truncated']).toBe('false');
    const body = jsonRes.json() as { meta: { truncated: boolean; exported: number; cohort_total: number }; results: { id: string }[] };
    expect(body.meta.truncated).toBe(false);
    const ids = body.results.map((r) => r.id);
    expect(body.meta.exported).toBe(ids.length);
    expect(body.meta.cohort_total).toBe(ids.length);
    expect(csvRes.headers['x-cohort-total']).toBe(String(ids.length));
    expect(csvRes.headers['x-export-rows']).toBe(String(ids.length));

    const paged = await pagedIds(h, 'lang=fr');
    expect(paged.length).toBeGreaterThan(1000);
    expect(ids).toEqual(paged);
    expect(csvRows.map((r) => r.id)).toEqual(paged);
    expect(new Set(csvRows.map((r) => r.lang))).toEqual(new Set(['fr']));
  });

  it('sort=year_asc: the export follows the same order as /cohort with that sort', async () => {
    const res = await h.app.inject(`${API}/cohort/export?lang=fr&sort=year_asc&format=json`);
    expect(res.statusCode).toBe(200);
    const exported = (res.json() as { results: { id: string }[] }).results.map((r) => r.id);
    const paged = await pagedIds(h, 'lang=fr&sort=year_asc');
    expect(exported).toEqual(paged);
    // A different order from the default, or the comparison proves nothing about sort.
    expect(paged).not.toEqual(await pagedIds(h, 'lang=fr'));
  });
});

describe('export of a small frame', () => {
  const tmp = tempDir('cohort-export-small');
  let h: App;
  /** Works whose titles were edited to start with a spreadsheet formula character, by id. */
  const edited = new Map<string, string>();
  const TITLES = ['=HYPERLINK("x")', '+1 trial', '-2 results', '@cmd'];

  beforeAll(async () => {
    const base = await sharedSnapshot();
    const { dir } = await mutate(base, (s) => {
      // Spread over the file so the edits do not all land in one place of the sort order.
      TITLES.forEach((title, k) => {
        const line = 2 + 700 * k + 13;
        s.setCell('works.csv', line, 'title', title);
        edited.set(s.cell('works.csv', line, 'id'), title);
      });
    });
    await fixtureBuild(dir, join(tmp.path, 'out'), false);
    h = await appFor(join(tmp.path, 'out'));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    removeTempDirs();
    tmp.remove();
  });

  it('CSV cells starting with = + - @ get a leading apostrophe; numbers stay numbers; JSON keeps the text', async () => {
    const res = await h.app.inject(`${API}/cohort/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-export-truncated']).toBe('false');
    expect(res.headers['x-export-rows']).toBe('3000');
    const { csv, comment } = splitComment(res.body);
    expect(comment).toBeNull();
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3000);
    expect(edited.size).toBe(TITLES.length);
    for (const [id, title] of edited) {
      const row = rows.find((r) => r.id === id);
      expect(row, id).toBeDefined();
      expect(row!.title).toBe(`'${title}`);
    }
    for (const row of rows) {
      expect(row.cited_by, row.id).toMatch(/^\d+$/);
      expect(row.year, row.id).toMatch(/^(\d{4})?$/);
      // The guard covers every text cell, not just the edited titles (a number such as -0.5 is not text).
      for (const [column, cell] of Object.entries(row)) {
        if (/^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(cell))
          expect.fail(`${row.id} ${column} starts with a formula character: ${cell.slice(0, 40)}`);
      }
    }

    const json = await h.app.inject(`${API}/cohort/export?format=json`);
    expect(json.statusCode).toBe(200);
    const results = (json.json() as { results: { id: string; title: string }[] }).results;
    expect(results).toHaveLength(3000);
    for (const [id, title] of edited) expect(results.find((r) => r.id === id)?.title).toBe(title);
  });

  it('format=xml is a 400 INVALID_PARAMETER naming format and its values', async () => {
    const body = expectError(await h.app.inject(`${API}/cohort/export?format=xml`), 'INVALID_PARAMETER');
    expect(body.message).toContain('format');
    expect(body.message).toMatch(/csv/);
    expect(body.message).toMatch(/json/);
    expect(body.details?.some((d) => d.parameter === 'format')).toBe(true);
  });

  it('page (a /cohort paging parameter) is a 400 UNKNOWN_PARAMETER on export', async () => {
    const body = expectError(await h.app.inject(`${API}/cohort/export?page=2`), 'UNKNOWN_PARAMETER');
    expect(body.message).toContain('page');
  });
});
