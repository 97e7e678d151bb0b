/**
 * The OpenAPI 3.1 document of the corpus service, generated from the zod schemas the routes parse with and
 * the contract test checks responses against.
 */
import { z } from 'zod';
import { errorBodySchema } from '../common/errors.ts';
import { noParams } from '../common/query.ts';
import { ARTICLE_ID_PATTERN } from './article-id.ts';
import { excerptParamsSchema } from './excerpts-query.ts';
import { CORPUS_RESPONSES } from './responses.ts';

const QUERIES: Record<keyof typeof CORPUS_RESPONSES, z.ZodObject> = {
  '/api/v1/stats': noParams,
  '/api/v1/phrases': noParams,
  '/api/v1/phrases/{phrase}': noParams,
  '/api/v1/excerpts': excerptParamsSchema,
  '/api/v1/articles/{pmcid}': noParams,
};

const DESCRIPTIONS: Record<keyof typeof CORPUS_RESPONSES, string> = {
  '/api/v1/stats': 'Corpus totals, the band split (occurrences and sentences per band) and the median p-value over exact values of verified occurrences.',
  '/api/v1/phrases': 'Every verified phrase (at least one verified occurrence) with its counts, most verified first.',
  '/api/v1/phrases/{phrase}':
    'One phrase of the lexicon (case and spacing forgiven): its counts (verified per band, rejected, unverified, articles) over the corpus and per publication year. 404 for a phrase not in the lexicon.',
  '/api/v1/excerpts':
    'Hedged sentences matching every filter given; without band and status, verified occurrences only. band and status may be repeated. q: words and "quoted phrases", all required, trailing * for a prefix. Exact total.',
  '/api/v1/articles/{pmcid}': 'One article and all its hedged sentences. PMC123, pmc123 and 123 name the same article; articles without a PMCID use their nopmc- id.',
};

const queryParameters = (query: z.ZodObject, multi: readonly string[]) => {
  const input = z.toJSONSchema(query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(input.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: input.required?.includes(name) ?? false,
    ...(multi.includes(name) ? { explode: true, style: 'form' } : {}),
    schema,
  }));
};

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });

export function corpusOpenApi(prefix: string, version: string) {
  const error = { description: 'Error', content: { 'application/json': { schema: json(errorBodySchema) } } };
  const paths: Record<string, unknown> = {};
  for (const [path, response] of Object.entries(CORPUS_RESPONSES)) {
    const key = path as keyof typeof CORPUS_RESPONSES;
    paths[`${prefix}${path}`] = {
      get: {
        description: DESCRIPTIONS[key],
        parameters: [
          ...(path.includes('{pmcid}')
            ? [{ name: 'pmcid', in: 'path', required: true, schema: { type: 'string', pattern: ARTICLE_ID_PATTERN } }]
            : []),
          ...(path.includes('{phrase}')
            ? [{ name: 'phrase', in: 'path', required: true, description: 'a canonical phrase of the lexicon', schema: { type: 'string', maxLength: 200 } }]
            : []),
          ...queryParameters(QUERIES[key], ['band', 'status']),
        ],
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
    info: { title: 'Hedged-Significance Corpus', version, license: { name: 'CC-BY-4.0 (data), MIT (code)' } },
    paths,
  };
}
