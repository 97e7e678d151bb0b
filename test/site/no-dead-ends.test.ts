/**
 * No dead ends (issue 19): the frame's landing page, the API index at each `<root>/api/v1`, and 4xx answers as a
 * page in the site's layout for a browser (Accept prefers text/html) while API clients, and every API path
 * whatever Accept says, keep the JSON error body; the frame sub-navigation on every frame page.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteServer, startSiteServer } from '../helpers/site-server.ts';

/** What Chromium sends for a navigation. */
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const JSON_ACCEPT = 'application/json';

let s: SiteServer;
beforeAll(async () => {
  s = await startSiteServer();
}, 600_000);
afterAll(async () => s?.close());

const hrefs = (html: string) => DomUtils.findAll((n) => n.name === 'a', parseDocument(html).children).map((a) => a.attribs.href ?? '');
const frameNav = (html: string) =>
  DomUtils.findAll((n) => n.name === 'nav' && n.attribs['aria-label'] === 'Research Cohort Query', parseDocument(html).children);

describe('the frame landing page', () => {
  it('answers /frame and /frame/ with a page naming the service, its pages and its API', async () => {
    for (const path of ['/frame', '/frame/']) {
      const r = await s.get(path, { headers: { accept: BROWSER } });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.text).toContain('<h1>Research Cohort Query</h1>');
      for (const link of ['/frame/cohort', '/frame/stats', '/frame/screening', '/frame/network', '/frame/api/v1', '/api/frame'])
        expect(hrefs(r.text), link).toContain(link);
    }
  });

  it('puts the frame sub-navigation on every frame page', async () => {
    const { results } = await s.json<{ results: { id: string }[] }>('/frame/api/v1/cohort?per_page=1');
    for (const path of [
      '/frame',
      '/frame/cohort',
      '/frame/stats',
      '/frame/stats/routes',
      '/frame/findings',
      '/frame/predictions',
      '/frame/screening',
      '/frame/network',
      '/frame/snapshot',
      `/frame/works/${results[0]!.id}`,
      '/frame/glossary',
      '/frame/recent',
    ]) {
      const r = await s.get(path);
      expect(r.status, path).toBe(200);
      const nav = frameNav(r.text);
      expect(nav, path).toHaveLength(1);
      const links = DomUtils.findAll((n) => n.name === 'a', nav[0]!.children).map((a) => DomUtils.textContent(a));
      expect(links).toEqual(['Overview', 'Cohorts', 'Statistics', 'Screening', 'Network', 'Recent', 'API']);
    }
  });
});

describe('the API index at <root>/api/v1', () => {
  for (const [root, page] of [
    ['/frame', '/api/frame'],
    ['/corpus', '/api/corpus'],
    ['/fair', '/api/fair'],
  ] as const) {
    it(`${root}/api/v1: JSON listing the operations and the OpenAPI document; the reference page for a browser`, async () => {
      const api = await s.get(`${root}/api/v1`, { headers: { accept: JSON_ACCEPT } });
      expect(api.status).toBe(200);
      expect(api.headers.get('content-type')).toMatch(/^application\/json/);
      const index = JSON.parse(api.text) as { openapi: string; documentation: string; operations: { method: string; path: string }[] };
      expect(index.openapi).toBe(`${root}/api/v1/openapi.json`);
      expect(index.documentation).toBe(page);
      const doc = await s.json<{ paths: Record<string, Record<string, unknown>> }>(index.openapi);
      const expected = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
      expect(index.operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(expected.sort());
      // fetch's default Accept (*/*) is an API client too
      expect((await s.get(`${root}/api/v1`)).headers.get('content-type')).toMatch(/^application\/json/);
      // A browser gets the same JSON: every API path answers JSON whatever Accept says.
      const browser = await s.get(`${root}/api/v1/`, { headers: { accept: BROWSER } });
      expect(browser.status).toBe(200);
      expect(browser.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(browser.text)).toEqual(index);
      // The reference page it names is the rendered one, with the document linked.
      expect(index.documentation).toBe(page);
      const reference = await s.get(page, { headers: { accept: BROWSER } });
      expect(reference.status).toBe(200);
      expect(hrefs(reference.text)).toContain(`${root}/api/v1/openapi.json`);
    });
  }
});

describe('4xx answers: a page for a browser, the JSON body for an API client and on every API path', () => {
  const CASES: { path: string; status: number; code: string; mention: string }[] = [
    { path: '/frame/stat', status: 404, code: 'NOT_FOUND', mention: '/frame/stat' },
    { path: '/nowhere', status: 404, code: 'NOT_FOUND', mention: '/nowhere' },
    { path: '/corpus/nowhere/else', status: 404, code: 'NOT_FOUND', mention: '/corpus/nowhere/else' },
    { path: '/frame/api/v1/nowhere', status: 404, code: 'NOT_FOUND', mention: '/frame/api/v1/nowhere' },
    { path: '/fair/api/v1/assess', status: 405, code: 'METHOD_NOT_ALLOWED', mention: 'POST' },
    { path: '/frame/api/v1/cohort?yer_from=2000', status: 400, code: 'UNKNOWN_PARAMETER', mention: 'yer_from' },
    { path: '/frame/api/v1/works/W0', status: 400, code: 'INVALID_PARAMETER', mention: 'W' },
    { path: '/frame/api/v1/works/W1', status: 404, code: 'NOT_FOUND', mention: 'W1' },
    { path: '/corpus/api/v1/excerpts?band=9', status: 400, code: 'INVALID_PARAMETER', mention: 'band' },
  ];
  for (const c of CASES) {
    it(`${c.path}: ${c.status} ${c.code}`, async () => {
      const api = await s.get(c.path, { headers: { accept: JSON_ACCEPT } });
      expect(api.status).toBe(c.status);
      expect(api.headers.get('content-type')).toMatch(/^application\/json/);
      const body = JSON.parse(api.text) as { code: string; message: string };
      expect(body.code).toBe(c.code);

      const page = await s.get(c.path, { headers: { accept: BROWSER } });
      expect(page.status).toBe(c.status);
      if (/\/api\/v\d+(\/|$)/.test(c.path.split('?')[0]!)) {
        // An API path: the same JSON body for a browser (the documents promise JSON).
        expect(page.headers.get('content-type')).toMatch(/^application\/json/);
        expect((JSON.parse(page.text) as { code: string }).code).toBe(c.code);
        return;
      }
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      const doc = parseDocument(page.text);
      const alert = DomUtils.findOne((n) => n.attribs.role === 'alert', doc.children);
      expect(alert?.attribs['data-error-code']).toBe(c.code);
      expect(DomUtils.textContent(alert!)).toContain(body.message.slice(0, 40));
      expect(page.text).toContain(c.mention);
      // links back: home and at least one service
      const links = hrefs(page.text);
      expect(links).toContain('/');
      expect(links.some((h) => ['/frame', '/corpus', '/fair'].includes(h))).toBe(true);
    });
  }
});

describe('every API path answers JSON whatever Accept says', () => {
  it('each operation of the three documents, asked by a browser with an unknown parameter: the JSON error body', async () => {
    let asked = 0;
    for (const root of ['/frame', '/corpus', '/fair']) {
      const doc = await s.json<{ paths: Record<string, Record<string, unknown>> }>(`${root}/api/v1/openapi.json`);
      for (const [path, item] of Object.entries(doc.paths)) {
        if (!('get' in item)) continue;
        const url = `${path.replace('{id}', 'W1').replace('{hash}', '0123456789abcdef').replace('{pmcid}', 'PMC1').replace('{phrase}', 'trend')}?zz_unknown=1`;
        const r = await s.get(url, { headers: { accept: BROWSER } });
        expect(r.status, url).toBeGreaterThanOrEqual(400);
        expect(r.status, url).toBeLessThan(500);
        expect(r.headers.get('content-type'), url).toMatch(/^application\/json/);
        expect(r.headers.get('access-control-allow-origin'), url).toBe('*');
        expect((JSON.parse(r.text) as { code: string }).code, url).toMatch(/^[A-Z_]+$/);
        asked++;
      }
    }
    expect(asked).toBeGreaterThan(25);
  });
});
