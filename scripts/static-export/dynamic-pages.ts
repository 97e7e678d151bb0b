/**
 * The site's pages that need the dynamic layer: every page under site/src/pages that says
 * `export const prerender = false`. Read from the page sources, so a new server-rendered page is known to the
 * static export without a second list to keep in step.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface DynamicPage {
  /** The page's source, relative to site/src/pages (e.g. `frame/q/[hash].astro`). */
  source: string;
  /** Its URL path with the parameters as `*` (one segment) or `**` (any rest), e.g. `/frame/q/*`. */
  pattern: string;
  /** true when the pattern has no parameter: one URL, which the bundle can hold a page for. */
  fixed: boolean;
  /** The same as a regular expression over the URL path (an optional trailing slash allowed). */
  regex: string;
}

const PRERENDER_FALSE = /export\s+const\s+prerender\s*=\s*false/;

/** Every file below `dir`, by its path. */
export function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The URL pattern of a page file: `index` names its folder, `[x]` one segment, `[...x]` the rest. */
export function pagePattern(source: string): { pattern: string; regex: string } {
  const parts = source
    .replace(/\.astro$/, '')
    .split('/')
    .filter((p, i, all) => !(p === 'index' && i === all.length - 1));
  const pattern = `/${parts.map((p) => (/^\[\.\.\..+\]$/.test(p) ? '**' : /^\[.+\]$/.test(p) ? '*' : p)).join('/')}`;
  const regex = `^${pattern
    .split('/')
    .map((p) => (p === '**' ? '.+' : p === '*' ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')}/?$`;
  return { pattern, regex };
}

/** Every server-rendered page of the site whose sources are in `pagesDir`, sorted by pattern. */
export function dynamicPages(pagesDir: string): DynamicPage[] {
  return walk(pagesDir)
    .filter((f) => f.endsWith('.astro') && PRERENDER_FALSE.test(readFileSync(f, 'utf8')))
    .map((f) => {
      const source = relative(pagesDir, f).split(sep).join('/');
      const { pattern, regex } = pagePattern(source);
      return { source, pattern, regex, fixed: !pattern.includes('*') };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}
