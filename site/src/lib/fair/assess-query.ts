/**
 * The query string of the site's assessment page (`/fair/assess`) and the JSON body it becomes for
 * POST /fair/api/v1/assess. The page is a GET form (docs/site-fair.md says why); its four parameters are the
 * request body's fields, flattened:
 *
 * | parameter | body field | absent |
 * |---|---|---|
 * | `identifier` | `identifier` | left out (the API answers 400 MISSING_PARAMETER) |
 * | `metric_version` | `options.metric_version` | left out (the API's default) |
 * | `use_registry`, `use_code_host` | `options.<same>` (`true`/`false`) | left out (the API's default) |
 *
 * A checkbox sends nothing when unticked, so the form puts a hidden `false` before each checkbox's `true`:
 * the last value given wins, and a link without the parameter keeps the API's default. Everything else about
 * the request (an empty identifier, an unknown metric version) is the API's to judge, with its own message.
 */
import { z } from 'zod';
import { parseStrictQuery } from '../../../../contracts/common/query.ts';
import { DEFAULT_METRIC_VERSION } from '../../../../contracts/fair/request.ts';

const flag = z.array(z.enum(['true', 'false'], { error: 'must be true or false' })).optional();

export const assessQuerySchema = z
  .object({
    identifier: z.string().optional(),
    metric_version: z.string().optional(),
    use_registry: flag,
    use_code_host: flag,
  })
  .strict();

/** What the form shows. */
export interface AssessFormState {
  identifier: string;
  metric_version: string;
  use_registry: boolean;
  use_code_host: boolean;
}

export const DEFAULT_FORM: AssessFormState = { identifier: '', metric_version: DEFAULT_METRIC_VERSION, use_registry: true, use_code_host: false };

export interface AssessQuery {
  /** The body for POST /assess (JSON-serialisable). */
  body: { identifier?: string; options?: { metric_version?: string; use_registry?: boolean; use_code_host?: boolean } };
  state: AssessFormState;
}

/** Reads the page's address; throws the shared ApiError (400) for a parameter the page does not take. */
export function readAssessQuery(url: string): AssessQuery {
  const p = parseStrictQuery(assessQuerySchema, url, { multi: ['use_registry', 'use_code_host'] });
  const options: NonNullable<AssessQuery['body']['options']> = {};
  if (p.metric_version !== undefined && p.metric_version.trim() !== '') options.metric_version = p.metric_version.trim();
  for (const name of ['use_registry', 'use_code_host'] as const) {
    const last = p[name]?.at(-1);
    if (last !== undefined) options[name] = last === 'true';
  }
  const body: AssessQuery['body'] = {};
  if (p.identifier !== undefined) body.identifier = p.identifier;
  if (Object.keys(options).length > 0) body.options = options;
  return {
    body,
    state: {
      identifier: p.identifier ?? '',
      metric_version: options.metric_version ?? DEFAULT_FORM.metric_version,
      use_registry: options.use_registry ?? DEFAULT_FORM.use_registry,
      use_code_host: options.use_code_host ?? DEFAULT_FORM.use_code_host,
    },
  };
}

/** The form's values as far as they can be read from an address the page refused (to refill the form). */
export function looseFormState(params: URLSearchParams): AssessFormState {
  const last = (name: string) => params.getAll(name).at(-1);
  return {
    identifier: params.get('identifier') ?? '',
    metric_version: params.get('metric_version') || DEFAULT_FORM.metric_version,
    use_registry: (last('use_registry') ?? String(DEFAULT_FORM.use_registry)) === 'true',
    use_code_host: (last('use_code_host') ?? String(DEFAULT_FORM.use_code_host)) === 'true',
  };
}
