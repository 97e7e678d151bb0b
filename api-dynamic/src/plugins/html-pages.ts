/**
 * Errors and indexes as pages for a browser. A request whose Accept header prefers HTML over JSON (what a
 * browser sends for a link or the address bar) gets a 4xx as a page in the site's layout, with the message
 * and links back; every other client (fetch's default `*∕*`, `Accept: application/json`, curl, the site's own
 * in-process API calls) keeps the JSON error body. The site plugin fills in `render` when a site build exists;
 * without one every answer stays JSON.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../../../contracts/common/errors.ts';

/** The Astro page that renders an error from `locals.httpError` (site/src/pages/http-error.astro). */
export const ERROR_PAGE = '/http-error';

export interface HttpErrorLocals {
  status: number;
  body: ErrorBody;
  /** The path that was asked for (without the query string). */
  path: string;
}

export interface HtmlPages {
  /**
   * Answers the request with the site page at `path` (its own status), the reply hijacked; extra locals reach
   * the page. Null until the site plugin registers.
   */
  render: ((request: FastifyRequest, reply: FastifyReply, path: string, locals?: { httpError?: HttpErrorLocals }) => void) | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    htmlPages: HtmlPages;
  }
}

/** The quality the Accept header gives a media type (its best matching range), or -1 when none matches. */
function quality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  for (const range of accept.split(',')) {
    const [name = '', ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    if (name !== type && name !== `${major}/*` && name !== '*/*') continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    // An exact type outranks a wildcard of the same quality (RFC 9110 §12.5.1): a tiny bonus breaks the tie.
    if (Number.isFinite(value)) best = Math.max(best, value + (name === type ? 1e-6 : 0));
  }
  return best;
}

/** True when the client prefers an HTML page to JSON (a browser), false for API clients and no header. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = quality(accept, 'text/html');
  return html > 0 && html > quality(accept, 'application/json');
}

/** Whether this error answer should be a page: a GET or HEAD from a browser, a 4xx, and a site to render it. */
export function wantsErrorPage(request: FastifyRequest, status: number, pages: HtmlPages): boolean {
  return (
    pages.render !== null && status >= 400 && status < 500 && (request.method === 'GET' || request.method === 'HEAD') && prefersHtml(request.headers.accept)
  );
}
