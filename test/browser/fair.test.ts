/**
 * The FAIR pages in a real Chromium: the form is filled in and submitted, and the scorecard shows the total
 * score the API gives for the same identifier (PANGAEA 902845 replayed by the mock resolver; skipped with a
 * printed reason when ../shared/reference/fair-fixtures is absent); while a slow assessment runs the page
 * says so; an unresolvable identifier is a 422 page naming it. Screenshots: fair-form, fair-result.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AssessmentResult } from '../../contracts/fair/assessment.ts';
import { type BrowserSite, describeBrowser, openBrowserSite, screenshot } from '../helpers/browser.ts';
import { PANGAEA_ZIP } from '../helpers/fair-app.ts';
import { replayRoutes } from '../helpers/fair-mock-resolver.ts';
import type { SiteServer } from '../helpers/site-server.ts';
import { needShared } from '../helpers/needs.ts';

const haveFixtures = needShared('reference/fair-fixtures', 'the FAIR browser test that assesses PANGAEA 902845');
const PANGAEA = '10.1594/PANGAEA.902845';

describeBrowser('FAIR pages in Chromium', () => {
  let s: SiteServer;
  let page: Page;
  let errors: string[];
  let site: BrowserSite;
  beforeAll(async () => {
    site = await openBrowserSite();
    ({ s, page, errors } = site);
    if (haveFixtures) s.fairMock.route(...replayRoutes('pangaea', s.fairMock.base), PANGAEA_ZIP);
    // A landing page that takes its time, so the progress message can be seen.
    s.fairMock.route({
      path: '/slow.example/dataset',
      delayMs: 1500,
      headers: { 'content-type': 'text/html' },
      body: '<!doctype html><html><head><title>A dataset</title></head><body>A dataset.</body></html>',
    });
  }, 180_000);
  afterAll(() => site?.close());

  it.skipIf(!haveFixtures)('fills in the form and shows the scorecard with the API’s total score', async () => {
    await page.goto(`${s.base}/fair`);
    await page.getByLabel('Identifier', { exact: true }).fill(PANGAEA);
    expect(await page.getByLabel('Metric version').inputValue()).toBe('metrics_v0.8');
    expect(await page.getByLabel('Use the DOI registry').isChecked()).toBe(true);
    expect(await page.getByLabel('Harvest from the code host').isChecked()).toBe(false);
    await screenshot(page, 'fair-form');
    const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Assess' }).click()]);
    expect(response!.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/fair/assess');
    // The API's answer for the same identifier, from another reader (X-Forwarded-For is not trusted here,
    // so this counts against the same address; the limit of 10 is far off).
    const r = await fetch(`${s.base}/fair/api/v1/assess`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: PANGAEA }),
    });
    const expected = (await r.json()) as AssessmentResult;
    const overall = page.locator('p.overall');
    expect(await overall.getAttribute('data-score-earned')).toBe(String(expected.summary.scoreEarned));
    expect(await overall.innerText()).toContain(`${expected.summary.scoreEarned} of ${expected.summary.scoreTotal} points, ${expected.summary.scorePercent}%`);
    expect(await page.locator('li.card[data-principle="R"]').innerText()).toContain(`${expected.summary.reusability}%`);
    expect(await page.locator('tr[data-metric]').count()).toBe(expected.metrics.length);
    // A failed metric's reasons are open to read.
    const failed = expected.metrics.find((m) => m.status === 'fail')!;
    const reason = expected.details.metrics.find((m) => m.id === failed.id)!.tests.find((t) => t.status === 'fail')!.reason;
    expect(await page.getByText(reason).isVisible()).toBe(true);
    // The form is there again, filled in.
    expect(await page.getByLabel('Identifier', { exact: true }).inputValue()).toBe(PANGAEA);
    await screenshot(page, 'fair-result');
  });

  it('says the assessment is running while it runs', async () => {
    await page.goto(`${s.base}/fair`);
    await page.getByLabel('Identifier', { exact: true }).fill(`${s.fairMock.base}/slow.example/dataset`);
    const navigation = page.waitForNavigation({ timeout: 60_000 });
    // Submitted and read from inside the page: the next page only arrives once the assessment is done, and
    // Playwright's own actions would wait for it.
    const seen = await page.evaluate(
      () =>
        new Promise<{ text: string; disabled: boolean }>((resolve) => {
          const button = document.querySelector<HTMLButtonElement>('[data-assess-submit]')!;
          button.click();
          setTimeout(() => resolve({ text: document.querySelector('[data-assess-progress]')!.textContent ?? '', disabled: button.disabled }), 200);
        }),
    );
    expect(seen.text).toContain('Assessing');
    expect(seen.text).toContain('slow.example/dataset');
    expect(seen.disabled).toBe(true);
    const response = await navigation;
    expect(response!.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toContain('slow.example/dataset');
  });

  it('an identifier that cannot be resolved is a 422 page that names it, with the form filled in', async () => {
    await page.goto(`${s.base}/fair`);
    await page.getByLabel('Identifier', { exact: true }).fill('10.9999/does-not-exist');
    await page.getByLabel('Harvest from the code host').check();
    const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Assess' }).click()]);
    expect(response!.status()).toBe(422);
    const alert = page.getByRole('alert');
    expect(await alert.locator('h2').innerText()).toBe('The identifier could not be resolved');
    expect(await alert.innerText()).toContain('"10.9999/does-not-exist"');
    expect(await page.getByLabel('Identifier', { exact: true }).inputValue()).toBe('10.9999/does-not-exist');
    expect(await page.getByLabel('Harvest from the code host').isChecked()).toBe(true);
    // The document's own 422 is what Chromium reports; nothing else may have failed.
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});
