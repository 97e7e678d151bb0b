/**
 * The body of `POST /fair/api/v1/assess` (seed 000 "Assessment request body"): one zod schema, used by the
 * route to parse and by the OpenAPI document to describe it, and `parseAssessRequest`, which turns every
 * way a body can be wrong into a 400 that names the field and what it allows (DECISIONS.md §3, §6).
 *
 * Strict like the query strings: an unknown field, at the top or in `options`, is an error, never ignored.
 * The accepted metric versions belong to the engine (its metric files), so they are passed in rather than
 * listed here; this module stays free of imports from the server.
 */
import { z } from 'zod';
import { ApiError, type ErrorDetail } from '../common/errors.ts';

/** Longest identifier accepted, after trimming (a URL rarely exceeds 2 000 characters). */
export const MAX_IDENTIFIER_LENGTH = 2048;

/** Default metric version (seed 000 "Versioning"). */
export const DEFAULT_METRIC_VERSION = 'metrics_v0.8';

/** Fields of the body and of `options`, in the order the documentation gives them. */
export const REQUEST_FIELDS = ['identifier', 'options'] as const;
export const OPTION_FIELDS = ['use_registry', 'use_code_host', 'metric_version'] as const;

export const assessOptionsBodySchema = z
  .strictObject({
    /** Use the DOI registry (DataCite content negotiation and REST API) for DOIs. Default true. */
    use_registry: z.boolean().default(true).meta({ description: 'Use the DOI registry (DataCite) for DOI resolution and metadata.' }),
    /** Harvest repository metadata and licence from the code host (GitHub). Default false; the software metrics always do. */
    use_code_host: z
      .boolean()
      .default(false)
      .meta({ description: 'Harvest repository metadata and licence from GitHub (metrics_v0.7_software always does, and also reads the repository files).' }),
    /** Metric version to assess against; `metrics_v0.8` (default), `metrics_v0.5` or `metrics_v0.7_software`; `0.8` works too. */
    metric_version: z.string().default(DEFAULT_METRIC_VERSION).meta({
      description:
        'Metric version: metrics_v0.8 (default) or metrics_v0.5 for research data, metrics_v0.7_software (FAIR4RS) for a GitHub repository; "0.8" and "metrics_v0.8.yaml" name the same version.',
    }),
  })
  .meta({ description: 'All optional; the object may be omitted.' });

export const assessRequestSchema = z.strictObject({
  /** DOI (bare, doi:, https://doi.org/…), Handle, ARK, PURL, URN, w3id, identifiers.org id or http(s) URL. */
  identifier: z
    .string()
    .trim()
    .min(1)
    .max(MAX_IDENTIFIER_LENGTH)
    .meta({ description: 'DOI, URL or other persistent identifier of the object (trimmed, 1 to 2048 characters).', examples: ['10.1594/PANGAEA.902845'] }),
  options: assessOptionsBodySchema.prefault({}),
});

/** A parsed request: identifier trimmed, options filled with their defaults, metric version canonical. */
export interface AssessRequest {
  identifier: string;
  options: { use_registry: boolean; use_code_host: boolean; metric_version: string };
}

/** What the engine accepts as metric versions (its metric files). */
export interface MetricVersions {
  /** Canonical names, e.g. `metrics_v0.8`, `metrics_v0.5`, `metrics_v0.7_software`. */
  accepted: readonly string[];
  /** The canonical name a request's value names, or null (e.g. `0.8` → `metrics_v0.8`). */
  canonical(requested: string): string | null;
}

const EXAMPLE = '{"identifier": "10.1594/PANGAEA.902845"}';

function fail(code: 'INVALID_PARAMETER' | 'UNKNOWN_PARAMETER' | 'MISSING_PARAMETER', message: string, detail: ErrorDetail): never {
  throw new ApiError(code, message, [detail]);
}

const typeName = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/**
 * Parses the JSON value of a request body. Throws ApiError 400: MISSING_PARAMETER without `identifier`,
 * UNKNOWN_PARAMETER for a field that does not exist (naming it and the allowed ones), INVALID_PARAMETER for a
 * wrong type, an empty or over-long identifier, or a metric version the engine does not have (listing them).
 */
export function parseAssessRequest(body: unknown, versions: MetricVersions): AssessRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    fail('INVALID_PARAMETER', `The request body must be a JSON object such as ${EXAMPLE}, not ${typeName(body)}.`, {
      parameter: 'body',
      message: 'must be a JSON object',
    });
  const raw = body as Record<string, unknown>;
  // Field names first, so an unknown field is reported as such even when other fields are wrong too.
  const unknown = Object.keys(raw).filter((k) => !(REQUEST_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0)
    fail('UNKNOWN_PARAMETER', `Unknown field "${unknown[0]!.slice(0, 60)}" in the request body. Allowed fields: ${REQUEST_FIELDS.join(', ')}.`, {
      parameter: unknown[0]!.slice(0, 60),
      message: 'unknown field',
      allowed: [...REQUEST_FIELDS],
    });
  if (!Object.hasOwn(raw, 'identifier') || raw.identifier === undefined)
    fail('MISSING_PARAMETER', `The request body has no "identifier": send a DOI, URL or other persistent identifier, e.g. ${EXAMPLE}.`, {
      parameter: 'identifier',
      message: 'required',
    });
  if (typeof raw.identifier !== 'string')
    fail('INVALID_PARAMETER', `"identifier" must be a string (a DOI, URL or other persistent identifier), not ${typeName(raw.identifier)}.`, {
      parameter: 'identifier',
      message: 'must be a string',
    });
  const identifier = raw.identifier.trim();
  if (identifier === '')
    fail('INVALID_PARAMETER', `"identifier" is empty: send a DOI, URL or other persistent identifier, e.g. ${EXAMPLE}.`, {
      parameter: 'identifier',
      message: 'must not be empty',
    });
  if (identifier.length > MAX_IDENTIFIER_LENGTH)
    fail('INVALID_PARAMETER', `"identifier" is ${identifier.length} characters long; at most ${MAX_IDENTIFIER_LENGTH} are accepted.`, {
      parameter: 'identifier',
      message: `at most ${MAX_IDENTIFIER_LENGTH} characters`,
    });

  const options = raw.options;
  if (options !== undefined) {
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      fail('INVALID_PARAMETER', `"options" must be an object with any of ${OPTION_FIELDS.join(', ')}, not ${typeName(options)}.`, {
        parameter: 'options',
        message: 'must be an object',
        allowed: [...OPTION_FIELDS],
      });
    const names = Object.keys(options);
    const extra = names.find((k) => !(OPTION_FIELDS as readonly string[]).includes(k));
    if (extra !== undefined)
      fail('UNKNOWN_PARAMETER', `Unknown option "${extra.slice(0, 60)}". Allowed options: ${OPTION_FIELDS.join(', ')}.`, {
        parameter: `options.${extra.slice(0, 60)}`,
        message: 'unknown option',
        allowed: [...OPTION_FIELDS],
      });
    const o = options as Record<string, unknown>;
    for (const flag of ['use_registry', 'use_code_host'] as const)
      if (o[flag] !== undefined && typeof o[flag] !== 'boolean')
        fail('INVALID_PARAMETER', `"options.${flag}" must be true or false, not ${typeName(o[flag])}.`, {
          parameter: `options.${flag}`,
          message: 'must be a boolean',
          allowed: ['true', 'false'],
        });
    if (o.metric_version !== undefined && typeof o.metric_version !== 'string')
      fail('INVALID_PARAMETER', `"options.metric_version" must be a string, one of ${versions.accepted.join(', ')}.`, {
        parameter: 'options.metric_version',
        message: 'must be a string',
        allowed: [...versions.accepted],
      });
  }

  // Everything the checks above let through satisfies the schema; parsing fills the defaults.
  const parsed = assessRequestSchema.parse({ identifier, ...(options === undefined ? {} : { options }) });
  const metricVersion = versions.canonical(parsed.options.metric_version);
  if (metricVersion === null)
    fail('INVALID_PARAMETER', `Unknown metric_version "${parsed.options.metric_version.slice(0, 60)}"; accepted: ${versions.accepted.join(', ')}.`, {
      parameter: 'options.metric_version',
      message: 'unknown metric version',
      allowed: [...versions.accepted],
    });
  return { identifier: parsed.identifier, options: { ...parsed.options, metric_version: metricVersion } };
}
