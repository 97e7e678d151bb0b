/**
 * The requests whose answers are the examples of the OpenAPI documents, per operationId and status. Ids
 * (a work, a permalink, an article) are found in the build being asked, so the same table records the
 * examples from the sample build (scripts/openapi-examples.ts) and replays them on a test build
 * (test/api-dynamic/openapi-live.test.ts).
 */
import { EXAMPLE_ARRAY_ITEMS, EXAMPLE_ARRAY_MAX } from '../../contracts/common/openapi-examples.ts';

export interface ExampleRequest {
  method: 'GET' | 'POST';
  url: string;
  status: number;
  headers?: Record<string, string>;
  payload?: string;
}

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

export type Send = (request: Omit<ExampleRequest, 'status'>) => Promise<Answer>;

const get = (url: string, status = 200): ExampleRequest => ({ method: 'GET', url, status });

async function json(send: Send, url: string): Promise<Record<string, unknown>> {
  const res = await send({ method: 'GET', url });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} while looking for example ids`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** A 2-to-4-letter piece of a real value, so a typeahead example finds something. */
const piece = (value: unknown) =>
  String(value ?? 'ab')
    .toLowerCase()
    .replace(/[^a-z]/g, '')
    .slice(0, 4)
    .padEnd(2, 'a');

/** The frame's example requests (prefix `/frame`). */
export async function frameExampleRequests(send: Send, prefix = '/frame/api/v1'): Promise<Record<string, ExampleRequest[]>> {
  const cohort = (await json(send, `${prefix}/cohort?route=aff&per_page=1`)) as { results: { id: string; venue: string | null; topic: string | null }[] };
  const work = cohort.results[0]!;
  const record = (await json(send, `${prefix}/works/${work.id}`)) as { authors?: { display_name?: string; name?: string; id?: string }[] };
  const author = record.authors?.[0];
  const minted = await send({ method: 'POST', url: `${prefix}/permalink?route=aff&lang=fr` });
  const hash = (JSON.parse(minted.body) as { hash: string }).hash;
  const unknown = (url: string) => get(`${url}${url.includes('?') ? '&' : '?'}bogus=1`, 400);
  const plain = (path: string) => [get(`${prefix}${path}`), unknown(`${prefix}${path}`)];
  return {
    getStatsSummary: plain('/stats/summary'),
    getStatsLabels: plain('/stats/labels'),
    getStatsByRoute: plain('/stats/by-route'),
    getStatsByYear: plain('/stats/by-year'),
    getStatsByField: plain('/stats/by-field'),
    getFindings: plain('/findings'),
    getPredictions: plain('/predictions'),
    getWork: [get(`${prefix}/works/${work.id}`), get(`${prefix}/works/${work.id}?abstract=2`, 400), get(`${prefix}/works/W999999999999`, 404)],
    listWorks: [get(`${prefix}/works?route=aff&per_page=2`), get(`${prefix}/works?per_page=101`, 400)],
    getCohort: [get(`${prefix}/cohort?route=aff&year_from=2015&per_page=2`), get(`${prefix}/cohort?sort=relevance`, 400)],
    getCohortFacets: [get(`${prefix}/cohort/facets?facet=lang&route=aff`), get(`${prefix}/cohort/facets?route=aff`, 400)],
    exportCohort: [
      get(`${prefix}/cohort/export?route=aff&lang=fr&format=json`),
      get(`${prefix}/cohort/export?route=aff&lang=fr`),
      get(`${prefix}/cohort/export?page=2`, 400),
    ],
    createPermalink: [
      { method: 'POST', url: `${prefix}/permalink?route=aff&lang=fr`, status: 200 },
      { method: 'POST', url: `${prefix}/permalink`, status: 400, headers: { 'content-type': 'application/json' }, payload: '{"route":"aff","lang":"fr"}' },
    ],
    getPermalink: [get(`${prefix}/permalink/${hash}`), get(`${prefix}/permalink/xyz`, 400), get(`${prefix}/permalink/0000000000000000`, 404)],
    getPermalinkChanges: [
      get(`${prefix}/permalink/${hash}/changes?per_page=5`),
      get(`${prefix}/permalink/${hash}/changes?per_page=0`, 400),
      get(`${prefix}/permalink/0000000000000000/changes`, 404),
    ],
    listSnapshots: plain('/snapshots'),
    suggestVenues: [get(`${prefix}/facets/venue?q=${piece(work.venue)}`), get(`${prefix}/facets/venue?q=a`, 400)],
    suggestTopics: [get(`${prefix}/facets/topic?q=${piece(work.topic)}`), get(`${prefix}/facets/topic`, 400)],
    suggestAuthors: [get(`${prefix}/facets/author?q=${piece(author?.display_name ?? author?.name)}`), get(`${prefix}/facets/author?q=a`, 400)],
    getScreened: [get(`${prefix}/screened?per_page=2`), get(`${prefix}/screened?contested_only=1&n_in=0`, 400)],
    getNetwork: [get(`${prefix}/network`), get(`${prefix}/network?author_id=X1`, 400), get(`${prefix}/network?author_id=A999999999999`, 404)],
    listRecent: [get(`${prefix}/recent?per_page=2`), get(`${prefix}/recent?days=7`, 400)],
    getRecentWork: [get(`${prefix}/recent/X1`, 400), get(`${prefix}/recent/W999999999999`, 404)],
  };
}

/** The corpus's example requests (prefix `/corpus`). */
export async function corpusExampleRequests(send: Send, prefix = '/corpus/api/v1'): Promise<Record<string, ExampleRequest[]>> {
  const phrases = (await json(send, `${prefix}/phrases`)) as { phrases: { phrase: string }[] };
  const phrase = phrases.phrases[0]!.phrase;
  const excerpts = (await json(send, `${prefix}/excerpts?phrase=${encodeURIComponent(phrase)}&per_page=1`)) as { results: { article: { pmcid: string } }[] };
  const pmcid = excerpts.results[0]!.article.pmcid;
  return {
    getCorpusStats: [get(`${prefix}/stats`), get(`${prefix}/stats?bogus=1`, 400)],
    listPhrases: [get(`${prefix}/phrases`), get(`${prefix}/phrases?bogus=1`, 400)],
    listExcerpts: [get(`${prefix}/excerpts?phrase=${encodeURIComponent(phrase)}&per_page=2`), get(`${prefix}/excerpts?phrase=no%20such%20phrase`, 400)],
    getPhrase: [
      get(`${prefix}/phrases/${encodeURIComponent(phrase)}`),
      get(`${prefix}/phrases/${encodeURIComponent(phrase)}?bogus=1`, 400),
      get(`${prefix}/phrases/no%20such%20phrase`, 404),
    ],
    getArticle: [get(`${prefix}/articles/${pmcid}`), get(`${prefix}/articles/x-1`, 400), get(`${prefix}/articles/PMC999999999`, 404)],
  };
}

/**
 * The FAIR service's example requests (prefix `/fair`). Its upstreams are closed ports: a DOI's resolver cannot
 * be reached (503, ours), while text that is no identifier at all is the caller's (422).
 */
export function fairExampleRequests(prefix = '/fair/api/v1'): Record<string, ExampleRequest[]> {
  const assess = (payload: string, status: number): ExampleRequest => ({
    method: 'POST',
    url: `${prefix}/assess`,
    status,
    headers: { 'content-type': 'application/json' },
    payload,
  });
  return {
    getHealth: [get(`${prefix}/health`), get(`${prefix}/health?bogus=1`, 400)],
    assess: [
      assess('{"options":{"metric_version":"metrics_v0.8"}}', 400),
      assess('{"identifier":"not an identifier"}', 422),
      assess('{"identifier":"10.1594/PANGAEA.902845"}', 503),
    ],
  };
}

export const SERVICES = ['frame', 'corpus', 'fair'] as const;
export type Service = (typeof SERVICES)[number];

export async function serviceExampleRequests(service: Service, send: Send): Promise<Record<string, ExampleRequest[]>> {
  if (service === 'frame') return frameExampleRequests(send);
  if (service === 'corpus') return corpusExampleRequests(send);
  return fairExampleRequests();
}

/** Settings that keep the example server offline: the catalogue and the FAIR resolvers are a closed local port. */
export function exampleEnv(): Record<string, string> {
  const closed = 'http://127.0.0.1:9';
  return {
    CATALOGUE_URL: closed,
    FAIR_ALLOW_PRIVATE_ADDRESSES: 'true',
    ...Object.fromEntries(
      ['DOI_RESOLVER', 'HANDLE_RESOLVER', 'ARK_RESOLVER', 'NBN_RESOLVER', 'IDENTIFIERS_ORG', 'DATACITE_API', 'GITHUB_API'].map((k) => [
        `FAIR_${k}_URL`,
        closed,
      ]),
    ),
  };
}

/** A value as an example shows it: long arrays cut to their first items, at every depth. */
export function trimExample(value: unknown): unknown {
  if (Array.isArray(value)) return (value.length > EXAMPLE_ARRAY_MAX ? value.slice(0, EXAMPLE_ARRAY_ITEMS) : value).map(trimExample);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimExample(v)]));
  return value;
}

/** Sends an example request; throws unless it gets the expected status; the JSON body as an example, or null. */
export async function exampleAnswer(send: Send, request: ExampleRequest): Promise<unknown> {
  const { status, ...rest } = request;
  const res = await send(rest);
  if (res.statusCode !== status) throw new Error(`${request.method} ${request.url}: expected ${status}, got ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return String(res.headers['content-type'] ?? '').startsWith('application/json') ? trimExample(JSON.parse(res.body)) : null;
}
