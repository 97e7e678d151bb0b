/**
 * The FAIR pages over the real app and an Astro build: the form offers the engine's metric versions; an
 * assessment of PANGAEA 902845 against the mock resolver replaying its recorded responses
 * (../shared/reference/fair-fixtures; skipped with a printed reason when absent) shows the scores, metrics
 * and reasons the API gives for the same identifier; 400 and 422 are pages with the API's status and message
 * and the form refilled; 429 and 503 say in words for people when to come back and whose fault it is. The server trusts X-Forwarded-For from loopback (TRUST_PROXY), so each
 * test is its own anonymous reader and the hourly limit is met only where a test means to meet it.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentResult } from '../../contracts/fair/assessment.ts';
import { PANGAEA_ZIP } from '../helpers/fair-app.ts';
import { replayRoutes } from '../helpers/fair-mock-resolver.ts';
import { type SiteServer, pageTimes, startSiteServer } from '../helpers/site-server.ts';
import { needShared } from '../helpers/needs.ts';

type Node = ReturnType<typeof DomUtils.findAll>[number];
type Doc = ReturnType<typeof parseDocument>;

const haveFixtures = needShared('reference/fair-fixtures', 'the FAIR page tests that assess PANGAEA 902845');

const PANGAEA = '10.1594/PANGAEA.902845';

let s: SiteServer;
let client = 0;
/** A new reader address per call site (documentation range). */
const newReader = () => `198.51.100.${++client}`;

beforeAll(async () => {
  s = await startSiteServer({ env: { TRUST_PROXY: 'loopback' } });
  if (haveFixtures) s.fairMock.route(...replayRoutes('pangaea', s.fairMock.base), PANGAEA_ZIP);
}, 120_000);
afterAll(async () => s?.close());

// ---- the site's number format (en-CA grouping), written out independently ----
const fmt = (n: number) => n.toLocaleString('en-CA');

const text = (n: Node | Node[] | Doc) =>
  DomUtils.textContent(n as Node)
    .replace(/\s+/g, ' ')
    .trim();
const all = (root: Doc | Node, test: (n: Node) => boolean): Node[] => DomUtils.findAll(test, root.type === 'root' ? (root as Doc).children : [root as Node]);
const alertOf = (doc: Doc) => all(doc, (n) => n.attribs?.role === 'alert');

/** The page as a reader at `ip` sees it. */
async function page(path: string, ip = newReader()) {
  const r = await s.get(path, { headers: { 'x-forwarded-for': ip } });
  return { ...r, doc: parseDocument(r.text) };
}

/** The API's answer to the same request body, from another reader. */
async function assess(body: unknown, ip = newReader()) {
  const r = await fetch(`${s.base}/fair/api/v1/assess`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  return { status: r.status, headers: r.headers, body: (await r.json()) as Record<string, unknown> };
}

const assessPath = (params: Record<string, string | string[]>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of typeof v === 'string' ? [v] : v) q.append(k, x);
  return `/fair/assess?${q}`;
};

/** The form's fields as the page filled them in. */
function formState(doc: Doc) {
  const forms = all(doc, (n) => n.name === 'form' && n.attribs.action === '/fair/assess');
  expect(forms).toHaveLength(1);
  const inputs = all(forms[0]!, (n) => n.name === 'input');
  const box = (name: string) => 'checked' in inputs.find((n) => n.attribs.type === 'checkbox' && n.attribs.name === name)!.attribs;
  return {
    identifier: inputs.find((n) => n.attribs.name === 'identifier')!.attribs.value,
    metric_version: all(forms[0]!, (n) => n.name === 'option' && 'selected' in n.attribs).map((o) => o.attribs.value),
    use_registry: box('use_registry'),
    use_code_host: box('use_code_host'),
  };
}

describe('/fair: the form', () => {
  it("offers the engine's metric versions and labels every control; a GET form to /fair/assess", async () => {
    const openapi = await s.json<{
      paths: Record<
        string,
        {
          post: {
            requestBody: { content: Record<string, { schema: { properties: { options: { properties: { metric_version: { examples: string[] } } } } } }> };
          };
        }
      >;
    }>('/fair/api/v1/openapi.json');
    const versions =
      openapi.paths['/fair/api/v1/assess']!.post.requestBody.content['application/json']!.schema.properties.options.properties.metric_version.examples;
    const { status, doc, text: html } = await page('/fair');
    expect(status).toBe(200);
    const form = all(doc, (n) => n.name === 'form')[0]!;
    expect(form.attribs.method).toBe('get');
    expect(form.attribs.action).toBe('/fair/assess');
    expect(
      all(form, (n) => n.name === 'option')
        .map((o) => o.attribs.value)
        .sort(),
    ).toEqual([...versions].sort());
    expect(formState(doc)).toEqual({ identifier: '', metric_version: ['metrics_v0.8'], use_registry: true, use_code_host: false });
    const labelled = new Set(all(form, (n) => n.name === 'label').map((l) => l.attribs.for));
    for (const c of all(form, (n) => n.name === 'select' || (n.name === 'input' && n.attribs.type !== 'hidden')))
      expect(labelled.has(c.attribs.id), c.attribs.name).toBe(true);
    expect(html).not.toMatch(/<style[\s>]|\sstyle="|\son[a-z]+="/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('/fair/assess with nothing asked sends the reader to the form', async () => {
    const r = await s.get('/fair/assess');
    expect(r.status).toBe(303);
    expect(new URL(r.headers.get('location')!, s.base).pathname).toBe('/fair');
  });

  it('the form page answers 20 requests in a row (median logged; npm run bench:site measures the 100 ms target)', async () => {
    await pageTimes(s, 'fair-pages: /fair', () => '/fair');
  });
});

describe.skipIf(!haveFixtures)('/fair/assess: an assessment of PANGAEA 902845', () => {
  let expected: AssessmentResult;
  let p: Awaited<ReturnType<typeof page>>;
  beforeAll(async () => {
    const api = await assess({ identifier: PANGAEA });
    expect(api.status).toBe(200);
    expected = api.body as unknown as AssessmentResult;
    p = await page(assessPath({ identifier: PANGAEA, metric_version: 'metrics_v0.8', use_registry: ['false', 'true'], use_code_host: 'false' }));
  });

  it('is 200, no-store, not for search engines, with the rate-limit headers of the reader', () => {
    expect(p.status).toBe(200);
    expect(p.headers.get('cache-control')).toBe('no-store');
    expect(p.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    // The API call above assessed it first: the page's answer comes from the cache and costs the reader nothing.
    expect([p.headers.get('x-ratelimit-limit'), p.headers.get('x-ratelimit-remaining')]).toEqual(['10', '10']);
    const note = all(p.doc, (n) => n.attribs?.class === 'rate-limit muted')[0]!;
    expect(note.attribs['data-remaining']).toBe('10');
    expect(text(note)).toMatch(/^10 of 10 assessments left for you in this window; it ends in 1 h/);
  });

  it("shows the API's total score and each principle's", () => {
    const overall = all(p.doc, (n) => n.attribs?.class === 'overall')[0]!;
    expect([overall.attribs['data-score-earned'], overall.attribs['data-score-total'], overall.attribs['data-score-percent']]).toEqual(
      [expected.summary.scoreEarned, expected.summary.scoreTotal, expected.summary.scorePercent].map(String),
    );
    expect(text(overall)).toContain(
      `${fmt(expected.summary.scoreEarned)} of ${fmt(expected.summary.scoreTotal)} points, ${fmt(expected.summary.scorePercent)}%`,
    );
    const percents = {
      F: expected.summary.findability,
      A: expected.summary.accessibility,
      I: expected.summary.interoperability,
      R: expected.summary.reusability,
    };
    for (const [letter, percent] of Object.entries(percents)) {
      const card = all(p.doc, (n) => n.attribs?.['data-principle'] === letter)[0]!;
      const group = expected.details.summary.categories[letter]!;
      expect(text(card)).toContain(`${fmt(percent)}%`);
      expect(text(card)).toContain(`${fmt(group.scoreEarned)} of ${fmt(group.scoreTotal)} points`);
      expect(text(card)).toContain(`${fmt(group.metricsPassed)} of ${fmt(group.metrics)} metrics passed`);
    }
  });

  it("lists every metric with the API's status, score and maturity, and every test's reason", () => {
    const rows = all(p.doc, (n) => n.name === 'tr' && n.attribs['data-metric'] !== undefined);
    expect(rows.map((r) => r.attribs['data-metric'])).toEqual(expected.metrics.map((m) => m.id));
    expected.metrics.forEach((m, i) => {
      expect([rows[i]!.attribs['data-status'], rows[i]!.attribs['data-score-earned'], rows[i]!.attribs['data-score-total']]).toEqual([
        m.status,
        String(m.scoreEarned),
        String(m.scoreTotal),
      ]);
      expect(text(rows[i]!)).toContain(m.name);
      expect(text(rows[i]!)).toContain(`(${m.maturity})`);
    });
    const tests = all(p.doc, (n) => n.name === 'tr' && n.attribs['data-test'] !== undefined);
    const all_tests = expected.details.metrics.flatMap((m) => m.tests);
    expect(tests.map((t) => t.attribs['data-test'])).toEqual(all_tests.map((t) => t.id));
    all_tests.forEach((t, i) => expect(text(tests[i]!)).toContain(t.reason.replace(/\s+/g, ' ').trim()));
    // A failed metric is open, a passed one closed.
    const failed = expected.metrics.find((m) => m.status === 'fail')!;
    const passed = expected.metrics.find((m) => m.status === 'pass')!;
    const detailsOf = (id: string) => all(p.doc, (n) => n.name === 'details' && n.attribs.id === `metric-${id.replace(/[^A-Za-z0-9-]/g, '-')}`)[0]!;
    expect('open' in detailsOf(failed.id).attribs).toBe(true);
    expect('open' in detailsOf(passed.id).attribs).toBe(false);
  });

  it("shows F-UJI's summary per principle and sub-principle", () => {
    const table = all(p.doc, (n) => n.name === 'table' && n.attribs['aria-labelledby'] === 'summary-heading')[0]!;
    const rows = all(table, (n) => n.name === 'tr')
      .slice(1)
      .map((r) =>
        all(r, (c) => c.name === 'th' || c.name === 'td')
          .map(text)
          .join(' '),
      );
    const groups = expected.details.summary;
    expect(rows[0]).toBe(
      `FAIR (all) ${fmt(groups.FAIR.scoreEarned)} / ${fmt(groups.FAIR.scoreTotal)} ${fmt(groups.FAIR.scorePercent)}% ${fmt(groups.FAIR.maturity)} of 3 ${fmt(groups.FAIR.metricsPassed)} / ${fmt(groups.FAIR.metrics)}`,
    );
    for (const [name, g] of Object.entries(groups.principles)) {
      const row = rows.find((r) => r.startsWith(`${name} `));
      expect(row, name).toBeDefined();
      expect(row).toContain(`${fmt(g.scoreEarned)} / ${fmt(g.scoreTotal)} ${fmt(g.scorePercent)}%`);
    }
    expect(rows).toHaveLength(1 + Object.keys(groups.categories).length + Object.keys(groups.principles).length);
  });

  it('names what was assessed and refills the form', () => {
    expect(text(all(p.doc, (n) => n.name === 'h1'))).toBe(`FAIR assessment of ${PANGAEA}`);
    expect(text(p.doc)).toContain(expected.resolvedUrl);
    expect(formState(p.doc)).toEqual({ identifier: PANGAEA, metric_version: ['metrics_v0.8'], use_registry: true, use_code_host: false });
    expect(p.text).not.toMatch(/<style[\s>]|\sstyle="|\son[a-z]+="/);
  });

  it('passes the options on: metrics v0.5 without the registry is the API’s v0.5 assessment', async () => {
    const body = { identifier: PANGAEA, options: { metric_version: 'metrics_v0.5', use_registry: false } };
    const api = await assess(body);
    expect(api.status).toBe(200);
    const v05 = api.body as unknown as AssessmentResult;
    const q = await page(assessPath({ identifier: PANGAEA, metric_version: 'metrics_v0.5', use_registry: 'false', use_code_host: 'false' }));
    expect(q.status).toBe(200);
    const overall = all(q.doc, (n) => n.attribs?.class === 'overall')[0]!;
    expect(overall.attribs['data-score-total']).toBe(String(v05.summary.scoreTotal));
    expect(overall.attribs['data-score-earned']).toBe(String(v05.summary.scoreEarned));
    expect(all(q.doc, (n) => n.name === 'tr' && n.attribs['data-metric'] !== undefined)).toHaveLength(v05.metrics.length);
    expect(formState(q.doc)).toEqual({ identifier: PANGAEA, metric_version: ['metrics_v0.5'], use_registry: false, use_code_host: false });
  });
});

describe('/fair/assess: refusals', () => {
  const reader = '203.0.113.40';
  for (const [name, params, code, message] of [
    ['an empty identifier', { identifier: '' }, 'INVALID_PARAMETER', '"identifier" is empty'],
    [
      'an unknown metric version',
      { identifier: PANGAEA, metric_version: 'metrics_v0.7' },
      'INVALID_PARAMETER',
      'Unknown metric_version "metrics_v0.7"; accepted: metrics_v0.8, metrics_v0.5',
    ],
    ['no identifier at all', { metric_version: 'metrics_v0.8' }, 'MISSING_PARAMETER', 'no "identifier"'],
    ['a parameter the page does not take', { identifier: PANGAEA, api_key: 'x' }, 'UNKNOWN_PARAMETER', 'Unknown parameter "api_key"'],
    ['a flag that is not true or false', { identifier: PANGAEA, use_code_host: 'yes' }, 'INVALID_PARAMETER', 'must be true or false'],
  ] as const) {
    it(`${name}: a 400 page with the message, the form refilled, nothing counted`, async () => {
      const r = await page(assessPath(params), reader);
      expect(r.status).toBe(400);
      expect(r.headers.get('cache-control')).toBe('no-store');
      const alert = alertOf(r.doc);
      expect(alert).toHaveLength(1);
      expect(alert[0]!.attribs['data-error-code']).toBe(code);
      expect(text(alert[0]!)).toContain(message);
      expect(text(alert[0]!)).toContain('The request was not accepted');
      expect(formState(r.doc).identifier).toBe('identifier' in params ? params.identifier : '');
    });
  }

  it('the API said the same for the same body, and counted none of them', async () => {
    const api = await assess({ identifier: PANGAEA, options: { metric_version: 'metrics_v0.7' } }, reader);
    expect(api.status).toBe(400);
    expect(api.headers.get('x-ratelimit-remaining')).toBe('10');
  });

  it('an unresolvable identifier: a 422 page quoting it, the form refilled, and it counts', async () => {
    const ip = newReader();
    const identifier = '10.9999/does-not-exist';
    const r = await page(assessPath({ identifier, use_code_host: ['false', 'true'] }), ip);
    expect(r.status).toBe(422);
    const alert = alertOf(r.doc);
    expect(alert[0]!.attribs['data-error-code']).toBe('RESOLUTION_FAILED');
    expect(text(alert[0]!)).toContain('The identifier could not be resolved');
    expect(text(alert[0]!)).toContain(`"${identifier}"`);
    expect(formState(r.doc)).toEqual({ identifier, metric_version: ['metrics_v0.8'], use_registry: true, use_code_host: true });
    expect(r.headers.get('x-ratelimit-remaining')).toBe('9');
    const api = await assess({ identifier }, newReader());
    expect(api.status).toBe(422);
    expect(text(alert[0]!)).toContain(api.body.message as string);
  });

  /** What a reader sees of the page's main content, for checking that it speaks to people. */
  const mainText = (doc: Doc) => text(all(doc, (n) => n.name === 'main')[0] ?? doc);
  const HEADER_NAMES = /Authorization|Bearer|Retry-After|X-RateLimit|Content-Type/i;

  it('over the hourly limit: a 429 page saying when to come back and how to get a key, without header names', async () => {
    const ip = newReader();
    for (let i = 0; i < 10; i++) expect((await assess({ identifier: `10.9999/spent-${i}` }, ip)).status).toBe(422);
    const r = await page(assessPath({ identifier: '10.9999/one-more' }), ip);
    expect(r.status).toBe(429);
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(3500);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    const alert = alertOf(r.doc);
    expect(alert[0]!.attribs['data-error-code']).toBe('RATE_LIMITED');
    expect(text(alert[0]!)).toContain('Too many assessments');
    expect(text(alert[0]!)).toContain('You have used all 10 assessments this hour allows for your address.');
    const when = all(r.doc, (n) => n.attribs?.class === 'retry')[0]!;
    expect(when.attribs['data-retry-after']).toBe(String(retry));
    expect(text(when)).toMatch(/^Try again in (59 min \d+ s|1 h) \(after \d\d:\d\d UTC\)\.$/);
    const key = all(r.doc, (n) => n.attribs?.class === 'key')[0]!;
    expect(text(key)).toContain('with an API key, which has a higher hourly limit. Keys are issued by the people who run this service');
    expect(all(key, (n) => n.name === 'a')[0]!.attribs.href).toBe('/api/fair');
    expect(mainText(r.doc)).not.toMatch(HEADER_NAMES);
    expect(formState(r.doc).identifier).toBe('10.9999/one-more');
  });

  it('the resolver in trouble: a 503 page saying so, whose fault it is, and when to try again; nothing counted', async () => {
    s.fairMock.route({ path: '/doi.org/10.1234/resolver-down', status: 503, headers: { 'content-type': 'text/html' }, body: 'maintenance' });
    const ip = newReader();
    const r = await page(assessPath({ identifier: '10.1234/resolver-down' }), ip);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('30');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('10');
    const alert = alertOf(r.doc);
    expect(alert[0]!.attribs['data-error-code']).toBe('UPSTREAM_UNAVAILABLE');
    expect(text(alert[0]!)).toContain('The service is having trouble reaching the resolver');
    expect(text(alert[0]!)).toContain('The problem is on our side, not with your identifier, and it did not count against your hourly limit.');
    expect(text(all(r.doc, (n) => n.attribs?.class === 'retry')[0]!)).toBe('Try again in 30 s; nothing needs to change in what you entered.');
    expect(mainText(r.doc)).not.toMatch(HEADER_NAMES);
    expect(formState(r.doc).identifier).toBe('10.1234/resolver-down');
  });
});
