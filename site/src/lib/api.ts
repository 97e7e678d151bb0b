/**
 * API calls of server-rendered pages. They go through `Astro.locals.api` (api-dynamic's own routes, called in
 * process), never through a second implementation, so a page shows what the API answers for the same query.
 */
import type { ErrorBody } from '../../../contracts/common/errors.ts';
import type { ApiAnswer, ApiCall } from '../../../api-dynamic/src/plugins/site.ts';

export type { ApiAnswer, ApiCall };
export type Api = <T = unknown>(path: string, call?: ApiCall) => Promise<ApiAnswer<T>>;

/** The page's API function; null when the page is rendered outside api-dynamic (then answer `unavailable()`). */
export function apiOf(locals: App.Locals): Api | null {
  return locals.api ?? null;
}

/** The answer of a page that needs the API but runs without it (e.g. `astro dev` alone). */
export function unavailable(): Response {
  return new Response('This page is rendered by the API server (npm start); it is not available here.', {
    status: 503,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}

/** True when an answer is the shared error body (any 4xx/5xx from the API). */
export function isError(answer: ApiAnswer): answer is ApiAnswer<ErrorBody> {
  return answer.status >= 400 && typeof answer.body === 'object' && answer.body !== null && 'code' in answer.body;
}
