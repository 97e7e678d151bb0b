/**
 * A user's TypeScript client: each service's OpenAPI document (as served) goes through openapi-typescript,
 * test/client/calls.ts is type-checked against the generated types with a strict tsconfig (numbers as
 * numbers, booleans as booleans, enums as their literals), and its calls, one or more per operation, go
 * through openapi-fetch to the real server listening on a loopback port.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exampleEnv } from '../../scripts/lib/openapi-example-requests.ts';
import { appFor } from '../helpers/app.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLIENT = join(ROOT, 'test/client');
let h: Awaited<ReturnType<typeof appFor>>;
let baseUrl = '';

beforeAll(async () => {
  h = await appFor((await sharedFixture()).out, exampleEnv());
  baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' });
  mkdirSync(join(CLIENT, 'generated'), { recursive: true });
  for (const service of ['frame', 'corpus', 'fair']) {
    const doc = (await (await fetch(`${baseUrl}/${service}/api/v1/openapi.json`)).json()) as Json;
    docs[service] = doc;
    generated[service] = astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
    writeFileSync(join(CLIENT, 'generated', `${service}.ts`), generated[service]);
  }
});

type Json = Record<string, unknown>;
const docs: Record<string, Json> = {};
const generated: Record<string, string> = {};

/** The description texts of the response properties of a document (at any depth), each once. */
function responseDescriptions(doc: Json): Set<string> {
  const out = new Set<string>();
  const seen = new Set<unknown>();
  const resolve = (s: Json): Json =>
    typeof s.$ref === 'string'
      ? (s.$ref
          .slice(2)
          .split('/')
          .reduce<unknown>((o, k) => (o as Json)[k], doc) as Json)
      : s;
  const walk = (schema: unknown) => {
    if (schema === null || typeof schema !== 'object') return;
    const s = resolve(schema as Json);
    if (seen.has(s)) return;
    seen.add(s);
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const b of (s[key] as unknown[] | undefined) ?? []) walk(b);
    walk(s.items);
    walk(s.additionalProperties);
    for (const p of Object.values((s.properties as Record<string, Json> | undefined) ?? {})) {
      if (typeof p.description === 'string') out.add(p.description);
      walk(p);
    }
  };
  for (const item of Object.values(
    doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>,
  ))
    for (const op of Object.values(item)) for (const r of Object.values(op.responses)) for (const c of Object.values(r.content ?? {})) walk(c.schema);
  return out;
}

it.each(['frame', 'corpus', 'fair'])('the %s client shows the response field descriptions of its document (as JSDoc on the generated types)', (service) => {
  const texts = [...responseDescriptions(docs[service]!)];
  // openapi-typescript writes a description as a JSDoc line `@description <text>`, escaping a closing comment.
  const comments = generated[service]!.replace(/\*\\\//g, '*/');
  const shown = texts.filter((t) => comments.includes(`@description ${t.split('\n')[0]}`));
  expect(texts.length).toBeGreaterThan(50);
  expect(texts.filter((t) => !shown.includes(t)).slice(0, 10)).toEqual([]);
});
afterAll(async () => {
  await h?.close();
});

it('the client generated from each document type-checks strictly with the calls a user writes', () => {
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(CLIENT, 'tsconfig.json')], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
});

it('the calls reach every operation of the three services and get the answers the documents promise', async () => {
  // Not a literal import: calls.ts needs the types generated above, which a fresh clone's `tsc -p .` lacks
  // (test/client has its own strict tsconfig, run by the test before).
  const callsModule = '../client/calls.ts';
  type Calls = (base: string) => Promise<{ operationId: string; status: number; value?: unknown }[]>;
  const { corpusCalls, fairCalls, frameCalls } = (await import(callsModule)) as { corpusCalls: Calls; fairCalls: Calls; frameCalls: Calls };
  const calls = [...(await frameCalls(baseUrl)), ...(await corpusCalls(baseUrl)), ...(await fairCalls(baseUrl))];
  const statuses = Object.fromEntries(calls.map((c) => [c.operationId, c.status]));
  const operations: string[] = [];
  for (const service of ['frame', 'corpus', 'fair']) {
    const doc = (await h.app.inject(`/${service}/api/v1/openapi.json`)).json() as { paths: Record<string, Record<string, { operationId: string }>> };
    for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) operations.push(op.operationId);
  }
  expect(Object.keys(statuses).sort()).toEqual(operations.sort());
  // Offline, the unknown recent work is a 404 and the DOI's resolver cannot be reached (503, ours); everything else succeeds.
  const expected = Object.fromEntries(
    operations.map((id) => [id, id === 'getRecentWork' ? 404 : id === 'assess' ? 503 : id === 'createPermalink' ? 201 : 200]),
  );
  expect(statuses).toEqual(expected);
  const value = (id: string) => calls.find((c) => c.operationId === id)?.value;
  expect(value('getCohort')).toBeGreaterThan(0);
  expect(value('getPermalink')).toBe(value('createPermalink'));
  expect(value('listRecent')).toBe(15);
  expect(value('assess')).toBe('UPSTREAM_UNAVAILABLE');
  expect(value('getPermalinkChanges')).toBe(5);
  expect(Number(value('exportCohort'))).toBeGreaterThanOrEqual(0);
});
