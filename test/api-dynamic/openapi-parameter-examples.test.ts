/**
 * Every example a document gives for a parameter or a request body answers as documented on the sample build
 * (snapshots/sample, which the recorded examples come from): each operation asked with its path parameters'
 * examples and its required parameters' examples, then once more with each optional parameter's example
 * added, gets a success status the operation documents, and the JSON answer validates against the documented
 * schema. A generated client's user copying an example gets an answer, not a 400 or a 404.
 */
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleEnv, SERVICES } from '../../scripts/lib/openapi-example-requests.ts';
import { appFor } from '../helpers/app.ts';
import { fixtureBuild, tempDir } from '../helpers/fixture-build.ts';

const SAMPLE = join(import.meta.dirname, '../../snapshots/sample');

/**
 * Operations whose examples cannot succeed on the sample build, and the documented answer they get instead:
 * the sample build has no recent layer (a recent work is a 404 until `npm run recent:sync` has run), and an
 * assessment needs the internet (offline, the DOI's resolver cannot be reached: 503, ours).
 */
const OFFLINE: Record<string, number> = { getRecentWork: 404, assess: 503 };

/** Parameters without an example, and why: a cursor is valid only for the query (filters, sort, snapshot) that issued it. */
const NO_EXAMPLE = new Set(['cursor']);

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  example?: unknown;
  schema: Json;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

const tmp = tempDir('openapi-parameter-examples');
let h: Awaited<ReturnType<typeof appFor>>;
const docs: Record<string, Json> = {};

beforeAll(async () => {
  await fixtureBuild(SAMPLE, join(tmp.path, 'out'), false);
  h = await appFor(join(tmp.path, 'out'), exampleEnv());
  for (const service of SERVICES) docs[service] = (await h.app.inject(`/${service}/api/v1/openapi.json`)).json();
}, 300_000);
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

/** A query value as a client writes it (style form, explode: an array repeats the name). */
function queryPairs(name: string, value: unknown): [string, string][] {
  return (Array.isArray(value) ? value : [value]).map((v) => [name, String(v)]);
}

function url(path: string, params: Parameter[], extra: Parameter | null): string {
  let p = path;
  for (const param of params.filter((x) => x.in === 'path')) p = p.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
  const query = new URLSearchParams(
    [...params.filter((x) => x.in === 'query' && x.required), ...(extra ? [extra] : [])].flatMap((x) => queryPairs(x.name, x.example)),
  );
  const qs = query.toString();
  return qs ? `${p}?${qs}` : p;
}

/** The Error component inlined, so Ajv compiles a response schema alone. */
function schemaOf(doc: Json, op: Operation, status: number): Json | undefined {
  const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
  return schema?.$ref === '#/components/schemas/Error' ? (doc.components as { schemas: { Error: Json } }).schemas.Error : schema;
}

describe.each(SERVICES)('%s', (service) => {
  it('every parameter and request body example answers with a documented success, and the answer fits its schema', async () => {
    const doc = docs[service]!;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const failures: string[] = [];
    let asked = 0;
    // A permalink example names a permalink of the sample build: minted as its description says.
    await h.app.inject({ method: 'POST', url: '/frame/api/v1/permalink?route=aff&lang=fr' });
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>))
      for (const [method, op] of Object.entries(item)) {
        const params = op.parameters ?? [];
        for (const p of params) if (p.example === undefined && !NO_EXAMPLE.has(p.name)) failures.push(`${op.operationId} ${p.name}: no example`);
        const body = op.requestBody?.content['application/json']?.example;
        const optional = params.filter((p) => p.in === 'query' && !p.required && p.example !== undefined);
        for (const extra of [null, ...optional]) {
          const target = url(path, params, extra);
          const res = await h.app.inject({
            method: method.toUpperCase() as 'GET' | 'POST',
            url: target,
            ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
          });
          asked++;
          const expected = OFFLINE[op.operationId];
          const ok =
            expected === undefined
              ? res.statusCode >= 200 && res.statusCode < 300 && op.responses[String(res.statusCode)] !== undefined
              : res.statusCode === expected;
          if (!ok) {
            failures.push(`${op.operationId} ${method.toUpperCase()} ${target}: ${res.statusCode} ${res.body.slice(0, 200)}`);
            continue;
          }
          const schema = schemaOf(doc, op, res.statusCode);
          if (schema && String(res.headers['content-type']).startsWith('application/json')) {
            const validate = ajv.compile(schema);
            if (!validate(res.json()))
              failures.push(`${op.operationId} ${target}: answer does not fit the schema: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
          }
        }
      }
    expect(failures).toEqual([]);
    expect(asked).toBeGreaterThan(service === 'fair' ? 1 : 5);
  });
});
