/**
 * Where the three APIs and their pages live. The site is built once for the default prefixes of
 * api-dynamic's configuration (FRAME_PREFIX, CORPUS_PREFIX, FAIR_PREFIX); one place for the rule.
 */
export const FRAME_API = '/frame/api/v1';
export const CORPUS_API = '/corpus/api/v1';
export const FAIR_API = '/fair/api/v1';

/** The services, as the home page and the navigation list them. */
export const SERVICES = [
  { key: 'frame', name: 'Research Cohort Query', home: '/frame', api: FRAME_API },
  { key: 'corpus', name: 'Hedged-Significance Corpus', home: '/corpus', api: CORPUS_API },
  { key: 'fair', name: 'FAIR Assessment', home: '/fair', api: FAIR_API },
] as const;

/** A path with a query string, leaving out empty parameters (a form's blank fields). */
export function withQuery(path: string, params: URLSearchParams | Record<string, string | readonly string[] | undefined>): string {
  const q = new URLSearchParams();
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  for (const [k, v] of entries) {
    for (const x of typeof v === 'string' ? [v] : (v ?? [])) if (x !== '') q.append(k, x);
  }
  const s = q.toString();
  return s === '' ? path : `${path}?${s}`;
}
