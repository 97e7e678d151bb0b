/**
 * Permalinks end to end: minting is idempotent across equivalent spellings, the hash is `/cohort`'s
 * `meta.query_hash`, resolving gives current counts, bad input stores nothing, a restart keeps what was
 * minted, and replicas with separate state directories agree through a real Redis.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import { filtersToQuery, queryHash } from '../../contracts/frame/cohort-query.ts';
import { permalinkResponse } from '../../contracts/frame/responses.ts';
import { loadConfig } from '../../api-dynamic/src/config.ts';
import { appFor } from '../helpers/app.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { type RunningRedis, startRedis } from '../helpers/redis.ts';
import { needProgram } from '../helpers/needs.ts';

const API = '/frame/api/v1';

type App = Awaited<ReturnType<typeof appFor>>;
type Res = Awaited<ReturnType<App['app']['inject']>>;

interface Permalink {
  hash: string;
  url: string;
  filters: Record<string, unknown>;
  query: string;
  created_at: string;
  snapshot: string;
  counted_on: string;
  total: number;
  direct_labels_cover: number;
  predictions_cover: number;
}

interface CohortMeta {
  query_hash: string;
  total: number;
  direct_labels_cover: number;
  predictions_cover: number;
}

const tmp = tempDir('cohort-permalink');
let out = '';
let dirs = 0;
/** A state directory of its own for each app (or pair of apps) that must not see the others' permalinks. */
const stateDir = () => {
  const dir = join(tmp.path, `state-${++dirs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

beforeAll(async () => {
  out = (await sharedFixture()).out;
}, 120_000);
afterAll(() => tmp.remove());

const post = (h: App, query: string) => h.app.inject({ method: 'POST', url: `${API}/permalink?${query}` });

function expectError(res: Res, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['cache-control']).toBe('no-store');
  const body = errorBodySchema.parse(res.json());
  expect(body.code).toBe(code);
  return body;
}

async function cohortMeta(h: App, query: string): Promise<CohortMeta> {
  const res = await h.app.inject(`${API}/cohort?${query}&per_page=1`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { meta: CohortMeta }).meta;
}

/** Names and sizes of the files in a state directory: what a request stored, if anything. */
function stateFiles(dir: string): Record<string, number> {
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f)).length]));
}

describe('one app', () => {
  let h: App;
  let dir = '';
  let first: Permalink;

  beforeAll(async () => {
    dir = stateDir();
    h = await appFor(out, { STATE_DIR: dir });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('mints with 201: hash, url, canonical filters, the counts /cohort gives, Location, no-store', async () => {
    const res = await post(h, 'route=aff&lang=fr');
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    first = res.json() as Permalink;
    expect(first.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(first.url.endsWith(`/frame/q/${first.hash}`)).toBe(true);
    expect(first.filters).toEqual({ lang: 'fr', route_aff: true });
    expect(String(res.headers.location).endsWith(`${API}/permalink/${first.hash}`)).toBe(true);
    expect(Number.isNaN(Date.parse(first.created_at))).toBe(false);

    const meta = await cohortMeta(h, 'route=aff&lang=fr');
    expect(meta.total).toBeGreaterThan(0);
    expect({ total: first.total, direct_labels_cover: first.direct_labels_cover, predictions_cover: first.predictions_cover }).toEqual({
      total: meta.total,
      direct_labels_cover: meta.direct_labels_cover,
      predictions_cover: meta.predictions_cover,
    });
    // One hash for a cohort, whichever surface computes it.
    expect(first.hash).toBe(meta.query_hash);
  });

  it.each(['lang=fr&route_aff=1', 'route_aff=true&lang=FR', 'route=aff&lang=fr'])(
    'an equivalent spelling (%s) answers 200 with the same hash and created_at',
    async (query) => {
      const res = await post(h, query);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const again = res.json() as Permalink;
      expect(again.hash).toBe(first.hash);
      expect(again.created_at).toBe(first.created_at);
      expect(again.filters).toEqual(first.filters);
      expect(again.query).toBe(first.query);
    },
  );

  it('a different cohort gets a different hash, which is its /cohort query_hash', async () => {
    const res = await post(h, 'route=aff&lang=en');
    expect(res.statusCode).toBe(201);
    const other = res.json() as Permalink;
    expect(other.hash).not.toBe(first.hash);
    expect(other.hash).toBe((await cohortMeta(h, 'lang=en&route_aff=1')).query_hash);
  });

  it('GET /permalink/{hash} resolves to the same filters and counts', async () => {
    const res = await h.app.inject(`${API}/permalink/${first.hash}`);
    expect(res.statusCode).toBe(200);
    const got = res.json() as Permalink;
    expect(got).toMatchObject({
      hash: first.hash,
      filters: first.filters,
      query: first.query,
      created_at: first.created_at,
      total: first.total,
      direct_labels_cover: first.direct_labels_cover,
      predictions_cover: first.predictions_cover,
    });
  });

  it('an unknown well-formed hash is a 404 NOT_FOUND; a malformed one is a 400', async () => {
    // Some well-formed hash that was never minted here.
    const unknown = first.hash === '0123456789abcdef' ? 'fedcba9876543210' : '0123456789abcdef';
    expectError(await h.app.inject(`${API}/permalink/${unknown}`), 404, 'NOT_FOUND');
    expectError(await h.app.inject(`${API}/permalink/xyz`), 400, 'INVALID_PARAMETER');
  });

  it('GET /permalink (the minting URL) is a 405 whose Allow lists POST', async () => {
    const res = await h.app.inject(`${API}/permalink`);
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(String(res.headers.allow).split(/,\s*/)).toContain('POST');
  });

  it.each(['page=2', 'sort=cited', 'lang=fr&per_page=10'])('POST with %s (not a filter) is a 400 UNKNOWN_PARAMETER', async (query) => {
    expectError(await post(h, query), 400, 'UNKNOWN_PARAMETER');
  });

  it('an invalid filter is a 400 and stores nothing', async () => {
    const before = stateFiles(dir);
    // The state directory already holds the permalinks minted above, so "did not grow" is a real check.
    expect(Object.keys(before).length).toBeGreaterThan(0);
    for (const query of ['category=nope', 'lang=fr&category=nope', 'year_from=2020&year_to=2010', 'route=aff&route_aff=0']) {
      expectError(await post(h, query), 400, 'INVALID_PARAMETER');
    }
    expect(stateFiles(dir)).toEqual(before);
  });

  it('a body (JSON or form) is a 400 saying the filters go in the query string, and stores nothing', async () => {
    const before = stateFiles(dir);
    const bodies = [
      { 'content-type': 'application/json', payload: JSON.stringify({ lang: 'fr', route: 'aff' }) },
      { 'content-type': 'application/x-www-form-urlencoded', payload: 'lang=fr&route=aff' },
      { 'content-type': 'text/plain', payload: 'lang=fr' },
    ];
    for (const { payload, ...headers } of bodies) {
      const body = expectError(await h.app.inject({ method: 'POST', url: `${API}/permalink?route=aff`, headers, payload }), 400, 'INVALID_PARAMETER');
      expect(body.message).toMatch(/filters go in the query string/);
      expect(body.details?.[0]?.parameter).toBe('body');
    }
    expect(stateFiles(dir)).toEqual(before);
    // Any other route that reads no body says so too (a GET with a JSON body).
    const get = await h.app.inject({ method: 'GET', url: `${API}/cohort`, headers: { 'content-type': 'application/json' }, payload: '{"lang":"fr"}' });
    expect(expectError(get, 400, 'INVALID_PARAMETER').message).toMatch(/takes no request body/);
    // An empty body is no body.
    expect((await h.app.inject({ method: 'POST', url: `${API}/permalink?route=aff&lang=fr`, headers: { 'content-length': '0' } })).statusCode).toBe(200);
  });
});

describe('permalinks minted before the cited numbers were kept', () => {
  it('still resolve, with the counts now and cited numbers "not recorded"', async () => {
    const dir = stateDir();
    const probe = await appFor(out, { STATE_DIR: stateDir() });
    const snapshot = probe.store.current.snapshotId;
    await probe.close();
    // A record as the earlier server wrote it: no `cited`.
    const filters = { lang: 'fr', route_aff: false };
    const hash = queryHash(filters, snapshot);
    const legacy = { hash, filters, query: filtersToQuery(filters), snapshot, created_at: '2026-07-01T00:00:00.000Z' };
    writeFileSync(join(dir, 'permalinks.jsonl'), `${JSON.stringify({ k: hash, v: JSON.stringify(legacy) })}\n`);
    const h = await appFor(out, { STATE_DIR: dir });
    try {
      const res = await h.app.inject(`${API}/permalink/${hash}`);
      expect(res.statusCode).toBe(200);
      const p = permalinkResponse.parse(res.json());
      const now = await cohortMeta(h, 'lang=fr&route=no_aff');
      expect(p.total).toBe(now.total);
      expect(p.cited).toEqual({ snapshot, recorded: false, total: null, direct_labels_cover: null, predictions_cover: null });
      expect(p.comparison.status).toBe('not_recorded');
      expect(p.comparison.message).toContain('not recorded');
      // Minting it again does not invent numbers for it: the stored record stays as it was.
      const again = await post(h, 'lang=fr&route=no_aff');
      expect(again.statusCode).toBe(200);
      expect(permalinkResponse.parse(again.json()).cited.recorded).toBe(false);
    } finally {
      await h.close();
    }
  });
});

describe('restart', () => {
  it('a permalink minted by one app resolves in the next app on the same STATE_DIR', async () => {
    const dir = stateDir();
    const a = await appFor(out, { STATE_DIR: dir });
    let minted: Permalink;
    try {
      const res = await post(a, 'type=article&year_from=2015');
      expect(res.statusCode).toBe(201);
      minted = res.json() as Permalink;
    } finally {
      await a.close();
    }
    const b = await appFor(out, { STATE_DIR: dir });
    try {
      const res = await b.app.inject(`${API}/permalink/${minted.hash}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ hash: minted.hash, filters: minted.filters, created_at: minted.created_at, total: minted.total });
      const again = await post(b, 'year_from=2015&type=article');
      expect(again.statusCode).toBe(200);
      expect((again.json() as Permalink).created_at).toBe(minted.created_at);
    } finally {
      await b.close();
    }
  });
});

describe('PUBLIC_ORIGIN', () => {
  const ORIGIN = 'https://research.example.org';
  const HOSTILE = { host: 'attacker.example', 'x-forwarded-proto': 'http' };

  it('pins the origin of every absolute URL in permalinks and exports, whatever Host says', async () => {
    const h = await appFor(out, { STATE_DIR: stateDir(), PUBLIC_ORIGIN: ORIGIN });
    try {
      const minted = await h.app.inject({ method: 'POST', url: `${API}/permalink?year_from=2015`, headers: HOSTILE });
      expect(minted.statusCode).toBe(201);
      const view = minted.json() as { url: string; api: string; cohort: string; minted_snapshot: { cohort: string | null } };
      const resolved = (await h.app.inject({ url: `${API}/permalink/${(minted.json() as Permalink).hash}`, headers: HOSTILE })).json() as typeof view;
      const exported = (await h.app.inject({ url: `${API}/cohort/export?year_from=2015&format=json&route=aff`, headers: HOSTILE })).json() as {
        meta: { permalink: string; api: string };
      };
      const excel = (await h.app.inject({ url: `${API}/cohort/export?year_from=2015&format=csv-excel`, headers: HOSTILE })).body;
      const urls = [
        view.url,
        view.api,
        view.cohort,
        resolved.url,
        resolved.api,
        resolved.cohort,
        exported.meta.permalink,
        exported.meta.api,
        ...[...excel.matchAll(/# (?:query|permalink): ([^\s"]+)/g)].map((m) => m[1]!),
      ];
      expect(urls.length).toBe(10);
      for (const url of urls) expect(new URL(url).origin, url).toBe(ORIGIN);
      expect(JSON.stringify([view, resolved, exported.meta]) + excel).not.toContain('attacker.example');
    } finally {
      await h.close();
    }
  });

  it('unset: the URLs follow the request (scheme and Host), as before', async () => {
    const h = await appFor(out, { STATE_DIR: stateDir() });
    try {
      const minted = (await h.app.inject({ method: 'POST', url: `${API}/permalink?year_from=2015`, headers: { host: 'mirror.example:8443' } })).json() as {
        url: string;
      };
      expect(new URL(minted.url).origin).toBe('http://mirror.example:8443');
    } finally {
      await h.close();
    }
  });

  it('an origin with a path or a trailing slash is refused at start, naming the setting', () => {
    for (const bad of ['https://research.example.org/', 'https://research.example.org/frame', 'research.example.org', 'ftp://x.org'])
      expect(() => loadConfig({ PUBLIC_ORIGIN: bad }), bad).toThrow(/PUBLIC_ORIGIN/);
  });
});

// Replicas: a real redis-server on a free local port, without persistence. Skipped with a reason when the
// binary is missing, except on CI, where a missing binary is a failure.
const redisHere = needProgram('redis-server', 'the replica tests');

describe.skipIf(!redisHere)('replicas sharing Redis', () => {
  let redis: RunningRedis;
  let a: App;
  let b: App;

  beforeAll(async () => {
    redis = await startRedis();
    // Different state directories: only Redis can make them agree.
    a = await appFor(out, { STATE_DIR: stateDir(), REDIS_URL: redis.url });
    b = await appFor(out, { STATE_DIR: stateDir(), REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it("A mints, B resolves; B minting an equivalent spelling gets 200 and A's created_at", async () => {
    const minted = await post(a, 'lang=en&retracted=0&cited_min=5');
    expect(minted.statusCode).toBe(201);
    const m = minted.json() as Permalink;

    const resolved = await b.app.inject(`${API}/permalink/${m.hash}`);
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ hash: m.hash, filters: m.filters, created_at: m.created_at, total: m.total });

    const again = await post(b, 'cited_min=5&lang=EN&retracted=0&_source=replica-b');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ hash: m.hash, created_at: m.created_at });
  });

  it('concurrent POSTs of a new cohort on both replicas: exactly one 201, one permalink', async () => {
    for (const query of ['type=review&year_to=2012', 'route=fund&no_abstract=1', 'q=health&lang=en']) {
      const [ra, rb] = await Promise.all([post(a, query), post(b, query)]);
      expect([ra.statusCode, rb.statusCode].sort(), query).toEqual([200, 201]);
      const [pa, pb] = [ra.json() as Permalink, rb.json() as Permalink];
      expect(pa.hash).toBe(pb.hash);
      expect(pa.created_at).toBe(pb.created_at);
    }
  });
});
