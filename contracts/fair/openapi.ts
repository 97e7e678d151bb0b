/**
 * The OpenAPI 3.1 document of the FAIR Assessment Service, generated from the zod schemas the route parses
 * with (request.ts) and the contract test checks responses against (responses.ts).
 */
import { z } from 'zod';
import { errorBodySchema } from '../common/errors.ts';
import { assessRequestSchema, MAX_IDENTIFIER_LENGTH } from './request.ts';
import { FAIR_RESPONSES } from './responses.ts';

const json = (schema: z.ZodType, io: 'input' | 'output' = 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** The rate-limit headers every `/assess` response carries once the caller is known (docs/api-fair.md). */
const RATE_HEADERS = {
  'X-RateLimit-Limit': integerHeader('Assessments per window in the caller\'s tier (anonymous 10, API key 100 by default).'),
  'X-RateLimit-Remaining': integerHeader('Assessments left in the current window.'),
  'X-RateLimit-Reset': integerHeader('Whole seconds until the window ends (at least 1).'),
};

/**
 * @param prefix the service root, e.g. `/fair`
 * @param version the API version, `1`
 * @param metricVersions the metric versions the engine accepts (canonical names)
 */
export function fairOpenApi(prefix: string, version: string, metricVersions: readonly string[]) {
  const errorSchema = json(errorBodySchema);
  const error = (description: string, headers: Record<string, unknown> = RATE_HEADERS) => ({
    description,
    headers,
    content: { 'application/json': { schema: errorSchema } },
  });
  const requestSchema = json(assessRequestSchema, 'input') as unknown as { properties: { options: { properties: { metric_version: Record<string, unknown> } } } };
  // The accepted versions come from the engine's metric files; aliases (0.8, metrics_v0.8.yaml) are accepted too.
  requestSchema.properties.options.properties.metric_version.examples = [...metricVersions];
  return {
    openapi: '3.1.0',
    info: {
      title: 'FAIR Assessment Service',
      version,
      description:
        'Assesses how well a research data object follows the FAIR principles (F-UJI metrics v0.8 and v0.5). Anonymous callers get 10 assessments an hour per client address; "Authorization: Bearer <API key>" gets 100.',
      license: { name: 'MIT (code)' },
    },
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key made with npm run fair:keys -- add NAME; optional.' } },
    },
    paths: {
      [`${prefix}/api/v1/assess`]: {
        post: {
          description: `Assess one identifier (DOI, URL or other persistent identifier, at most ${MAX_IDENTIFIER_LENGTH} characters) against a metric version (${metricVersions.join(', ')}). No query parameters. Body at most 16 KiB, Content-Type application/json.`,
          security: [{}, { apiKey: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: requestSchema } } },
          responses: {
            '200': {
              description: 'The assessment result (Cache-Control: no-store).',
              headers: RATE_HEADERS,
              content: { 'application/json': { schema: json(FAIR_RESPONSES['/api/v1/assess']) } },
            },
            '400': error('Invalid request: missing identifier, malformed JSON, wrong Content-Type, unknown field or option, unknown metric version, a query parameter, or a bad Authorization header.'),
            '413': error('The body is over 16 KiB.', {}),
            '422': error(
              "The identifier's fault (code RESOLUTION_FAILED; the message quotes the identifier and says which step failed): it is not an identifier, its resolver does not know it, or its landing page does not exist, refuses, does not answer or answers an HTTP error.",
            ),
            '429': error('Rate limit exceeded (code RATE_LIMITED).', {
              ...RATE_HEADERS,
              'Retry-After': integerHeader('Seconds until the window ends and requests are counted again.'),
            }),
            '500': error('Internal error (code INTERNAL_ERROR).'),
            '502': error('The F-UJI backend failed to assess the identifier (FAIR_BACKEND=fuji; code ASSESSMENT_FAILED).'),
            '503': error(
              'Ours, never counted (code UPSTREAM_UNAVAILABLE; the message names the service): the rate-limit store, the identifier resolver, DataCite, the code host or the F-UJI backend cannot be reached, times out or answers 5xx.',
              { ...RATE_HEADERS, 'Retry-After': integerHeader('Seconds after which trying again is worth it (30).') },
            ),
          },
        },
      },
      [`${prefix}/api/v1/health`]: {
        get: {
          description: 'API status (healthy, degraded, unhealthy) with reasons, and whether the assessment backend (the DOI resolver, or the F-UJI server) answers; the probes are reused for 30 s. Not rate-limited. No query parameters.',
          responses: {
            '200': {
              description: 'healthy or degraded (Cache-Control: no-store); `reasons` says why when degraded',
              content: { 'application/json': { schema: json(FAIR_RESPONSES['/api/v1/health']) } },
            },
            '503': {
              description: 'unhealthy: the rate-limit counters cannot be reached, so no assessment can be made; the same health body',
              content: { 'application/json': { schema: json(FAIR_RESPONSES['/api/v1/health']) } },
            },
            '400': error('A query parameter was given.', {}),
          },
        },
      },
    },
  };
}
