/**
 * Where a URL of the service lives in the static bundle. A frozen API document has no extension in its URL
 * (`/frame/api/v1/stats/summary`); the bundle stores it as `<path>.json`, so that every static host serves it
 * with a JSON content type from the extension alone, and so that a document whose path is also the prefix of
 * others (`/corpus/api/v1/phrases` and `/corpus/api/v1/phrases/{phrase}`) can sit beside its folder. The
 * generated host configuration maps the extension-less URL onto that file (docs/static-hosting.md).
 */

/** The bundle file of a frozen API document's URL path. */
export function apiDocumentFile(urlPath: string): string {
  const rel = urlPath.replace(/^\/+/, '');
  return rel.endsWith('.json') ? rel : `${rel}.json`;
}

/** The URL path a page file of the Astro build answers (`frame/stats/index.html` → `/frame/stats/`). */
export function pageUrl(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file}`;
}

/** The bundle file of a page URL path (`/frame/cohort` → `frame/cohort/index.html`). */
export function pageFile(urlPath: string): string {
  const rel = urlPath.replace(/^\/+|\/+$/g, '');
  return rel === '' ? 'index.html' : `${rel}/index.html`;
}
