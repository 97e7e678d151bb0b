/**
 * Every link lands: each link of the work pages (the most cited, prerendered, and server-rendered ones), of every
 * rendered guide under /docs and of the frame's statistics pages is followed, and answers 2xx (after redirects);
 * a link with a fragment finds that id on the page it lands on. Links to other origins are not followed (the
 * fixture is synthetic, so the pages link no identifier outward).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiteServer, STATS_PAGES, startSiteServer } from '../helpers/site-server.ts';

let s: SiteServer;
beforeAll(async () => {
  s = await startSiteServer();
}, 600_000);
afterAll(async () => s?.close());

const GUIDES = readdirSync(join(import.meta.dirname, '..', '..', 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `/docs/${f.replace(/\.md$/, '')}`);
const STATS = STATS_PAGES;

/** The same-origin links of a page, absolute, with their fragments. */
async function linksOf(path: string): Promise<URL[]> {
  const r = await s.get(path);
  expect(r.status, path).toBe(200);
  const base = new URL(path, s.base);
  return DomUtils.findAll((n) => n.name === 'a' && n.attribs.href !== undefined, parseDocument(r.text).children)
    .map((a) => new URL(a.attribs.href!, base))
    .filter((u) => u.origin === base.origin);
}

/** Follows every link of the pages once: the ones that do not land, as `page → link: why`. */
async function deadLinks(pages: readonly string[]): Promise<string[]> {
  const from = new Map<string, string>();
  for (const page of pages) for (const u of await linksOf(page)) if (!from.has(u.href)) from.set(u.href, page);
  const answers = new Map<string, { status: number; ids: Set<string> | null }>();
  const dead: string[] = [];
  for (const [href, page] of from) {
    const u = new URL(href);
    const target = `${u.pathname}${u.search}`;
    let answer = answers.get(target);
    if (!answer) {
      const r = await fetch(new URL(target, s.base), { headers: { accept: 'text/html' } });
      const html = (r.headers.get('content-type') ?? '').startsWith('text/html') ? await r.text() : null;
      if (!html) await r.body?.cancel();
      answer = {
        status: r.status,
        ids: html === null ? null : new Set(DomUtils.findAll((n) => n.attribs.id !== undefined, parseDocument(html).children).map((n) => n.attribs.id!)),
      };
      answers.set(target, answer);
    }
    if (answer.status < 200 || answer.status > 299) dead.push(`${page} → ${target}: ${answer.status}`);
    else if (u.hash && answer.ids && !answer.ids.has(decodeURIComponent(u.hash.slice(1)))) dead.push(`${page} → ${target}${u.hash}: no such id`);
  }
  expect(from.size).toBeGreaterThan(pages.length);
  return dead;
}

describe('every link lands', () => {
  it('on the work pages: prerendered (the most cited) and rendered on request', async () => {
    const top = await s.json<{ results: { id: string }[] }>('/frame/api/v1/cohort?per_page=20');
    const tail = await s.json<{ results: { id: string }[] }>('/frame/api/v1/cohort?per_page=2&sort=year_asc');
    expect(await deadLinks([...top.results, ...tail.results].map((w) => `/frame/works/${w.id}`))).toEqual([]);
  }, 300_000);

  it('on every rendered guide under /docs', async () => {
    expect(GUIDES).toContain('/docs/api-frame');
    expect(await deadLinks(GUIDES)).toEqual([]);
  }, 300_000);

  it('on the statistics pages', async () => {
    expect(await deadLinks(STATS)).toEqual([]);
  }, 300_000);
});
