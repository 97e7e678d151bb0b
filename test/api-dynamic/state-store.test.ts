import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api-dynamic/src/config.ts';
import { FileStateStore } from '../../api-dynamic/src/services/state/file-store.ts';
import { openStateStore, WriteThroughStateStore } from '../../api-dynamic/src/services/state/open-store.ts';
import { RedisStateStore } from '../../api-dynamic/src/services/state/redis-store.ts';
import { InvalidStateKeyError, type StateStore } from '../../api-dynamic/src/services/state/store.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { freePort, type RunningRedis, startRedis } from '../helpers/redis.ts';
import { needProgram } from '../helpers/needs.ts';

const tmp = tempDir('state-store');
afterAll(() => tmp.remove());
let dirs = 0;
const freshDir = () => join(tmp.path, `dir-${++dirs}`);

/** A logger that keeps warnings for assertions instead of printing them. */
function recorder() {
  const warnings: string[] = [];
  return { warnings, warn: (m: string) => void warnings.push(m) };
}

describe('file state store', () => {
  it('keeps what it stored across close and reopen', async () => {
    const dir = freshDir();
    const a = await FileStateStore.open(dir);
    expect(await a.putIfAbsent('permalinks', 'k1', 'first')).toEqual({ value: 'first', created: true });
    expect(await a.putIfAbsent('permalinks', 'k2', 'line\nbreak, "quotes", é, 🙂')).toMatchObject({ created: true });
    expect(await a.putIfAbsent('other-ns', 'k1', 'elsewhere')).toMatchObject({ created: true });
    await a.close();
    await expect(a.get('permalinks', 'k1')).rejects.toThrow(/closed/);

    const b = await FileStateStore.open(dir);
    expect(await b.get('permalinks', 'k1')).toBe('first');
    expect(await b.get('permalinks', 'k2')).toBe('line\nbreak, "quotes", é, 🙂');
    expect(await b.get('other-ns', 'k1')).toBe('elsewhere');
    expect(await b.get('permalinks', 'missing')).toBeNull();
    expect(await b.get('never-written', 'k1')).toBeNull();
    await b.close();
    // One line per new key, in the documented shape.
    expect(readFileSync(join(dir, 'permalinks.jsonl'), 'utf8').split('\n')[0]).toBe('{"k":"k1","v":"first"}');
  });

  it('putIfAbsent is idempotent: a second call returns the first value, created=false, and writes nothing', async () => {
    const dir = freshDir();
    const store = await FileStateStore.open(dir);
    await store.putIfAbsent('permalinks', 'k', 'first');
    expect(await store.putIfAbsent('permalinks', 'k', 'second')).toEqual({ value: 'first', created: false });
    expect(readFileSync(join(dir, 'permalinks.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    // Concurrent calls for one new key: exactly one creates it.
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((v) => store.putIfAbsent('permalinks', 'race', v)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.value)).size).toBe(1);
    await store.close();
  });

  it('drops a torn last line with a warning, and later writes start on a fresh line', async () => {
    const dir = freshDir();
    const path = join(dir, 'permalinks.jsonl');
    const first = await FileStateStore.open(dir);
    await first.putIfAbsent('permalinks', 'kept', 'yes');
    await first.close();
    // A crash mid-write: half a line, ending inside a two-byte character.
    const partial = Buffer.from('{"k":"torn","v":"caf\u00e9"}').subarray(0, 24);
    appendFileSync(path, partial);

    const log = recorder();
    const store = await FileStateStore.open(dir, { logger: log });
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toMatch(/permalinks\.jsonl ends with an incomplete line/);
    expect(await store.get('permalinks', 'kept')).toBe('yes');
    expect(await store.get('permalinks', 'torn')).toBeNull();
    await store.putIfAbsent('permalinks', 'after', 'crash');
    await store.close();

    const log2 = recorder();
    const again = await FileStateStore.open(dir, { logger: log2 });
    expect(log2.warnings).toEqual([]);
    expect(await again.get('permalinks', 'after')).toBe('crash');
    expect(await again.get('permalinks', 'kept')).toBe('yes');
    await again.close();
  });

  it('refuses to open a file corrupt before its last line, naming the file and line', async () => {
    const dir = freshDir();
    await (await FileStateStore.open(dir)).close();
    writeFileSync(join(dir, 'permalinks.jsonl'), '{"k":"a","v":"1"}\nnot json\n{"k":"b","v":"2"}\n');
    await expect(FileStateStore.open(dir)).rejects.toThrow(/permalinks\.jsonl line 2 .*corrupt/);
  });

  it('rejects invalid namespaces and keys', async () => {
    const store = await FileStateStore.open(freshDir());
    for (const ns of ['', 'Permalinks', '1abc', '../etc', 'a/b', 'a.b', 'a'.repeat(33)]) {
      await expect(store.get(ns, 'k'), ns).rejects.toBeInstanceOf(InvalidStateKeyError);
      await expect(store.putIfAbsent(ns, 'k', 'v'), ns).rejects.toThrow(/invalid state namespace/);
    }
    await expect(store.putIfAbsent('ok', '', 'v')).rejects.toThrow(/invalid state key/);
    await expect(store.putIfAbsent('ok', 'x'.repeat(513), 'v')).rejects.toThrow(/invalid state key/);
    expect(await store.putIfAbsent('a'.repeat(32), 'k', 'v')).toMatchObject({ created: true });
    await store.close();
  });

  it('is what openStateStore returns without REDIS_URL', async () => {
    const dir = freshDir();
    const store = await openStateStore({ stateDir: dir });
    expect(store).toBeInstanceOf(FileStateStore);
    expect(store.description).toBe(`file ${dir}`);
    await store.close();
  });
});

describe('state configuration', () => {
  it('resolves STATE_DIR and accepts only redis:// or rediss:// for REDIS_URL', () => {
    const config = loadConfig({});
    expect(isAbsolute(config.STATE_DIR)).toBe(true);
    expect(config.STATE_DIR.endsWith('state')).toBe(true);
    expect(config.REDIS_URL).toBeUndefined();
    expect(loadConfig({ REDIS_URL: '' }).REDIS_URL).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'rediss://u:p@h:6380/2' }).REDIS_URL).toBe('rediss://u:p@h:6380/2');
    expect(() => loadConfig({ REDIS_URL: 'http://h:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_URL: '127.0.0.1:6379' })).toThrow(/REDIS_URL/);
  });
});

// Redis: a real redis-server per test file, on a free local port, without persistence.
const haveRedis = needProgram('redis-server', 'the Redis tests');

describe.skipIf(!haveRedis)('redis state store', () => {
  let redis: RunningRedis;
  const open: StateStore[] = [];
  const track = <T extends StateStore>(s: T) => (open.push(s), s);
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
    await redis?.stop();
  });

  it('stores under <prefix>:<namespace>:<key> and is idempotent', async () => {
    const store = track(await RedisStateStore.open({ url: redis.url }));
    expect(store.description).toBe(`redis ${redis.url}`);
    expect(await store.get('permalinks', 'k')).toBeNull();
    expect(await store.putIfAbsent('permalinks', 'k', 'first')).toEqual({ value: 'first', created: true });
    expect(await store.putIfAbsent('permalinks', 'k', 'second')).toEqual({ value: 'first', created: false });
    expect(await store.get('permalinks', 'k')).toBe('first');
    await expect(store.get('Bad', 'k')).rejects.toBeInstanceOf(InvalidStateKeyError);

    const raw = createClient({ url: redis.url });
    await raw.connect();
    expect(await raw.get('ori:permalinks:k')).toBe('first');
    await raw.close();
    const other = track(await RedisStateStore.open({ url: redis.url, prefix: 'other' }));
    expect(await other.get('permalinks', 'k')).toBeNull();
  });

  it('rejects open with a clear message when Redis cannot be reached (no unhandled error event)', async () => {
    const port = await freePort();
    await expect(RedisStateStore.open({ url: `redis://user:secret@127.0.0.1:${port}`, logger: recorder() })).rejects.toThrow(
      new RegExp(`^cannot connect to Redis at redis://user:\\*\\*\\*@127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
    const dir = freshDir();
    await expect(openStateStore({ stateDir: dir, redisUrl: `redis://127.0.0.1:${port}` })).rejects.toThrow(/cannot connect to Redis/);
  });

  it('two replicas (one Redis, two state directories) agree: A creates, B reads and keeps a local copy', async () => {
    const dirB = freshDir();
    const a = track(await openStateStore({ stateDir: freshDir(), redisUrl: redis.url }));
    const b = track(await openStateStore({ stateDir: dirB, redisUrl: redis.url }));
    expect(a).toBeInstanceOf(WriteThroughStateStore);
    expect(a.description).toMatch(new RegExp(`^file .* \\+ redis ${redis.url}$`));

    expect(await a.putIfAbsent('permalinks', 'shared', 'from A')).toEqual({ value: 'from A', created: true });
    expect(await b.get('permalinks', 'shared')).toBe('from A');
    expect(await b.putIfAbsent('permalinks', 'shared', 'from B')).toEqual({ value: 'from A', created: false });
    // B's Redis hit is now in its own directory.
    const localB = await FileStateStore.open(dirB);
    expect(await localB.get('permalinks', 'shared')).toBe('from A');
    await localB.close();
  });

  it('replicas racing on the same new keys get one winner per key', async () => {
    const dirA = freshDir();
    const dirB = freshDir();
    const a = track(await openStateStore({ stateDir: dirA, redisUrl: redis.url }));
    const b = track(await openStateStore({ stateDir: dirB, redisUrl: redis.url }));
    const keys = Array.from({ length: 40 }, (_, i) => `race-${i}`);
    const results = await Promise.all(keys.map((k) => Promise.all([a.putIfAbsent('permalinks', k, `A ${k}`), b.putIfAbsent('permalinks', k, `B ${k}`)])));
    for (const [ra, rb] of results) {
      expect([ra.created, rb.created].filter(Boolean)).toHaveLength(1);
      expect(ra.value).toBe(rb.value);
    }
    // Both local copies hold the winners.
    for (const store of [a, b]) await store.close();
    for (const dir of [dirA, dirB]) {
      const local = await FileStateStore.open(dir);
      for (const [i, k] of keys.entries()) expect(await local.get('permalinks', k)).toBe(results[i]![0].value);
      await local.close();
    }
  });

  it('when Redis goes down, known keys are still read locally and everything else rejects instead of hanging', async () => {
    const own = await startRedis();
    const log = recorder();
    const store = await openStateStore({ stateDir: freshDir(), redisUrl: own.url, logger: log });
    try {
      await store.putIfAbsent('permalinks', 'known', 'here');
      await own.stop();
      expect(await store.get('permalinks', 'known')).toBe('here');
      // A 503 for the request; the log gets which store and command failed.
      await expect(store.get('permalinks', 'unknown')).rejects.toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        status: 503,
        internal: expect.stringMatching(/^state: Redis GET on redis:\/\/127\.0\.0\.1:\d+ failed/),
      });
      await expect(store.putIfAbsent('permalinks', 'new', 'v')).rejects.toMatchObject({ internal: expect.stringMatching(/^state: Redis SET .* failed/) });
      expect(log.warnings.some((w) => w.includes('reconnecting'))).toBe(true);
    } finally {
      await store.close();
    }
  });
});
