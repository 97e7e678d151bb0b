/**
 * The frame's statistics pages, findings and predictions report in a real Chromium: each page renders without
 * a console error, every SVG chart is an image whose accessible name is its caption, a chart's data table opens
 * from the keyboard, a year column leads to that year's cohort, the pages read the same with JavaScript off,
 * and screenshots of the main pages.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BrowserSite, describeBrowser, openBrowserSite, screenshot } from '../helpers/browser.ts';
import type { SiteServer } from '../helpers/site-server.ts';

const PAGES = [
  ['/frame/stats', 'frame-stats'],
  ['/frame/stats/routes', 'frame-routes'],
  ['/frame/stats/fields', 'frame-fields'],
  ['/frame/stats/languages', 'frame-languages'],
  ['/frame/stats/labels', 'frame-labels'],
  ['/frame/stats/retractions', 'frame-retractions'],
  ['/frame/findings', 'frame-findings'],
  ['/frame/predictions', 'frame-predictions'],
] as const;

describeBrowser('frame statistics pages in Chromium', () => {
  let s: SiteServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let site: BrowserSite;
  beforeAll(async () => {
    site = await openBrowserSite();
    ({ s, browser, page, errors } = site);
  }, 120_000);
  afterAll(() => site?.close());

  it('renders each page; every chart is an image named by its caption and described by its description', async () => {
    for (const [path, name] of PAGES) {
      const response = await page.goto(`${s.base}${path}`);
      expect(response?.status(), path).toBe(200);
      const charts = await page.locator('figure.chart').evaluateAll((figures) =>
        figures.map((f) => {
          const svg = f.querySelector('svg')!;
          const [caption, desc] = svg
            .getAttribute('aria-labelledby')!
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent?.trim() ?? '');
          return {
            caption: caption!,
            desc: desc!,
            role: svg.getAttribute('role'),
            links: svg.querySelectorAll('a[href]').length,
            width: svg.getBoundingClientRect().width,
          };
        }),
      );
      for (const c of charts) {
        // A chart whose marks are links is a group (links inside an image would be hidden: axe's nested-interactive).
        expect(c.role).toBe(c.links > 0 ? 'group' : 'img');
        expect(c.caption).not.toBe('');
        expect(c.desc).not.toBe('');
        expect(c.width, c.caption).toBeGreaterThan(200);
        // Chromium's accessibility tree names the chart by its caption (then its description).
        expect(await page.getByRole(c.links > 0 ? 'group' : 'img', { name: c.caption }).count(), c.caption).toBeGreaterThanOrEqual(1);
      }
      if (path.startsWith('/frame/stats')) expect(charts.length, path).toBeGreaterThan(0);
      await screenshot(page, name);
    }
    expect(errors).toEqual([]);
  });

  it("opens a chart's data table from the keyboard", async () => {
    await page.goto(`${s.base}/frame/stats/routes`);
    const details = page
      .locator('figure.chart', { has: page.locator('#route-combinations-caption') })
      .locator('details')
      .last();
    const table = details.locator('table');
    expect(await table.isVisible()).toBe(false);
    await details.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await table.isVisible()).toBe(true);
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(1);
    await page.keyboard.press('Space');
    expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  });

  it('reaches the bar links with the Tab key, in reading order', async () => {
    const doc = await s.json<{ results: { year: number }[] }>('/frame/api/v1/stats/by-year');
    await page.goto(`${s.base}/frame/stats`);
    // The last link before the chart (the summary table's last row), then Tab: the first column, then the next.
    await page.locator('main table.summary a').last().focus();
    const focused = async () => {
      await page.keyboard.press('Tab');
      return page.evaluate(() =>
        document.activeElement?.closest('svg') ? document.activeElement.getAttribute('href') : (document.activeElement?.tagName ?? null),
      );
    };
    const [first, second] = doc.results;
    expect(await focused()).toBe(`/frame/cohort?year_from=${first!.year}&year_to=${first!.year}`);
    expect(await focused()).toBe(`/frame/cohort?year_from=${second!.year}&year_to=${second!.year}`);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/frame/cohort');
    expect(new URL(page.url()).search).toBe(`?year_from=${second!.year}&year_to=${second!.year}`);
  });

  it("leads from a year's column to the cohort of that year", async () => {
    const doc = await s.json<{ results: { year: number; works: number }[] }>('/frame/api/v1/stats/by-year');
    const year = doc.results[Math.floor(doc.results.length / 2)]!;
    await page.goto(`${s.base}/frame/stats`);
    const bar = page.locator(`#main svg a[href="/frame/cohort?year_from=${year.year}&year_to=${year.year}"]`);
    const [response] = await Promise.all([page.waitForNavigation(), bar.locator('rect.bar').click()]);
    expect(new URL(page.url()).pathname).toBe('/frame/cohort');
    expect(new URL(page.url()).search).toBe(`?year_from=${year.year}&year_to=${year.year}`);
    // The cohort page (another part of the site) shows the API's total for that query: the bar's number.
    if (response?.status() === 200) expect(await page.locator('main').innerText()).toContain(year.works.toLocaleString('en-CA'));
  });

  it('shows the same charts and numbers with JavaScript disabled', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const off = await context.newPage();
    try {
      for (const [path] of PAGES) {
        await page.goto(`${s.base}${path}`);
        await off.goto(`${s.base}${path}`);
        expect(await off.locator('main').innerText(), path).toBe(await page.locator('main').innerText());
        expect(await off.locator('figure.chart svg').count()).toBe(await page.locator('figure.chart svg').count());
      }
    } finally {
      await context.close();
    }
  });
});
