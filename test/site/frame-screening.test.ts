/**
 * The screening dossier (/frame/screening) over the real app and a real Astro build of the fixture: the
 * page's numbers are the API's (sample counts, design-weighted rates and estimates, strata, filtered totals
 * and pages), its address is the API's query string (a bad parameter is the API's 400, blank form fields are
 * removed by a redirect), it works without JavaScript, and its time is logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteServer, pageTimes, startSiteServer } from '../helpers/site-server.ts';

let s: SiteServer;
beforeAll(async () => {
  s = await startSiteServer();
});
afterAll(async () => s?.close());

const fmt = (n: number) => n.toLocaleString('en-CA');
const pct = (rate: number) => `${(100 * rate).toFixed(1)}%`;
interface Interval {
  rate_low: number;
  rate_high: number;
  estimate_low: number;
  estimate_high: number;
}
/** The interval cell as the page writes it, from the API's numbers. */
const intervalCell = (i: Interval) => `${pct(i.rate_low)}–${pct(i.rate_high)} (${fmt(i.estimate_low)}–${fmt(i.estimate_high)} works)`;

interface Summary {
  n_screened: number;
  histogram: Record<string, number>;
  any_model_said_in: number;
  all_three_agreed: number;
  per_model_in_scope: { model: string; called_in: number }[];
  weighted: {
    population: number;
    any_model_in_scope: { rate: number; estimate: number; interval_95: Interval };
    all_three_in_scope: { rate: number; estimate: number; interval_95: Interval };
    n_in_rates: Record<string, number>;
    per_model_rate: { model: string; rate: number }[];
    note: string;
  };
  strata: { stratum: string; stratum_n: number; sampled: number; weight: number }[];
}
interface Screened {
  meta: { total: number; page: number; per_page: number; summary: Summary };
  results: { id: string; title: string; n_in: number; stratum: string; model_a: { tier: string } }[];
}

/** The text of an HTML fragment (tags dropped, entities of the page decoded, spaces collapsed). */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;|&#38;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
/** The cells of the table row whose opening tag carries `attr` (e.g. `data-model="model_a"`). */
function row(html: string, attr: string): string[] {
  const m = html.match(new RegExp(`<tr [^>]*${attr}[^>]*>([\\s\\S]*?)</tr>`));
  expect(m, attr).not.toBeNull();
  return [...m![1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => text(c[1]!));
}
/** The value of `data-weighted` in that row. */
const weightedAttr = (html: string, attr: string) => Number(html.match(new RegExp(`<tr [^>]*${attr}[^>]*>[\\s\\S]*?data-weighted="([^"]+)"`))![1]);
/** The work ids of the page's table, in order. */
const tableIds = (html: string) => [...html.matchAll(/<tr data-id="(W\d+)"/g)].map((m) => m[1]);

describe('the whole sample', () => {
  it('shows the API summary: sample size, population, counts, design-weighted rates and estimates', async () => {
    const api = await s.json<Screened>('/frame/api/v1/screened');
    const sum = api.meta.summary;
    const { status, text: html } = await s.get('/frame/screening');
    expect(status).toBe(200);
    expect(html).toMatch(new RegExp(`data-summary="n_screened"[^>]*>${fmt(sum.n_screened)}<`));
    expect(html).toMatch(new RegExp(`data-summary="population"[^>]*>${fmt(sum.weighted.population)}<`));

    const any = row(html, 'data-rate="any_model_in_scope"');
    expect(any).toEqual([
      'Any model put it in scope',
      fmt(sum.any_model_said_in),
      pct(sum.any_model_said_in / sum.n_screened),
      pct(sum.weighted.any_model_in_scope.rate),
      fmt(sum.weighted.any_model_in_scope.estimate),
      intervalCell(sum.weighted.any_model_in_scope.interval_95),
    ]);
    expect(weightedAttr(html, 'data-rate="any_model_in_scope"')).toBe(sum.weighted.any_model_in_scope.rate);
    const all = row(html, 'data-rate="all_three_in_scope"');
    expect(all.slice(1)).toEqual([
      fmt(sum.all_three_agreed),
      pct(sum.all_three_agreed / sum.n_screened),
      pct(sum.weighted.all_three_in_scope.rate),
      fmt(sum.weighted.all_three_in_scope.estimate),
      intervalCell(sum.weighted.all_three_in_scope.interval_95),
    ]);

    for (const m of sum.per_model_in_scope) {
      const rate = sum.weighted.per_model_rate.find((r) => r.model === m.model)!.rate;
      expect(row(html, `data-model="${m.model}"`)).toEqual([m.model, fmt(m.called_in), pct(m.called_in / sum.n_screened), pct(rate)]);
      expect(weightedAttr(html, `data-model="${m.model}"`)).toBe(rate);
    }
    for (const k of [0, 1, 2, 3]) {
      const cells = row(html, `data-n-in="${k}"`);
      expect(cells.slice(1)).toEqual([
        fmt(sum.histogram[`n_in_${k}`]!),
        pct(sum.histogram[`n_in_${k}`]! / sum.n_screened),
        pct(sum.weighted.n_in_rates[`n_in_${k}`]!),
      ]);
      expect(weightedAttr(html, `data-n-in="${k}"`)).toBe(sum.weighted.n_in_rates[`n_in_${k}`]);
    }
    for (const st of sum.strata) expect(row(html, `data-stratum="${st.stratum}"`).slice(1)).toEqual([fmt(st.stratum_n), fmt(st.sampled), fmt(st.weight)]);
    expect(html).toContain(sum.weighted.note);
  });

  it('draws the weighted and unweighted rates as an accessible SVG chart with its data table', async () => {
    const { text: html } = await s.get('/frame/screening');
    expect(html).toMatch(/<figure class="chart" aria-labelledby="rates-caption">/);
    expect(html).toMatch(/<svg [^>]*role="img" aria-labelledby="rates-caption rates-desc"/);
    expect(html).toMatch(/<summary>Data table: In scope: design-weighted rate against the unweighted share<\/summary>/);
  });

  it('is the same whatever the filters (the API computes it over the whole sample)', async () => {
    const a = await s.get('/frame/screening');
    const b = await s.get('/frame/screening?stratum=french&n_in=0');
    const part = (html: string) => html.slice(html.indexOf('id="sample-heading"'), html.indexOf('id="filters-heading"'));
    expect(part(b.text)).toBe(part(a.text));
  });
});

describe('the screened works', () => {
  for (const qs of ['', '?stratum=french', '?n_in=0&stratum=aff_core', '?contested_only=1', '?contested_only=1&per_page=5&page=2', '?n_in=1&per_page=100']) {
    it(`${qs || '(no filter)'}: the API's total and the API's works, in its order`, async () => {
      const api = await s.json<Screened>(`/frame/api/v1/screened${qs}`);
      const { status, text: html } = await s.get(`/frame/screening${qs}`);
      expect(status).toBe(200);
      expect(html).toContain(`data-total="${api.meta.total}"`);
      expect(html).toMatch(new RegExp(`data-total="${api.meta.total}"[^>]*>${fmt(api.meta.total)}<`));
      expect(tableIds(html)).toEqual(api.results.map((r) => r.id));
      for (const r of api.results) expect(html).toContain(`<a href="/frame/works/${r.id}"`);
    });
  }

  it('pages with links that keep the filters, to the API’s next page', async () => {
    const { text: html } = await s.get('/frame/screening?stratum=french&per_page=10');
    const next = html.match(/<a href="([^"]+)" rel="next"/)![1]!.replace(/&amp;|&#38;/g, '&');
    expect(next).toBe('/frame/screening?stratum=french&per_page=10&page=2');
    const api = await s.json<Screened>('/frame/api/v1/screened?stratum=french&per_page=10&page=2');
    expect(tableIds((await s.get(next)).text)).toEqual(api.results.map((r) => r.id));
  });

  it('shows the filters in words, chosen in the form', async () => {
    const { text: html } = await s.get('/frame/screening?n_in=2&stratum=french&contested_only=1');
    expect(text(html)).toContain(
      'at least one model put the work in scope; exactly 2 of 3 models put the work in scope; stratum French-language works (french)',
    );
    expect(html).toMatch(/<option value="2" selected/);
    expect(html).toMatch(/<option value="french" selected/);
    expect(html).toMatch(/<input type="checkbox" id="f-contested_only" name="contested_only" value="1" checked/);
  });
});

describe('the address is the API query string', () => {
  for (const [qs, parameter] of [
    ['?n_in=7', 'n_in'],
    ['?stratum=nowhere', 'stratum'],
    ['?per_page=500', 'per_page'],
    ['?bogus=1', 'bogus'],
    ['?contested_only=1&n_in=0', 'contested_only'],
    ['?stratum=french&stratum=residual', 'stratum'],
    ['?bogus=', 'bogus'],
  ]) {
    it(`${qs} is the API's 400, with its message naming ${parameter}`, async () => {
      const api = await s.get(`/frame/api/v1/screened${qs}`);
      expect(api.status).toBe(400);
      const body = JSON.parse(api.text) as { message: string; code: string };
      const page = await s.get(`/frame/screening${qs}`);
      expect(page.status).toBe(400);
      expect(page.text).toMatch(/<section class="notice" role="alert"/);
      expect(text(page.text)).toContain(body.message);
      expect(page.text).toContain(`data-error-code="${body.code}"`);
      expect(page.text).toContain(`<code>${parameter}</code>`);
      expect(tableIds(page.text)).toEqual([]);
    });
  }

  it('a form submission with blank fields ("any") redirects to the address without them', async () => {
    const r = await s.get('/frame/screening?n_in=&stratum=french&per_page=&contested_only=1');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/frame/screening?stratum=french&contested_only=1');
    const all = await s.get('/frame/screening?n_in=&stratum=&per_page=');
    expect(all.headers.get('location')).toBe('/frame/screening');
  });

  it('keeps a parameter the API does not know, or a repeated one, so the API can refuse it', async () => {
    expect((await s.get('/frame/screening?n_in=&n_in=')).status).toBe(400);
    expect((await s.get('/frame/screening?n_in=&nonsense=')).headers.get('location')).toBe('/frame/screening?nonsense=');
  });
});

describe('without JavaScript', () => {
  it('is plain HTML: a GET form with a label for every control, tables with captions and scoped headers, no inline script or style', async () => {
    const { text: html } = await s.get('/frame/screening');
    const form = html.match(/<form method="get" action="\/frame\/screening"[\s\S]*?<\/form>/)![0];
    const ids = [...form.matchAll(/<(?:select|input) [^>]*id="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids).toEqual(['f-n_in', 'f-stratum', 'f-per_page', 'f-contested_only']);
    for (const id of ids) expect(form).toMatch(new RegExp(`<label for="${id}"`));
    expect(form).toMatch(/<button type="submit"/);
    // Each table of the page's own (a chart's data table is named by its figure's disclosure instead).
    const own = html.replace(/<figure class="chart"[\s\S]*?<\/figure>/g, '');
    for (const table of own.match(/<table[\s\S]*?<\/table>/g)!) {
      expect(table).toMatch(/<caption|aria-label/);
      expect(table).toMatch(/<th scope="col"/);
    }
    expect(html.match(/<main /g)).toHaveLength(1);
    expect(html).not.toMatch(/<style[\s>]/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(ld\+)?json")[^>]*>/);
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });

  it('links the JSON the page shows', async () => {
    const { text: html } = await s.get('/frame/screening?stratum=french');
    expect(html).toContain('<a href="/frame/api/v1/screened?stratum=french">');
  });
});

describe('speed', () => {
  it('answers 20 requests in a row on the fixture build (median logged; npm run bench:site measures the 100 ms target)', async () => {
    await s.get('/frame/screening?contested_only=1');
    await pageTimes(s, '/frame/screening', (i) => (i % 2 ? '/frame/screening' : '/frame/screening?stratum=french&per_page=50'));
  });
});
