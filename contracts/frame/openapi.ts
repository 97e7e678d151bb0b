/**
 * The OpenAPI 3.1 document of the frame service, generated from the same zod schemas the routes parse with
 * and the tests check responses against.
 */
import { z } from 'zod';
import { errorBodySchema } from '../common/errors.ts';
import { changesQuerySchema, facetQuerySchema, networkQuerySchema, noParams, workQuerySchema } from './params.ts';
import { surfaceSchema } from './cohort-query.ts';
import { FRAME_RESPONSES, permalinkResponse } from './responses.ts';
import { screenedQuerySchema } from './screened.ts';
import { recentParamsSchema } from './recent.ts';

const QUERIES: Record<keyof typeof FRAME_RESPONSES, z.ZodObject> = {
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

const queryParameters = (query: z.ZodObject) => {
  const input = z.toJSONSchema(query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(input.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: input.required?.includes(name) ?? false, schema }));
};

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });

export function frameOpenApi(prefix: string, version: string) {
  const error = { description: 'Error', content: { 'application/json': { schema: json(errorBodySchema) } } };
  const paths: Record<string, unknown> = {};
  for (const [path, response] of Object.entries(FRAME_RESPONSES)) {
    const query = QUERIES[path as keyof typeof FRAME_RESPONSES];
    const parameters = [
      ...(path.includes('{id}') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^W[1-9][0-9]{0,14}$' } }] : []),
      ...(path.includes('{hash}') ? [{ name: 'hash', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{16}$' } }] : []),
      ...queryParameters(query),
    ];
    paths[`${prefix}${path}`] = {
      get: {
        parameters,
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: json(response) } } },
          '304': { description: 'Not modified (If-None-Match matched the ETag)' },
          '400': error,
          '404': error,
          // A snapshot answered from once and no longer kept (snapshot=, or the one a permalink was minted on).
          ...('snapshot' in query.shape || path.endsWith('/changes') ? { '410': error } : {}),
        },
      },
    };
  }
  paths[`${prefix}/api/v1/cohort/export`] = {
    get: {
      description: 'The cohort as CSV (default) or JSON, streamed in the requested sort order, at most 100,000 rows; truncation is declared in meta.truncated (JSON), a trailing # TRUNCATED line (CSV) and the X-Export-Truncated header.',
      parameters: queryParameters(surfaceSchema('export')),
      responses: {
        '200': { description: 'The export', content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } } },
        '400': error,
        '410': error,
      },
    },
  };
  paths[`${prefix}/api/v1/permalink`] = {
    post: {
      description: 'Mints (idempotently) the permalink of the filters given in the query string; no body.',
      parameters: queryParameters(surfaceSchema('permalink')),
      responses: {
        '200': { description: 'Already minted', content: { 'application/json': { schema: json(permalinkResponse) } } },
        '201': { description: 'Minted now', content: { 'application/json': { schema: json(permalinkResponse) } } },
        '400': error,
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Research Cohort Query Service', version, license: { name: 'CC-BY-4.0 (data), MIT (code)' } },
    paths,
  };
}
