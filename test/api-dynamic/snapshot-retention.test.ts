/**
 * Citations across snapshots, end to end on real builds: snapshot A (the fixture) and B (a copy with works
 * removed, added and changed), published one after the other into one build output. Permalinks minted on A
 * keep their numbers after B is published; `snapshot=A` answers exactly what a server started on A alone
 * answers; /changes equals the set difference of the two cohorts computed by the oracle from the CSV rows;
 * once a third build pushes A out of retention, A is 410 Gone with its cited numbers, here and on a replica
 * that never saw A (Redis); a retained build unloads when idle and memory returns to where it was.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import { parseCohortQuery } from '../../contracts/frame/cohort-query.ts';
import { permalinkChangesResponse, permalinkResponse, snapshotsResponse } from '../../contracts/frame/responses.ts';
import { appFor } from '../helpers/app.ts';
import { CohortOracle } from '../helpers/cohort-oracle.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';
import { type RunningRedis, startRedis } from '../helpers/redis.ts';
import { needProgram } from '../helpers/needs.ts';
import { removeTempDirs } from '../helpers/snapshot.ts';
import { type NextVersion, nextSnapshotVersion } from '../helpers/snapshot-versions.ts';

const API = '/frame/api/v1';
type App = Awaited<ReturnType<typeof appFor>>;

/** Cohorts cited in the "paper": broad, narrow, and ones the raised citation counts move works into. */
const COHORTS = ['route=aff', 'lang=en&year_from=2015', 'cited_min=500', 'type=article&route_fund=1', 'q=the', ''];

const tmp = tempDir('snapshot-retention');
const out = join(tmp.path, 'out');
const state = join(tmp.path, 'state');
let snapA = '';
let next: NextVersion;
let idA = '';
let idB = '';
/** Started on A alone, before B exists: the reference for snapshot=A. */
let alone: App;
/** Started on A with one retained build; reloaded onto B, then C. */
let server: App;
const minted = new Map<string, { hash: string; total: number; direct_labels_cover: number; predictions_cover: number }>();

const redisHere = needProgram('redis-server', 'the replica tests');
let redis: RunningRedis | null = null;
let replicas: App[] = [];

beforeAll(async () => {
  // No corpus: only the frame is retained and compared, and the builds are made three times.
  snapA = await fixtureSnapshot(tmp.path, { articles: 0 });
  next = await nextSnapshotVersion(snapA);
  await fixtureBuild(snapA, out, false);
  alone = await appFor(out, { RETAIN_SNAPSHOTS: '0' });
  server = await appFor(out, { STATE_DIR: state, RETAIN_SNAPSHOTS: '1', RETAINED_IDLE_MS: '600000' });
  if (redisHere) {
    redis = await startRedis();
    replicas = [
      await appFor(out, { STATE_DIR: join(tmp.path, 'r1'), REDIS_URL: redis.url, RETAIN_SNAPSHOTS: '1' }),
      await appFor(out, { STATE_DIR: join(tmp.path, 'r2'), REDIS_URL: redis.url, RETAIN_SNAPSHOTS: '1' }),
    ];
  }
  idA = server.store.current.snapshotId;
  // Mint on A: these are the numbers a paper would cite.
  for (const q of COHORTS) {
    const res = await server.app.inject({ method: 'POST', url: `${API}/permalink?${q}` });
    expect(res.statusCode).toBe(201);
    const p = permalinkResponse.parse(res.json());
    expect(p.cited).toEqual({
      snapshot: idA,
      recorded: true,
      total: p.total,
      direct_labels_cover: p.direct_labels_cover,
      predictions_cover: p.predictions_cover,
    });
    minted.set(q, { hash: p.hash, total: p.total, direct_labels_cover: p.direct_labels_cover, predictions_cover: p.predictions_cover });
  }
  // Publish B and switch to it, as the file watcher or SIGHUP would.
  await fixtureBuild(next.dir, out, false);
  for (const app of [server, ...replicas]) expect((await app.store.reload()).changed).toBe(true);
  idB = server.store.current.snapshotId;
}, 900_000);

afterAll(async () => {
  for (const app of [alone, server, ...replicas]) await app?.close();
  await redis?.stop();
  removeTempDirs();
  tmp.remove();
});

const get = (app: App, url: string) => app.app.inject(url);

describe('after B is published, with A retained', () => {
  it('serves B and lists A as retained', async () => {
    expect(idB).not.toBe(idA);
    const res = await get(server, `${API}/snapshots`);
    expect(res.statusCode).toBe(200);
    const body = snapshotsResponse.parse(res.json());
    expect(body.served.id).toBe(idB);
    expect(body.retained.map((r) => r.id)).toEqual([idA]);
  });

  it('a permalink shows the cited numbers beside the counts on B, and says why they differ', async () => {
    const oracleB = new CohortOracle(next.dir);
    let differing = 0;
    for (const q of COHORTS) {
      const m = minted.get(q)!;
      const res = await get(server, `${API}/permalink/${m.hash}`);
      expect(res.statusCode).toBe(200);
      const p = permalinkResponse.parse(res.json());
      const now = oracleB.counts(parseCohortQuery(`/?${q}`, 'permalink').filters);
      expect(p.counted_on).toBe(idB);
      expect({ total: p.total, direct_labels_cover: p.direct_labels_cover, predictions_cover: p.predictions_cover }).toEqual({
        total: now.total,
        direct_labels_cover: now.direct_labels_cover,
        predictions_cover: now.predictions_cover,
      });
      expect(p.cited).toMatchObject({
        snapshot: idA,
        recorded: true,
        total: m.total,
        direct_labels_cover: m.direct_labels_cover,
        predictions_cover: m.predictions_cover,
      });
      // A is retained: the permalink resolves on A too, and gives the cited numbers again.
      expect(p.minted_snapshot).toMatchObject({
        id: idA,
        status: 'retained',
        total: m.total,
        direct_labels_cover: m.direct_labels_cover,
        predictions_cover: m.predictions_cover,
      });
      expect(p.minted_snapshot.changes).toMatch(new RegExp(`/permalink/${m.hash}/changes$`));
      const same = now.total === m.total && now.direct_labels_cover === m.direct_labels_cover && now.predictions_cover === m.predictions_cover;
      expect(p.comparison.status).toBe(same ? 'same' : 'differs');
      if (!same) {
        differing++;
        expect(p.comparison.message).toContain(`minted on ${idA}`);
        expect(p.comparison.message).toContain(`on ${idB}`);
      }
    }
    expect(differing).toBeGreaterThan(2);
  });

  it('snapshot=A answers exactly what a server started on A alone answers', async () => {
    const works = new CohortOracle(snapA).works;
    const urls = [
      ...COHORTS.map((q) => `${API}/cohort?${q}&per_page=100`),
      `${API}/cohort?route=aff&sort=year_desc&page=3`,
      ...['type', 'lang', 'year', 'route', 'venue'].map((f) => `${API}/cohort/facets?facet=${f}&route_aff=1`),
      ...[next.removed[0]!, next.raised[0]!, works[5]!.id].map((id) => `${API}/works/${id}`),
    ];
    for (const url of urls) {
      const [a, b] = await Promise.all([get(alone, url), get(server, `${url}${url.includes('?') ? '&' : '?'}snapshot=${idA}`)]);
      expect(b.statusCode, url).toBe(200);
      expect(b.headers['x-snapshot']).toBe(idA);
      expect(b.body, url).toBe(a.body);
      expect(b.headers.etag).toBe(a.headers.etag);
    }
    // The export streams A's rows (its JSON names the API link with snapshot=, so compare the rows).
    for (const format of ['csv', 'json']) {
      const url = `${API}/cohort/export?route=aff&format=${format}`;
      const [a, b] = await Promise.all([get(alone, url), get(server, `${url}&snapshot=${idA}`)]);
      expect(b.statusCode).toBe(200);
      if (format === 'csv') expect(b.body).toBe(a.body);
      else expect(JSON.parse(b.body).results).toEqual(JSON.parse(a.body).results);
      expect(b.headers['x-cohort-total']).toBe(String(minted.get('route=aff')!.total));
    }
    // A removed work is still on A, and not on B.
    expect((await get(server, `${API}/works/${next.removed[0]}`)).statusCode).toBe(404);
  });

  it('snapshot= naming the served snapshot is the default answer; an unknown one is a 400 naming the kept ones', async () => {
    const [plain, named] = await Promise.all([get(server, `${API}/cohort?route=aff`), get(server, `${API}/cohort?route=aff&snapshot=${idB}`)]);
    expect(named.body).toBe(plain.body);
    for (const url of [
      `${API}/cohort?snapshot=nope-000000000000`,
      `${API}/cohort/facets?facet=type&snapshot=nope`,
      `${API}/works/W1?snapshot=nope`,
      `${API}/cohort/export?snapshot=nope`,
    ]) {
      const res = await get(server, url);
      expect(res.statusCode, url).toBe(400);
      const body = errorBodySchema.parse(res.json());
      expect(body.code).toBe('INVALID_PARAMETER');
      expect(body.details![0]).toMatchObject({ parameter: 'snapshot', allowed: [idB, idA] });
    }
    expect((await get(server, `${API}/cohort?snapshot=a%20b`)).statusCode).toBe(400);
    // Not a filter: the hash is the one of the snapshot that answered.
    const a = (await get(server, `${API}/cohort?route=aff&snapshot=${idA}`)).json() as { meta: { query_hash: string } };
    expect(a.meta.query_hash).toBe(minted.get('route=aff')!.hash);
  });

  it('/changes equals the set difference of the two cohorts computed by the oracle', async () => {
    const oracleA = new CohortOracle(snapA);
    const oracleB = new CohortOracle(next.dir);
    const inA = new Set(oracleA.works.map((w) => w.id));
    const inB = new Set(oracleB.works.map((w) => w.id));
    const titleB = new Map(oracleB.works.map((w) => [w.id, w.title]));
    const titleA = new Map(oracleA.works.map((w) => [w.id, w.title]));
    let changed = 0;
    for (const q of COHORTS) {
      const f = parseCohortQuery(`/?${q}`, 'permalink').filters;
      const a = new Set(oracleA.works.filter((w) => oracleA.matches(w, f)).map((w) => w.id));
      const b = new Set(oracleB.works.filter((w) => oracleB.matches(w, f)).map((w) => w.id));
      const byNum = (x: string, y: string) => Number(x.slice(1)) - Number(y.slice(1));
      const entered = [...b].filter((id) => !a.has(id)).sort(byNum);
      const left = [...a].filter((id) => !b.has(id)).sort(byNum);
      const res = await get(server, `${API}/permalink/${minted.get(q)!.hash}/changes?per_page=50`);
      expect(res.statusCode).toBe(200);
      const c = permalinkChangesResponse.parse(res.json());
      expect(c.meta).toMatchObject({ from: idA, to: idB, per_page: 50 });
      expect(c.from.total).toBe(a.size);
      expect(c.to.total).toBe(b.size);
      expect(c.entered.count).toBe(entered.length);
      expect(c.left.count).toBe(left.length);
      expect(c.entered.new_to_frame).toBe(entered.filter((id) => !inA.has(id)).length);
      expect(c.left.removed_from_frame).toBe(left.filter((id) => !inB.has(id)).length);
      expect(c.entered.results).toEqual(entered.slice(0, 50).map((id) => ({ id, title: titleB.get(id), in_previous_frame: inA.has(id) })));
      expect(c.left.results).toEqual(left.slice(0, 50).map((id) => ({ id, title: titleA.get(id), in_current_frame: inB.has(id) })));
      changed += entered.length + left.length;
    }
    expect(changed).toBeGreaterThan(0);
    const bad = await get(server, `${API}/permalink/${minted.get('')!.hash}/changes?per_page=0`);
    expect(bad.statusCode).toBe(400);
  });

  it.skipIf(!redisHere)('two replicas on Redis agree: cited numbers, snapshot=A answers and changes', async () => {
    const [r1, r2] = replicas;
    // Minted on `server` (its own state dir, no Redis): the replicas do not know these; mint on r1 instead.
    const res = await r1!.app.inject({ method: 'POST', url: `${API}/permalink?route=aff&snapshot=${idA}` });
    expect(res.statusCode).toBe(400); // snapshot= is not a permalink parameter: a permalink is minted on the served snapshot
    const m1 = permalinkResponse.parse((await r1!.app.inject({ method: 'POST', url: `${API}/permalink?lang=fr` })).json());
    const v2 = permalinkResponse.parse((await get(r2!, `${API}/permalink/${m1.hash}`)).json());
    expect(v2).toEqual(m1 && { ...m1, ...v2, cited: m1.cited });
    for (const url of [`${API}/cohort?route=aff&snapshot=${idA}`, `${API}/cohort/facets?facet=lang&snapshot=${idA}`]) {
      const [a, b] = await Promise.all([get(r1!, url), get(r2!, url)]);
      expect(a.statusCode).toBe(200);
      expect(a.body).toBe(b.body);
    }
  });
});

describe('memory', () => {
  it('a retained build loads on first use and unloads when idle; memory returns to its baseline', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const app = await appFor(out, { RETAIN_SNAPSHOTS: '1', RETAINED_IDLE_MS: '200' });
    try {
      const retained = app.store.retained;
      const used = () => {
        gc();
        gc();
        return process.memoryUsage().arrayBuffers;
      };
      expect(retained.info()).toMatchObject([{ id: idA, loaded: false }]);
      const baseline = used();
      let loadedBytes = 0;
      for (let round = 0; round < 4; round++) {
        expect((await get(app, `${API}/cohort?route=aff&snapshot=${idA}`)).statusCode).toBe(200);
        expect(retained.info()[0]!.loaded).toBe(true);
        loadedBytes = retained.loadedBytes;
        expect(loadedBytes).toBeGreaterThan(0);
        const until = Date.now() + 5000;
        while (retained.info()[0]!.loaded && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        expect(retained.info()[0]!.loaded).toBe(false);
        expect(retained.loadedBytes).toBe(0);
      }
      // Four loads and unloads later, the array buffers (the index's columns and bitsets) are back where they were.
      expect(used() - baseline).toBeLessThan(loadedBytes / 2);
      // The served build is never unloaded.
      expect(app.store.current.snapshotId).toBe(idB);
      expect((await get(app, `${API}/cohort?route=aff`)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('over the memory budget, the least recently used retained build is unloaded', async () => {
    const app = await appFor(out, { RETAIN_SNAPSHOTS: '1', RETAINED_MEMORY_MIB: '1' });
    try {
      expect((await get(app, `${API}/cohort?snapshot=${idA}`)).statusCode).toBe(200);
      // One build alone may exceed a tiny budget (it stays while in use), but it is never joined by another.
      expect(app.store.retained.info().filter((r) => r.loaded).length).toBeLessThanOrEqual(1);
    } finally {
      await app.close();
    }
  });
});

describe('after a third build pushes A out of retention', () => {
  let third: NextVersion;
  beforeAll(async () => {
    third = await nextSnapshotVersion(next.dir, { every: 53, add: 5, raiseEvery: 101 });
    await fixtureBuild(third.dir, out, false);
    for (const app of [server, ...replicas]) await app.store.reload();
  }, 900_000);

  it('snapshot=A is 410 Gone with the cited numbers and when it was dropped', async () => {
    expect(server.store.retained.ids).toEqual([idB]);
    for (const q of COHORTS) {
      const m = minted.get(q)!;
      const res = await get(server, `${API}/cohort?${q}${q ? '&' : ''}snapshot=${idA}`);
      expect(res.statusCode).toBe(410);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = errorBodySchema.parse(res.json());
      expect(body.code).toBe('GONE');
      expect(body.gone).toMatchObject({
        snapshot: idA,
        cited: { hash: m.hash, total: m.total, direct_labels_cover: m.direct_labels_cover, predictions_cover: m.predictions_cover },
      });
      expect(body.gone!.dropped_at).toMatch(/^\d{4}-/);
    }
    // A cohort nobody minted on A: still 410, without cited numbers.
    const res = await get(server, `${API}/cohort?lang=fr&year_to=2001&snapshot=${idA}`);
    expect(res.statusCode).toBe(410);
    expect(errorBodySchema.parse(res.json()).gone!.cited).toBeNull();
    expect((await get(server, `${API}/works/W1?snapshot=${idA}`)).statusCode).toBe(410);
    // The pipeline may now prune A: this server no longer marks it.
    const dirA = readdirSync(join(out, 'builds')).find(
      (d) => d.startsWith('fixture-') && existsSync(join(out, 'builds', d, `.retained-${process.pid}`)) && d.includes(idA),
    );
    expect(dirA).toBeUndefined();
  });

  it('the permalink page keeps the cited numbers and says A is gone; /changes is 410', async () => {
    const m = minted.get('route=aff')!;
    const p = permalinkResponse.parse((await get(server, `${API}/permalink/${m.hash}`)).json());
    expect(p.cited).toMatchObject({ recorded: true, total: m.total });
    expect(p.minted_snapshot).toMatchObject({ id: idA, status: 'gone', cohort: null, changes: null, total: null });
    const c = await get(server, `${API}/permalink/${m.hash}/changes`);
    expect(c.statusCode).toBe(410);
    expect(errorBodySchema.parse(c.json()).gone).toMatchObject({ snapshot: idA, cited: { total: m.total } });
  });

  it.skipIf(!redisHere)('replicas agree that A is gone, and a fresh replica that never served A knows it through Redis', async () => {
    const fresh = await appFor(out, { STATE_DIR: join(tmp.path, 'r3'), REDIS_URL: redis!.url, RETAIN_SNAPSHOTS: '0' });
    try {
      for (const app of [...replicas, fresh]) {
        const res = await get(app, `${API}/cohort?snapshot=${idA}`);
        expect(res.statusCode).toBe(410);
      }
      // A never-served id is still a 400 everywhere.
      expect((await get(fresh, `${API}/cohort?snapshot=never-000000000000`)).statusCode).toBe(400);
    } finally {
      await fresh.close();
    }
  });
});
