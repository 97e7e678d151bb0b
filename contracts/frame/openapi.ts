/**
 * The OpenAPI 3.1 document of the frame service, generated from the same zod schemas the routes parse with
 * and the tests check responses against.
 */
import { z } from 'zod';
import { errorBodySchema } from '../common/errors.ts';
import { networkQuerySchema, noParams, workQuerySchema } from './params.ts';
import { FRAME_RESPONSES } from './responses.ts';
import { screenedQuerySchema } from './screened.ts';

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
};

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });

export function frameOpenApi(prefix: string, version: string) {
  const error = { description: 'Error', content: { 'application/json': { schema: json(errorBodySchema) } } };
  const paths: Record<string, unknown> = {};
  for (const [path, response] of Object.entries(FRAME_RESPONSES)) {
    const query = QUERIES[path as keyof typeof FRAME_RESPONSES];
    const input = z.toJSONSchema(query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
    const parameters = [
      ...(path.includes('{id}') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^W[1-9][0-9]{0,14}$' } }] : []),
      ...Object.entries(input.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: input.required?.includes(name) ?? false, schema })),
    ];
    paths[`${prefix}${path}`] = {
      get: {
        parameters,
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: json(response) } } },
          '304': { description: 'Not modified (If-None-Match matched the ETag)' },
          '400': error,
          '404': error,
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Research Cohort Query Service', version, license: { name: 'CC-BY-4.0 (data), MIT (code)' } },
    paths,
  };
}
