/**
 * Response fields are documented: in each OpenAPI document as the server serves it, at least 90% of the
 * fields of every response body (properties at any depth: nested objects, array items, map values, each
 * branch of a union; the shared Error component counted wherever a response uses it) carry a description,
 * and no description merely repeats its field's name.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '../../scripts/lib/openapi-example-requests.ts';
import { appFor } from '../helpers/app.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';

type Json = Record<string, unknown>;
interface Field {
  at: string;
  name: string;
  description: string | undefined;
}

/** Every property of a schema, at any depth, with its description (a $ref's target's when the reference has none). */
function responseFields(doc: Json, schema: unknown, at: string, out: Field[] = [], seen = new Set<unknown>()): Field[] {
  const resolve = (s: Json): Json =>
    typeof s.$ref === 'string'
      ? (s.$ref
          .slice(2)
          .split('/')
          .reduce<unknown>((o, k) => (o as Json)[k], doc) as Json)
      : s;
  if (schema === null || typeof schema !== 'object') return out;
  const s = resolve(schema as Json);
  if (seen.has(s)) return out;
  seen.add(s);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const branch of (s[key] as unknown[] | undefined) ?? []) responseFields(doc, branch, at, out, seen);
  if (s.items) responseFields(doc, s.items, `${at}[]`, out, seen);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') responseFields(doc, s.additionalProperties, `${at}{}`, out, seen);
  for (const [name, property] of Object.entries((s.properties as Record<string, Json> | undefined) ?? {})) {
    const description = (property.description ?? resolve(property).description) as string | undefined;
    out.push({ at: `${at}.${name}`, name, description });
    responseFields(doc, property, `${at}.${name}`, out, seen);
  }
  seen.delete(s);
  return out;
}

/** The fields of every response body of a document, per operation and status. */
function documentFields(doc: Json): Field[] {
  const out: Field[] = [];
  for (const [path, item] of Object.entries(
    doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>,
  ))
    for (const [method, op] of Object.entries(item))
      for (const [status, response] of Object.entries(op.responses))
        for (const [type, content] of Object.entries(response.content ?? {}))
          responseFields(doc, content.schema, `${method.toUpperCase()} ${path} ${status} ${type}`, out);
  return out;
}

const tmp = tempDir('openapi-descriptions');
let h: Awaited<ReturnType<typeof appFor>>;
const docs: Record<string, Json> = {};

beforeAll(async () => {
  const snapshot = await fixtureSnapshot(tmp.path);
  await fixtureBuild(snapshot, join(tmp.path, 'out'), false);
  h = await appFor(join(tmp.path, 'out'));
  for (const service of SERVICES) docs[service] = (await h.app.inject(`/${service}/api/v1/openapi.json`)).json();
}, 180_000);
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

it('the field walk counts what it should (a hand-made document)', () => {
  const doc = {
    paths: {
      '/x': {
        get: {
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      a: { type: 'integer', description: 'A count.' },
                      b: { type: 'array', items: { type: 'object', properties: { c: { type: 'string' } } } },
                      e: { $ref: '#/components/schemas/E' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        E: {
          type: 'object',
          description: 'An E.',
          properties: { f: { anyOf: [{ type: 'object', properties: { g: { type: 'string', description: 'G.' } } }, { type: 'null' }] } },
        },
      },
    },
  };
  expect(documentFields(doc).map((f) => `${f.at.replace('GET /x 200 application/json', '')}:${f.description ?? '-'}`)).toEqual([
    '.a:A count.',
    '.b:-',
    '.b[].c:-',
    '.e:An E.',
    '.e.f:-',
    '.e.f.g:G.',
  ]);
});

describe.each(SERVICES)('%s', (service) => {
  it('describes at least 90% of its response fields, and no description is only the field name', () => {
    const fields = documentFields(docs[service]!);
    const described = fields.filter((f) => f.description !== undefined && f.description.trim() !== '');
    const share = described.length / fields.length;
    process.stdout.write(`${service}: ${described.length} of ${fields.length} response fields described (${(share * 100).toFixed(1)}%)\n`);
    expect(fields.length).toBeGreaterThan(50);
    expect(
      share,
      fields
        .filter((f) => !f.description)
        .map((f) => f.at)
        .slice(0, 20)
        .join('\n'),
    ).toBeGreaterThanOrEqual(0.9);
    const bare = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
    expect(described.filter((f) => bare(f.description!) === bare(f.name) || f.description!.trim().length < 8).map((f) => `${f.at}: ${f.description}`)).toEqual(
      [],
    );
  });
});
