/**
 * The recent layer in a real Redis (REDIS_URL), shared by replicas: a sync stores exactly the designed matches
 * (the fixtures' own route design is the oracle), two apps with separate state directories answer /recent
 * alike and both drop a work the catalogue no longer has after the next sync, and the Redis run lock admits
 * one sync at a time while a crashed holder's lock runs out with its lease. Skipped with a printed reason when
 * redis-server is missing (a failure on CI).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanadianLists } from '../../contracts/frame/canadian-lists.ts';
import { recentResponse, type RecentWork, utcDay } from '../../contracts/frame/recent.ts';
import { type LockOwner, SyncBusyError } from '../../api-dynamic/src/services/frame/recent/layer-store.ts';
import { RedisLayerStore } from '../../api-dynamic/src/services/frame/recent/redis-layer-store.ts';
import { runSync, type SyncOptions } from '../../api-dynamic/src/services/frame/recent/sync.ts';
import { appFor } from '../helpers/app.ts';
import { type DesignedWork, designedId, expectedLayerIds, recentFixture, testSyncOptions } from '../helpers/catalogue-fixtures.ts';
import { expectError } from '../helpers/cohort.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import type { MockCatalogue } from '../helpers/mock-catalogue.ts';
import { type RunningRedis, startRedis } from '../helpers/redis.ts';
import { needProgram } from '../helpers/needs.ts';

const API = '/frame/api/v1';
const redisHere = needProgram('redis-server', 'the Redis recent-layer tests');

describe.skipIf(!redisHere)('the recent layer in Redis', () => {
  const tmp = tempDir('recent-redis');
  const today = utcDay();
  const silentLogger = { warn: () => {} };
  let out = '';
  let lists: CanadianLists;
  let designed: DesignedWork[];
  let mock: MockCatalogue;
  let redis: RunningRedis;
  const stores: RedisLayerStore[] = [];
  type App = Awaited<ReturnType<typeof appFor>>;
  let a: App;
  let b: App;

  beforeAll(async () => {
    ({ out, lists, designed, mock } = await recentFixture(tmp.path, today));
    redis = await startRedis();
  }, 120_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const s of stores) await s.close();
    await redis?.stop();
    await mock?.close();
    tmp.remove();
  });

  beforeEach(() => mock.clearFaults());

  /** A connection of its own, as another process (the sync command, another replica) would have. */
  async function openStore(): Promise<RedisLayerStore> {
    const store = await RedisLayerStore.open({ url: redis.url, logger: silentLogger });
    stores.push(store);
    return store;
  }

  const syncOptions = (store: RedisLayerStore, extra: Partial<SyncOptions> = {}) => testSyncOptions({ lists, mock }, store, extra);

  /** The oracle: designed works (of those given) in the window with at least one designed route. */
  const expectedIds = (days: number, works: DesignedWork[] = designed) => expectedLayerIds(works, today, days);

  /** Every /recent result of an app, page by page. */
  async function fetchAll(h: App): Promise<{ total: number; ids: string[] }> {
    const results: RecentWork[] = [];
    let total = -1;
    for (let page = 1; ; page++) {
      const res = await h.app.inject(`${API}/recent?per_page=100&page=${page}`);
      expect(res.statusCode).toBe(200);
      const body = recentResponse.parse(res.json());
      total = body.meta.total;
      results.push(...body.results);
      if (body.results.length < 100) break;
    }
    expect(results).toHaveLength(total);
    return { total, ids: results.map((w) => w.id) };
  }

  const stateA = join(tmp.path, 'state-a');
  const stateB = join(tmp.path, 'state-b');
  let firstIds: string[] = [];

  it('a sync stores exactly the designed matches in Redis, with their routes, and releases the lock', async () => {
    const store = await openStore();
    const outcome = await runSync(syncOptions(store));
    expect(outcome.status).toBe('succeeded');
    const { version, works } = await store.layer();
    expect(version).toMatch(/^run-1-/);
    expect(works.map((w) => w.id).sort()).toEqual(expectedIds(30));
    const byId = new Map(designed.map((d) => [designedId(d), d]));
    for (const w of works) {
      const d = byId.get(w.id)!;
      expect({ id: w.id, ...w.route_flags }).toEqual({ id: w.id, ...d.expected, invisible_to_affiliation: !d.expected.aff });
      expect(w.has_abstract).toBe(d.abstract !== null);
    }
    // Another connection sees the same layer and run.
    const other = await openStore();
    expect((await other.layer()).works.map((w) => w.id).sort()).toEqual(expectedIds(30));
    expect((await other.runs()).map((r) => [r.id, r.status, r.stored_rows])).toEqual([[1, 'succeeded', works.length]]);
    const probe: LockOwner = { id: 'probe', pid: 1, host: 'test', acquired_at: new Date().toISOString() };
    expect(await other.acquireLock(probe, 1000)).toEqual({ acquired: true });
    await other.releaseLock(probe);
    firstIds = expectedIds(30);
  });

  it('two apps with separate state directories answer /recent alike from Redis', async () => {
    a = await appFor(out, { REDIS_URL: redis.url, RECENT_REFRESH_MS: '0', STATE_DIR: stateA, CATALOGUE_URL: mock.url });
    b = await appFor(out, { REDIS_URL: redis.url, RECENT_REFRESH_MS: '0', STATE_DIR: stateB, CATALOGUE_URL: mock.url });
    const fromA = await fetchAll(a);
    const fromB = await fetchAll(b);
    expect(fromA.total).toBe(firstIds.length);
    expect([...fromA.ids].sort()).toEqual(firstIds);
    expect(fromB).toEqual(fromA);
    // Neither answered from its own directory: no layer file was ever written there.
    expect(existsSync(join(stateA, 'recent', 'works.jsonl'))).toBe(false);
    expect(existsSync(join(stateB, 'recent', 'works.jsonl'))).toBe(false);
  });

  it('after the catalogue loses a matching work, the next sync removes it and both apps drop it', async () => {
    const gone = designed.find((d) => firstIds.includes(designedId(d)))!;
    const remaining = designed.filter((d) => d !== gone);
    mock.setWorks(remaining.map((d) => d.work));
    try {
      const outcome = await runSync(syncOptions(await openStore()));
      expect(outcome.status).toBe('succeeded');
      expect(outcome.run!.removed_rows).toBe(1);
      expect(outcome.run!.stored_rows).toBe(firstIds.length - 1);
      for (const h of [a, b]) {
        const { total, ids } = await fetchAll(h);
        expect(total).toBe(firstIds.length - 1);
        expect([...ids].sort()).toEqual(expectedIds(30, remaining));
        expect(ids).not.toContain(designedId(gone));
        expectError(await h.app.inject(`${API}/recent/${designedId(gone)}`), 'NOT_FOUND', 404);
      }
    } finally {
      mock.setWorks(designed.map((d) => d.work));
    }
  });

  it('refuses a second concurrent sync (another connection) while the first holds the lock', async () => {
    const mark = mock.requests.length;
    mock.fault({ kind: 'hang' });
    const first = runSync(syncOptions(await openStore(), { catalogue: { baseUrl: mock.url, timeoutMs: 400, retries: 3, retryBaseMs: 5, maxDelayMs: 50 } }));
    // Wait until the first sync is really running (it has asked the catalogue), not merely started.
    const until = Date.now() + 10_000;
    while (mock.requests.length === mark && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(mock.requests.length).toBeGreaterThan(mark);
    const second = runSync(syncOptions(await openStore()));
    await expect(second).rejects.toBeInstanceOf(SyncBusyError);
    await expect(second).rejects.toThrow(new RegExp(`another sync is running \\(pid ${process.pid} `));
    const outcome = await first;
    expect(outcome.status).toBe('succeeded');
    expect((await (await openStore()).layer()).works.map((w) => w.id).sort()).toEqual(expectedIds(30));
  });

  it("lets a crashed holder's lock run out with its lease, and the crashed holder cannot renew it after", async () => {
    const store = await openStore();
    const crashed: LockOwner = { id: 'crashed-sync', pid: 999_999, host: 'gone-host', acquired_at: new Date().toISOString() };
    const other = await openStore();
    expect(await store.acquireLock(crashed, 500)).toEqual({ acquired: true });
    // Never released: the next sync (another owner) is refused while the lease lasts...
    await expect(runSync(syncOptions(other))).rejects.toThrow(/another sync is running \(pid 999999 on gone-host/);
    // ...and succeeds once it has run out.
    await new Promise((r) => setTimeout(r, 600));
    const before = (await store.runs())[0]!.id;
    const outcome = await runSync(syncOptions(other));
    expect(outcome.status).toBe('succeeded');
    expect(outcome.run!.id).toBe(before + 1);
    expect(await store.renewLock(crashed, 300)).toBe(false);
  });
});
