/**
 * The pieces every service's OpenAPI 3.1 document is built from, so the three documents describe parameters,
 * headers, errors and licences the same way. Parameter documentation is read from the zod schemas the routes
 * parse with (each field's `.meta()`: description, default, examples), and the meaning of a query value
 * (integer with bounds, boolean) from `queryValueTypes`, so a new parameter appears in the documents with its
 * text as soon as it is added to a schema.
 */
import { z } from 'zod';
import { errorBodySchema } from './errors.ts';
import { queryValueTypes } from './query.ts';

/** Every schema in the documents is JSON Schema 2020-12 as OpenAPI 3.1 defines it: said once, at the root. */
export const JSON_SCHEMA_DIALECT = 'https://spec.openapis.org/oas/3.1/dialect/base';

type JsonObject = Record<string, unknown>;

/** Keys of the text form of a value that do not apply to its meaning (an integer has no pattern). */
const TEXT_KEYS = ['type', 'pattern', 'format', 'minLength', 'maxLength', 'enum', 'const'];

/** JSON Schema of a zod schema, without `$schema` (the dialect is declared at the document root). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): JsonObject {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: (ctx) => {
      const meaning = queryValueTypes.get(ctx.zodSchema as unknown as z.ZodType);
      if (!meaning) return;
      const js = ctx.jsonSchema as JsonObject;
      for (const k of TEXT_KEYS) delete js[k];
      Object.assign(js, meaning);
    },
  }) as JsonObject;
  delete out.$schema;
  return out;
}

/** What a field's `.meta()` says (zod keeps it in its global registry). */
function fieldMeta(field: z.ZodType): { description?: string; default?: unknown; examples?: unknown[] } {
  return (z.globalRegistry.get(field) ?? {}) as { description?: string; default?: unknown; examples?: unknown[] };
}

/** An example for a parameter without one: its default, first allowed value, lower bound, or `true`. */
function fallbackExample(schema: JsonObject): unknown {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'integer') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return [fallbackExample((schema.items ?? {}) as JsonObject)];
  return undefined;
}

export interface QueryParameterOptions {
  /** Parameters the route requires although the schema has them optional (the parser reports them missing). */
  required?: readonly string[];
  /** Examples that depend on the build the examples were recorded from (a snapshot id, a cursor), by parameter. */
  examples?: Readonly<Record<string, unknown>>;
}

/** The query parameters of a strict query schema, one per field, with type, bounds, default, description, example. */
export function queryParameters(query: z.ZodObject, options: QueryParameterOptions = {}): JsonObject[] {
  const input = jsonSchema(query, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(input.properties ?? {}).map(([name, property]) => {
    const meta = fieldMeta(query.shape[name] as z.ZodType);
    const { description, examples, ...schema } = property;
    // zod drops `default` from input schemas; the field's meta keeps it.
    if (meta.default !== undefined) schema.default = meta.default;
    const example = options.examples?.[name] ?? (meta.examples ?? (examples as unknown[] | undefined))?.[0] ?? fallbackExample(schema);
    return {
      name,
      in: 'query',
      required: (input.required?.includes(name) ?? false) || (options.required?.includes(name) ?? false),
      description: (meta.description ?? (description as string | undefined) ?? name).trim(),
      schema,
      ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
      ...(example === undefined ? {} : { example }),
    };
  });
}

/** A path parameter (always required). */
export function pathParameter(name: string, pattern: string, description: string, example: string): JsonObject {
  return { name, in: 'path', required: true, description, schema: { type: 'string', pattern }, example };
}

// ---- response headers ----

const string = (description: string) => ({ description, schema: { type: 'string' } });
const integer = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** Every response header the services send, described once. */
export const HEADERS = {
  'X-Request-Id': string('Id of this request; quote it when reporting a problem.'),
  'X-Snapshot': string('Id of the pinned snapshot: the one the answer was computed from, or (on answers that depend on none) the one the server serves.'),
  ETag: string('Strong validator of this answer (snapshot and content); send it back in If-None-Match to get a 304.'),
  'Cache-Control': string('How long shared caches may keep the answer (no-store for errors and per-caller answers).'),
  Vary: string('Request headers the answer depends on (Accept-Encoding).'),
  'Access-Control-Allow-Origin': string('CORS: any origin may read the API (*).'),
  'Access-Control-Expose-Headers': string('CORS: the response headers a browser script may read.'),
  Location: string('The URL of the permalink (GET it to resolve the filters).'),
  'Content-Disposition': string('attachment; filename="frame-cohort-<hash>.<format>".'),
  'X-Cohort-Total': integer('Exact number of works in the cohort.'),
  'X-Export-Rows': integer('Rows in this export (at most 100,000).'),
  'X-Export-Truncated': { description: 'true when the cohort has more rows than the export cap.', schema: { type: 'string', enum: ['true', 'false'] } },
  'X-RateLimit-Limit': integer("Assessments per window in the caller's tier (anonymous 10, API key 100 by default)."),
  'X-RateLimit-Remaining': integer('Assessments left in the current window.'),
  'X-RateLimit-Reset': integer('Whole seconds until the window ends (at least 1).'),
  'Retry-After': integer('Seconds until the window ends and requests are counted again.'),
} as const;
export type HeaderName = keyof typeof HEADERS;

/** References to the named headers (declared once in components.headers). */
export function headerRefs(names: readonly HeaderName[]): JsonObject {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

/** components.headers with exactly the headers a document uses (unused components are a lint warning). */
export function usedHeaders(paths: JsonObject): JsonObject {
  const text = JSON.stringify(paths);
  return Object.fromEntries(Object.entries(HEADERS).filter(([n]) => text.includes(`"#/components/headers/${n}"`)));
}

/** Headers on every API answer, success or error (plugins/http-conventions.ts). */
export const COMMON_HEADERS = ['X-Request-Id', 'X-Snapshot', 'Cache-Control', 'Access-Control-Allow-Origin'] as const satisfies readonly HeaderName[];
/** Headers of an answer computed from a frozen build (routes/send.ts). */
export const BUILT_HEADERS = [...COMMON_HEADERS, 'ETag', 'Vary'] as const satisfies readonly HeaderName[];

// ---- responses ----

/** The shared error body as a response; `example` is a real error answer of the service. */
export function errorResponse(description: string, headers: readonly HeaderName[], example?: unknown): JsonObject {
  return {
    description,
    headers: headerRefs(headers),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, ...(example === undefined ? {} : { example }) } },
  };
}

/** The 304 of an answer that carries an ETag. */
export function notModified(headers: readonly HeaderName[]): JsonObject {
  return { description: 'Not modified: If-None-Match named the current ETag; no body.', headers: headerRefs(headers) };
}

/** A JSON answer with its schema, headers and (where one was recorded) a real example. */
export function jsonResponse(description: string, schema: JsonObject, headers: readonly HeaderName[], example?: unknown): JsonObject {
  return {
    description,
    headers: headerRefs(headers),
    content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
  };
}

// ---- the document ----

export interface DocumentParts {
  title: string;
  version: string;
  description: string;
  /** Tags in display order, each with its description. */
  tags: readonly { name: string; description: string }[];
  paths: JsonObject;
  /** Extra components (security schemes). */
  components?: JsonObject;
  /** Root security requirements; `[{}]` (none needed) unless given. */
  security?: readonly JsonObject[];
}

/** The root of a document: dialect, info with licence and contact, relative server, tags, shared components. */
export function openApiDocument(parts: DocumentParts): JsonObject & { info: JsonObject & { title: string; version: string }; paths: JsonObject } {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: parts.title,
      version: parts.version,
      description: parts.description,
      license: { name: 'MIT (code); the data are CC-BY-4.0', identifier: 'MIT' },
      // No url: the about page's address depends on where the server runs, and contact.url must be absolute.
      contact: { name: 'The Open Research Infrastructure contributors (see the /about page of this server)' },
    },
    // Relative: the document describes the server that serves it, whatever its host.
    servers: [{ url: '/', description: 'The server this document was fetched from' }],
    // The read APIs need no credentials; FAIR's /assess accepts an optional API key (its own security).
    security: parts.security ?? [{}],
    tags: parts.tags,
    paths: parts.paths,
    components: {
      schemas: { Error: jsonSchema(errorBodySchema) },
      headers: usedHeaders(parts.paths),
      ...parts.components,
    },
  };
}
