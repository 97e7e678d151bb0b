/**
 * The site's frame, over the real app and a real Astro build of a fixture: the home page shows the API's
 * numbers, every page has the landmarks and the navigation, the API documentation renders the OpenAPI
 * document the service serves, styles and scripts are files (no inline ones), and server-rendered pages answer
 * quickly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteServer, pageTimes, startSiteServer } from '../helpers/site-server.ts';

let s: SiteServer;
beforeAll(async () => {
  s = await startSiteServer();
});
afterAll(async () => s?.close());

const fmt = (n: number) => n.toLocaleString('en-CA');

describe('home page', () => {
  it("shows the frame's and the corpus's totals as the APIs give them", async () => {
    const summary = await s.json<{ works: number; no_aff: number }>('/frame/api/v1/stats/summary');
    const corpus = await s.json<{ excerpts: number; articles_scanned: number }>('/corpus/api/v1/stats');
    const page = await s.get('/');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<td class="num">${fmt(summary.works)}</td>`);
    expect(page.text).toContain(`<td class="num">${fmt(summary.no_aff)}</td>`);
    expect(page.text).toContain(`<td class="num">${fmt(corpus.excerpts)}</td>`);
    expect(page.text).toContain(`<td class="num">${fmt(corpus.articles_scanned)}</td>`);
  });

  it('links the three services, their API docs and the licences', async () => {
    const { text } = await s.get('/');
    for (const href of ['/frame/cohort', '/corpus', '/fair', '/api/frame', '/api/corpus', '/api/fair', '/about']) expect(text).toContain(`href="${href}"`);
  });
});

describe('every page', () => {
  for (const path of ['/', '/about', '/api', '/api/frame', '/frame/snapshot']) {
    it(`${path} has a language, a title, a skip link, one main, the services navigation, and no inline script or style`, async () => {
      const { status, text } = await s.get(path);
      expect(status).toBe(200);
      expect(text).toMatch(/<html lang="en">/);
      expect(text).toMatch(/<title>[^<]+ · Open Research Infrastructure<\/title>/);
      expect(text).toContain('<a class="skip" href="#main">');
      expect(text.match(/<main /g)).toHaveLength(1);
      expect(text).toContain('<nav aria-label="Services">');
      expect(text).toMatch(/<link rel="stylesheet" href="\/_astro\/[^"]+\.css"/);
      expect(text).not.toMatch(/<style[\s>]/);
      expect(text).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(ld\+)?json")[^>]*>/);
      expect(text).not.toMatch(/\sstyle="/);
      expect(text).not.toMatch(/\son[a-z]+="/);
    });
  }
});

describe('security headers', () => {
  it('static and server-rendered pages carry a content security policy without unsafe-inline, and nosniff', async () => {
    for (const path of ['/', '/about', '/frame/snapshot', '/api/frame']) {
      const { headers } = await s.get(path);
      const csp = headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("style-src 'self'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});

describe('API documentation', () => {
  it('renders each operation of the OpenAPI document the service serves', async () => {
    for (const service of ['frame', 'corpus', 'fair']) {
      const doc = await s.json<{ paths: Record<string, Record<string, unknown>> }>(`/${service}/api/v1/openapi.json`);
      const { status, text } = await s.get(`/api/${service}`);
      expect(status).toBe(200);
      for (const [path, ops] of Object.entries(doc.paths))
        for (const method of Object.keys(ops)) expect(text).toContain(`<code>${method.toUpperCase()} ${path}</code>`);
    }
  });

  it('shows the allowed values of a closed parameter', async () => {
    const { text } = await s.get('/api/corpus');
    expect(text).toContain('&quot;0.05-0.06&quot;');
  });

  it('shows every parameter description, type with bounds, request body fields, response fields and examples, and links the guide', async () => {
    for (const service of ['frame', 'corpus', 'fair']) {
      const doc = await s.json<{ paths: Record<string, Record<string, { description: string; parameters?: { description: string }[] }>> }>(
        `/${service}/api/v1/openapi.json`,
      );
      const { text } = await s.get(`/api/${service}`);
      const html = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
      for (const ops of Object.values(doc.paths))
        for (const op of Object.values(ops)) {
          expect(text).toContain(html(op.description));
          for (const p of op.parameters ?? []) expect(text).toContain(html(p.description));
        }
      expect(text).toContain(`href="/docs/api-${service}"`);
      expect(text).toContain('a real answer of the sample build');
    }
    const frame = (await s.get('/api/frame')).text;
    expect(frame).toContain('<td>integer, 1 to 100</td>');
    expect(frame).toContain('<code>meta.total</code>');
    const fair = (await s.get('/api/fair')).text;
    expect(fair).toContain('<code>options.metric_version</code>');
    expect(fair).toContain('Request example (application/json)');
  });

  it('serves the docs/api-*.md guides rendered, without inline styles or scripts', async () => {
    for (const path of ['/docs/api-frame', '/docs/api-corpus', '/docs/api-fair', '/docs/api-clients', '/api/frame', '/api/fair']) {
      const { status, text } = await s.get(path);
      expect(status, path).toBe(200);
      expect(text, path).not.toMatch(/\sstyle=/);
      expect(text, path).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    }
    expect((await s.get('/docs/api-corpus')).text).toContain('<h2 id="get-excerpts">GET /excerpts</h2>');
  });

  it('is a 404 page for an unknown service', async () => {
    const { status, text } = await s.get('/api/nothing');
    expect(status).toBe(404);
    expect(text).toContain('Unknown API');
  });
});

describe('server-rendered pages', () => {
  it('answer 20 requests in a row on the fixture build (median logged; npm run bench:site measures the 100 ms target)', async () => {
    await s.get('/api/frame');
    await pageTimes(s, '/frame/snapshot', () => '/frame/snapshot');
  });
});
