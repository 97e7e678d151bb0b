/**
 * The home page and the API documentation in a real Chromium: they render, the keyboard reaches the content
 * through the skip link, the navigation leads to the API docs, nothing errors in the console, screenshots.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BrowserSite, describeBrowser, openBrowserSite, screenshot } from '../helpers/browser.ts';
import type { SiteServer } from '../helpers/site-server.ts';

describeBrowser('home page in Chromium', () => {
  let s: SiteServer;
  let page: Page;
  let errors: string[];
  let site: BrowserSite;
  beforeAll(async () => {
    site = await openBrowserSite();
    ({ s, page, errors } = site);
  });
  afterAll(() => site?.close());

  it('shows the three services with the frame total of the API', async () => {
    const summary = await s.json<{ works: number }>('/frame/api/v1/stats/summary');
    await page.goto(`${s.base}/`);
    await expect(page.locator('h1')).toBeDefined();
    expect(await page.locator('.services > li h2').allTextContents()).toEqual(['Research Cohort Query', 'Hedged-Significance Corpus', 'FAIR Assessment']);
    expect(await page.getByRole('table', { name: 'Frame summary' }).innerText()).toContain(summary.works.toLocaleString('en-CA'));
    await screenshot(page, 'home');
  });

  it('puts the skip link first in the tab order, and it moves focus to the content', async () => {
    await page.goto(`${s.base}/`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  it('leads to the rendered OpenAPI documentation', async () => {
    await page.goto(`${s.base}/`);
    await page.getByRole('navigation', { name: 'Services' }).getByRole('link', { name: 'API docs' }).click();
    await page.getByRole('link', { name: 'Hedged-Significance Corpus' }).last().click();
    await page.waitForURL(/\/api\/corpus$/);
    expect(await page.locator('h2 code').allTextContents()).toContain('GET /corpus/api/v1/excerpts');
    await screenshot(page, 'api-corpus');
    expect(errors).toEqual([]);
  });
});
