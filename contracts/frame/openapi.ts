/**
 * The OpenAPI 3.1 document of the frame service, generated from the same zod schemas the routes parse with
 * and the tests check responses against. Operation texts live in OPERATIONS (one place); parameter texts in
 * the query schemas' `.meta()`; examples are real answers of the sample build (./openapi-examples.json,
 * written by `npm run openapi:examples` and checked by test/api-dynamic/openapi-examples.test.ts).
 */
import { z } from 'zod';
import {
  BUILT_HEADERS,
  COMMON_HEADERS,
  errorResponse,
  type HeaderName,
  headerRefs,
  jsonResponse,
  jsonSchema,
  notModified,
  openApiDocument,
  pathParameter,
  queryParameters,
} from '../common/openapi.ts';
import { changesQuerySchema, facetQuerySchema, networkQuerySchema, noParams, workQuerySchema } from './params.ts';
import { EXPORT_CAP, surfaceSchema, SURFACE_REQUIRED, type Surface } from './cohort-query.ts';
import { FRAME_RESPONSES, permalinkResponse } from './responses.ts';
import { screenedQuerySchema } from './screened.ts';
import { recentParamsSchema } from './recent.ts';
import { examplesOf, type RecordedExamples } from '../common/openapi-examples.ts';
import recorded from './openapi-examples.json' with { type: 'json' };

type Path = keyof typeof FRAME_RESPONSES;

export interface Operation {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
}

const TAGS = [
  { name: 'Statistics', description: 'Frozen summaries of the frame, computed by the pipeline for the pinned snapshot.' },
  { name: 'Works', description: 'Single work records and the works list.' },
  { name: 'Cohort', description: 'Filter the frame into a cohort: pages, counts per facet, exports and permalinks; one vocabulary for all.' },
  { name: 'Typeahead', description: 'Suggestions for the exact-valued filters (venue, topic, author).' },
  { name: 'Screening', description: 'The stratified screening sample, with design-weighted estimates.' },
  { name: 'Network', description: 'Co-authorship network of researchers with Canadian-affiliated work.' },
  { name: 'Recent', description: 'The rolling live layer of recently published works, apart from the frozen frame.' },
] as const;

const PAGING_RULES =
  'Offset paging (page, per_page) reaches result 10,000; beyond, follow meta.next_cursor with cursor= (keyset paging, not with page). sort=relevance needs q.';
const LABEL_RULES =
  'label_source, prediction_mode and agreement qualify category and design: prediction_mode=consensus needs label_source=predicted, agreement=all needs direct labels, and without category or design they change nothing.';

/** Every operation of the document: id, tag, summary and description, in one place. */
export const OPERATIONS: Record<Path | '/api/v1/cohort/export' | '/api/v1/permalink', Operation> = {
  '/api/v1/stats/summary': {
    operationId: 'getStatsSummary',
    tag: 'Statistics',
    summary: 'Frame totals',
    description: 'Works in the frame, per route, without a Canadian affiliation, without an abstract, retracted, screened, and the screening consensus.',
  },
  '/api/v1/stats/labels': {
    operationId: 'getStatsLabels',
    tag: 'Statistics',
    summary: 'Direct label counts',
    description: 'Works per metaresearch category and design (any model, all models), per year and language, with the coverage of the direct labels.',
  },
  '/api/v1/stats/by-route': {
    operationId: 'getStatsByRoute',
    tag: 'Statistics',
    summary: 'Works per route',
    description: 'The four routes into the frame (affiliation, funder, venue, about Canada): marginals and every combination.',
  },
  '/api/v1/stats/by-year': {
    operationId: 'getStatsByYear',
    tag: 'Statistics',
    summary: 'Works per year',
    description: 'Works per publication year, with those without a Canadian affiliation and without an abstract.',
  },
  '/api/v1/stats/by-field': {
    operationId: 'getStatsByField',
    tag: 'Statistics',
    summary: 'Works per field',
    description: 'Works per primary field, with the route split.',
  },
  '/api/v1/findings': {
    operationId: 'getFindings',
    tag: 'Statistics',
    summary: 'Published findings',
    description: 'The findings of the snapshot as published with it.',
  },
  '/api/v1/predictions': {
    operationId: 'getPredictions',
    tag: 'Statistics',
    summary: 'Prediction report',
    description: 'The report of the label predictions (teachers, agreement, coverage) published with the snapshot.',
  },
  '/api/v1/works/{id}': {
    operationId: 'getWork',
    tag: 'Works',
    summary: 'One work',
    description:
      'The full record of one work of the frame: bibliographic fields, routes, screening and labels. abstract=1 adds the abstract, fetched live (abstract_unavailable says why when it cannot be).',
  },
  '/api/v1/works': {
    operationId: 'listWorks',
    tag: 'Works',
    summary: 'Works list',
    description: `Works matching the filters (a subset of the cohort vocabulary), a page at a time. The total is counted up to 10,000 (meta.total_is_capped beyond). ${PAGING_RULES}`,
  },
  '/api/v1/cohort': {
    operationId: 'getCohort',
    tag: 'Cohort',
    summary: 'Cohort page',
    description: `The works matching every filter, a page at a time, with the exact total and the query hash. ${PAGING_RULES} ${LABEL_RULES} year_from must not be after year_to; route and route_* must not contradict each other.`,
  },
  '/api/v1/cohort/facets': {
    operationId: 'getCohortFacets',
    tag: 'Cohort',
    summary: 'Cohort facet counts',
    description: `Counts of one facet (required) within the cohort the filters select. ${LABEL_RULES}`,
  },
  '/api/v1/cohort/export': {
    operationId: 'exportCohort',
    tag: 'Cohort',
    summary: 'Cohort export',
    description: `The cohort as CSV (default), CSV for Excel (format=csv-excel: a UTF-8 byte order mark and the provenance lines # snapshot, # query, # permalink, # exported at, # rows before the header) or JSON, streamed in the requested sort order, at most ${EXPORT_CAP.toLocaleString('en')} rows; truncation is declared in meta.truncated (JSON), a trailing # TRUNCATED line (CSV) and the X-Export-Truncated header. No paging parameters. ${LABEL_RULES}`,
  },
  '/api/v1/permalink': {
    operationId: 'createPermalink',
    tag: 'Cohort',
    summary: 'Mint a permalink',
    description:
      'Mints (idempotently) the permalink of the filters given in the query string: 201 when minted now, 200 when it existed. The filters go in the query string; a request body is a 400.',
  },
  '/api/v1/permalink/{hash}': {
    operationId: 'getPermalink',
    tag: 'Cohort',
    summary: 'Resolve a permalink',
    description: 'The filters a permalink names, the snapshot it was minted on, and the counts on the snapshot served now.',
  },
  '/api/v1/facets/venue': {
    operationId: 'suggestVenues',
    tag: 'Typeahead',
    summary: 'Venue suggestions',
    description: 'Venues whose name contains the text, most works first, for the venue filter.',
  },
  '/api/v1/facets/topic': {
    operationId: 'suggestTopics',
    tag: 'Typeahead',
    summary: 'Topic suggestions',
    description: 'Topics whose name contains the text, most works first, for the topic filter.',
  },
  '/api/v1/facets/author': {
    operationId: 'suggestAuthors',
    tag: 'Typeahead',
    summary: 'Author suggestions',
    description: 'Authors whose name matches every term, for the author_id filter.',
  },
  '/api/v1/screened': {
    operationId: 'getScreened',
    tag: 'Screening',
    summary: 'Screening sample',
    description:
      'The screened rows a page at a time, with the sample summary and design-weighted (Horvitz–Thompson) estimates. contested_only=1 cannot be combined with n_in=0.',
  },
  '/api/v1/network': {
    operationId: 'getNetwork',
    tag: 'Network',
    summary: 'Co-authorship network',
    description: 'The overview graph, or with author_id the neighbourhood of one researcher (404 when the researcher has no Canadian-affiliated work).',
  },
  '/api/v1/permalink/{hash}/changes': {
    operationId: 'getPermalinkChanges',
    tag: 'Cohort',
    summary: 'What changed since a permalink was minted',
    description:
      'For a permalink minted on a retained older snapshot: how many works entered and left the cohort on the snapshot served now (new to the frame or now matching; removed from the frame or no longer matching), exactly, with the first page of each by work id. 410 once the minted snapshot is no longer kept.',
  },
  '/api/v1/snapshots': {
    operationId: 'listSnapshots',
    tag: 'Cohort',
    summary: 'Snapshots answered',
    description: 'The snapshot served by default and the retained older ones that snapshot= accepts, with whether each is loaded now.',
  },
  '/api/v1/recent': {
    operationId: 'listRecent',
    tag: 'Recent',
    summary: 'Recent works',
    description:
      'Works of the rolling live layer published in the window, filtered, with the exact total and the state of the last sync. Not cached by ETag: the layer changes when a sync succeeds (CDNs keep it five minutes).',
  },
  '/api/v1/recent/{id}': {
    operationId: 'getRecentWork',
    tag: 'Recent',
    summary: 'One recent work',
    description: 'One work of the recent layer with its route evidence and provenance.',
  },
};

const QUERIES: Record<Path, z.ZodObject> = {
  '/api/v1/stats/summary': noParams,
  '/api/v1/stats/labels': noParams,
  '/api/v1/stats/by-route': noParams,
  '/api/v1/stats/by-year': noParams,
  '/api/v1/stats/by-field': noParams,
  '/api/v1/findings': noParams,
  '/api/v1/predictions': noParams,
  '/api/v1/works/{id}': workQuerySchema,
  '/api/v1/screened': screenedQuerySchema,
  '/api/v1/network': networkQuerySchema,
  '/api/v1/cohort': surfaceSchema('cohort'),
  '/api/v1/cohort/facets': surfaceSchema('cohort_facets'),
  '/api/v1/works': surfaceSchema('works'),
  '/api/v1/facets/venue': facetQuerySchema,
  '/api/v1/facets/topic': facetQuerySchema,
  '/api/v1/facets/author': facetQuerySchema,
  '/api/v1/permalink/{hash}': noParams,
  '/api/v1/permalink/{hash}/changes': changesQuerySchema,
  '/api/v1/snapshots': noParams,
  '/api/v1/recent': recentParamsSchema,
  '/api/v1/recent/{id}': noParams,
};

const SURFACE_OF: Partial<Record<Path, Surface>> = { '/api/v1/cohort': 'cohort', '/api/v1/cohort/facets': 'cohort_facets', '/api/v1/works': 'works' };

/** Not a frozen build's answer: no ETag, so no 304 (the recent layer, routes/frame/recent.ts; the list of snapshots kept). */
const UNVERSIONED: readonly Path[] = ['/api/v1/recent', '/api/v1/recent/{id}', '/api/v1/snapshots'];

export function frameOpenApi(prefix: string, version: string) {
  const examples = examplesOf(recorded as RecordedExamples);
  // Path examples name a work and a permalink of the sample build (the permalink of route=aff&lang=fr, which
  // the examples mint), and snapshot= the sample's id, from the recorded answers.
  const WORK_ID = pathParameter(
    'id',
    '^W[1-9][0-9]{0,14}$',
    'Work id: W followed by digits.',
    examples.pathValue('getWork', '/works/{id}', 'id', 'W2000000001'),
  );
  const HASH = pathParameter(
    'hash',
    '^[0-9a-f]{16}$',
    'Permalink hash: 16 lower-case hex characters, as POST /permalink returns (the example is the permalink of route=aff&lang=fr on the sample snapshot).',
    examples.pathValue('getPermalink', '/permalink/{hash}', 'hash', '0123456789abcdef'),
  );
  const served = examples.ok('getStatsSummary') as { meta?: { snapshot?: { id?: string } } } | undefined;
  const built = served?.meta?.snapshot?.id ? { snapshot: served.meta.snapshot.id } : {};
  const paths: Record<string, unknown> = {};
  const op = (path: keyof typeof OPERATIONS) => {
    const { tag, ...rest } = OPERATIONS[path];
    return { tags: [tag], ...rest };
  };
  const errors = (id: string, notFound: boolean) => ({
    '400': errorResponse(
      'Invalid request: a parameter is unknown, repeated or has a value it does not allow (the body names it and what it allows).',
      COMMON_HEADERS,
      examples.error(id, 400),
    ),
    ...(notFound ? { '404': errorResponse('Not found.', COMMON_HEADERS, examples.error(id, 404)) } : {}),
  });
  for (const [path, response] of Object.entries(FRAME_RESPONSES) as [Path, z.ZodType][]) {
    const { operationId } = OPERATIONS[path];
    const surface = SURFACE_OF[path];
    const etag = !UNVERSIONED.includes(path);
    const headers: readonly HeaderName[] = etag ? BUILT_HEADERS : COMMON_HEADERS;
    paths[`${prefix}${path}`] = {
      get: {
        ...op(path),
        parameters: [
          ...(path.includes('{id}') ? [WORK_ID] : []),
          ...(path.includes('{hash}') ? [HASH] : []),
          ...queryParameters(QUERIES[path], { required: surface ? (SURFACE_REQUIRED[surface] ?? []) : [], examples: built }),
        ],
        responses: {
          '200': jsonResponse('OK', jsonSchema(response), headers, examples.ok(operationId)),
          ...(etag ? { '304': notModified(BUILT_HEADERS) } : {}),
          ...errors(operationId, path.includes('{') || path === '/api/v1/network'),
          // A snapshot answered from once and no longer kept (snapshot=, or the one a permalink was minted on).
          ...('snapshot' in QUERIES[path].shape || path.endsWith('/changes')
            ? {
                '410': errorResponse(
                  'Gone: the snapshot was answered from once and is no longer kept (code GONE; gone names it and the cited numbers).',
                  COMMON_HEADERS,
                ),
              }
            : {}),
        },
      },
    };
  }
  paths[`${prefix}/api/v1/cohort/export`] = {
    get: {
      ...op('/api/v1/cohort/export'),
      parameters: queryParameters(surfaceSchema('export'), { examples: built }),
      responses: {
        '200': {
          description: 'The export: CSV (text/csv) or JSON, as format asks.',
          headers: headerRefs([...COMMON_HEADERS, 'Content-Disposition', 'X-Cohort-Total', 'X-Export-Rows', 'X-Export-Truncated']),
          content: {
            'text/csv': { schema: { type: 'string', description: 'A header row, one row per work, and a final # TRUNCATED line when the cap was reached.' } },
            'application/json': {
              schema: { type: 'object', description: '{ meta, results }: meta names the filters, totals and truncation; results holds one object per work.' },
              example: examples.ok('exportCohort'),
            },
          },
        },
        ...errors('exportCohort', false),
        '410': errorResponse('Gone: the snapshot asked for was answered from once and is no longer kept (code GONE).', COMMON_HEADERS),
      },
    },
  };
  paths[`${prefix}/api/v1/permalink`] = {
    post: {
      ...op('/api/v1/permalink'),
      parameters: queryParameters(surfaceSchema('permalink'), { examples: built }),
      responses: {
        '200': jsonResponse('Already minted.', jsonSchema(permalinkResponse), [...COMMON_HEADERS, 'Location'], examples.ok('createPermalink')),
        '201': jsonResponse('Minted now.', jsonSchema(permalinkResponse), [...COMMON_HEADERS, 'Location']),
        ...errors('createPermalink', false),
      },
    },
  };
  return openApiDocument({
    title: 'Research Cohort Query Service',
    version,
    description:
      'Read API over the frame of Canadian research works in a pinned snapshot: statistics, work records, cohorts (filter, page, count, export, permalink), the screening sample, the co-authorship network and the rolling recent layer. Every parameter is checked: an unknown, repeated or invalid one is a 400 naming it and the values it allows. Prose guide: /docs/api-frame.',
    tags: TAGS,
    paths,
  });
}
