/**
 * A client of each service generated from its OpenAPI document (openapi-typescript, into ./generated/, which
 * test/api-dynamic/openapi-client.test.ts writes before type-checking this file strictly with
 * ./tsconfig.json) and used through openapi-fetch: one call per operation, numbers passed as numbers and
 * booleans as booleans, as a user's script would. Kept out of the root tsconfig: ./generated/ exists only
 * during the test.
 */
import createClient from 'openapi-fetch';
import type { paths as CorpusPaths } from './generated/corpus.ts';
import type { paths as FairPaths } from './generated/fair.ts';
import type { paths as FramePaths } from './generated/frame.ts';

/** What a call got: its operation, status, and a number read from the typed answer where there is one. */
export interface Call {
  operationId: string;
  status: number;
  value?: number | string | boolean | null | undefined;
}

export async function frameCalls(baseUrl: string): Promise<Call[]> {
  const c = createClient<FramePaths>({ baseUrl });
  const calls: Call[] = [];
  const add = (operationId: string, response: Response, value?: Call['value']) =>
    calls.push({ operationId, status: response.status, ...(value === undefined ? {} : { value }) });

  const summary = await c.GET('/frame/api/v1/stats/summary');
  add('getStatsSummary', summary.response, summary.data?.works);
  add('getStatsLabels', (await c.GET('/frame/api/v1/stats/labels')).response);
  add('getStatsByRoute', (await c.GET('/frame/api/v1/stats/by-route')).response);
  add('getStatsByYear', (await c.GET('/frame/api/v1/stats/by-year')).response);
  add('getStatsByField', (await c.GET('/frame/api/v1/stats/by-field')).response);
  add('getFindings', (await c.GET('/frame/api/v1/findings')).response);
  add('getPredictions', (await c.GET('/frame/api/v1/predictions')).response);

  const cohort = await c.GET('/frame/api/v1/cohort', {
    params: { query: { route_aff: true, year_from: 2015, year_to: 2030, cited_min: 0, per_page: 2, page: 1, sort: 'year_desc' } },
  });
  add('getCohort', cohort.response, cohort.data?.meta.total);
  const first = cohort.data?.results[0]?.id ?? 'W1';
  // Keyset paging: the next page through the cursor the first page returned.
  const cursor = cohort.data?.meta.next_cursor;
  if (cursor)
    add(
      'getCohort',
      (await c.GET('/frame/api/v1/cohort', { params: { query: { route_aff: true, year_from: 2015, year_to: 2030, per_page: 2, sort: 'year_desc', cursor } } }))
        .response,
    );

  const work = await c.GET('/frame/api/v1/works/{id}', { params: { path: { id: first } } });
  add('getWork', work.response, work.data?.id);
  const works = await c.GET('/frame/api/v1/works', { params: { query: { route: 'aff', n_in: 0, per_page: 3 } } });
  add('listWorks', works.response, works.data?.meta.total);
  const facets = await c.GET('/frame/api/v1/cohort/facets', { params: { query: { facet: 'year', route_aff: true } } });
  add('getCohortFacets', facets.response);
  const exported = await c.GET('/frame/api/v1/cohort/export', { params: { query: { route: 'aff', lang: 'fr', format: 'csv' } }, parseAs: 'text' });
  add('exportCohort', exported.response, exported.response.headers.get('X-Export-Rows'));
  const minted = await c.POST('/frame/api/v1/permalink', { params: { query: { route_aff: true, year_from: 2015 } } });
  add('createPermalink', minted.response, minted.data?.total);
  const hash = minted.data?.hash ?? '0000000000000000';
  const resolved = await c.GET('/frame/api/v1/permalink/{hash}', { params: { path: { hash } } });
  add('getPermalink', resolved.response, resolved.data?.total);
  // Minted on the snapshot being served: nothing entered or left.
  const changes = await c.GET('/frame/api/v1/permalink/{hash}/changes', { params: { path: { hash }, query: { per_page: 5 } } });
  add('getPermalinkChanges', changes.response, changes.data?.meta.per_page);
  const snapshots = await c.GET('/frame/api/v1/snapshots');
  add('listSnapshots', snapshots.response, snapshots.data?.served.id ?? null);
  add('suggestVenues', (await c.GET('/frame/api/v1/facets/venue', { params: { query: { q: 'jo' } } })).response);
  add('suggestTopics', (await c.GET('/frame/api/v1/facets/topic', { params: { query: { q: 'ca' } } })).response);
  add('suggestAuthors', (await c.GET('/frame/api/v1/facets/author', { params: { query: { q: 'ma' } } })).response);
  const screened = await c.GET('/frame/api/v1/screened', { params: { query: { contested_only: true, n_in: 2, page: 1, per_page: 5 } } });
  add('getScreened', screened.response, screened.data?.meta.total);
  add('getNetwork', (await c.GET('/frame/api/v1/network')).response);
  const recent = await c.GET('/frame/api/v1/recent', { params: { query: { days: 15, has_abstract: false, per_page: 5 } } });
  add('listRecent', recent.response, recent.data?.meta.days);
  add('getRecentWork', (await c.GET('/frame/api/v1/recent/{id}', { params: { path: { id: 'W999999999999' } } })).response);
  return calls;
}

export async function corpusCalls(baseUrl: string): Promise<Call[]> {
  const c = createClient<CorpusPaths>({ baseUrl });
  const calls: Call[] = [];
  const stats = await c.GET('/corpus/api/v1/stats');
  calls.push({ operationId: 'getCorpusStats', status: stats.response.status });
  const phrases = await c.GET('/corpus/api/v1/phrases');
  calls.push({ operationId: 'listPhrases', status: phrases.response.status });
  const phrase = phrases.data?.phrases[0]?.phrase;
  const excerpts = await c.GET('/corpus/api/v1/excerpts', {
    params: { query: { ...(phrase ? { phrase } : {}), band: ['0.05-0.06', 'ns'], status: ['verified'], page: 1, per_page: 2 } },
  });
  calls.push({ operationId: 'listExcerpts', status: excerpts.response.status, value: excerpts.data?.meta.total });
  // Years as integers and p-values as numbers, as the document types them.
  const ranged = await c.GET('/corpus/api/v1/excerpts', { params: { query: { year_from: 1990, year_to: 2030, p_min: 0.05, p_max: 0.5, per_page: 1 } } });
  calls.push({ operationId: 'listExcerpts', status: ranged.response.status, value: ranged.data?.meta.query.year_from ?? null });
  const byYear = await c.GET('/corpus/api/v1/phrases/{phrase}', { params: { path: { phrase: phrase ?? 'trend toward significance' } } });
  calls.push({ operationId: 'getPhrase', status: byYear.response.status });
  const pmcid = excerpts.data?.results[0]?.article.pmcid ?? 'PMC1';
  const article = await c.GET('/corpus/api/v1/articles/{pmcid}', { params: { path: { pmcid } } });
  calls.push({ operationId: 'getArticle', status: article.response.status, value: article.data?.pmcid ?? null });
  return calls;
}

export async function fairCalls(baseUrl: string): Promise<Call[]> {
  const c = createClient<FairPaths>({ baseUrl });
  const health = await c.GET('/fair/api/v1/health');
  const assess = await c.POST('/fair/api/v1/assess', {
    body: { identifier: '10.1594/PANGAEA.902845', options: { use_registry: true, use_code_host: false, metric_version: 'metrics_v0.8' } },
  });
  return [
    { operationId: 'getHealth', status: health.response.status, value: health.data?.assessmentBackend },
    { operationId: 'assess', status: assess.response.status, value: assess.error?.code ?? null },
  ];
}
