import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import { FROZEN_ROUTES } from '../../api-dynamic/src/routes/frame/index.ts';
import { appFor } from '../helpers/app.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { readTable } from '../helpers/oracle.ts';

const tmp = tempDir('app');
let withFiles: Awaited<ReturnType<typeof appFor>>;
let fromDb: Awaited<ReturnType<typeof appFor>>;
let snapshot = '';

beforeAll(async () => {
  const db = await sharedFixture();
  snapshot = db.snapshot;
  withFiles = await appFor((await sharedFixture({ workFiles: true })).out);
  fromDb = await appFor(db.out);
});
afterAll(async () => {
  await withFiles?.close();
  await fromDb?.close();
  tmp.remove();
});

const expectError = (res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }, status: number, code: string) => {
  expect(res.statusCode).toBe(status);
  const body = errorBodySchema.parse(res.json());
  expect(body.code).toBe(code);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return body;
};

describe('frozen documents', () => {
  it.each(FROZEN_ROUTES)('/frame/api/v1/%s: 200 JSON, cacheable, strong ETag, 304 on match', async (path) => {
    const res = await withFiles.app.inject(`/frame/api/v1/${path}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, s-maxage=3600, stale-while-revalidate=86400');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-snapshot']).toBe(withFiles.store.current.snapshotId);
    expect(res.headers['x-request-id']).toBeTruthy();
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"fixture-[0-9a-f]{12}\.[0-9a-f]{16}"$/);
    expect(res.json().meta.snapshot.id).toBe(withFiles.store.current.snapshotId);
    const again = await withFiles.app.inject({
      url: `/frame/api/v1/${path}`,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('rejects any parameter but ignores _-prefixed ones', async () => {
    const body = expectError(await withFiles.app.inject('/frame/api/v1/stats/summary?year=2020'), 400, 'UNKNOWN_PARAMETER');
    expect(body.message).toContain('"year"');
    expect((await withFiles.app.inject('/frame/api/v1/stats/summary?_=123')).statusCode).toBe(200);
  });

  it('serves summary numbers equal to the snapshot rows', async () => {
    const works = readTable(snapshot, 'works.csv');
    const s = (await withFiles.app.inject('/frame/api/v1/stats/summary')).json();
    expect(s.works).toBe(works.length);
    expect(s.no_aff).toBe(works.filter((w) => w.route_ca_aff === 'false').length);
  });

  it('findings are the snapshot file verbatim', async () => {
    const f = (await withFiles.app.inject('/frame/api/v1/findings')).json();
    const { readFileSync } = await import('node:fs');
    expect(f.findings).toEqual(JSON.parse(readFileSync(join(snapshot, 'findings.json'), 'utf8')));
    expect(f.meta.count).toBe(32);
  });
});

describe('work records', () => {
  it('are the same bytes as the static per-work documents, with or without them in the build', async () => {
    const { readFileSync } = await import('node:fs');
    const works = readTable(snapshot, 'works.csv');
    for (const w of works.filter((_, i) => i % 250 === 0)) {
      const a = await withFiles.app.inject(`/frame/api/v1/works/${w.id}`);
      const b = await fromDb.app.inject(`/frame/api/v1/works/${w.id}`);
      expect(a.statusCode).toBe(200);
      // What a static host would serve for the same URL.
      expect(a.body).toBe(readFileSync(join(withFiles.store.outDir, 'current', 'frame/api/v1/works', `${w.id}.json`), 'utf8'));
      expect(b.body).toBe(a.body);
      expect(b.headers.etag).toBe(a.headers.etag);
    }
  });

  it('400 for a malformed id, 404 for an unknown one, 400 for unknown parameters', async () => {
    for (const app of [withFiles.app, fromDb.app]) {
      expectError(await app.inject('/frame/api/v1/works/X12'), 400, 'INVALID_PARAMETER');
      expectError(await app.inject('/frame/api/v1/works/W0012'), 400, 'INVALID_PARAMETER');
      expectError(await app.inject("/frame/api/v1/works/W1'%20OR%201=1"), 400, 'INVALID_PARAMETER');
      expectError(await app.inject('/frame/api/v1/works/W1'), 404, 'NOT_FOUND');
      expectError(await app.inject('/frame/api/v1/works/W2000000000?format=xml'), 400, 'UNKNOWN_PARAMETER');
    }
  });
});

describe('conventions on every route', () => {
  it('unknown paths get the JSON 404 body', async () => {
    const body = expectError(await withFiles.app.inject('/frame/api/v1/no-such-thing'), 404, 'NOT_FOUND');
    expect(body.message).toContain('/frame/api/v1/no-such-thing');
  });

  it('preflight lists the methods the route has', async () => {
    const res = await withFiles.app.inject({ method: 'OPTIONS', url: '/frame/api/v1/stats/summary' });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('keeps a sane caller request id and replaces an unsafe one', async () => {
    const ok = await withFiles.app.inject({
      url: '/frame/api/v1/findings',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(ok.headers['x-request-id']).toBe('abc-123');
    const bad = await withFiles.app.inject({
      url: '/frame/api/v1/findings',
      headers: { 'x-request-id': 'a b\u0000' },
    });
    expect(bad.headers['x-request-id']).not.toBe('a b\u0000');
  });
});

describe('reload', () => {
  it('switches to a new build while a request on the old one finishes', async () => {
    const out = join(tmp.path, 'reload');
    await fixtureBuild(snapshot, out, false);
    const h = await appFor(out);
    try {
      const first = h.store.current.snapshotId;
      const inFlight = h.store.current.acquire();
      const other = await fixtureSnapshot(tmp.path, { works: 1_000, seed: 99, name: 'other' });
      await fixtureBuild(other, out, false);
      const r = await h.store.reload();
      expect(r.changed).toBe(true);
      expect(h.store.current.snapshotId).not.toBe(first);
      // The old build still answers the request that started on it.
      // (Its database holds the screening sample; its work records are in its cohort index.)
      const reader = await inFlight.db!.runAndReadAll('SELECT count(*)::INTEGER AS n FROM screened');
      expect(reader.getRowObjectsJS()[0]!.n).toBeGreaterThan(0);
      expect(inFlight.cohort.rows).toBe(3_000);
      expect(JSON.parse(inFlight.cohort.record(0)).id).toMatch(/^W\d+$/);
      inFlight.release();
      const res = await h.app.inject('/frame/api/v1/stats/summary');
      expect(res.json().works).toBe(1_000);
      expect(res.headers['x-snapshot']).toBe(h.store.current.snapshotId);
    } finally {
      await h.close();
    }
  });
});

describe('methods and reloads', () => {
  it('a method the route does not have is 405 with Allow', async () => {
    const res = await withFiles.app.inject({ method: 'POST', url: '/frame/api/v1/stats/summary' });
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('reloads run one at a time and end on what current points at', async () => {
    const out = join(tmp.path, 'reload-race');
    await fixtureBuild(snapshot, out, false);
    const h = await appFor(out);
    try {
      const second = await fixtureSnapshot(tmp.path, { works: 500, seed: 5, name: 'second' });
      await fixtureBuild(second, out, false);
      const [a, b] = await Promise.all([h.store.reload(), h.store.reload()]);
      expect(a.changed).toBe(true);
      expect(b.changed).toBe(false);
      expect((await h.app.inject('/frame/api/v1/stats/summary')).json().works).toBe(500);
    } finally {
      await h.close();
    }
  });

  it('a build a server holds is not pruned, and its records do not depend on the static per-work files', async () => {
    const out = join(tmp.path, 'held');
    await fixtureBuild(snapshot, out, true);
    const h = await appFor(out);
    try {
      const held = h.store.current.dir;
      const id = readTable(snapshot, 'works.csv')[5]!.id!;
      const before = (await h.app.inject(`/frame/api/v1/works/${id}`)).body;
      // Two newer builds with keep = 2 would prune the held one, were it not marked as being served.
      for (const seed of [21, 22]) {
        const s = await fixtureSnapshot(tmp.path, { works: 300, seed, name: `newer${seed}` });
        await fixtureBuild(s, out, false);
      }
      const { existsSync, rmSync } = await import('node:fs');
      expect(existsSync(held)).toBe(true);
      rmSync(join(held, 'frame/api/v1/works', `${id}.json`));
      const after = await h.app.inject(`/frame/api/v1/works/${id}`);
      expect(after.statusCode).toBe(200);
      expect(after.body).toBe(before);
    } finally {
      await h.close();
    }
  });
});
