/**
 * The corpus API over a fixture build whose corpus was generated with a ground truth: figures against the
 * truth (test/helpers/corpus-oracle.ts), the excerpt list against plain scans of the documents, strict
 * parameters, caching, and every response against its zod schema and the OpenAPI document.
 */
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArticleDoc, articleDocSchema, type ExcerptDoc } from '../../contracts/corpus/documents.ts';
import { CORPUS_RESPONSES, type ExcerptItem, excerptsResponseSchema } from '../../contracts/corpus/responses.ts';
import { BANDS, VERIFIED_BANDS } from '../../contracts/corpus/vocab.ts';
import { appFor } from '../helpers/app.ts';
import { expectError } from '../helpers/cohort.ts';
import { type CorpusTruth, expectedByYear, expectedArticleId, expectedStats, readCorpusTruth, textMatches, words } from '../helpers/corpus-oracle.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';

let h: Awaited<ReturnType<typeof appFor>>;
let truth: CorpusTruth;
const get = (url: string) => h.app.inject(url);
const json = async (url: string) => {
  const res = await get(url);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res.json();
};

/** Every item of a listing, page by page (100 per page). */
async function all(query: string): Promise<ExcerptItem[]> {
  const items: ExcerptItem[] = [];
  for (let page = 1; ; page++) {
    const body = excerptsResponseSchema.parse(await json(`/corpus/api/v1/excerpts?${query}${query ? '&' : ''}per_page=100&page=${page}`));
    items.push(...body.results);
    if (page >= body.meta.pages) {
      expect(items).toHaveLength(body.meta.total);
      return items;
    }
  }
}

/** Every excerpt of every article document, in listing order. */
let documents: ArticleDoc[] = [];
const allStatuses = 'status=verified&status=rejected&status=unverified&status=indeterminate';

beforeAll(async () => {
  const { snapshot, out } = await sharedFixture();
  truth = readCorpusTruth(join(snapshot, 'corpus'));
  h = await appFor(out);
  const listed = await all(allStatuses);
  const ids = [...new Set(listed.map((e) => e.article.pmcid))];
  documents = await Promise.all(ids.map(async (id) => articleDocSchema.parse(await json(`/corpus/api/v1/articles/${id}`))));
});
afterAll(async () => {
  await h?.close();
});

describe('stats against the ground truth', () => {
  it('counts articles, verified excerpts, bands and the median as the truth does', async () => {
    const stats = await json('/corpus/api/v1/stats');
    const want = expectedStats(truth);
    expect(stats.articles_scanned).toBe(want.articles_scanned);
    expect(stats.articles_without_pmcid).toBe(want.articles_without_pmcid);
    expect(stats.articles_with_verified).toBe(want.articles_with_verified);
    expect(stats.excerpts).toBe(want.excerpts);
    expect(stats.excerpts).toBeGreaterThan(100);
    for (const band of VERIFIED_BANDS) {
      const row = stats.bands.find((b: { band: string }) => b.band === band);
      expect(row.excerpts, band).toBe(want.verifiedExcerptsByBand[band] ?? 0);
    }
    expect(stats.median_p).toBeCloseTo(want.median_p!, 12);
    expect(stats.median_p_values).toBe(want.median_p_values);
    expect(stats.lexicon.version).toBe('hedging-v2');
  });

  it('agrees with the excerpt list: the default total, each band total, each status', async () => {
    const stats = await json('/corpus/api/v1/stats');
    expect((await json('/corpus/api/v1/excerpts')).meta.total).toBe(stats.excerpts);
    expect((await json(`/corpus/api/v1/excerpts?${allStatuses}`)).meta.total).toBe(stats.excerpts_any_status);
    for (const { band, excerpts } of stats.bands)
      expect((await json(`/corpus/api/v1/excerpts?band=${encodeURIComponent(band)}`)).meta.total, band).toBe(excerpts);
  });

  it('lists every verified phrase once, with counts that add up to the verified occurrences', async () => {
    const { phrases, total } = await json('/corpus/api/v1/phrases');
    const stats = await json('/corpus/api/v1/stats');
    expect(phrases).toHaveLength(total);
    expect(phrases.reduce((s: number, p: { verified: number }) => s + p.verified, 0)).toBe(stats.occurrences.verified);
    for (const p of phrases.slice(0, 6)) {
      // Oracle: a scan of the article documents.
      const occ = documents.flatMap((d) => d.excerpts.flatMap((e) => e.occurrences.filter((o) => o.phrase === p.phrase)));
      expect(p.verified).toBe(occ.filter((o) => o.status === 'verified').length);
      expect(p.rejected).toBe(occ.filter((o) => o.status === 'rejected').length);
      const sentences = documents.flatMap((d) => d.excerpts.filter((e) => e.occurrences.some((o) => o.phrase === p.phrase && o.status === 'verified')));
      expect((await json(`/corpus/api/v1/excerpts?phrase=${encodeURIComponent(p.phrase)}`)).meta.total).toBe(sentences.length);
    }
  });
});

describe('trends by year against the ground truth', () => {
  it('gives per year the articles, the prevalence, the verified sentences and their bands as the truth does', async () => {
    const stats = await json('/corpus/api/v1/stats');
    const want = expectedByYear(truth);
    expect(want.length).toBeGreaterThan(5);
    expect(stats.by_year.map((r: { year: number }) => r.year)).toEqual(want.map((r) => r.year));
    stats.by_year.forEach((got: Record<string, unknown> & { bands: Record<string, number> }, i: number) => {
      const w = want[i]!;
      expect(got.articles_scanned, String(w.year)).toBe(w.articles_scanned);
      expect(got.articles_with_verified, String(w.year)).toBe(w.articles_with_verified);
      expect(got.share_with_verified, String(w.year)).toBe(w.share_with_verified);
      expect(got.excerpts, String(w.year)).toBe(w.excerpts);
      for (const band of VERIFIED_BANDS) expect(got.bands[band], `${w.year} ${band}`).toBe(w.verifiedBands[band] ?? 0);
    });
    // The years add up to the totals.
    const sum = (k: string) => stats.by_year.reduce((s: number, r: Record<string, number>) => s + r[k]!, 0);
    expect(sum('articles_scanned')).toBe(stats.articles_scanned);
    expect(sum('articles_with_verified')).toBe(stats.articles_with_verified);
    expect(sum('excerpts')).toBe(stats.excerpts);
    for (const { band, excerpts } of stats.bands)
      expect(
        stats.by_year.reduce((s: number, r: { bands: Record<string, number> }) => s + r.bands[band]!, 0),
        band,
      ).toBe(excerpts);
  });

  it('gives each phrase its counts per year and band as a scan of the article documents does; the years add up to /phrases', async () => {
    // The truth names phrases as written, not by canonical name; its years are checked against the documents'.
    const truthYear = new Map(truth.files.map((f) => [expectedArticleId(f), f.year]));
    for (const d of documents) expect(d.year, d.pmcid).toBe(truthYear.get(d.pmcid));
    const { phrases } = await json('/corpus/api/v1/phrases');
    expect(phrases.length).toBeGreaterThan(10);
    for (const row of phrases) {
      const doc = await json(`/corpus/api/v1/phrases/${encodeURIComponent(row.phrase)}`);
      expect(doc.phrase).toBe(row.phrase);
      for (const k of ['verified', 'articles', 'bands', 'rejected', 'unverified']) expect(doc[k], `${row.phrase} ${k}`).toEqual(row[k]);
      const want = new Map<
        number,
        { year: number; verified: number; articles: Set<string>; bands: Record<string, number>; rejected: number; unverified: number }
      >();
      for (const d of documents)
        for (const e of d.excerpts)
          for (const o of e.occurrences) {
            if (o.phrase !== row.phrase) continue;
            let w = want.get(d.year!);
            if (!w)
              want.set(
                d.year!,
                (w = {
                  year: d.year!,
                  verified: 0,
                  articles: new Set(),
                  bands: Object.fromEntries(VERIFIED_BANDS.map((b) => [b, 0])),
                  rejected: 0,
                  unverified: 0,
                }),
              );
            if (o.status === 'verified') {
              w.verified++;
              w.articles.add(d.pmcid);
              w.bands[o.band!]!++;
            } else if (o.status === 'rejected') w.rejected++;
            else if (o.status === 'unverified') w.unverified++;
          }
      const expected = [...want.values()].sort((a, b) => a.year - b.year).map((w) => ({ ...w, articles: w.articles.size }));
      expect(doc.by_year, row.phrase).toEqual(expected);
    }
  });

  it('answers any phrase of the lexicon (case and spacing forgiven), and 404 for one outside it', async () => {
    const { phrases } = await json('/corpus/api/v1/phrases');
    const first = phrases[0].phrase as string;
    expect((await json(`/corpus/api/v1/phrases/${encodeURIComponent(`  ${first.toUpperCase()} `)}`)).phrase).toBe(first);
    // "a marked trend" is in the lexicon; the generator never writes it, so its document is all zeros.
    const unused = await json(`/corpus/api/v1/phrases/${encodeURIComponent('on the verge of significance')}`);
    expect(unused.verified + unused.rejected + unused.unverified === 0 ? unused.by_year : []).toEqual([]);
    const res = await get(`/corpus/api/v1/phrases/${encodeURIComponent('highly significant')}`);
    expect(expectError(res, 'NOT_FOUND', 404).message).toContain('not a phrase of the lexicon');
    expect(expectError(await get('/corpus/api/v1/phrases/trend%20toward?x=1'), 'UNKNOWN_PARAMETER', 400)).toBeTruthy();
  });
});

describe('excerpts', () => {
  it('lists exactly the verified sentences of the truth, in article order, once each', async () => {
    const items = await all('');
    const want = truth.excerpts.filter((e) => e.outcome === 'verified').map((e) => `${e.article}\t${e.sentence}`);
    expect(items.map((e) => `${e.article.pmcid}\t${e.text}`).sort()).toEqual([...want].sort());
    const order = items.map((e) => e.article.pmcid);
    const numeric = (id: string) => (id.startsWith('PMC') ? Number(id.slice(3)) : Infinity);
    for (let i = 1; i < order.length; i++) expect(numeric(order[i - 1]!)).toBeLessThanOrEqual(numeric(order[i]!));
    for (const e of items) {
      expect(e.occurrences.some((o) => o.status === 'verified')).toBe(true);
      for (const o of e.occurrences) {
        if (o.p) expect(e.text.slice(o.p.start, o.p.end)).toBe(o.p.text);
        expect(e.text.slice(o.start, o.end).length).toBeGreaterThan(0);
      }
    }
  });

  it('serves the same excerpts as the article documents, field for field', async () => {
    const byId = new Map<string, ExcerptDoc>(documents.flatMap((d) => d.excerpts.map((e) => [e.id, e] as const)));
    for (const item of await all(allStatuses)) {
      const { article, highlights, ...excerpt } = item;
      expect(excerpt).toEqual(byId.get(item.id));
      expect(highlights).toEqual([]);
      expect(article.pmcid).toBe(item.id.split('/')[0]);
    }
  });

  it('filters by band and status on the same occurrence', async () => {
    for (const band of BANDS) {
      const items = await all(`band=${encodeURIComponent(band)}`);
      for (const e of items) expect(e.occurrences.some((o) => o.band === band)).toBe(true);
    }
    const rejected = await all('status=rejected');
    expect(rejected.length).toBe(truth.excerpts.filter((e) => e.outcome === 'rejected').length);
    for (const e of rejected) expect(e.occurrences.some((o) => o.status === 'rejected')).toBe(true);
    const both = await all('band=none&status=verified');
    expect(both).toHaveLength(0);
  });

  it('sorts by p-value (missing last), by year and by article', async () => {
    const pMin = (e: ExcerptItem) => Math.min(...e.occurrences.map((o) => o.p?.value ?? Infinity));
    const pMax = (e: ExcerptItem) => Math.max(...e.occurrences.map((o) => o.p?.value ?? -Infinity));
    const asc = await all('sort=p_asc');
    for (let i = 1; i < asc.length; i++) expect(pMin(asc[i - 1]!)).toBeLessThanOrEqual(pMin(asc[i]!));
    const desc = await all('sort=p_desc&band=ns&band=0.08-0.10');
    for (let i = 1; i < desc.length; i++) {
      const [a, b] = [pMax(desc[i - 1]!), pMax(desc[i]!)];
      expect(a === -Infinity ? Infinity : a).toBeGreaterThanOrEqual(b === -Infinity ? -1 : b);
    }
    const years = (await all('sort=year_desc')).map((e) => e.article.year ?? -1);
    expect(years).toEqual([...years].sort((a, b) => b - a));
    expect(new Set(asc.map((e) => e.id))).toEqual(new Set((await all('')).map((e) => e.id)));
  });

  it('searches words and quoted phrases (all required), with highlights on the matched words', async () => {
    const everything = documents.flatMap((d) => d.excerpts.map((e) => ({ e, d })));
    const cases: [string, { words: string[] }[]][] = [
      ['mortality', [{ words: ['mortality'] }]],
      ['"trend toward" lower', [{ words: ['trend', 'toward'] }, { words: ['lower'] }]],
      ['Group', [{ words: ['group'] }]],
    ];
    for (const [q, terms] of cases) {
      const want = everything.filter(({ e }) => textMatches(e.text, terms) && e.occurrences.some((o) => o.status === 'verified'));
      expect(want.length, q).toBeGreaterThan(0);
      const got = await all(`q=${encodeURIComponent(q)}`);
      expect(got.map((e) => e.id).sort(), q).toEqual(want.map(({ e }) => e.id).sort());
      const wanted = new Set(terms.flatMap((t) => t.words));
      for (const e of got) {
        expect(e.highlights.length).toBeGreaterThan(0);
        for (const hl of e.highlights) expect(wanted.has(words(e.text.slice(hl.start, hl.end))[0]!), e.text).toBe(true);
      }
      // The same set in article order and p order; relevance is the default with q.
      expect((await json(`/corpus/api/v1/excerpts?q=${encodeURIComponent(q)}&sort=p_asc`)).meta.total).toBe(want.length);
      expect((await json(`/corpus/api/v1/excerpts?q=${encodeURIComponent(q)}`)).meta.query.sort).toBe('relevance');
    }
    const prefix = await all('q=mortal*');
    expect(prefix.length).toBeGreaterThanOrEqual((await all('q=mortality')).length);
    expect((await json('/corpus/api/v1/excerpts?q=zzzzqqq')).meta.total).toBe(0);
  });

  it('pages exactly: a deep page, the page after the last, the echo of the canonical question', async () => {
    const first = await json('/corpus/api/v1/excerpts?per_page=7&band=0.06-0.08&band=0.05-0.06');
    expect(first.meta.query).toEqual({
      phrase: null,
      band: ['0.05-0.06', '0.06-0.08'],
      status: [],
      q: null,
      year_from: null,
      year_to: null,
      p_min: null,
      p_max: null,
      sort: 'article',
    });
    const every = await all('band=0.05-0.06&band=0.06-0.08');
    const third = await json('/corpus/api/v1/excerpts?per_page=7&page=3&band=0.05-0.06&band=0.06-0.08');
    expect(third.results.map((e: ExcerptItem) => e.id)).toEqual(every.slice(14, 21).map((e) => e.id));
    const beyond = await json(`/corpus/api/v1/excerpts?per_page=7&page=${first.meta.pages + 1}&band=0.05-0.06&band=0.06-0.08`);
    expect(beyond.results).toEqual([]);
    expect(beyond.meta.total).toBe(first.meta.total);
  });
});

describe('articles', () => {
  it('answers PMC123, pmc123 and 123 with the same document under the canonical id', async () => {
    const withPmcid = truth.files.find((f) => f.pmcid !== null && f.hedges.length > 0)!;
    const n = withPmcid.pmcid!.slice(3);
    const bodies = await Promise.all([`PMC${n}`, `pmc${n}`, n].map((id) => get(`/corpus/api/v1/articles/${id}`)));
    for (const b of bodies) expect(b.statusCode).toBe(200);
    expect(new Set(bodies.map((b) => b.body)).size).toBe(1);
    const doc = articleDocSchema.parse(bodies[0]!.json());
    expect(doc.pmcid).toBe(withPmcid.pmcid);
    expect(doc.title).toBe(withPmcid.title);
    const want = truth.excerpts.filter((e) => e.article === withPmcid.pmcid).map((e) => e.sentence);
    expect(doc.excerpts.map((e) => e.text)).toEqual(expect.arrayContaining(want));
    expect(doc.links.pmc).toBe(`https://pmc.ncbi.nlm.nih.gov/articles/${withPmcid.pmcid}/`);
  });

  it('addresses an article without a PMCID by its generated id', async () => {
    const id = truth.excerpts.find((e) => e.article.startsWith('nopmc-'))!.article;
    const doc = await json(`/corpus/api/v1/articles/${id.toUpperCase()}`);
    expect(doc.pmcid).toBe(id);
    expect(doc.id_kind).toBe('generated');
    expect(doc.links.pmc).toBeNull();
  });

  it('404 for an absent article, 400 for something that is no article id', async () => {
    expect(expectError(await get('/corpus/api/v1/articles/PMC1'), 'NOT_FOUND', 404).message).toContain('PMC1');
    expect(expectError(await get('/corpus/api/v1/articles/W123'), 'INVALID_PARAMETER').details?.[0]?.parameter).toBe('pmcid');
    expectError(await get('/corpus/api/v1/articles/PMC1?x=1'), 'UNKNOWN_PARAMETER');
    // Rejected before routing (undecodable, or longer than any id): still the shared body, not Fastify's.
    for (const path of ['%FF', 'x'.repeat(201)]) {
      const res = await get(`/corpus/api/v1/articles/${path}`);
      expect(expectError(res, 'INVALID_PARAMETER').message).toMatch(/URL|too long/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });
});

describe('year and p-value ranges against the ground truth', () => {
  /** The truth's verified sentences with their article's year and exact p (the "=" values and lost operators). */
  const verified = () => {
    const yearOf = new Map(truth.files.map((f) => [expectedArticleId(f), f.year]));
    return truth.excerpts
      .filter((e) => e.outcome === 'verified')
      .map((e) => ({
        text: e.sentence,
        year: yearOf.get(e.article)!,
        band: e.band,
        p: e.pValue?.kind === 'value' && (e.pValue.operator === '=' || e.pValue.operator === 'none') ? e.pValue.value : null,
      }));
  };
  const inP = (p: number | null, lo: number, hi: number) => p !== null && p >= lo && p <= hi;

  it('counts exactly the verified sentences in a year range, with and without q and band', async () => {
    const rows = verified();
    const years = [...new Set(rows.map((r) => r.year))].sort((a, b) => a - b);
    const mid = years[years.length >> 1]!;
    const cases: [number | null, number | null][] = [
      [mid, mid],
      [years[0]!, mid],
      [mid, null],
      [null, mid - 1],
      [years.at(-1)! + 1, null],
    ];
    for (const [from, to] of cases) {
      const range = (y: number) => (from === null || y >= from) && (to === null || y <= to);
      const qs = `${from === null ? '' : `year_from=${from}&`}${to === null ? '' : `year_to=${to}&`}`;
      expect((await json(`/corpus/api/v1/excerpts?${qs}`)).meta.total, qs).toBe(rows.filter((r) => range(r.year)).length);
      for (const q of ['trend', 'significance', '"trend toward"'])
        expect((await json(`/corpus/api/v1/excerpts?${qs}q=${encodeURIComponent(q)}`)).meta.total, `${qs} q=${q}`).toBe(
          rows.filter((r) => range(r.year) && textMatches(r.text, [{ words: words(q) }])).length,
        );
      for (const band of VERIFIED_BANDS)
        expect((await json(`/corpus/api/v1/excerpts?${qs}band=${encodeURIComponent(band)}`)).meta.total, `${qs} band=${band}`).toBe(
          rows.filter((r) => range(r.year) && r.band === band).length,
        );
    }
  });

  it('agrees with /stats by_year: each year and band total', async () => {
    const stats = await json('/corpus/api/v1/stats');
    for (const y of stats.by_year.slice(0, 6)) {
      expect((await json(`/corpus/api/v1/excerpts?year_from=${y.year}&year_to=${y.year}`)).meta.total, String(y.year)).toBe(y.excerpts);
      for (const band of BANDS)
        expect(
          (await json(`/corpus/api/v1/excerpts?year_from=${y.year}&year_to=${y.year}&band=${encodeURIComponent(band)}`)).meta.total,
          `${y.year} ${band}`,
        ).toBe(y.bands[band]);
    }
  });

  it('counts exactly the sentences with an exact p in [p_min, p_max] (inclusive), with and without q and year', async () => {
    const rows = verified();
    const exact = [...new Set(rows.flatMap((r) => (r.p === null ? [] : [r.p])))].sort((a, b) => a - b);
    expect(exact.length).toBeGreaterThan(10);
    const at = (k: number) => exact[Math.min(exact.length - 1, Math.floor(k * exact.length))]!;
    const cases: [number | null, number | null][] = [
      [at(0.2), at(0.6)],
      [at(0.5), at(0.5)],
      [null, at(0.3)],
      [at(0.7), null],
      [0, 1],
      [0.05, 0.05],
      [1, 1],
    ];
    const years = [...new Set(rows.map((r) => r.year))].sort((a, b) => a - b);
    const from = years[years.length >> 2]!;
    for (const [lo, hi] of cases) {
      const qs = `${lo === null ? '' : `p_min=${lo}&`}${hi === null ? '' : `p_max=${hi}&`}`;
      const match = (r: { p: number | null }) => inP(r.p, lo ?? 0, hi ?? 1);
      const body = await json(`/corpus/api/v1/excerpts?${qs}per_page=100`);
      expect(body.meta.total, qs).toBe(rows.filter(match).length);
      expect(body.meta.query).toMatchObject({ p_min: lo, p_max: hi, year_from: null, year_to: null });
      // Every listed sentence has a verified occurrence whose exact p is in the range.
      for (const e of body.results)
        expect(
          e.occurrences.some(
            (o: { status: string; p: { exact: boolean; value: number } | null }) => o.status === 'verified' && o.p?.exact && inP(o.p.value, lo ?? 0, hi ?? 1),
          ),
          e.text,
        ).toBe(true);
      expect((await json(`/corpus/api/v1/excerpts?${qs}q=trend`)).meta.total, `${qs} q=trend`).toBe(
        rows.filter((r) => match(r) && textMatches(r.text, [{ words: ['trend'] }])).length,
      );
      expect((await json(`/corpus/api/v1/excerpts?${qs}year_from=${from}&sort=p_asc`)).meta.total, `${qs} year_from=${from}`).toBe(
        rows.filter((r) => match(r) && r.year >= from).length,
      );
    }
  });

  it('keeps the ranges in links and the echo', async () => {
    const body = await json('/corpus/api/v1/excerpts?year_from=2001&year_to=2010&p_min=.05&p_max=0.1');
    expect(body.meta.query).toMatchObject({ year_from: 2001, year_to: 2010, p_min: 0.05, p_max: 0.1 });
    for (const e of body.results) expect(e.article.year).toBeGreaterThanOrEqual(2001);
  });
});

describe('strict parameters', () => {
  it.each([
    ['bogus=1', 'UNKNOWN_PARAMETER', 'bogus'],
    ['band=0.1', 'INVALID_PARAMETER', 'band'],
    ['status=maybe', 'INVALID_PARAMETER', 'status'],
    ['sort=newest', 'INVALID_PARAMETER', 'sort'],
    ['sort=relevance', 'INVALID_PARAMETER', 'sort'],
    ['page=0', 'INVALID_PARAMETER', 'page'],
    ['per_page=101', 'INVALID_PARAMETER', 'per_page'],
    ['per_page=2.5', 'INVALID_PARAMETER', 'per_page'],
    ['q=a&q=b', 'INVALID_PARAMETER', 'q'],
    ['phrase=significant', 'INVALID_PARAMETER', 'phrase'],
    ['q=%22trend', 'INVALID_PARAMETER', 'q'],
    ['q=***', 'INVALID_PARAMETER', 'q'],
    [`q=${'x'.repeat(201)}`, 'INVALID_PARAMETER', 'q'],
    ['year_from=2020&year_to=2019', 'INVALID_PARAMETER', 'year_from'],
    ['year_from=20', 'INVALID_PARAMETER', 'year_from'],
    ['year_to=0999', 'INVALID_PARAMETER', 'year_to'],
    ['year_to=2020.5', 'INVALID_PARAMETER', 'year_to'],
    ['p_min=0.08&p_max=0.06', 'INVALID_PARAMETER', 'p_min'],
    ['p_min=-0.1', 'INVALID_PARAMETER', 'p_min'],
    ['p_max=1.01', 'INVALID_PARAMETER', 'p_max'],
    ['p_max=1e-2', 'INVALID_PARAMETER', 'p_max'],
    ['p_min=abc', 'INVALID_PARAMETER', 'p_min'],
    ['p_min=0.1&p_min=0.2', 'INVALID_PARAMETER', 'p_min'],
  ])('%s → %s naming %s', async (query, code, parameter) => {
    const body = expectError(await get(`/corpus/api/v1/excerpts?${query}`), code);
    expect(body.details?.[0]?.parameter).toBe(parameter);
  });

  it('reads control characters in q as spaces, and collapses spaces in the echo', async () => {
    const a = await json('/corpus/api/v1/excerpts?q=trend%20toward');
    const b = await json('/corpus/api/v1/excerpts?q=trend%00%20%20toward');
    expect(b.meta.total).toBe(a.meta.total);
    expect(b.meta.query.q).toBe('trend toward');
    expectError(await get('/corpus/api/v1/excerpts?q=%00'), 'INVALID_PARAMETER');
  });

  it('names the allowed values', async () => {
    const band = expectError(await get('/corpus/api/v1/excerpts?band=high'), 'INVALID_PARAMETER');
    for (const b of BANDS) expect(band.message).toContain(b);
    const phrase = expectError(await get('/corpus/api/v1/excerpts?phrase=nope'), 'INVALID_PARAMETER');
    expect(phrase.message).toContain('marginally significant');
  });

  it('accepts a phrase in any case and spacing, ignores _ parameters and empty form fields', async () => {
    const a = await json('/corpus/api/v1/excerpts?phrase=marginally%20significant');
    const b = await json('/corpus/api/v1/excerpts?phrase=%20Marginally%20%20SIGNIFICANT&_=123&q=&sort=');
    expect(b.meta.total).toBe(a.meta.total);
    expect(b.meta.query.phrase).toBe('marginally significant');
  });

  it('never answers a search with a 500, whatever its syntax', async () => {
    for (const q of [
      'a\u0000b',
      'trend\u0000*',
      '"trend\u0000toward"',
      '\u0001',
      'NEAR(a b)',
      'text:trend',
      'trend OR',
      'NOT trend',
      '^trend',
      '-trend',
      'a AND',
      '(trend',
      '"',
      "'",
      'tr*nd',
      '*',
      'é',
      '中文',
      'p=0.05',
      '\\',
      '{text}: x',
    ]) {
      const res = await get(`/corpus/api/v1/excerpts?q=${encodeURIComponent(q)}`);
      expect([200, 400], q).toContain(res.statusCode);
    }
  });
});

describe('HTTP conventions and contracts', () => {
  it('sends ETags and 304s, snapshot and cache headers', async () => {
    for (const url of ['/corpus/api/v1/stats', '/corpus/api/v1/excerpts?q=trend', `/corpus/api/v1/articles/${documents[0]!.pmcid}`]) {
      const res = await get(url);
      expect(res.headers['cache-control']).toContain('s-maxage=3600');
      expect(res.headers['x-snapshot']).toBeTruthy();
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const again = await h.app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
    const post = await h.app.inject({ method: 'POST', url: '/corpus/api/v1/excerpts' });
    expect(expectError(post, 'METHOD_NOT_ALLOWED', 405).message).toContain('GET');
  });

  it.each(Object.keys(CORPUS_RESPONSES))('%s: real responses match the zod schema and the OpenAPI schema', async (path) => {
    const doc = (await get('/corpus/api/v1/openapi.json')).json();
    expect(Object.keys(doc.paths).sort()).toEqual(
      Object.keys(CORPUS_RESPONSES)
        .map((p) => `/corpus${p}`)
        .sort(),
    );
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(
      doc.paths[`/corpus${path}`].get.responses['200'].content['application/json'].schema,
    );
    const urls = {
      '/api/v1/stats': ['/corpus/api/v1/stats'],
      '/api/v1/phrases': ['/corpus/api/v1/phrases'],
      '/api/v1/phrases/{phrase}': ['/corpus/api/v1/phrases/trend%20toward', '/corpus/api/v1/phrases/on%20the%20verge%20of%20significance'],
      '/api/v1/excerpts': ['/corpus/api/v1/excerpts', `/corpus/api/v1/excerpts?q=trend&${allStatuses}`, '/corpus/api/v1/excerpts?band=none&sort=p_desc'],
      '/api/v1/articles/{pmcid}': documents.slice(0, 5).map((d) => `/corpus/api/v1/articles/${d.pmcid}`),
    }[path]!;
    for (const url of urls) {
      const body = await json(url);
      const parsed = CORPUS_RESPONSES[path as keyof typeof CORPUS_RESPONSES].safeParse(body);
      expect(parsed.success, `${url}: ${parsed.error?.message}`).toBe(true);
      expect(validate(body), `${url}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
    }
  });
});
