/**
 * The corpus pages in a real Chromium: an excerpt search through the form with band filters gives the API's
 * total for the address it lands on; a result opens its article page at the sentence; the phrase table sorts
 * in place with buttons (aria-sort, the address follows) and, with JavaScript off, through its links; nothing
 * errors in the console. Screenshots: corpus, corpus-excerpts, corpus-article, corpus-phrases.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ArticleDoc, PhrasesDoc, StatsDoc } from '../../contracts/corpus/documents.ts';
import type { ExcerptsResponse } from '../../contracts/corpus/responses.ts';
import { type BrowserSite, describeBrowser, openBrowserSite, screenshot } from '../helpers/browser.ts';
import type { SiteServer } from '../helpers/site-server.ts';

describeBrowser('corpus pages in Chromium', () => {
  let s: SiteServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let site: BrowserSite;
  beforeAll(async () => {
    site = await openBrowserSite();
    ({ s, browser, page, errors } = site);
  }, 180_000);
  afterAll(() => site?.close());

  it('shows the corpus overview with the band split', async () => {
    const stats = await s.json<StatsDoc>('/corpus/api/v1/stats');
    await page.goto(`${s.base}/corpus`);
    expect(await page.locator('h1').innerText()).toBe('Hedged-Significance Corpus');
    const band = page.getByRole('table', { name: 'Band split' }).locator('tr[data-band="0.06-0.08"] td.num');
    expect(await band.allInnerTexts()).toEqual(
      [stats.bands.find((b) => b.band === '0.06-0.08')!.occurrences, stats.bands.find((b) => b.band === '0.06-0.08')!.excerpts].map((n) =>
        n.toLocaleString('en-CA'),
      ),
    );
    expect(await page.getByRole('group', { name: /Band split/ }).count()).toBe(1);
    await screenshot(page, 'corpus');
  });

  it('searches the excerpts through the form with two bands and a phrase: the total is the API’s', async () => {
    const phrases = await s.json<PhrasesDoc>('/corpus/api/v1/phrases');
    const phrase = phrases.phrases[0]!.phrase;
    await page.goto(`${s.base}/corpus/excerpts`);
    await page.getByLabel('Hedging phrase').selectOption(phrase);
    await page
      .getByRole('group', { name: 'Band of the p-value' })
      .getByLabel(/^0\.06-0\.08/)
      .check();
    await page
      .getByRole('group', { name: 'Band of the p-value' })
      .getByLabel(/^0\.08-0\.10/)
      .check();
    await page.getByLabel('Order').selectOption('p_asc');
    await Promise.all([page.waitForURL(/\/corpus\/excerpts\?/), page.getByRole('button', { name: 'Search' }).click()]);
    const url = new URL(page.url());
    expect(url.searchParams.get('phrase')).toBe(phrase);
    expect(url.searchParams.getAll('band')).toEqual(['0.06-0.08', '0.08-0.10']);
    const expected = await s.json<ExcerptsResponse>(`/corpus/api/v1/excerpts${url.search}`);
    expect(expected.meta.total).toBeGreaterThan(0);
    expect(await page.locator('p.total').getAttribute('data-total')).toBe(String(expected.meta.total));
    expect(await page.locator('p.total strong').innerText()).toBe(expected.meta.total.toLocaleString('en-CA'));
    expect(await page.locator('article.excerpt').evaluateAll((ns) => ns.map((n) => n.getAttribute('data-excerpt-id')))).toEqual(
      expected.results.map((i) => i.id),
    );
    // The form keeps the choices.
    expect(
      await page
        .getByRole('group', { name: 'Band of the p-value' })
        .getByLabel(/^0\.06-0\.08/)
        .isChecked(),
    ).toBe(true);
    expect(await page.getByLabel('Hedging phrase').inputValue()).toBe(phrase);
    await screenshot(page, 'corpus-excerpts');
  });

  it('opens an article page from a result, at its sentence', async () => {
    const first = page.locator('article.excerpt').first();
    const excerptId = (await first.getAttribute('data-excerpt-id'))!;
    const articleId = excerptId.slice(0, excerptId.lastIndexOf('/'));
    const doc = await s.json<ArticleDoc>(`/corpus/api/v1/articles/${articleId}`);
    await Promise.all([page.waitForURL(new RegExp(`/corpus/articles/${articleId}#s-`)), first.locator('p.source a').first().click()]);
    expect(await page.locator('h1').innerText()).toBe(doc.title ?? doc.pmcid);
    expect(await page.locator('article.excerpt').count()).toBe(doc.excerpt_count);
    const target = page.locator('article.excerpt:target');
    expect(await target.getAttribute('data-excerpt-id')).toBe(excerptId);
    expect(await target.isVisible()).toBe(true);
    const e = doc.excerpts.find((x) => x.id === excerptId)!;
    expect(await target.locator('mark.hl-phrase').allInnerTexts()).toEqual(
      [...e.occurrences].sort((a, b) => a.start - b.start).map((o) => e.text.slice(o.start, o.end)),
    );
    await screenshot(page, 'corpus-article');
  });

  const rowsOf = (p: Page) => p.locator('tbody tr[data-phrase]').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-phrase')));

  it('sorts the phrase table in place with header buttons, aria-sort and the address following', async () => {
    const { phrases } = await s.json<PhrasesDoc>('/corpus/api/v1/phrases');
    const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    await page.goto(`${s.base}/corpus/phrases`);
    expect(await rowsOf(page)).toEqual(phrases.map((p) => p.phrase));
    // The script turned the header links into buttons.
    const articles = page.getByRole('button', { name: 'Articles', exact: true });
    expect(await page.locator('thead a.sort').count()).toBe(0);
    await articles.click();
    expect(await rowsOf(page)).toEqual([...phrases].sort((a, b) => b.articles - a.articles || byCode(a.phrase, b.phrase)).map((p) => p.phrase));
    expect(await page.locator('th[data-key="articles"]').getAttribute('aria-sort')).toBe('descending');
    expect(await page.locator('th[aria-sort]').count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/corpus/phrases/articles-desc');
    expect(await page.locator('caption').innerText()).toBe('Verified phrases, sorted by Articles (largest first)');
    // Keyboard: the same button again, by Enter, reverses the order.
    await articles.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('th[data-key="articles"]').getAttribute('aria-sort')).toBe('ascending');
    expect(await rowsOf(page)).toEqual([...phrases].sort((a, b) => a.articles - b.articles || byCode(a.phrase, b.phrase)).map((p) => p.phrase));
    await page.getByRole('button', { name: 'Phrase', exact: true }).click();
    expect(await rowsOf(page)).toEqual(phrases.map((p) => p.phrase).sort(byCode));
    // The address it left is a page with the same order.
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/corpus/phrases/phrase-asc');
    expect(await rowsOf(page)).toEqual(phrases.map((p) => p.phrase).sort(byCode));
    await page.getByRole('button', { name: 'Verified', exact: true }).click();
    expect(await rowsOf(page)).toEqual(phrases.map((p) => p.phrase));
    expect(new URL(page.url()).pathname).toBe('/corpus/phrases');
    await screenshot(page, 'corpus-phrases');
    expect(errors).toEqual([]);
  });

  it('works with JavaScript off: the headings are links to the sorted pages, the search form submits', async () => {
    const context: BrowserContext = await browser.newContext({ javaScriptEnabled: false });
    try {
      const p = await context.newPage();
      const { phrases } = await s.json<PhrasesDoc>('/corpus/api/v1/phrases');
      await p.goto(`${s.base}/corpus/phrases`);
      await Promise.all([p.waitForURL(/\/corpus\/phrases\/articles-desc$/), p.locator('th[data-key="articles"] a').click()]);
      const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      expect(await rowsOf(p)).toEqual([...phrases].sort((a, b) => b.articles - a.articles || byCode(a.phrase, b.phrase)).map((x) => x.phrase));
      expect(await p.locator('th[data-key="articles"]').getAttribute('aria-sort')).toBe('descending');

      await p.goto(`${s.base}/corpus/excerpts`);
      await p.getByRole('group', { name: 'Band of the p-value' }).getByLabel(/^ns/).check();
      await p.getByLabel('Words in the sentence').fill('trend');
      await Promise.all([p.waitForURL(/band=ns/), p.getByRole('button', { name: 'Search' }).click()]);
      const expected = await s.json<ExcerptsResponse>(`/corpus/api/v1/excerpts${new URL(p.url()).search}`);
      expect(await p.locator('p.total').getAttribute('data-total')).toBe(String(expected.meta.total));
    } finally {
      await context.close();
    }
  });
});
