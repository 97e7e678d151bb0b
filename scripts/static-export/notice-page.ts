/**
 * Pages the static bundle writes itself, in the site's own layout: a prerendered page of the site is the
 * template (its header, navigation, footer and stylesheets), with its `<main>` and `<title>` replaced. No
 * inline style or script is added, so the pages keep the site's content security policy.
 */
import { errorBody } from '../../contracts/common/errors.ts';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `template` (a prerendered page's HTML) with another title and main content. */
export function pageInLayout(template: string, title: string, mainHtml: string): string {
  const main = /(<main\b[^>]*>)[\s\S]*(<\/main>)/;
  if (!main.test(template)) throw new Error('the template page has no <main> element');
  return template
    .replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(main, (_, open: string, close: string) => `${open}${mainHtml}${close}`);
}

export interface NoticeContext {
  /** The dynamic origin (`--api-origin`), or null for a static-only copy. */
  apiOrigin: string | null;
  snapshotId: string;
}

/** The page at a path that needs the dynamic layer: a link to it on the live origin, or the static notice. */
export function dynamicPageNotice(template: string, path: string | null, c: NoticeContext): string {
  const what = path ? `<code>${escapeHtml(path)}</code>` : 'This page';
  if (c.apiOrigin) {
    const target = `${c.apiOrigin}${path ?? '/'}`;
    return pageInLayout(
      template,
      'Open on the live service',
      `<h1>This page runs on the live service</h1>
<p>${what} is computed for each request (a search, a cohort, an assessment), so this static copy of the site does
not hold it. The live service answers it, from snapshot <code>${escapeHtml(c.snapshotId)}</code> or a newer one.</p>
<p><a href="${escapeHtml(target)}">Open ${path ? escapeHtml(path) : 'it'} on ${escapeHtml(c.apiOrigin)}</a></p>
<p><a href="/">Back to the home page</a></p>`,
    );
  }
  return pageInLayout(
    template,
    'Static copy: this page needs the live service',
    `<h1>This copy of the site is static</h1>
<p>${what} is computed for each request (a search, a cohort, an assessment), and this copy of the site was
published as static files only, without the live service behind it. What was precomputed is here: the pages of
statistics (and of the corpus, where the snapshot has one), and the API's frozen documents with its OpenAPI documents.</p>
<p>To use this page, run the service itself (<code>npm ci &amp;&amp; npm start</code> in the project's repository
serves every page and API from the same snapshot, <code>${escapeHtml(c.snapshotId)}</code>), or ask whoever
published this copy for the address of their live service.</p>
<p><a href="/">Back to the home page</a></p>`,
  );
}

/** The page a static host answers for a path it has nothing at. */
export function notFoundPage(template: string): string {
  return pageInLayout(
    template,
    'Page not found',
    `<h1>Page not found</h1>
<p>There is no page at this address in this copy of the site. Check the address, or start again from the
<a href="/">home page</a>.</p>`,
  );
}

/** The JSON body (the shared error shape) of a dynamic API path on a static-only copy. */
export function staticApiBody(): string {
  return JSON.stringify(
    errorBody(
      'NOT_FOUND',
      'This is a static copy of the service: it holds the frozen documents (statistics, phrases, articles, work records, ' +
        'OpenAPI documents) but not the answers computed per request (cohorts, exports, excerpt search, permalinks, FAIR ' +
        'assessments). Send this request to the live service.',
    ),
  );
}
