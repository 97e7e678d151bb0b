/**
 * The OpenAPI documents against the live server (a fixture build): every example validates against its
 * schema and has the shape of the live answer to the same request (so the recorded examples of the sample
 * build cannot go stale: `npm run openapi:examples` rewrites them), every response header the server sends is
 * declared for that operation and status, and a 304 is declared exactly where an ETag is sent.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  corpusExampleRequests,
  exampleAnswer,
  exampleEnv,
  type ExampleRequest,
  fairExampleRequests,
  frameExampleRequests,
  type Send,
  SERVICES,
} from '../../scripts/lib/openapi-example-requests.ts';
import recordedFrame from '../../contracts/frame/openapi-examples.json' with { type: 'json' };
import recordedCorpus from '../../contracts/corpus/openapi-examples.json' with { type: 'json' };
import recordedFair from '../../contracts/fair/openapi-examples.json' with { type: 'json' };
import type { RecordedExamples } from '../../contracts/common/openapi-examples.ts';
import { appFor } from '../helpers/app.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';

/** Headers of HTTP itself, not of the API. */
const TRANSPORT = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'content-encoding']);

/** Operations without a success example, and why: the sample build has no recent layer; /assess needs a resolver. */
const NO_SUCCESS_EXAMPLE = new Set(['getRecentWork', 'assess']);

type Json = Record<string, unknown>;
interface Operation {
  path: string;
  method: string;
  responses: Record<string, { headers?: Json; content?: Record<string, { schema: Json; example?: unknown }> }>;
}

let h: Awaited<ReturnType<typeof appFor>>;
let send: Send;
const docs: Record<string, Json> = {};
const requests: Record<string, Record<string, ExampleRequest[]>> = {};
const RECORDED: Record<string, RecordedExamples> = { frame: recordedFrame, corpus: recordedCorpus, fair: recordedFair } as unknown as Record<
  string,
  RecordedExamples
>;

beforeAll(async () => {
  h = await appFor((await sharedFixture({ workFiles: true })).out, exampleEnv());
  send = async (r) => h.app.inject({ method: r.method, url: r.url, headers: r.headers ?? {}, ...(r.payload === undefined ? {} : { payload: r.payload }) });
  for (const service of SERVICES) docs[service] = (await h.app.inject(`/${service}/api/v1/openapi.json`)).json();
  requests.frame = await frameExampleRequests(send);
  requests.corpus = await corpusExampleRequests(send);
  requests.fair = fairExampleRequests();
});
afterAll(async () => {
  await h?.close();
});

function operations(doc: Json): Record<string, Operation> {
  const out: Record<string, Operation> = {};
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>))
    for (const [method, op] of Object.entries(item)) out[op.operationId as string] = { path, method, responses: op.responses as Operation['responses'] };
  return out;
}

/** The JSON schema of a response, with the shared Error component inlined (Ajv compiles it alone). */
function responseSchema(doc: Json, op: Operation, status: string): Json | undefined {
  const schema = op.responses[status]?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  const components = (doc.components as { schemas: Record<string, Json> }).schemas;
  return schema.$ref === '#/components/schemas/Error' ? components.Error : schema;
}

/** Where two JSON values differ in shape: keys, types, array items (null fits any type: nullable fields). */
function shapeDifferences(a: unknown, b: unknown, at = '$', out: string[] = []): string[] {
  if (a === null || b === null) return out;
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) out.push(`${at}: ${kind(a)} vs ${kind(b)}`);
  else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length > 0 && b.length > 0) shapeDifferences(a[0], b[0], `${at}[0]`, out);
  } else if (kind(a) === 'object') {
    const ka = Object.keys(a as Json).sort();
    const kb = Object.keys(b as Json).sort();
    if (ka.join() !== kb.join())
      out.push(`${at}: keys ${ka.filter((k) => !kb.includes(k)).join(',')} only in the example, ${kb.filter((k) => !ka.includes(k)).join(',')} only live`);
    for (const k of ka) if (kb.includes(k)) shapeDifferences((a as Json)[k], (b as Json)[k], `${at}.${k}`, out);
  }
  return out;
}

describe.each(SERVICES)('%s', (service) => {
  it('every operation has example requests, and every example recorded is still asked for', () => {
    const ops = operations(docs[service]!);
    expect(Object.keys(requests[service]!).sort()).toEqual(Object.keys(ops).sort());
    for (const [id, byStatus] of Object.entries(RECORDED[service]!))
      for (const status of Object.keys(byStatus))
        expect(
          requests[service]![id]?.some((r) => String(r.status) === status),
          `${id} ${status}`,
        ).toBe(true);
    for (const id of Object.keys(ops))
      if (!NO_SUCCESS_EXAMPLE.has(id))
        expect(
          Object.keys(RECORDED[service]![id] ?? {}).some((s) => s.startsWith('2')),
          `${id} has no success example`,
        ).toBe(true);
  });

  it('every documented example validates against its schema and has the shape of the live answer', async () => {
    const doc = docs[service]!;
    const ops = operations(doc);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    let checked = 0;
    for (const [id, list] of Object.entries(requests[service]!)) {
      const op = ops[id]!;
      for (const request of list) {
        const status = String(request.status);
        const documented = op.responses[status]?.content?.['application/json']?.example;
        const live = await exampleAnswer(send, request);
        // A CSV export has no JSON to compare; its JSON sibling is.
        if (documented === undefined || live === null) continue;
        expect(documented, `${id} ${status}: the document's example is the recorded one`).toEqual(RECORDED[service]![id]![status]!.body);
        const validate = ajv.compile(responseSchema(doc, op, status)!);
        expect(validate(documented), `${id} ${status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
        expect(validate(live), `${id} ${status} live: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
        expect(shapeDifferences(documented, live), `${id} ${status}: run npm run openapi:examples`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('every response header sent is declared for its operation and status; 304 is declared exactly where an ETag is sent', async () => {
    const ops = operations(docs[service]!);
    for (const [id, list] of Object.entries(requests[service]!)) {
      const op = ops[id]!;
      for (const request of list) {
        const { status, ...rest } = request;
        const res = await send(rest);
        expect(res.statusCode, `${id} ${request.url}`).toBe(status);
        const declared = Object.keys(op.responses[String(status)]?.headers ?? {}).map((k) => k.toLowerCase());
        const sent = Object.keys(res.headers).filter((k) => !TRANSPORT.has(k.toLowerCase()));
        expect(
          sent.filter((k) => !declared.includes(k.toLowerCase())),
          `${id} ${status} ${request.url}: undeclared headers`,
        ).toEqual([]);
        if (status !== 200 || request.method !== 'GET') continue;
        const etag = res.headers.etag;
        expect(etag !== undefined, `${id}: ETag sent iff 304 declared`).toBe(op.responses['304'] !== undefined);
        if (etag === undefined) continue;
        const again = await send({ ...rest, headers: { ...rest.headers, 'if-none-match': String(etag) } });
        expect(again.statusCode, id).toBe(304);
        const declared304 = Object.keys(op.responses['304']!.headers ?? {}).map((k) => k.toLowerCase());
        expect(
          Object.keys(again.headers).filter((k) => !TRANSPORT.has(k) && !declared304.includes(k)),
          `${id} 304: undeclared headers`,
        ).toEqual([]);
      }
    }
  });
});
