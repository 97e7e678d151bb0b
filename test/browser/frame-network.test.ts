/**
 * The collaboration network and the screening dossier in a real Chromium: the overview's SVG has the API's
 * researchers, focus and hover light up a researcher's ties, a click on a node opens that researcher's
 * neighbourhood while a drag does not, the zoom works, the author typeahead leads to a neighbourhood, the
 * screening form filters and shows the API's numbers, both pages work with JavaScript disabled; nothing
 * errors in the console. Screenshots: frame-network, frame-network-author, frame-screening.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSite, describeBrowser, openBrowserSite, screenshot } from '../helpers/browser.ts';
import type { SiteServer } from '../helpers/site-server.ts';

interface Network {
  graph: { nodes: { id: string; name: string; ca_works: number }[]; edges: { a: string; b: string }[] };
}
interface Screened {
  meta: { total: number; summary: { weighted: { any_model_in_scope: { rate: number } } } };
  results: { id: string }[];
}
const fmt = (n: number) => n.toLocaleString('en-CA');

describeBrowser('collaboration network and screening dossier in Chromium', () => {
  let s: SiteServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let overview: Network;
  let site: BrowserSite;
  beforeAll(async () => {
    site = await openBrowserSite();
    ({ s, browser, page, errors } = site);
    overview = await s.json<Network>('/frame/api/v1/network');
  });
  afterAll(() => site?.close());

  const nodes = (p: Page) => p.locator('svg.network-graph a.node');
  const degree = (id: string, graph: Network['graph']) => graph.edges.filter((e) => e.a === id || e.b === id).length;

  describe('the network', () => {
    it("renders the overview as an SVG with the API's researchers, made interactive", async () => {
      await page.goto(`${s.base}/frame/network`);
      expect(await nodes(page).count()).toBe(overview.graph.nodes.length);
      expect(await page.locator('svg.network-graph line.edge').count()).toBe(overview.graph.edges.length);
      expect(await page.locator('[data-count="nodes"]').innerText()).toBe(fmt(overview.graph.nodes.length));
      // The script has run: the toolbar is shown and the graph takes pointer input.
      await page.getByRole('button', { name: 'Reset view' }).waitFor();
      expect(await page.locator('svg.network-graph.interactive').count()).toBe(1);
      // Researchers are links, named by their SVG title.
      const first = overview.graph.nodes[0]!;
      expect(await page.getByRole('link', { name: new RegExp(`^${first.name}: `) }).count()).toBeGreaterThan(0);
      await screenshot(page, 'frame-network');
    });

    it("lights up a researcher's ties on keyboard focus and on hover", async () => {
      await page.goto(`${s.base}/frame/network`);
      await page.getByRole('button', { name: 'Reset view' }).waitFor();
      const first = overview.graph.nodes[0]!;
      await nodes(page).first().focus();
      expect(await page.locator('svg.network-graph.focused').count()).toBe(1);
      expect(await page.locator('svg.network-graph line.edge.hl').count()).toBe(degree(first.id, overview.graph));
      expect(await page.locator('svg.network-graph a.node.hl').count()).toBe(degree(first.id, overview.graph) + 1);
      await nodes(page).first().blur();
      expect(await page.locator('svg.network-graph.focused').count()).toBe(0);
      const second = overview.graph.nodes[1]!;
      await page.locator(`svg.network-graph a.node[data-id="${second.id}"] circle`).hover();
      expect(await page.locator('svg.network-graph line.edge.hl').count()).toBe(degree(second.id, overview.graph));
    });

    it('zooms with the toolbar, resets, and keeps the focused researcher in view', async () => {
      await page.goto(`${s.base}/frame/network`);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      expect(await page.locator('svg.network-graph g.viewport').getAttribute('transform')).toMatch(/scale\(1\.25/);
      await page.getByRole('button', { name: 'Reset view' }).click();
      expect(await page.locator('svg.network-graph g.viewport').getAttribute('transform')).toMatch(/translate\(0\.00 0\.00\) scale\(1\.0000\)/);
      // Zoomed in, tabbing to a researcher out of view brings them into view.
      for (let i = 0; i < 8; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
      const far = nodes(page).last();
      await far.focus();
      const circle = (await far.locator('circle').boundingBox())!;
      const svg = (await page.locator('svg.network-graph').boundingBox())!;
      expect(circle.x).toBeGreaterThanOrEqual(svg.x);
      expect(circle.x + circle.width).toBeLessThanOrEqual(svg.x + svg.width);
      expect(circle.y).toBeGreaterThanOrEqual(svg.y);
      expect(circle.y + circle.height).toBeLessThanOrEqual(svg.y + svg.height);
    });

    it('a drag moves a researcher and their ties without leaving the page', async () => {
      await page.goto(`${s.base}/frame/network`);
      await page.getByRole('button', { name: 'Reset view' }).waitFor();
      const hub = overview.graph.nodes[0]!;
      const circle = page.locator(`svg.network-graph a.node[data-id="${hub.id}"] circle`);
      // The mouse only reaches what is in the viewport (the banner and the frame's navigation push the graph down).
      await circle.scrollIntoViewIfNeeded();
      const box = (await circle.boundingBox())!;
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      const before = Number(await circle.getAttribute('cx'));
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 1; i <= 8; i++) await page.mouse.move(x + 8 * i, y + 5 * i);
      await page.mouse.up();
      await page.waitForTimeout(150);
      expect(page.url()).toBe(`${s.base}/frame/network`);
      expect(Number(await circle.getAttribute('cx'))).toBeGreaterThan(before + 10);
      // The ties follow (read in one go: the simulation may still be settling).
      const [edgeX, nodeX] = await page.evaluate((id) => {
        const svg = document.querySelector('svg.network-graph')!;
        return [
          Number(svg.querySelector(`line.edge[data-a="${id}"]`)!.getAttribute('x1')),
          Number(svg.querySelector(`a.node[data-id="${id}"] circle`)!.getAttribute('cx')),
        ];
      }, hub.id);
      expect(edgeX).toBe(nodeX);
    });

    it("a click on a node shows that researcher's neighbourhood, with the API's graph", async () => {
      await page.goto(`${s.base}/frame/network`);
      await page.getByRole('button', { name: 'Reset view' }).waitFor();
      const target = overview.graph.nodes[2]!;
      await page.locator(`svg.network-graph a.node[data-id="${target.id}"] circle`).click();
      await page.waitForURL(`${s.base}/frame/network?author_id=${target.id}`);
      const ego = await s.json<Network>(`/frame/api/v1/network?author_id=${target.id}`);
      expect(await page.locator('h1').innerText()).toBe(`Collaboration network: ${target.name}`);
      expect(await nodes(page).count()).toBe(ego.graph.nodes.length);
      expect(await page.locator('svg.network-graph a.node.center').getAttribute('data-id')).toBe(target.id);
      expect(await page.locator('[data-count="edges"]').innerText()).toBe(fmt(ego.graph.edges.length));
      await page.getByRole('button', { name: 'Reset view' }).waitFor();
      await screenshot(page, 'frame-network-author');
    });

    it('the author typeahead suggests the facet’s researchers and opens the chosen one’s neighbourhood with the keyboard', async () => {
      const facet = await s.json<{ results: { id: string; name: string }[] }>('/frame/api/v1/facets/author?q=tremb');
      await page.goto(`${s.base}/frame/network`);
      const box = page.getByRole('combobox', { name: 'Find a researcher by name' });
      await box.pressSequentially('tremb', { delay: 20 });
      const options = page.getByRole('listbox', { name: 'Matching researchers' }).getByRole('option');
      await options.first().waitFor();
      expect(await options.count()).toBe(facet.results.length);
      expect((await options.allInnerTexts()).map((t) => t.replace(/\s*\(.*$/, ''))).toEqual(facet.results.map((r) => r.name));
      expect(await box.getAttribute('aria-expanded')).toBe('true');
      await box.press('ArrowDown');
      await box.press('ArrowDown');
      expect(await box.getAttribute('aria-activedescendant')).toBe('author-option-1');
      await box.press('Enter');
      await page.waitForURL(`${s.base}/frame/network?author_id=${facet.results[1]!.id}`);
      expect(await page.locator('h1').innerText()).toBe(`Collaboration network: ${facet.results[1]!.name}`);
    });
  });

  describe('the screening dossier', () => {
    it("filters with the form and shows the API's numbers; the address is the API's query string", async () => {
      await page.goto(`${s.base}/frame/screening`);
      const all = await s.json<Screened>('/frame/api/v1/screened');
      expect(await page.locator('[data-total]').innerText()).toBe(fmt(all.meta.total));
      await page.getByLabel('Sampling stratum').selectOption('aff_core');
      await page.getByLabel('Models that put the work in scope').selectOption('0');
      await page.getByRole('button', { name: 'Show works' }).click();
      // The script leaves the blank fields out: straight to the clean address, no redirect.
      await page.waitForURL(`${s.base}/frame/screening?n_in=0&stratum=aff_core`);
      const api = await s.json<Screened>('/frame/api/v1/screened?n_in=0&stratum=aff_core');
      expect(await page.locator('[data-total]').innerText()).toBe(fmt(api.meta.total));
      expect(await page.locator('table.screened tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))).toEqual(
        api.results.map((r) => r.id),
      );
      const rate = api.meta.summary.weighted.any_model_in_scope.rate;
      expect(await page.locator('tr[data-rate="any_model_in_scope"] td[data-weighted]').innerText()).toBe(`${(100 * rate).toFixed(1)}%`);
      await page.goto(`${s.base}/frame/screening`);
      await screenshot(page, 'frame-screening');
      expect(errors).toEqual([]);
    });
  });

  describe('with JavaScript disabled', () => {
    it('the network is the same SVG and the author search lists researchers; the screening form goes through the redirect', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const p = await context.newPage();
      await p.goto(`${s.base}/frame/network`);
      expect(await nodes(p).count()).toBe(overview.graph.nodes.length);
      expect(await p.locator('[data-toolbar]').isVisible()).toBe(false);
      await p.getByLabel('Find a researcher by name').fill('tremb');
      await p.getByRole('button', { name: 'Search' }).click();
      await p.waitForURL(/_author=tremb/);
      const facet = await s.json<{ results: { id: string; name: string }[] }>('/frame/api/v1/facets/author?q=tremb');
      const hits = p.locator('section.hits li a');
      expect(await hits.allInnerTexts()).toEqual(facet.results.map((r) => r.name));
      await hits.first().click();
      await p.waitForURL(`${s.base}/frame/network?author_id=${facet.results[0]!.id}`);

      await p.goto(`${s.base}/frame/screening`);
      await p.getByLabel('Sampling stratum').selectOption('french');
      await p.getByRole('button', { name: 'Show works' }).click();
      await p.waitForURL(`${s.base}/frame/screening?stratum=french`);
      const api = await s.json<Screened>('/frame/api/v1/screened?stratum=french');
      expect(await p.locator('[data-total]').innerText()).toBe(fmt(api.meta.total));
      await context.close();
    });
  });
});
