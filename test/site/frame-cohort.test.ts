/**
 * The cohort builder, the permalink pages and the work pages, over the real app and an Astro build of the
 * fixture (plain HTTP, no browser: what a reader without JavaScript gets). Oracles are the API's answers for
 * the same query string: the page's total, coverage and rows are the API's; a refused query is the API's 400
 * beside the still-filled form; a permalink round trip keeps the total; prerendered work pages are the most
 * cited works (as /cohort sorts them) and every other id renders on request; server-rendered pages' times
 * are logged.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workPageLimit } from '../../site/src/lib/frame/work-pages.ts';
import { type SiteServer, pageTimes, startSiteServer } from '../helpers/site-server.ts';

type Doc = ReturnType<typeof parseDocument>;
type Node = ReturnType<typeof DomUtils.findAll>[number];

/**
 * Static work pages in the site build: SITE_WORK_PAGES as the build reads it (the site is built once per test
 * run and shared, so this file cannot choose its own number), default 1,000 of the fixture's 3,000 works.
 */
const STATIC_WORK_PAGES = workPageLimit();

let s: SiteServer;
beforeAll(async () => {
  s = await startSiteServer();
}, 180_000);
afterAll(async () => s?.close());

// ---- the oracle's formatting (en-CA grouping), written out independently of the site ----
const fmt = (n: number) => n.toLocaleString('en-CA');
const pct = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);

interface CohortMeta {
  total: number;
  direct_labels_cover: number;
  predictions_cover: number;
  query: string;
  query_hash: string;
  sort: string;
  page: number | null;
  next_cursor: string | null;
}
interface Cohort {
  meta: CohortMeta;
  results: { id: string; title: string; cited_by: number }[];
}
interface ErrorBody {
  code: string;
  message: string;
  details?: { parameter?: string }[];
}

const cohort = (query: string) => s.json<Cohort>(`/frame/api/v1/cohort${query ? `?${query}` : ''}`);
async function page(path: string): Promise<{ status: number; text: string; doc: Doc }> {
  const r = await s.get(path);
  return { status: r.status, text: r.text, doc: parseDocument(r.text) };
}

// ---- reading pages ----
const text = (n: Doc | Node | Node[]) => DomUtils.textContent(n).replace(/\s+/g, ' ').trim();
const all = (doc: Doc | Node, test: (n: Node) => boolean): Node[] => DomUtils.findAll(test, 'children' in doc ? (doc.children as Node[]) : []);
const one = (doc: Doc | Node, test: (n: Node) => boolean, what: string): Node => {
  const found = all(doc, test);
  expect(found, what).toHaveLength(1);
  return found[0]!;
};
const byData = (doc: Doc, attr: string) => one(doc, (n) => attr in n.attribs, attr);
const control = (doc: Doc, name: string) =>
  one(doc, (n) => (n.name === 'input' || n.name === 'select') && n.attribs.name === name && n.attribs.type !== 'hidden', `control ${name}`);
/** What a control submits: an input's value, a select's selected option. */
function valueOf(doc: Doc, name: string): string {
  const c = control(doc, name);
  if (c.name === 'input') return c.attribs.value ?? '';
  const selected = all(c, (n) => n.name === 'option' && 'selected' in n.attribs);
  return selected[0]?.attribs.value ?? '';
}
/** The API error shown by ApiErrorNotice (the builder also has an empty alert line for the live total's errors). */
const errorNotice = (doc: Doc) => one(doc, (n) => n.attribs.role === 'alert' && n.attribs['data-error-code'] !== undefined, 'error notice');
/** The builder's filter form. */
const filterForm = (doc: Doc) => one(doc, (n) => n.name === 'form' && 'data-cohort-form' in n.attribs, 'filter form');
const hiddenInputs = (root: Doc | Node) => all(root, (n) => n.name === 'input' && n.attribs.type === 'hidden').map((n) => [n.attribs.name, n.attribs.value]);
const hrefs = (doc: Doc | Node, pattern: RegExp) => all(doc, (n) => n.name === 'a' && pattern.test(n.attribs.href ?? '')).map((n) => n.attribs.href!);
const decode = (s: string) => s.replaceAll('&#38;', '&').replaceAll('&amp;', '&');

/** The counts the page shows, read from the summary's elements. */
function shownCounts(doc: Doc) {
  return {
    total: text(byData(doc, 'data-cohort-total')),
    direct: text(byData(doc, 'data-cohort-direct')),
    directPct: text(byData(doc, 'data-cohort-direct-pct')),
    predicted: text(byData(doc, 'data-cohort-predicted')),
    predictedPct: text(byData(doc, 'data-cohort-predicted-pct')),
  };
}
const expectedCounts = (m: CohortMeta) => ({
  total: fmt(m.total),
  direct: fmt(m.direct_labels_cover),
  directPct: pct(m.direct_labels_cover, m.total),
  predicted: fmt(m.predictions_cover),
  predictedPct: pct(m.predictions_cover, m.total),
});
/** Work ids of the result table, in order. */
const tableIds = (doc: Doc) => {
  const table = one(doc, (n) => n.name === 'table' && (n.attribs.class ?? '').split(' ').includes('works'), 'result table');
  return hrefs(table, /^\/frame\/works\/W\d+$/).map((h) => h.split('/').pop()!);
};

describe('cohort builder: the same numbers as the API', () => {
  const QUERIES = [
    '',
    'route=no_aff&lang=fr',
    'year_from=2015&year_to=2020&cited_min=5',
    'category=metaresearch&label_source=predicted&prediction_mode=consensus',
    'route_fund=1&abstract=none&sort=year_desc',
    'q=health&sort=relevance&per_page=10',
    'labeled=1&agreement=all&design=observational',
  ];
  for (const q of QUERIES) {
    it(`?${q}: total, coverage and rows are /cohort's`, async () => {
      const api = await cohort(q);
      const p = await page(`/frame/cohort${q ? `?${q}` : ''}`);
      expect(p.status).toBe(200);
      expect(shownCounts(p.doc)).toEqual(expectedCounts(api.meta));
      if (api.results.length > 0) expect(tableIds(p.doc)).toEqual(api.results.map((w) => w.id));
      else expect(p.text).toContain('No work matches these filters');
    });
  }

  it('pages like the API: page 2 shows /cohort page 2, with first, previous, numbered, next and last links', async () => {
    const q = 'route_aff=1&per_page=10';
    const api = await cohort(`${q}&page=2`);
    expect(api.meta.total).toBeGreaterThan(30);
    const p = await page(`/frame/cohort?${q}&page=2`);
    expect(tableIds(p.doc)).toEqual(api.results.map((w) => w.id));
    const pager = one(p.doc, (n) => n.name === 'nav' && n.attribs['aria-label'] === 'Result pages', 'pager');
    const last = Math.ceil(api.meta.total / 10);
    const at = (n: number) => (n === 1 ? `/frame/cohort?${q}` : `/frame/cohort?${q}&page=${n}`);
    // First, Previous, the numbers around page 2 (2 itself is not a link) and the last one, Next, Last.
    const numbers = [...new Set([1, 3, 4, last])].sort((a, b) => a - b);
    expect(hrefs(pager, /./).map(decode)).toEqual([at(1), at(1), ...numbers.map(at), at(3), at(last)]);
    expect(text(pager)).toContain(`Results 11–20 of ${fmt(api.meta.total)}`);
    expect(text(one(p.doc, (n) => n.name === 'caption', 'caption'))).toContain(`Works 11–20 of ${fmt(api.meta.total)}`);
  });

  it('pages with the cursor the API returned', async () => {
    const first = await cohort('per_page=5');
    const cursor = first.meta.next_cursor!;
    expect(cursor).toBeTruthy();
    const api = await cohort(`per_page=5&cursor=${cursor}`);
    const p = await page(`/frame/cohort?per_page=5&cursor=${cursor}`);
    expect(p.status).toBe(200);
    expect(tableIds(p.doc)).toEqual(api.results.map((w) => w.id));
    const pager = one(p.doc, (n) => n.name === 'nav' && n.attribs['aria-label'] === 'Result pages', 'pager');
    // Back to the first page and to the last numbered one, then the next results by the API's cursor.
    const lastNumbered = Math.min(Math.ceil(api.meta.total / 5), 10_000 / 5);
    expect(hrefs(pager, /./).map(decode)).toEqual([
      '/frame/cohort?per_page=5',
      `/frame/cohort?per_page=5&page=${lastNumbered}`,
      `/frame/cohort?per_page=5&cursor=${api.meta.next_cursor}`,
    ]);
  });

  it("links the API's exports with the canonical query and the sort, and the CSV has the total's rows", async () => {
    const q = 'route=no_aff&lang=fr&sort=year_asc';
    const api = await cohort(q);
    const p = await page(`/frame/cohort?${q}`);
    const csv = decode(one(p.doc, (n) => n.attribs['data-export'] === 'csv', 'CSV link').attribs.href!);
    expect(csv).toBe(`/frame/api/v1/cohort/export?${api.meta.query}&sort=year_asc&format=csv`);
    expect(decode(hrefs(p.doc, /format=json$/)[0]!)).toBe(`/frame/api/v1/cohort/export?${api.meta.query}&sort=year_asc&format=json`);
    const file = await s.get(csv);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    const lines = file.text.split('\n').filter((l) => l !== '' && !l.startsWith('# '));
    // Quoted cells may hold newlines; the export's own header tells the row count too.
    expect(file.headers.get('x-export-rows')).toBe(String(api.meta.total));
    expect(lines.length).toBeGreaterThanOrEqual(api.meta.total + 1);
  });
});

describe('cohort builder: refused queries and the form', () => {
  it("a bad value is the API's 400, naming the parameter, with the form still filled as typed", async () => {
    const q = 'lang=fr&year_from=2020&year_to=2010';
    const api = await s.get(`/frame/api/v1/cohort?${q}`);
    const body = JSON.parse(api.text) as ErrorBody;
    const p = await page(`/frame/cohort?${q}`);
    expect(p.status).toBe(400);
    const alert = errorNotice(p.doc);
    expect(alert.attribs['data-error-code']).toBe(body.code);
    expect(text(alert)).toContain(body.message);
    expect(text(alert)).toContain('year_from');
    expect(valueOf(p.doc, 'lang')).toBe('fr');
    expect(valueOf(p.doc, 'year_from')).toBe('2020');
    expect(valueOf(p.doc, 'year_to')).toBe('2010');
    // No counts, table or links that would look like an (empty) answer.
    expect(all(p.doc, (n) => 'data-cohort-total' in n.attribs)).toHaveLength(0);
    expect(p.text).not.toContain('class="works"');
  });

  it('an unknown parameter is a 400 that names it; a synonym travels in a hidden input so a resubmission keeps it', async () => {
    const p = await page('/frame/cohort?bogus=1&route=fund&venue=Journal%20of%20Health');
    expect(p.status).toBe(400);
    expect(text(errorNotice(p.doc))).toContain('"bogus"');
    expect(valueOf(p.doc, 'venue')).toBe('Journal of Health');
    expect(hiddenInputs(filterForm(p.doc))).toEqual([['route', 'fund']]);
    const bad = await page('/frame/cohort?sort=relevance');
    expect(bad.status).toBe(400);
    expect(text(errorNotice(bad.doc))).toContain('sort');
  });

  it('fills the form from the canonical filters (synonyms folded), keeping the words typed in the searches', async () => {
    const p = await page('/frame/cohort?route=no_aff&no_abstract=1&lang=FR&q=Health%20canada&sort=year_desc&per_page=50&cited_min=0');
    expect(p.status).toBe(200);
    expect(valueOf(p.doc, 'route_aff')).toBe('0');
    expect(valueOf(p.doc, 'abstract')).toBe('none');
    expect(valueOf(p.doc, 'lang')).toBe('fr');
    expect(valueOf(p.doc, 'q')).toBe('Health canada');
    expect(valueOf(p.doc, 'sort')).toBe('year_desc');
    expect(valueOf(p.doc, 'per_page')).toBe('50');
    expect(valueOf(p.doc, 'cited_min')).toBe('');
    expect(hiddenInputs(filterForm(p.doc))).toEqual([]);
    expect(text(byData(p.doc, 'data-cohort-words'))).toBe(
      'title has the words “canada health”; language: French; route: no Canadian affiliation; without an abstract',
    );
  });

  it('works without JavaScript: a GET form whose every control is labelled, and its submission (blank fields included) is the API query', async () => {
    const p = await page('/frame/cohort');
    const form = filterForm(p.doc);
    expect(form.attribs.method).toBe('get');
    expect(form.attribs.action).toBe('/frame/cohort');
    const controls = all(form, (n) => (n.name === 'input' || n.name === 'select') && n.attribs.type !== 'hidden');
    expect(controls.length).toBeGreaterThanOrEqual(26);
    for (const c of controls) {
      const label = all(p.doc, (n) => n.name === 'label' && n.attribs.for === c.attribs.id);
      expect(label, `label of ${c.attribs.name}`).toHaveLength(1);
    }
    // Every parameter of the /cohort surface but the paging ones has a control of that name (`snapshot` has
    // its own, outside the filters, when the server retains older snapshots: SnapshotChoice.astro).
    const names = controls.map((c) => c.attribs.name);
    const { SURFACES } = await import('../../contracts/frame/cohort-query.ts');
    const expected = SURFACES.cohort.filter((k) => !['route', 'no_abstract', 'page', 'cursor', 'snapshot'].includes(k));
    expect([...names].sort()).toEqual([...expected].sort());
    // A browser submits every field, blank ones too.
    const submitted = new URLSearchParams(names.map((n) => [n!, '']));
    submitted.set('lang', 'fr');
    submitted.set('route_aff', '0');
    const api = await cohort('lang=fr&route_aff=0');
    const r = await page(`/frame/cohort?${submitted}`);
    expect(r.status).toBe(200);
    expect(shownCounts(r.doc)).toEqual(expectedCounts(api.meta));
    expect(tableIds(r.doc)).toEqual(api.results.map((w) => w.id));
  });

  it('is plain HTML: one main, external scripts and styles only, no style or handler attributes', async () => {
    const { text: html } = await page('/frame/cohort?lang=fr');
    expect(html.match(/<main /g)).toHaveLength(1);
    expect(html).not.toMatch(/<style[\s>]/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(ld\+)?json")[^>]*>/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });
});

describe('permalinks', () => {
  it('"Make permalink" sends the canonical filters, is answered 303 to /frame/q/<hash>, and that page shows the same total', async () => {
    const q = 'route=no_aff&lang=fr&year_from=2010&sort=year_desc&per_page=10';
    const api = await cohort(q);
    const builder = await page(`/frame/cohort?${q}`);
    const form = one(builder.doc, (n) => n.name === 'form' && 'data-permalink-form' in n.attribs, 'permalink form');
    // A GET form (api-dynamic routes only GET to the site) whose fields are the API's canonical filters.
    expect(form.attribs.method).toBe('get');
    expect(form.attribs.action).toBe('/frame/permalink');
    expect(new URLSearchParams(hiddenInputs(form) as [string, string][]).toString()).toBe(api.meta.query);
    const action = `/frame/permalink?${api.meta.query}`;
    const posted = await s.get(action);
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/frame/q/${api.meta.query_hash}`);
    // Idempotent: the same cohort, the same address.
    const again = await s.get(action);
    expect(again.headers.get('location')).toBe(posted.headers.get('location'));
    expect((await s.json<{ hash: string }>(`/frame/api/v1/permalink/${api.meta.query_hash}`)).hash).toBe(api.meta.query_hash);

    const qp = await page(posted.headers.get('location')!);
    expect(qp.status).toBe(200);
    expect(qp.text).toContain(`<strong>${fmt(api.meta.total)}</strong> works`);
    expect(qp.text).toContain(`${fmt(api.meta.direct_labels_cover)} (${pct(api.meta.direct_labels_cover, api.meta.total)}) with direct labels`);
    expect(text(qp.doc)).toContain('Years 2010 and later; language: French; route: no Canadian affiliation.');
    const citation = text(byData(qp.doc, 'data-citation'));
    expect(citation).toContain(
      `Cohort ${api.meta.query_hash}: years 2010 and later; language: French; route: no Canadian affiliation (${fmt(api.meta.total)} works`,
    );
    expect(citation).toContain(`${s.base}/frame/q/${api.meta.query_hash}`);
    // "Open in the cohort builder" restores the cohort.
    const open = all(qp.doc, (n) => n.name === 'a' && text(n) === 'Open in the cohort builder');
    expect(open).toHaveLength(1);
    const back = await page(decode(open[0]!.attribs.href!));
    expect(shownCounts(back.doc)).toEqual(expectedCounts(api.meta));
    expect(valueOf(back.doc, 'lang')).toBe('fr');
    expect(valueOf(back.doc, 'route_aff')).toBe('0');
    expect(valueOf(back.doc, 'year_from')).toBe('2010');
    // API and export links.
    expect(hrefs(qp.doc, /./).map(decode)).toEqual(
      expect.arrayContaining([
        `/frame/api/v1/cohort?${api.meta.query}`,
        `/frame/api/v1/cohort/export?${api.meta.query}&format=csv`,
        `/frame/api/v1/cohort/export?${api.meta.query}&format=json`,
        `/frame/api/v1/permalink/${api.meta.query_hash}`,
      ]),
    );
  });

  it('a permalink minted through the API shows its counts (the format the start-up test reads)', async () => {
    const minted = (await (await fetch(`${s.base}/frame/api/v1/permalink?route=no_aff&lang=fr`, { method: 'POST' })).json()) as { hash: string; total: number };
    const p = await page(`/frame/q/${minted.hash}`);
    expect(p.status).toBe(200);
    expect(p.text).toContain(`<strong>${minted.total.toLocaleString('en-CA')}</strong> works`);
    // The cited numbers (recorded at minting) beside them, and on the snapshot that minted them: the same.
    expect(text(byData(p.doc, 'data-cited-total'))).toBe(minted.total.toLocaleString('en-CA'));
    expect(byData(p.doc, 'data-comparison').attribs['data-comparison']).toBe('same');
    expect(byData(p.doc, 'data-minted-snapshot').attribs['data-minted-snapshot']).toBe('served');
  });

  it('the builder names the snapshot it answers from', async () => {
    const snapshots = await s.json<{ served: { id: string }; retained: unknown[] }>('/frame/api/v1/snapshots');
    const b = await page('/frame/cohort?lang=fr');
    expect(text(byData(b.doc, 'data-snapshot-served'))).toBe(snapshots.served.id);
    expect(snapshots.retained).toEqual([]);
  });

  it('an unknown hash is a 404 page, a malformed one the API 400; a refused permalink query is the API error', async () => {
    const unknown = await page('/frame/q/0123456789abcdef');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Unknown permalink');
    const malformed = await page('/frame/q/not-a-hash');
    expect(malformed.status).toBe(400);
    expect(text(errorNotice(malformed.doc))).toContain('hash');
    const refused = await page('/frame/permalink?lang=fr&sort=year_desc');
    expect(refused.status).toBe(400);
    expect(errorNotice(refused.doc).attribs['data-error-code']).toBe('UNKNOWN_PARAMETER');
    expect(text(errorNotice(refused.doc))).toContain('"sort"');
  });
});

describe('work pages', () => {
  interface Work {
    id: string;
    title: string;
    doi: string | null;
    cited_by: number;
    authors: { id: string; name: string }[];
    routes: string[];
    labels: unknown[];
    screen: { n_in: number } | null;
    retraction: { nature: string | null } | null;
  }
  const work = (id: string) => s.json<Work>(`/frame/api/v1/works/${id}`);
  /**
   * Every author's name opens their works (the builder's cohort of author_id, which the API answers with a
   * cohort of at least this work); the network link is there exactly for the authors whose network the API
   * has (200, not 404).
   */
  const authorLinks = async (doc: Doc, w: Work) => {
    const network = hrefs(doc, /^\/frame\/network\?/);
    let inNetwork = 0;
    for (const a of w.authors) {
      expect(hrefs(doc, /^\/frame\/cohort\?/)).toContain(`/frame/cohort?author_id=${a.id}`);
      const theirs = await cohort(`author_id=${a.id}&per_page=1`);
      expect(theirs.meta.total).toBeGreaterThan(0);
      const known = (await s.get(`/frame/api/v1/network?author_id=${a.id}`)).status;
      expect([200, 404]).toContain(known);
      expect(network.includes(`/frame/network?author_id=${a.id}`), a.id).toBe(known === 200);
      if (known === 200) inNetwork++;
    }
    expect(network.length).toBe(inNetwork);
  };
  /** The cell beside a row header of the record table. */
  const row = (doc: Doc, header: string) => {
    const tr = one(doc, (n) => n.name === 'tr' && all(n, (c) => c.name === 'th' && text(c) === header).length === 1, `row ${header}`);
    return text(all(tr, (c) => c.name === 'td'));
  };

  it(`prerenders the ${STATIC_WORK_PAGES} most cited works (as /cohort sorts them) and no other`, async () => {
    const { readdirSync } = await import('node:fs');
    const built = new Set(readdirSync(join(s.siteDir, 'client', 'frame', 'works')));
    // /cohort's default order is cited desc, ties by id: its first N works are the ones to prerender.
    const expected: string[] = [];
    const pages = Math.min(100, Math.ceil(STATIC_WORK_PAGES / 100));
    for (let page = 1; page <= pages; page++) expected.push(...(await cohort(`per_page=100&page=${page}`)).results.map((w) => w.id));
    const top = expected.slice(0, STATIC_WORK_PAGES);
    expect(built.size).toBe(Math.min(STATIC_WORK_PAGES, (await cohort('per_page=1')).meta.total));
    expect([...built].sort()).toEqual([...top].sort());
  });

  it('a prerendered work is the static file, with every part of the record', async () => {
    const id = (await cohort('per_page=1')).results[0]!.id;
    const w = await work(id);
    const r = await s.get(`/frame/works/${id}`);
    expect(r.status).toBe(200);
    // Served by the static file server (an ETag and a five-minute cache), not rendered.
    expect(r.headers.get('etag')).toBeTruthy();
    expect(r.headers.get('cache-control')).toContain('max-age=300');
    const doc = parseDocument(r.text);
    expect(text(one(doc, (n) => n.name === 'h1', 'h1'))).toBe(w.title);
    await authorLinks(doc, w);
    // The fixture is generated (synthetic): its DOI is shown, never linked (honest-data.test.ts checks a real build).
    if (w.doi) expect(hrefs(doc, /^https:\/\/doi\.org\//)).toEqual([]);
    expect(hrefs(doc, /^\/frame\/api\/v1\/works\//)).toContain(`/frame/api/v1/works/${id}`);
    for (const h of [
      'Record',
      'Routes into the frame',
      `Authors (${w.authors.length})`,
      'Abstract',
      'Three-model screen',
      'Direct labels',
      'Frame prediction',
      'Legacy machine scores',
      'Data',
    ])
      expect(all(doc, (n) => n.name === 'h2').map(text)).toContain(h);
    expect(row(doc, 'Cited by')).toBe(fmt(w.cited_by));
    expect(row(doc, 'Work id')).toBe(id);
  });

  it('any other work renders on request from the API, with the same view; unknown is 404, malformed 400', async () => {
    // A screened, labelled or retracted work if the low-cited tail has one, so those sections render too.
    const tail = await cohort('sort=year_asc&per_page=100&cited_min=0&labeled=1');
    const id = tail.results.find((w) => !existsSync(staticFile(w.id)))!.id;
    const w = await work(id);
    const r = await page(`/frame/works/${id}`);
    expect(r.status).toBe(200);
    expect(text(one(r.doc, (n) => n.name === 'h1', 'h1'))).toBe(w.title);
    expect(w.labels.length).toBeGreaterThan(0);
    expect(all(r.doc, (n) => n.name === 'caption').map(text)).toContain('Direct labels, one row per model');
    await authorLinks(r.doc, w);

    const unknown = await page('/frame/works/W1');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Work not found');
    const malformed = await page('/frame/works/X12');
    expect(malformed.status).toBe(400);
    expect(text(errorNotice(malformed.doc))).toContain('W followed by digits');
    expect((await s.get('/frame/works/W1/extra/path')).status).toBe(404);
  });

  it("a screened work's abstract page shows the abstract the API gives (the screening record)", async () => {
    const screened = await s.json<{ results: { id: string }[] }>('/frame/api/v1/screened?per_page=20');
    for (const { id } of screened.results) {
      const api = await s.json<{ abstract: string | null; abstract_source: string | null; has_abstract: boolean }>(`/frame/api/v1/works/${id}?abstract=1`);
      if (!api.abstract) continue;
      const p = await page(`/frame/works/${id}/abstract`);
      expect(p.status).toBe(200);
      expect(text(one(p.doc, (n) => n.name === 'p' && n.attribs.class === 'abstract', 'abstract'))).toBe(api.abstract.replace(/\s+/g, ' ').trim());
      expect(p.text).toContain('the screening record');
      // The work page links to it (no JavaScript needed).
      const wp = await page(`/frame/works/${id}`);
      expect(hrefs(wp.doc, /\/abstract$/)).toEqual([`/frame/works/${id}/abstract`]);
      return;
    }
    throw new Error('no screened work with an abstract in the fixture');
  });
});

describe('server-rendered pages are fast', () => {
  it('answer 20 requests in a row on the fixture build: the builder, a permalink, a work (median logged; npm run bench:site measures the 100 ms target)', async () => {
    const minted = (await (await fetch(`${s.base}/frame/api/v1/permalink?route_fund=1`, { method: 'POST' })).json()) as { hash: string };
    const tail = await cohort('sort=year_asc&per_page=50');
    const ssrWork = tail.results.find((w) => !existsSync(staticFile(w.id)))!.id;
    for (const path of ['/frame/cohort?route=no_aff&lang=fr&year_from=2010', `/frame/q/${minted.hash}`, `/frame/works/${ssrWork}`]) {
      await pageTimes(s, path, () => path);
    }
  });
});

function staticFile(id: string): string {
  return join(s.siteDir, 'client', 'frame', 'works', id, 'index.html');
}
