/**
 * The cohort builder, its permalink and a work page in a real Chromium: a cohort built with three filters
 * through the form's controls (one picked from the venue typeahead) shows the API's total live, before and
 * after submitting; the CSV export link downloads the cohort (as many rows as the API's total); "Make
 * permalink" leads to the permalink page with the same total and "Open in the cohort builder" restores the
 * form; a work page renders and loads its abstract. Nothing errors in the console (CSP violations included).
 * Screenshots: frame-cohort, frame-permalink, frame-work.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BrowserSite, describeBrowser, openBrowserSite, screenshot } from '../helpers/browser.ts';
import type { SiteServer } from '../helpers/site-server.ts';

interface Cohort {
  meta: {
    total: number;
    direct_labels_cover: number;
    predictions_cover: number;
    query: string;
    query_hash: string;
    snapshot: { id: string; synthetic: boolean };
  };
  results: { id: string; title: string; venue: string | null }[];
}
const fmt = (n: number) => n.toLocaleString('en-CA');

describeBrowser('cohort builder in Chromium', () => {
  let s: SiteServer;
  let page: Page;
  let errors: string[];
  let site: BrowserSite;
  beforeAll(async () => {
    site = await openBrowserSite();
    ({ s, page, errors } = site);
  }, 180_000);
  afterAll(() => site?.close());

  const cohort = (q: string) => s.json<Cohort>(`/frame/api/v1/cohort?${q}`);
  const shownTotal = () => page.locator('[data-cohort-total]').innerText();

  it('builds a cohort with three filters (one from the venue typeahead): the live and the submitted totals are the API’s', async () => {
    // A venue with a fair number of works, and its name typed in part.
    const venues = await s.json<{ results: { value: string; works: number }[] }>('/frame/api/v1/facets/venue?q=journal');
    const venue = venues.results[0]!.value;
    await page.goto(`${s.base}/frame/cohort`);
    const whole = await cohort('');
    expect(await shownTotal()).toBe(fmt(whole.meta.total));

    // 1. Venue through the typeahead: type part of the name, pick the suggestion with the keyboard.
    const venueBox = page.getByRole('combobox', { name: 'Venue', exact: true });
    await venueBox.click();
    await venueBox.pressSequentially(venue.slice(0, 6).toLowerCase(), { delay: 30 });
    const listbox = page.getByRole('listbox', { name: /Suggestions for Venue/ });
    await listbox.waitFor();
    const options = await listbox.getByRole('option').allInnerTexts();
    const index = options.findIndex((o) => o.startsWith(`${venue} (`));
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= index; i++) await venueBox.press('ArrowDown');
    await expect.poll(() => venueBox.getAttribute('aria-activedescendant')).toBe(`f-venue-listbox-${index}`);
    await venueBox.press('Enter');
    expect(await venueBox.inputValue()).toBe(venue);
    expect(await listbox.isHidden()).toBe(true);

    // 2. A route excluded, 3. a lower year bound.
    await page.getByLabel('Canadian affiliation').selectOption('0');
    await page.getByLabel('Year from').fill('2012');

    const q = new URLSearchParams({ year_from: '2012', venue, route_aff: '0' }).toString();
    const api = await cohort(q);
    // The live total (no reload) and the address follow the form.
    await expect.poll(shownTotal, { timeout: 5000 }).toBe(fmt(api.meta.total));
    await expect.poll(() => new URL(page.url()).searchParams.get('venue')).toBe(venue);
    expect(new URL(page.url()).searchParams.get('route_aff')).toBe('0');
    expect(await page.locator('[data-cohort-direct]').innerText()).toBe(fmt(api.meta.direct_labels_cover));
    // The works and the facet counts follow in place (the server-rendered page of the new query, swapped in).
    await expect.poll(() => page.locator('table.works tbody tr td.title a').first().innerText(), { timeout: 5000 }).toBe(api.results[0]!.title);
    expect(await page.locator('[data-stale]').isVisible()).toBe(false);

    // Submitting shows the server-rendered page of the same query (in place): the same total and the works.
    await Promise.all([page.waitForURL(/\/frame\/cohort\?/), page.getByRole('button', { name: 'Show cohort' }).click()]);
    await page.waitForLoadState('load');
    expect(await shownTotal()).toBe(fmt(api.meta.total));
    const rows = page.getByRole('table').first().locator('tbody tr');
    expect(await rows.count()).toBe(Math.min(25, api.meta.total));
    expect(await rows.first().getByRole('link').first().innerText()).toBe(api.results[0]!.title);
    await screenshot(page, 'frame-cohort');
  });

  it('shows a refused value as the API’s message while typing, then as the 400 page', async () => {
    const before = errors.length;
    await page.goto(`${s.base}/frame/cohort?lang=fr`);
    // A filter is set, so the filter panel starts closed: its one button opens it.
    await page.getByText(/^Filters \(1 set\)$/).click();
    await page.getByLabel('Year from').fill('2020');
    await page.getByLabel('Year to').fill('2010');
    const alert = page.locator('[data-cohort-live-error]');
    await expect.poll(() => alert.innerText(), { timeout: 5000 }).toContain('year_from');
    const response = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Show cohort' }).click()]).then(([r]) => r);
    expect(response?.status()).toBe(400);
    expect(await page.getByRole('alert').first().innerText()).toContain('year_from');
    expect(await page.getByLabel('Year to').inputValue()).toBe('2010');
    expect(await page.getByLabel('Language code').inputValue()).toBe('fr');
    // The 400s this test asked for (the live count's fetch and the page) are the only errors it caused.
    const expected = errors.splice(before);
    expect(expected.length).toBeGreaterThan(0);
    for (const e of expected)
      expect(e).toMatch(
        /status of 400|^400: .*\/frame\/api\/v1\/cohort\?year_from=2020&year_to=2010&lang=fr&per_page=1$|^400: .*\/frame\/cohort\?year_from=2020&year_to=2010&lang=fr$/,
      );
  });

  it('the author typeahead selects a researcher by id', async () => {
    const authors = await s.json<{ results: { id: string; name: string }[] }>('/frame/api/v1/facets/author?q=ma');
    const a = authors.results[0]!;
    await page.goto(`${s.base}/frame/cohort`);
    const box = page.getByRole('combobox', { name: 'Author name' });
    await box.click();
    await box.pressSequentially(a.name.split(' ')[0]!.slice(0, 4), { delay: 30 });
    const option = page.getByRole('option', { name: new RegExp(`^${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(${a.id},`) });
    await option.click();
    expect(await page.getByLabel('Author id').inputValue()).toBe(a.id);
    expect(await box.inputValue()).toBe('');
    const api = await cohort(`author_id=${a.id}`);
    await expect.poll(shownTotal, { timeout: 5000 }).toBe(fmt(api.meta.total));
  });

  it('the CSV export link downloads the cohort: as many rows as the API’s total', async () => {
    const q = 'route=no_aff&lang=fr';
    const api = await cohort(q);
    expect(api.meta.total).toBeGreaterThan(0);
    expect(api.meta.total).toBeLessThan(200);
    await page.goto(`${s.base}/frame/cohort?${q}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(
      `frame-cohort-${api.meta.query_hash}-${api.meta.snapshot.id}${api.meta.snapshot.synthetic ? '-synthetic' : ''}.csv`,
    );
    const csv = readFileSync((await download.path())!, 'utf8');
    // Count records, not lines: quoted cells may hold line breaks.
    const { parse } = await import('csv-parse/sync');
    const records = parse(csv, { comment: '#', relax_column_count: false }) as string[][];
    expect(records.length - 1).toBe(api.meta.total);
    expect(records.slice(1).map((r) => r[0])).toEqual(expect.arrayContaining(api.results.map((w) => w.id)));
  });

  it('permalink round trip: make it, the permalink page shows the same total, "Open in the cohort builder" restores the form', async () => {
    const q = 'year_from=2015&route_fund=1&abstract=has';
    const api = await cohort(q);
    await page.goto(`${s.base}/frame/cohort?${q}`);
    await Promise.all([page.waitForURL(/\/frame\/q\/[0-9a-f]{16}$/), page.getByRole('button', { name: 'Make permalink' }).click()]);
    expect(new URL(page.url()).pathname).toBe(`/frame/q/${api.meta.query_hash}`);
    expect(await page.locator('main p strong').first().innerText()).toBe(fmt(api.meta.total));
    expect(await page.locator('[data-citation]').innerText()).toContain(api.meta.query_hash);
    await screenshot(page, 'frame-permalink');
    await page.getByRole('link', { name: 'Open in the cohort builder' }).click();
    await page.waitForURL(/\/frame\/cohort\?/);
    expect(await shownTotal()).toBe(fmt(api.meta.total));
    expect(await page.getByLabel('Year from').inputValue()).toBe('2015');
    expect(await page.getByLabel('Canadian funder').inputValue()).toBe('1');
    expect(await page.getByLabel('Abstract', { exact: true }).inputValue()).toBe('has');
  });

  it('a work page shows the record and loads a screened work’s abstract in place', async () => {
    const screened = await s.json<{ results: { id: string }[] }>('/frame/api/v1/screened?per_page=20');
    let id = '';
    let abstract = '';
    for (const r of screened.results) {
      const w = await s.json<{ abstract: string | null }>(`/frame/api/v1/works/${r.id}?abstract=1`);
      if (w.abstract) {
        id = r.id;
        abstract = w.abstract;
        break;
      }
    }
    expect(id).not.toBe('');
    const work = await s.json<{ title: string; authors: { name: string }[] }>(`/frame/api/v1/works/${id}`);
    await page.goto(`${s.base}/frame/works/${id}`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(work.title);
    for (const a of work.authors.slice(0, 3)) expect(await page.getByRole('link', { name: a.name, exact: true }).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Load the abstract' }).click();
    await expect.poll(() => page.locator('[data-abstract-text]').innerText()).toContain(abstract.slice(0, 40));
    await screenshot(page, 'frame-work');
    expect(errors).toEqual([]);
  });
});
