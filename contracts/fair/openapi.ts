/**
 * The OpenAPI 3.1 document of the FAIR Assessment Service, generated from the zod schemas the route parses
 * with (request.ts) and the contract test checks responses against (responses.ts).
 */
import { COMMON_HEADERS, errorResponse, type HeaderName, jsonResponse, jsonSchema, openApiDocument } from '../common/openapi.ts';
import { examplesOf, type RecordedExamples } from '../common/openapi-examples.ts';
import { assessRequestSchema, MAX_IDENTIFIER_LENGTH } from './request.ts';
import { FAIR_RESPONSES } from './responses.ts';
import recorded from './openapi-examples.json' with { type: 'json' };

/** Headers of every FAIR answer (CORS exposes the rate-limit set to browser scripts). */
const FAIR_HEADERS = [...COMMON_HEADERS, 'Access-Control-Expose-Headers'] as const satisfies readonly HeaderName[];
/** The rate-limit headers every `/assess` response carries once the caller is known (docs/api-fair.md). */
const RATE_HEADERS = [...FAIR_HEADERS, 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const satisfies readonly HeaderName[];

const TAGS = [{ name: 'Assessment', description: 'FAIR assessment of research data objects and the state of the service.' }] as const;

/**
 * @param prefix the service root, e.g. `/fair`
 * @param version the API version, `1`
 * @param metricVersions the metric versions the engine accepts (canonical names)
 */
export function fairOpenApi(prefix: string, version: string, metricVersions: readonly string[]) {
  const examples = examplesOf(recorded as RecordedExamples);
  const requestSchema = jsonSchema(assessRequestSchema, 'input') as unknown as {
    properties: { options: { properties: { metric_version: Record<string, unknown> } } };
  };
  // The accepted versions come from the engine's metric files; aliases (0.8, metrics_v0.8.yaml, 0.7_software) are accepted too.
  requestSchema.properties.options.properties.metric_version.examples = [...metricVersions];
  const noQuery = (id: string) => errorResponse('A query parameter was given: this endpoint takes none.', FAIR_HEADERS, examples.error(id, 400));
  return openApiDocument({
    title: 'FAIR Assessment Service',
    version,
    description:
      'Assesses how well a research data object (F-UJI metrics v0.8 and v0.5) or a research software repository on GitHub (F-UJI metrics_v0.7_software, FAIR4RS) follows the FAIR principles. Anonymous callers get 10 assessments an hour per client address; "Authorization: Bearer <API key>" gets 100. Prose guide: /docs/api-fair.',
    tags: TAGS,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key made with npm run fair:keys -- add NAME; optional.' } },
    },
    paths: {
      [`${prefix}/api/v1/assess`]: {
        post: {
          tags: ['Assessment'],
          operationId: 'assess',
          summary: 'Assess one identifier',
          description: `Assess one identifier (DOI, URL or other persistent identifier, at most ${MAX_IDENTIFIER_LENGTH} characters) against a metric version (${metricVersions.join(', ')}; default metrics_v0.8; 0.8 and metrics_v0.8.yaml name the same version; metrics_v0.7_software assesses a GitHub repository from its files and always reads the code host). No query parameters. Body at most 16 KiB, Content-Type application/json; an unknown field is a 400. Rate-limited per caller (X-RateLimit-* headers).`,
          security: [{}, { apiKey: [] }],
          requestBody: {
            required: true,
            description: 'The identifier and, optionally, options.',
            content: {
              'application/json': {
                schema: requestSchema,
                example: {
                  identifier: '10.1594/PANGAEA.902845',
                  options: { use_registry: true, use_code_host: false, metric_version: metricVersions[0] ?? 'metrics_v0.8' },
                },
              },
            },
          },
          responses: {
            '200': jsonResponse(
              'The assessment result (Cache-Control: no-store).',
              jsonSchema(FAIR_RESPONSES['/api/v1/assess']),
              RATE_HEADERS,
              examples.ok('assess'),
            ),
            '400': errorResponse(
              'Invalid request: missing identifier, malformed JSON, wrong Content-Type, unknown field or option, unknown metric version, a query parameter, or a bad Authorization header.',
              RATE_HEADERS,
              examples.error('assess', 400),
            ),
            '413': errorResponse('The body is over 16 KiB.', FAIR_HEADERS),
            '422': errorResponse(
              "The identifier's fault (code RESOLUTION_FAILED; the message quotes the identifier and says which step failed): it is not an identifier, its resolver does not know it, or its landing page does not exist, refuses, does not answer or answers an HTTP error.",
              RATE_HEADERS,
              examples.error('assess', 422),
            ),
            '429': errorResponse('Rate limit exceeded (code RATE_LIMITED).', [...RATE_HEADERS, 'Retry-After']),
            '500': errorResponse('Internal error (code INTERNAL_ERROR).', RATE_HEADERS),
            '502': errorResponse('The F-UJI backend failed to assess the identifier (FAIR_BACKEND=fuji; code ASSESSMENT_FAILED).', RATE_HEADERS),
            '503': errorResponse(
              'Ours, never counted (code UPSTREAM_UNAVAILABLE; the message names the service): the rate-limit store, the identifier resolver, DataCite, the code host or the F-UJI backend cannot be reached, times out or answers 5xx. Retry-After says when trying again is worth it (30 s).',
              [...RATE_HEADERS, 'Retry-After'],
              examples.error('assess', 503),
            ),
          },
        },
      },
      [`${prefix}/api/v1/health`]: {
        get: {
          tags: ['Assessment'],
          operationId: 'getHealth',
          summary: 'Service health',
          description:
            'API status (healthy, degraded, unhealthy) with reasons, and whether the assessment backend (the DOI resolver, or the F-UJI server) answers; the probes are reused for 30 s. Not rate-limited. No query parameters.',
          responses: {
            '200': jsonResponse(
              'healthy or degraded (Cache-Control: no-store); `reasons` says why when degraded.',
              jsonSchema(FAIR_RESPONSES['/api/v1/health']),
              FAIR_HEADERS,
              examples.ok('getHealth'),
            ),
            '503': jsonResponse(
              'unhealthy: the rate-limit counters cannot be reached, so no assessment can be made; the same health body.',
              jsonSchema(FAIR_RESPONSES['/api/v1/health']),
              FAIR_HEADERS,
            ),
            '400': noQuery('getHealth'),
          },
        },
      },
    },
  });
}
