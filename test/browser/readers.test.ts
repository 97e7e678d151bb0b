/**
 * The site for readers (issue 19), every page kind in Chromium at 1280 px and at 390 px: no horizontal
 * overflow (the document is exactly as wide as the viewport), axe-core reports no violation, and a screenshot
 * of each under test/artifacts/screenshots/readers/; at 390 px no table cell breaks a word or a number and no
 * chart label is under 11 px. At 1280 px the cohort builder's first result is visible
 * without scrolling; a facet link narrows the cohort to the API's total for the new query (with and without
 * JavaScript's in-place update); every 4xx is a page for the browser and JSON for an API client.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BrowserSite, describeBrowser, openBrowserSite, screenshot } from '../helpers/browser.ts';
import type { SiteServer } from '../helpers/site-server.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: unknown[] }[];
}

/** axe-core's violations on the page (injected through the DevTools protocol, which the CSP does not govern). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (o: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run({ resultTypes: ['violations'] })).violations;
  });
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.nodes
        .map((n) => JSON.stringify(n.target))
        .slice(0, 3)
        .join(', ')}`,
  );
}

/**
 * What a narrow screen must not do: the words and numbers of table cells split across lines (a run of letters,
 * digits and their separators whose text lies on two lines; a break after a hyphen or a slash is a line break
 * between words), and chart text drawn smaller than 11 px (its font size times the SVG's scale on screen).
 */
async function narrowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const cell of document.querySelectorAll('main th, main td')) {
      if ((cell as HTMLElement).getClientRects().length === 0 || (cell.closest('thead') as HTMLElement | null)?.getBoundingClientRect().width === 1) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode())
        for (const m of (n.textContent ?? '').matchAll(/[\p{L}\p{N}\p{M}.,%'’]+/gu)) {
          const range = document.createRange();
          range.setStart(n, m.index!);
          range.setEnd(n, m.index! + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(`cell text "${m[0]}" broken over ${lines.size} lines`);
        }
    }
    for (const t of document.querySelectorAll<SVGTextElement>('main svg text')) {
      const ctm = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * (ctm ? Math.hypot(ctm.a, ctm.b) : 1);
      if (px < 11 && t.getBBox().width > 0) out.push(`chart text "${t.textContent}" at ${px.toFixed(1)} px`);
    }
    return [...new Set(out)];
  });
}

describeBrowser('the site for readers in Chromium at 1280 and 390 px', () => {
  let s: SiteServer;
  let page: Page;
  let errors: string[];
  let site: BrowserSite;
  /** Every page kind: [name, path, expected status]. */
  const kinds: [string, string, number][] = [];

  beforeAll(async () => {
    site = await openBrowserSite();
    ({ s, page, errors } = site);
    const cohort = await s.json<{ results: { id: string }[] }>('/frame/api/v1/cohort?per_page=1&n_in=3');
    const work = cohort.results[0]!.id;
    const excerpts = await s.json<{ items?: { id: string }[]; results?: { id: string }[] }>('/corpus/api/v1/excerpts?per_page=1');
    const article = (excerpts.items ?? excerpts.results)![0]!.id.split('/')[0]!;
    const minted = await fetch(`${s.base}/frame/api/v1/permalink?year_from=2015`, { method: 'POST' });
    const hash = ((await minted.json()) as { hash: string }).hash;
    const authors = await s.json<{ results: { id: string }[] }>('/frame/api/v1/facets/author?q=an');
    kinds.push(
      ['home', '/', 200],
      ['frame', '/frame', 200],
      ['cohort-empty', '/frame/cohort', 200],
      ['cohort', '/frame/cohort?year_from=2015&lang=en', 200],
      ['cohort-refused', '/frame/cohort?year_from=20155', 400],
      ['permalink', `/frame/q/${hash}`, 200],
      ['work', `/frame/works/${work}`, 200],
      ['work-abstract', `/frame/works/${work}/abstract`, 200],
      ['stats', '/frame/stats', 200],
      ['stats-routes', '/frame/stats/routes', 200],
      ['stats-labels', '/frame/stats/labels', 200],
      ['stats-fields', '/frame/stats/fields', 200],
      ['stats-retractions', '/frame/stats/retractions', 200],
      ['findings', '/frame/findings', 200],
      ['predictions', '/frame/predictions', 200],
      ['screening', '/frame/screening', 200],
      ['network', '/frame/network', 200],
      ['network-author', `/frame/network?author_id=${authors.results[0]!.id}`, 200],
      ['recent', '/frame/recent', 200],
      ['glossary', '/frame/glossary', 200],
      ['snapshot', '/frame/snapshot', 200],
      ['corpus', '/corpus', 200],
      ['phrases', '/corpus/phrases', 200],
      ['excerpts', '/corpus/excerpts?per_page=10', 200],
      ['articles', '/corpus/articles', 200],
      ['article', `/corpus/articles/${article}`, 200],
      ['fair', '/fair', 200],
      ['api', '/api', 200],
      ['api-frame', '/api/frame', 200],
      ['docs', '/docs/api-fair', 200],
      ['docs-configuration', '/docs/configuration', 200],
      ['about', '/about', 200],
      ['not-found', '/frame/stat', 404],
    );
  }, 600_000);
  afterAll(() => site?.close());

  for (const size of WIDTHS) {
    it(`every page kind at ${size.width} px: the document as wide as the viewport, no axe violation, a screenshot`, async () => {
      await page.setViewportSize(size);
      const problems: string[] = [];
      for (const [name, path, status] of kinds) {
        const response = await page.goto(`${s.base}${path}`);
        expect(response?.status(), path).toBe(status);
        expect(response?.headers()['content-type'], path).toMatch(/^text\/html/);
        const [docWidth, viewport] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        if (docWidth !== viewport) problems.push(`${path}: document ${docWidth} px wide at ${viewport} px`);
        for (const v of await axeViolations(page)) problems.push(`${path}: ${v}`);
        if (size.width === 390) for (const p of await narrowProblems(page)) problems.push(`${path}: ${p}`);
        await screenshot(page, `readers/${name}-${size.width}`);
      }
      expect(problems).toEqual([]);
      // A refused query's page load is the 400 document itself, not a failed resource: nothing else failed.
      expect(errors.filter((e) => !/^console: Failed to load resource: the server responded with a status of 40[04]/.test(e))).toEqual([]);
      errors.length = 0;
    }, 300_000);
  }

  it('shows the first result of a cohort without scrolling at 1280 px', async () => {
    await page.setViewportSize(WIDTHS[0]);
    for (const path of ['/frame/cohort?year_from=2015', '/frame/cohort?lang=fr&route_aff=0']) {
      await page.goto(`${s.base}${path}`);
      const box = await page.locator('table.works tbody tr').first().boundingBox();
      expect(box, path).not.toBeNull();
      expect(box!.y + box!.height, path).toBeLessThanOrEqual(800);
    }
  });

  for (const js of [true, false]) {
    it(`a facet link narrows the cohort to the API's total for the new query (${js ? 'in place, with JavaScript' : 'a plain link, without JavaScript'})`, async () => {
      const context = await site.browser.newContext({ viewport: WIDTHS[0], javaScriptEnabled: js });
      const p = await context.newPage();
      try {
        await p.goto(`${s.base}/frame/cohort?year_from=2010`);
        const before = Number((await p.locator('[data-cohort-total]').textContent())!.replace(/\D/g, ''));
        const link = p.locator('section.facet[aria-labelledby="facet-lang"] a[data-facet-link]').nth(1);
        const shown = Number((await link.locator('xpath=..').locator('.count').textContent())!.replace(/\D/g, ''));
        await link.click();
        await p.waitForURL(/lang=/);
        await expect.poll(async () => Number((await p.locator('[data-cohort-total]').textContent())!.replace(/\D/g, ''))).toBe(shown);
        const url = new URL(p.url());
        const api = await s.json<{ meta: { total: number } }>(`/frame/api/v1/cohort${url.search}`);
        expect(api.meta.total).toBe(shown);
        expect(shown).toBeLessThan(before);
        // The table shows that cohort's first works.
        const first = await s.json<{ results: { title: string }[] }>(`/frame/api/v1/cohort${url.search}&per_page=1`);
        await expect.poll(async () => (await p.locator('table.works tbody tr td.title a').first().textContent())?.trim()).toBe(first.results[0]!.title);
      } finally {
        await context.close();
      }
    });
  }

  it('answers a 4xx with a page for the browser, and every API path with JSON whoever asks', async () => {
    for (const [path, status] of [
      ['/frame/stat', 404],
      ['/frame/api/v1/works/W1', 404],
      ['/frame/api/v1/cohort?yer_from=2000', 400],
      ['/corpus/api/v1/excerpts?band=9', 400],
      ['/fair/api/v1/assess', 405],
    ] as const) {
      const response = await page.goto(`${s.base}${path}`);
      expect(response?.status(), path).toBe(status);
      if (path.includes('/api/v1/')) {
        expect(response?.headers()['content-type'], path).toMatch(/^application\/json/);
      } else {
        expect(response?.headers()['content-type'], path).toMatch(/^text\/html/);
        expect(await page.locator('main [role="alert"]').count(), path).toBe(1);
        expect(await page.locator('main a[href="/"]').count(), path).toBeGreaterThan(0);
      }
      // The same address asked by a program (from the page, as a script would).
      const json = await page.evaluate(async (u) => {
        const r = await fetch(u, { headers: { accept: 'application/json' } });
        return { status: r.status, type: r.headers.get('content-type'), body: (await r.json()) as { code: string } };
      }, path);
      expect(json.status, path).toBe(status);
      expect(json.type, path).toMatch(/^application\/json/);
      expect(typeof json.body.code).toBe('string');
    }
    errors.length = 0;
  });
});
