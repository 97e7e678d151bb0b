/**
 * The corpus pages over the real app and an Astro build of the fixture corpus (80 articles): the excerpt
 * browser's totals and items are the API's for the same query string, a parameter the API refuses is a 400
 * page with the API's message, /corpus shows stats.json's numbers, the phrase table (and each prerendered
 * order) is phrases.json, every article of the build has its page with its sentences, and each highlight
 * wraps exactly the text the API's offsets name. Oracles: the API's answers and the build's documents.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleDoc, PhraseDoc, PhraseRow, PhrasesDoc, StatsDoc } from '../../contracts/corpus/documents.ts';
import type { ExcerptsResponse } from '../../contracts/corpus/responses.ts';
import { type SiteServer, pageTimes, startSiteServer } from '../helpers/site-server.ts';

type Node = ReturnType<typeof DomUtils.findAll>[number];
type Doc = ReturnType<typeof parseDocument>;

let s: SiteServer;
let ids: string[];
beforeAll(async () => {
  s = await startSiteServer();
  ids = readdirSync(join(s.buildOutput, 'current', 'corpus', 'api', 'v1', 'articles'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5));
}, 600_000);
afterAll(async () => s?.close());

// ---- the site's number format (en-CA grouping), written out independently ----
const fmt = (n: number) => n.toLocaleString('en-CA');

// ---- reading pages ----
const text = (n: Node | Node[] | Doc) =>
  DomUtils.textContent(n as Node)
    .replace(/\s+/g, ' ')
    .trim();
const all = (root: Doc | Node, test: (n: Node) => boolean): Node[] => DomUtils.findAll(test, root.type === 'root' ? (root as Doc).children : [root as Node]);
const hasClass = (n: Node, c: string) => (n.attribs?.class ?? '').split(/\s+/).includes(c);
const excerptsOf = (root: Doc | Node) => all(root, (n) => n.name === 'article' && hasClass(n, 'excerpt'));
const marksOf = (root: Node, c: string) => all(root, (n) => n.name === 'mark' && hasClass(n, c));
async function page(path: string) {
  const r = await s.get(path);
  return { ...r, doc: parseDocument(r.text) };
}
const api = <T>(path: string) => s.json<T>(path);

describe('/corpus/excerpts: the API for the same query string', () => {
  const QUERIES = [
    '',
    'band=0.06-0.08',
    'band=ns&band=none',
    'band=0.05-0.06&status=verified',
    'status=rejected',
    'phrase=marginally+significant',
    'phrase=Marginally%20Significant&band=0.08-0.10&sort=p_desc',
    'q=trend',
    'q=trend*&sort=year_desc&per_page=10&page=2',
    'status=verified&status=rejected&status=unverified&status=indeterminate&per_page=100&page=3',
    '_cache=1&band=%3E0.10',
  ];
  for (const q of QUERIES) {
    it(`?${q}: same total, same items in the same order`, async () => {
      const expected = await api<ExcerptsResponse>(`/corpus/api/v1/excerpts${q ? `?${q}` : ''}`);
      const { status, doc } = await page(`/corpus/excerpts${q ? `?${q}` : ''}`);
      expect(status).toBe(200);
      const total = all(doc, (n) => n.name === 'p' && hasClass(n, 'total'));
      expect(total).toHaveLength(1);
      expect(total[0]!.attribs['data-total']).toBe(String(expected.meta.total));
      expect(text(all(total[0]!, (n) => n.name === 'strong'))).toBe(fmt(expected.meta.total));
      expect(excerptsOf(doc).map((n) => n.attribs['data-excerpt-id'])).toEqual(expected.results.map((i) => i.id));
    });
  }

  it('a page after the last redirects to the last page (the one pager rule)', async () => {
    const expected = await api<ExcerptsResponse>('/corpus/api/v1/excerpts?page=999');
    const r = await s.get('/corpus/excerpts?page=999');
    expect(r.status).toBe(303);
    expect(new URL(r.headers.get('location')!, s.base).searchParams.get('page')).toBe(String(expected.meta.pages));
  });

  it('links each result to its article page (at the sentence), and never to PubMed Central on the generated fixture', async () => {
    let pmc = 0;
    let generated = 0;
    // Article order puts the articles without a PMCID last: read every page.
    for (let pageNo = 1, pages = 1; pageNo <= pages; pageNo++) {
      const expected = await api<ExcerptsResponse>(`/corpus/api/v1/excerpts?per_page=100&page=${pageNo}`);
      pages = expected.meta.pages;
      const items = excerptsOf((await page(`/corpus/excerpts?per_page=100&page=${pageNo}`)).doc);
      expect(items).toHaveLength(expected.results.length);
      expected.results.forEach((item, i) => {
        const hrefs = all(items[i]!, (n) => n.name === 'a').map((a) => a.attribs.href);
        const local = item.id.slice(item.id.lastIndexOf('/') + 1).replace(/\./g, '-');
        expect(hrefs).toContain(`/corpus/articles/${item.article.pmcid}#s-${local}`);
        if (item.article.id_kind === 'pmcid') {
          pmc++;
          // A made-up PMCID may be a real, unrelated article: a synthetic build links none (honest-data.test.ts).
          expect(hrefs.some((h) => h?.includes('ncbi'))).toBe(false);
        } else {
          generated++;
          expect(hrefs.some((h) => h?.includes('ncbi'))).toBe(false);
        }
      });
    }
    expect(pmc).toBeGreaterThan(0);
    expect(generated).toBeGreaterThan(0);
  });

  it("the next-page link leads to the API's next page", async () => {
    const { doc } = await page('/corpus/excerpts?band=0.08-0.10&per_page=10');
    const next = all(doc, (n) => n.name === 'a' && n.attribs.rel === 'next');
    expect(next).toHaveLength(1);
    const href = next[0]!.attribs.href!;
    expect(href.startsWith('/corpus/excerpts?')).toBe(true);
    const expected = await api<ExcerptsResponse>(`/corpus/api/v1/excerpts?${href.split('?')[1]}`);
    expect(expected.meta.page).toBe(2);
    const second = await page(href);
    expect(excerptsOf(second.doc).map((n) => n.attribs['data-excerpt-id'])).toEqual(expected.results.map((i) => i.id));
  });

  it('refills the form with what was asked', async () => {
    const { doc } = await page('/corpus/excerpts?band=ns&band=none&q=trend&sort=p_asc&per_page=50');
    const inputs = all(doc, (n) => n.name === 'input');
    const checked = inputs.filter((n) => n.attribs.type === 'checkbox' && 'checked' in n.attribs).map((n) => `${n.attribs.name}=${n.attribs.value}`);
    expect(checked).toEqual(['band=ns', 'band=none']);
    expect(inputs.find((n) => n.attribs.name === 'q')!.attribs.value).toBe('trend');
    const selected = (name: string) =>
      all(doc, (n) => n.name === 'select' && n.attribs.name === name)
        .flatMap((sel) => all(sel, (o) => o.name === 'option' && 'selected' in o.attribs))
        .map((o) => o.attribs.value);
    expect(selected('sort')).toEqual(['p_asc']);
    expect(selected('per_page')).toEqual(['50']);
    expect(selected('phrase')).toEqual(['']);
  });

  it('labels every control of the form', async () => {
    const { doc } = await page('/corpus/excerpts');
    const form = all(doc, (n) => n.name === 'form')[0]!;
    expect(form.attribs.method).toBe('get');
    expect(form.attribs.action).toBe('/corpus/excerpts');
    const labelled = new Set(all(form, (n) => n.name === 'label').map((l) => l.attribs.for));
    for (const c of all(form, (n) => n.name === 'select' || (n.name === 'input' && n.attribs.type !== 'hidden')))
      expect(labelled.has(c.attribs.id), c.attribs.name).toBe(true);
  });
});

describe('/corpus/excerpts: refused parameters', () => {
  it("a bad band is a 400 page naming band and its allowed values, with the API's message", async () => {
    const r = await s.get('/corpus/api/v1/excerpts?band=0.2');
    const body = JSON.parse(r.text) as { message: string };
    const { status, headers, doc } = await page('/corpus/excerpts?band=0.2');
    expect(r.status).toBe(400);
    expect(status).toBe(400);
    expect(headers.get('cache-control')).toBe('no-store');
    const alert = all(doc, (n) => n.attribs?.role === 'alert');
    expect(alert).toHaveLength(1);
    expect(alert[0]!.attribs['data-status']).toBe('400');
    expect(text(alert[0]!)).toContain(body.message);
    expect(text(alert[0]!)).toContain('band');
    for (const b of ['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns', 'none']) expect(text(alert[0]!)).toContain(b);
    expect(excerptsOf(doc)).toHaveLength(0);
    // The form still shows what was asked for.
    expect(all(doc, (n) => n.name === 'form')).toHaveLength(1);
  });

  for (const [q, parameter] of [
    ['phrase=not+a+hedge', 'phrase'],
    ['sort=relevance', 'sort'],
    ['per_page=500', 'per_page'],
    ['q=%22unbalanced', 'q'],
    ['bogus=1', 'bogus'],
    ['sort=article&sort=p_asc', 'sort'],
  ] as const) {
    it(`?${q} is a 400 naming ${parameter}`, async () => {
      const apiAnswer = await s.get(`/corpus/api/v1/excerpts?${q}`);
      const { status, doc } = await page(`/corpus/excerpts?${q}`);
      expect(apiAnswer.status).toBe(400);
      expect(status).toBe(400);
      const alert = text(all(doc, (n) => n.attribs?.role === 'alert'));
      expect(alert).toContain((JSON.parse(apiAnswer.text) as { message: string }).message);
      expect(alert).toContain(parameter);
    });
  }
});

describe('/corpus: the numbers of stats.json', () => {
  it('shows each band with its occurrences and sentences, linking to its excerpts', async () => {
    const stats = await api<StatsDoc>('/corpus/api/v1/stats');
    const { status, doc } = await page('/corpus');
    expect(status).toBe(200);
    const rows = all(doc, (n) => n.name === 'tr' && n.attribs['data-band'] !== undefined);
    expect(rows.map((r) => r.attribs['data-band'])).toEqual(stats.bands.map((b) => b.band));
    for (const [i, b] of stats.bands.entries()) {
      const cells = all(rows[i]!, (n) => n.name === 'td' && hasClass(n, 'num')).map(text);
      expect(cells).toEqual([fmt(b.occurrences), fmt(b.excerpts)]);
      const href = all(rows[i]!, (n) => n.name === 'a')[0]!.attribs.href!;
      expect(href).toBe(`/corpus/excerpts?band=${encodeURIComponent(b.band)}`);
      // The link's list has as many sentences as the band says.
      const listed = await api<ExcerptsResponse>(`/corpus/api/v1/excerpts?${href.split('?')[1]}`);
      expect(listed.meta.total).toBe(b.excerpts);
    }
  });

  it('draws the band split as an accessible SVG chart with the same numbers in its data table', async () => {
    const stats = await api<StatsDoc>('/corpus/api/v1/stats');
    const { doc } = await page('/corpus');
    const figure = all(doc, (n) => n.name === 'figure' && n.attribs['aria-labelledby'] === 'band-split-caption');
    expect(figure).toHaveLength(1);
    const svg = all(figure[0]!, (n) => n.name === 'svg')[0]!;
    // Its bands are links, so it is a group (links inside an image would be hidden: axe nested-interactive).
    expect(svg.attribs.role).toBe('group');
    expect(svg.attribs['aria-labelledby']).toBe('band-split-caption band-split-desc');
    const table = all(figure[0]!, (n) => n.name === 'tbody')[0]!;
    const rows = all(table, (n) => n.name === 'tr').map((r) => all(r, (c) => c.name === 'td').map(text));
    expect(rows).toEqual(stats.bands.map((b) => [fmt(b.occurrences), fmt(b.excerpts)]));
    expect(all(svg, (n) => n.name === 'a').map((a) => a.attribs.href)).toEqual(stats.bands.map((b) => `/corpus/excerpts?band=${encodeURIComponent(b.band)}`));
  });

  it('draws prevalence by year as an accessible chart whose data table is stats.by_year, each year linking to its sentences', async () => {
    const stats = await api<StatsDoc>('/corpus/api/v1/stats');
    expect(stats.by_year.length).toBeGreaterThan(3);
    const { doc } = await page('/corpus');
    const figure = all(doc, (n) => n.name === 'figure' && n.attribs['aria-labelledby'] === 'prevalence-by-year-caption');
    expect(figure).toHaveLength(1);
    const svg = all(figure[0]!, (n) => n.name === 'svg')[0]!;
    // Its bars are links: a group, not an image (axe nested-interactive; the charts' rule).
    expect(svg.attribs.role).toBe('group');
    const rows = all(all(figure[0]!, (n) => n.name === 'tbody')[0]!, (n) => n.name === 'tr').map((r) =>
      all(r, (c) => c.name === 'th' || c.name === 'td').map(text),
    );
    const bands = ['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns', 'none'] as const;
    expect(rows).toEqual(
      stats.by_year.map((y) => [
        y.year === null ? 'no year' : String(y.year),
        `${((100 * y.articles_with_verified) / y.articles_scanned).toFixed(1)}%`,
        fmt(y.articles_scanned),
        fmt(y.articles_with_verified),
        fmt(y.excerpts),
        ...bands.map((b) => fmt(y.bands[b])),
      ]),
    );
    const hrefs = all(svg, (n) => n.name === 'a').map((a) => a.attribs.href!);
    expect(hrefs).toEqual(stats.by_year.filter((y) => y.year !== null).map((y) => `/corpus/excerpts?year_from=${y.year}&year_to=${y.year}`));
    // The link's list has as many sentences as the year says.
    const y = stats.by_year[0]!;
    expect((await api<ExcerptsResponse>(`/corpus/api/v1/excerpts?${hrefs[0]!.split('?')[1]}`)).meta.total).toBe(y.excerpts);
    const browser = await page(hrefs[0]!);
    expect(browser.status).toBe(200);
    expect(text(browser.doc)).toContain(fmt(y.excerpts));
  });

  it('shows the totals, the median p and the lexicon', async () => {
    const stats = await api<StatsDoc>('/corpus/api/v1/stats');
    const { doc } = await page('/corpus');
    const totals = all(doc, (n) => n.name === 'table' && n.attribs['aria-label'] === 'Corpus totals')[0]!;
    const cells = all(totals, (n) => n.name === 'td').map(text);
    expect(cells).toEqual([
      fmt(stats.articles_scanned),
      fmt(stats.articles_with_verified),
      fmt(stats.articles_without_pmcid),
      fmt(stats.sentences_scanned),
      fmt(stats.excerpts),
      fmt(stats.excerpts_any_status),
      // Three decimals, whatever the value (written out here, independently of the site's fmtP).
      stats.median_p === null ? '–' : stats.median_p.toFixed(3),
    ]);
    expect(text(doc)).toContain(`Version ${stats.lexicon.version}`);
  });
});

describe('/corpus/phrase/<phrase>: each phrase and its yearly counts', () => {
  it('has a page for every verified phrase with its totals and its counts per year as the API gives them', async () => {
    const phrases = await api<PhrasesDoc>('/corpus/api/v1/phrases');
    for (const row of phrases.phrases) {
      const doc = await api<PhraseDoc>(`/corpus/api/v1/phrases/${encodeURIComponent(row.phrase)}`);
      const { status, doc: html } = await page(`/corpus/phrase/${row.phrase.replace(/ /g, '-')}`);
      expect(status, row.phrase).toBe(200);
      const totals = all(all(html, (n) => n.name === 'table' && n.attribs['aria-label'] === 'Phrase totals')[0]!, (n) => n.name === 'td').map(text);
      const bands = ['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns'] as const;
      expect(totals, row.phrase).toEqual([
        fmt(row.verified),
        fmt(row.articles),
        ...bands.map((b) => fmt(row.bands[b])),
        fmt(row.rejected),
        fmt(row.unverified),
      ]);
      const figure = all(html, (n) => n.name === 'figure' && n.attribs['aria-labelledby'] === 'phrase-by-year-caption')[0]!;
      const rows = all(all(figure, (n) => n.name === 'tbody')[0]!, (n) => n.name === 'tr').map((r) =>
        all(r, (c) => c.name === 'th' || c.name === 'td').map(text),
      );
      expect(rows, row.phrase).toEqual(
        doc.by_year.map((y) => [String(y.year), fmt(y.verified), fmt(y.articles), ...bands.map((b) => fmt(y.bands[b])), fmt(y.rejected), fmt(y.unverified)]),
      );
    }
  });

  it("links each year to the phrase's sentences of that year", async () => {
    const phrases = await api<PhrasesDoc>('/corpus/api/v1/phrases');
    const phrase = phrases.phrases[0]!.phrase;
    const doc = await api<PhraseDoc>(`/corpus/api/v1/phrases/${encodeURIComponent(phrase)}`);
    const { doc: html } = await page(`/corpus/phrase/${phrase.replace(/ /g, '-')}`);
    const svg = all(html, (n) => n.name === 'svg')[0]!;
    const hrefs = all(svg, (n) => n.name === 'a').map((a) => a.attribs.href!);
    expect(hrefs).toHaveLength(doc.by_year.length);
    for (const [i, y] of doc.by_year.entries()) {
      expect(hrefs[i]).toBe(`/corpus/excerpts?year_from=${y.year}&year_to=${y.year}&phrase=${encodeURIComponent(phrase)}`);
      // Sentences with a verified occurrence of the phrase in that year: at least one when it has verified ones.
      const listed = await api<ExcerptsResponse>(`/corpus/api/v1/excerpts?${hrefs[i]!.split('?')[1]}`);
      expect(listed.meta.total > 0, String(y.year)).toBe(y.verified > 0);
      expect(listed.meta.total).toBeLessThanOrEqual(y.verified);
    }
  });
});

describe('/corpus/phrases: phrases.json', () => {
  const tableRows = (doc: Doc) =>
    all(all(doc, (n) => n.name === 'tbody')[0]!, (n) => n.name === 'tr').map((tr) => all(tr, (c) => c.name === 'th' || c.name === 'td').map(text));
  const expectedRow = (r: PhraseRow) => [
    `${r.phrase} by year`,
    fmt(r.verified),
    fmt(r.articles),
    ...['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns'].map((b) => fmt(r.bands[b as keyof PhraseRow['bands']])),
    r.median_p === null ? '–' : r.median_p.toFixed(3),
    fmt(r.rejected),
    fmt(r.unverified),
  ];

  it("lists every verified phrase in the API's order with every count", async () => {
    const phrases = await api<PhrasesDoc>('/corpus/api/v1/phrases');
    const { status, doc } = await page('/corpus/phrases');
    expect(status).toBe(200);
    expect(tableRows(doc)).toEqual(phrases.phrases.map(expectedRow));
    const links = all(all(doc, (n) => n.name === 'tbody')[0]!, (n) => n.name === 'a').map((a) => a.attribs.href);
    expect(links).toEqual(
      phrases.phrases.flatMap((p) => [`/corpus/excerpts?phrase=${encodeURIComponent(p.phrase)}`, `/corpus/phrase/${p.phrase.replace(/ /g, '-')}`]),
    );
    // Each phrase's link lists its verified sentences (at most its verified occurrences).
    const first = phrases.phrases[0]!;
    const listed = await api<ExcerptsResponse>(`/corpus/api/v1/excerpts?phrase=${encodeURIComponent(first.phrase)}`);
    expect(listed.meta.total).toBeGreaterThan(0);
    expect(listed.meta.total).toBeLessThanOrEqual(first.verified);
  });

  it('marks the sorted column with aria-sort, and every heading links to an order page that exists', async () => {
    const { doc } = await page('/corpus/phrases');
    const sorted = all(doc, (n) => n.name === 'th' && n.attribs['aria-sort'] !== undefined);
    expect(sorted.map((n) => [n.attribs['data-key'], n.attribs['aria-sort']])).toEqual([['verified', 'descending']]);
    const hrefs = all(doc, (n) => n.name === 'a' && hasClass(n, 'sort')).map((a) => a.attribs.href!);
    expect(hrefs).toHaveLength(11);
    expect(hrefs).toContain('/corpus/phrases/verified-asc');
    expect(hrefs).toContain('/corpus/phrases/articles-desc');
    expect(hrefs).toContain('/corpus/phrases/phrase-asc');
    expect(hrefs).toContain('/corpus/phrases/median-p-asc');
    for (const href of hrefs) expect((await s.get(href)).status, href).toBe(200);
  });

  // Oracles written out here: numbers by value, ties and text by code point, a missing median last.
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const orders: [string, (a: PhraseRow, b: PhraseRow) => number][] = [
    ['articles-desc', (a, b) => b.articles - a.articles || byCode(a.phrase, b.phrase)],
    ['phrase-desc', (a, b) => byCode(b.phrase, a.phrase)],
    ['band-gt0.10-asc', (a, b) => a.bands['>0.10'] - b.bands['>0.10'] || byCode(a.phrase, b.phrase)],
    [
      'median-p-desc',
      (a, b) => (a.median_p === b.median_p ? byCode(a.phrase, b.phrase) : a.median_p === null ? 1 : b.median_p === null ? -1 : b.median_p - a.median_p),
    ],
    ['unverified-asc', (a, b) => a.unverified - b.unverified || byCode(a.phrase, b.phrase)],
  ];
  for (const [slug, compare] of orders) {
    it(`/corpus/phrases/${slug} is the same table in that order`, async () => {
      const phrases = await api<PhrasesDoc>('/corpus/api/v1/phrases');
      const { status, doc } = await page(`/corpus/phrases/${slug}`);
      expect(status).toBe(200);
      expect(tableRows(doc)).toEqual([...phrases.phrases].sort(compare).map(expectedRow));
    });
  }
});

describe('/corpus/articles/<id>: a static page per article', () => {
  it('exists for every article of the build, with its hedged sentences in document order', async () => {
    expect(ids.length).toBeGreaterThanOrEqual(80);
    for (const id of ids) {
      const doc = await api<ArticleDoc>(`/corpus/api/v1/articles/${id}`);
      const p = await page(`/corpus/articles/${id}`);
      expect(p.status, id).toBe(200);
      expect(p.headers.get('content-type')).toMatch(/text\/html/);
      const listed = excerptsOf(p.doc);
      expect(listed.length, id).toBe(doc.excerpt_count);
      expect(listed.map((n) => n.attribs['data-excerpt-id'])).toEqual(doc.excerpts.map((e) => e.id));
      expect(text(all(p.doc, (n) => n.name === 'h1'))).toBe(doc.title ?? doc.pmcid);
      const hrefs = all(p.doc, (n) => n.name === 'a').map((a) => a.attribs.href);
      expect(hrefs).toContain(`/corpus/api/v1/articles/${doc.pmcid}`);
      if (doc.links.pmc) expect(hrefs).not.toContain(doc.links.pmc);
    }
  });

  it('highlights wrap exactly the phrase and p-value text the offsets name, non-ASCII text before them included', async () => {
    let checked = 0;
    let nonAscii = 0;
    for (const id of ids) {
      const doc = await api<ArticleDoc>(`/corpus/api/v1/articles/${id}`);
      const listed = excerptsOf((await page(`/corpus/articles/${id}`)).doc);
      doc.excerpts.forEach((e, i) => {
        const node = listed[i]!;
        const sentence = all(node, (n) => n.name === 'span' && hasClass(n, 'sentence'))[0]!;
        // The whole sentence is there, unchanged, marks and all.
        expect(text(sentence)).toBe(e.text.replace(/\s+/g, ' ').trim());
        const phrases = [...e.occurrences].sort((a, b) => a.start - b.start);
        expect(marksOf(sentence, 'hl-phrase').map((m) => DomUtils.textContent(m))).toEqual(phrases.map((o) => e.text.slice(o.start, o.end)));
        expect(marksOf(sentence, 'hl-phrase').map((m) => m.attribs['data-phrase'])).toEqual(phrases.map((o) => o.phrase));
        const ps = [...new Map(e.occurrences.filter((o) => o.p).map((o) => [o.p!.start, o.p!])).values()].sort((a, b) => a.start - b.start);
        expect(marksOf(sentence, 'hl-p').map((m) => DomUtils.textContent(m))).toEqual(ps.map((p) => p.text));
        checked++;
        // Offsets past text outside ASCII ("Χ2 (1) = 5.37, p 0.06", "× 10^-2"): a mark cut by code points or bytes would miss.
        // eslint-disable-next-line no-control-regex -- "anything outside ASCII"
        if ([...phrases, ...ps].some((o) => /[^\u0000-\u007f]/.test(e.text.slice(0, o.start)))) nonAscii++;
      });
    }
    expect(checked).toBeGreaterThan(100);
    expect(nonAscii).toBeGreaterThan(0);
  });

  it("highlights the search words the API's ranges name, inside the phrase marks when they overlap", async () => {
    const expected = await api<ExcerptsResponse>('/corpus/api/v1/excerpts?q=trend*&per_page=50');
    expect(expected.results.length).toBeGreaterThan(0);
    const listed = excerptsOf((await page('/corpus/excerpts?q=trend*&per_page=50')).doc);
    expected.results.forEach((item, i) => {
      const marks = marksOf(listed[i]!, 'hl-q').map((m) => DomUtils.textContent(m));
      expect(marks.join('')).toBe(item.highlights.map((h) => item.text.slice(h.start, h.end)).join(''));
      expect(marks.join('').toLowerCase()).toContain('trend');
    });
  });

  it('other spellings of a PMCID redirect to the canonical page; unknown ids are 404, junk is 400', async () => {
    const pmc = ids.find((id) => id.startsWith('PMC'))!;
    const number = pmc.slice(3);
    for (const spelling of [`pmc${number}`, number, `PMC0${number}`]) {
      const r = await s.get(`/corpus/articles/${spelling}`);
      expect(r.status, spelling).toBe(301);
      expect(new URL(r.headers.get('location')!, s.base).pathname).toBe(`/corpus/articles/${pmc}`);
    }
    const generated = ids.find((id) => id.startsWith('nopmc-'))!;
    const upper = await s.get(`/corpus/articles/${generated.toUpperCase()}`);
    expect(upper.status).toBe(301);
    expect(new URL(upper.headers.get('location')!, s.base).pathname).toBe(`/corpus/articles/${generated}`);

    const missing = await page('/corpus/articles/PMC999999999');
    expect(missing.status).toBe(404);
    expect(text(all(missing.doc, (n) => n.attribs?.role === 'alert'))).toContain('No articles/PMC999999999');
    const junk = await page('/corpus/articles/not-an-id');
    expect(junk.status).toBe(400);
    expect(text(all(junk.doc, (n) => n.attribs?.role === 'alert'))).toContain('is not an article id');
  });

  it('/corpus/articles lists every article with a link to its page', async () => {
    const { status, doc } = await page('/corpus/articles');
    expect(status).toBe(200);
    const links = all(all(doc, (n) => n.name === 'tbody')[0]!, (n) => n.name === 'a').map((a) => a.attribs.href);
    expect([...links].sort()).toEqual(ids.map((id) => `/corpus/articles/${id}`).sort());
  });
});

describe('corpus pages: plain, accessible HTML', () => {
  const PAGES = [
    '/corpus',
    '/corpus/phrases',
    '/corpus/phrases/articles-desc',
    '/corpus/excerpts',
    '/corpus/excerpts?q=trend',
    '/corpus/articles',
    '/corpus/excerpts?band=x',
    '/corpus/phrase/trend-toward',
    '/corpus/excerpts?year_from=2005&year_to=2010&p_min=0.05',
  ];
  for (const path of PAGES) {
    it(`${path}: one main, the corpus navigation, no inline style or script, tables captioned, headers scoped`, async () => {
      const { text: html, doc } = await page(path);
      expect(html.match(/<main /g)).toHaveLength(1);
      expect(html).toContain('<nav class="corpus-nav" aria-label="Corpus"');
      expect(html).not.toMatch(/<style[\s>]/);
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(ld\+)?json")[^>]*>/);
      expect(html).not.toMatch(/\sstyle="/);
      expect(html).not.toMatch(/\son[a-z]+="/);
      // (A chart's data table is named by its disclosure's summary: ChartFigure's own, not checked here.)
      const inChart = new Set(all(doc, (n) => n.name === 'figure' && hasClass(n, 'chart')).flatMap((f) => all(f, (n) => n.name === 'table')));
      for (const table of all(doc, (n) => n.name === 'table' && !inChart.has(n)))
        expect(table.attribs['aria-label'] ?? table.attribs['aria-labelledby'] ?? all(table, (n) => n.name === 'caption')[0], path).toBeTruthy();
      for (const th of all(doc, (n) => n.name === 'th')) expect(th.attribs.scope, `${path}: ${text(th)}`).toMatch(/^(col|row|colgroup)$/);
    });
  }

  it('the server-rendered excerpt browser answers 20 requests in a row (median logged; npm run bench:site measures the 100 ms target)', async () => {
    for (const path of ['/corpus/excerpts', '/corpus/excerpts?q=trend&band=0.06-0.08&per_page=100']) {
      await pageTimes(s, `corpus-pages: ${path}`, () => path);
    }
  });
});
