/**
 * The FAIR rate limiter (tiers, headers, client keys) and its two counter stores held to one contract: the
 * file store under STATE_DIR (restart survival, compaction, a torn line, an unwritable directory) and Redis
 * (atomic across connections and across two processes). The Redis tests start a real redis-server and are
 * skipped with a printed reason when it is missing (a failure on CI).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRateLimitStore } from '../../../api-dynamic/src/services/fair/rate-limit-file-store.ts';
import { RedisRateLimitStore } from '../../../api-dynamic/src/services/fair/rate-limit-redis-store.ts';
import type { RateLimitStore } from '../../../api-dynamic/src/services/fair/rate-limit-store.ts';
import { closeRedis, connectRedis } from '../../../api-dynamic/src/services/state/redis-store.ts';
import { clientAddressKey, openRateLimiter, RateLimiter, rateLimitHeaders, subjectKey } from '../../../api-dynamic/src/services/fair/rate-limit.ts';
import { tempDir } from '../../helpers/fixture-build.ts';
import { type RunningRedis, startRedis } from '../../helpers/redis.ts';
import { needProgram } from '../../helpers/needs.ts';

const ROOT = join(import.meta.dirname, '../../..');
const HOUR = 3_600_000;
const silent = { warn: () => {} };
const tmp = tempDir('fair-rate-limit');
let dirs = 0;
const newDir = () => join(tmp.path, `state-${++dirs}`);
const redisHere = needProgram('redis-server', 'the Redis rate-limit tests');
let redis: RunningRedis | undefined;
let keys = 0;
/** A fresh key per test, so tests sharing one Redis never see each other's counts. */
const freshKey = () => `ip:test-${++keys}-${process.pid}`;

beforeAll(async () => {
  if (redisHere) redis = await startRedis();
});

afterAll(async () => {
  await redis?.stop();
  tmp.remove();
});

/** A controllable clock for the file store. */
function clock(start = Date.UTC(2026, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

interface Backend {
  name: string;
  open(): Promise<RateLimitStore>;
}

const backends: Backend[] = [{ name: 'file', open: () => FileRateLimitStore.open(newDir(), { logger: silent }) }];
if (redisHere) backends.push({ name: 'redis', open: () => RedisRateLimitStore.open({ url: redis!.url, logger: silent }) });

// ---- one contract, both stores ----

describe.each(backends)('$name store', (backend) => {
  const opened: RateLimitStore[] = [];
  const open = async () => {
    const store = await backend.open();
    opened.push(store);
    return store;
  };
  afterAll(async () => {
    for (const s of opened) await s.close();
  });

  it('counts hits up to the limit, then refuses without counting', async () => {
    const store = await open();
    const key = freshKey();
    const results = [];
    for (let i = 0; i < 12; i++) results.push(await store.hit(key, 10, HOUR));
    expect(results.map((r) => r.allowed)).toEqual([...Array(10).fill(true), false, false]);
    expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10]);
    for (const r of results) {
      expect(r.resetMs).toBeGreaterThan(HOUR - 5000);
      expect(r.resetMs).toBeLessThanOrEqual(HOUR);
    }
  });

  it('admits exactly 10 of 50 parallel hits on a limit of 10', async () => {
    const store = await open();
    const key = freshKey();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit(key, 10, HOUR)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(new Set(results.filter((r) => r.allowed).map((r) => r.count))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
  });

  it('peeks without counting', async () => {
    const store = await open();
    const key = freshKey();
    expect(await store.peek(key, 2, HOUR)).toEqual({ allowed: true, count: 0, resetMs: HOUR, window: 0 });
    await store.hit(key, 2, HOUR);
    const [a, b] = await Promise.all([store.peek(key, 2, HOUR), store.peek(key, 2, HOUR)]);
    expect(a).toMatchObject({ allowed: true, count: 1 });
    expect(b).toMatchObject({ allowed: true, count: 1 });
    expect(a.resetMs).toBeLessThanOrEqual(HOUR);
    await store.hit(key, 2, HOUR);
    expect(await store.peek(key, 2, HOUR)).toMatchObject({ allowed: false, count: 2 });
    expect((await store.hit(key, 2, HOUR)).allowed).toBe(false);
  });

  it('release takes one hit back from its own window only, closing a window it empties', async () => {
    const store = await open();
    const key = freshKey();
    const first = await store.hit(key, 2, HOUR);
    const second = await store.hit(key, 2, HOUR);
    expect((await store.hit(key, 2, HOUR)).allowed).toBe(false);
    await store.release(key, second.window);
    expect(await store.peek(key, 2, HOUR)).toMatchObject({ allowed: true, count: 1 });
    expect((await store.hit(key, 2, HOUR)).count).toBe(2);
    await store.release(key, first.window);
    await store.release(key, first.window);
    // Both hits taken back: the window is closed, the next hit opens a fresh one.
    expect(await store.peek(key, 2, HOUR)).toMatchObject({ allowed: true, count: 0, resetMs: HOUR });
    // A release for another window (a stale one) does nothing; one for an empty key neither.
    await store.hit(key, 2, HOUR);
    await store.release(key, first.window - 10 * HOUR);
    await store.release(freshKey(), first.window);
    expect((await store.peek(key, 2, HOUR)).count).toBe(1);
  });

  it('keeps keys apart', async () => {
    const store = await open();
    const [a, b] = [freshKey(), freshKey()];
    await store.hit(a, 1, HOUR);
    expect((await store.hit(a, 1, HOUR)).allowed).toBe(false);
    expect((await store.hit(b, 1, HOUR)).allowed).toBe(true);
  });

  it('refuses malformed keys and limits as programming errors', async () => {
    const store = await open();
    await expect(store.hit('', 1, HOUR)).rejects.toThrow(/invalid rate-limit key/);
    await expect(store.hit('a b', 1, HOUR)).rejects.toThrow(/invalid rate-limit key/);
    await expect(store.hit(freshKey(), 0, HOUR)).rejects.toThrow(/invalid rate limit/);
  });
});

// ---- the file store ----

describe('file store', () => {
  it('survives a restart: the count and the window end carry over', async () => {
    const dir = newDir();
    const t = clock();
    const first = await FileRateLimitStore.open(dir, { logger: silent, now: t.now });
    for (let i = 0; i < 7; i++) await first.hit('ip:1.2.3.4', 10, HOUR);
    await first.close();
    t.advance(10 * 60_000);
    const second = await FileRateLimitStore.open(dir, { logger: silent, now: t.now });
    const after = [];
    for (let i = 0; i < 4; i++) after.push(await second.hit('ip:1.2.3.4', 10, HOUR));
    expect(after.map((r) => [r.allowed, r.count])).toEqual([
      [true, 8],
      [true, 9],
      [true, 10],
      [false, 10],
    ]);
    expect(after[3]!.resetMs).toBe(50 * 60_000); // the window opened before the restart
    await second.close();
  });

  it('survives a restart under parallel load too, and a rate limiter on top reports the same', async () => {
    const dir = newDir();
    const first = new RateLimiter(await FileRateLimitStore.open(dir, { logger: silent }));
    const burst = await Promise.all(Array.from({ length: 50 }, () => first.consume({ tier: 'anonymous', ip: '198.51.100.7' })));
    expect(burst.filter((d) => d.allowed)).toHaveLength(10);
    await first.close();
    const second = await openRateLimiter({ stateDir: dir, logger: silent });
    const next = await second.consume({ tier: 'anonymous', ip: '198.51.100.7' });
    expect(next).toMatchObject({ allowed: false, remaining: 0, limit: 10 });
    await second.close();
  });

  it('a release survives a restart, and never reaches into the next window', async () => {
    const dir = newDir();
    const t = clock();
    const store = await FileRateLimitStore.open(dir, { logger: silent, now: t.now });
    const a = await store.hit('key:a', 3, 1000);
    await store.hit('key:a', 3, 1000);
    await store.release('key:a', a.window);
    const single = await store.hit('key:b', 3, 1000);
    await store.release('key:b', single.window);
    await store.close();
    const reopened = await FileRateLimitStore.open(dir, { logger: silent, now: t.now });
    expect((await reopened.peek('key:a', 3, 1000)).count).toBe(1);
    expect(await reopened.peek('key:b', 3, 1000)).toMatchObject({ count: 0, resetMs: 1000 });
    t.advance(1000);
    const next = await reopened.hit('key:a', 3, 1000);
    await reopened.release('key:a', a.window);
    expect((await reopened.peek('key:a', 3, 1000)).count).toBe(1);
    expect(next.window).toBe(a.window + 1000);
    await reopened.close();
  });

  it('starts a new window when the old one has ended, and forgets ended windows at open', async () => {
    const dir = newDir();
    const t = clock();
    const store = await FileRateLimitStore.open(dir, { logger: silent, now: t.now });
    await store.hit('key:a', 2, 1000);
    await store.hit('key:a', 2, 1000);
    expect((await store.hit('key:a', 2, 1000)).allowed).toBe(false);
    await store.hit('key:b', 2, 5000);
    t.advance(1000);
    expect(await store.hit('key:a', 2, 1000)).toEqual({ allowed: true, count: 1, resetMs: 1000, window: t.now() + 1000 });
    await store.close();
    t.advance(10_000);
    const reopened = await FileRateLimitStore.open(dir, { logger: silent, now: t.now });
    // Both windows had ended: the file was rewritten empty at open.
    expect(readFileSync(reopened.path, 'utf8')).toBe('');
    expect((await reopened.hit('key:b', 2, 5000)).count).toBe(1);
    await reopened.close();
  });

  it('rewrites the journal when it is mostly history', async () => {
    const dir = newDir();
    const t = clock();
    const store = await FileRateLimitStore.open(dir, { logger: silent, now: t.now, compactAfterLines: 20 });
    for (let i = 0; i < 30; i++) {
      await store.hit(`ip:10.0.0.${i}`, 5, 1000);
      t.advance(100); // each key's window ends after ten further keys
    }
    // 30 lines were appended; the rewrite at line 20 kept only the windows still open then.
    const lines = readFileSync(store.path, 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines.some((l) => l.includes('"ip:10.0.0.0"'))).toBe(false);
    expect(lines.some((l) => l.includes('"ip:10.0.0.29"'))).toBe(true);
    await store.close();
  });

  it('skips a torn last line from a crash', async () => {
    const dir = newDir();
    const t = clock();
    const store = await FileRateLimitStore.open(dir, { logger: silent, now: t.now });
    await store.hit('ip:1.1.1.1', 3, HOUR);
    await store.hit('ip:1.1.1.1', 3, HOUR);
    await store.close();
    appendFileSync(store.path, '{"k":"ip:1.1.1.1","e":');
    const warnings: string[] = [];
    const reopened = await FileRateLimitStore.open(dir, { logger: { warn: (m) => warnings.push(m) }, now: t.now });
    expect(warnings.join()).toContain('skipped 1 unreadable line');
    expect((await reopened.hit('ip:1.1.1.1', 3, HOUR)).count).toBe(3);
    await reopened.close();
  });

  it('creates nothing until the first hit', async () => {
    const dir = newDir();
    mkdirSync(dir);
    const store = await FileRateLimitStore.open(dir, { logger: silent });
    expect(existsSync(join(dir, 'fair'))).toBe(false);
    await store.hit('ip:1.1.1.1', 3, HOUR);
    expect(existsSync(join(dir, 'fair', 'rate-limit.jsonl'))).toBe(true);
    await store.close();
  });

  it('keeps counting in memory, with one warning, when the journal cannot be written', async () => {
    const dir = newDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'fair'), 'a file where the directory should be');
    const warnings: string[] = [];
    const store = await FileRateLimitStore.open(dir, { logger: { warn: (m) => warnings.push(m) } });
    const results = await Promise.all(Array.from({ length: 5 }, () => store.hit('ip:1.1.1.1', 3, HOUR)));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('kept in memory only');
    await store.close();
  });
});

// ---- Redis across connections and processes ----

describe.skipIf(!redisHere)('redis store shared by replicas', () => {
  it('admits exactly 10 of 50 hits spread over two connections', async () => {
    const a = await RedisRateLimitStore.open({ url: redis!.url, logger: silent });
    const b = await RedisRateLimitStore.open({ url: redis!.url, logger: silent });
    const key = freshKey();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).hit(key, 10, HOUR)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    await a.close();
    await b.close();
  });

  it('admits exactly 10 of 100 hits from two processes at once', async () => {
    const key = freshKey();
    const workers = [0, 1].map(() => {
      const child = spawn(
        process.execPath,
        [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'test/helpers/fair-limit-worker.ts'), redis!.url, key, '10', '50'],
        {
          cwd: ROOT,
          stdio: ['pipe', 'pipe', 'inherit'],
        },
      );
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      return { child, next: async () => (await lines.next()).value as string };
    });
    for (const w of workers) expect(await w.next()).toBe('ready');
    for (const w of workers) w.child.stdin!.end('go\n');
    const allowed = await Promise.all(workers.map(async (w) => JSON.parse(await w.next()).allowed as number));
    expect(allowed[0]! + allowed[1]!).toBe(10);
    await Promise.all(workers.map((w) => new Promise((resolve) => w.child.once('close', resolve))));
  }, 60_000);

  it('ends a window by Redis time, and treats a key without expiry as ended', async () => {
    const store = await RedisRateLimitStore.open({ url: redis!.url, logger: silent });
    const key = freshKey();
    await store.hit(key, 1, 300);
    expect((await store.hit(key, 1, 300)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 350));
    expect(await store.hit(key, 1, 300)).toMatchObject({ allowed: true, count: 1 });
    // A counter someone wrote without an expiry must not block its client forever.
    const stuck = freshKey();
    const { client } = await connectRedis({ url: redis!.url, logger: silent }, 'test');
    await client.set(`ori:fair-rate:${stuck}`, '999');
    expect(await store.hit(stuck, 1, HOUR)).toMatchObject({ allowed: true, count: 1 });
    expect(await client.pTTL(`ori:fair-rate:${stuck}`)).toBeGreaterThan(HOUR - 5000);
    await closeRedis(client);
    await store.close();
  });

  it('is what openRateLimiter picks with a Redis URL', async () => {
    const limiter = await openRateLimiter({ stateDir: newDir(), redisUrl: redis!.url, logger: silent, anonymousLimit: 2 });
    expect(limiter.description).toMatch(/^redis /);
    const ip = `203.0.113.${keys++ % 250}`;
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.consume({ tier: 'anonymous', ip: `${ip}` }));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    await limiter.close();
  });
});

// ---- the limiter: tiers, headers, client keys ----

describe('rate limiter', () => {
  it('gives anonymous callers 10 and key holders 100 per hour by default, counted apart', async () => {
    const limiter = new RateLimiter(await FileRateLimitStore.open(newDir(), { logger: silent }));
    const anon = await limiter.consume({ tier: 'anonymous', ip: '192.0.2.1' });
    expect(anon).toMatchObject({ allowed: true, tier: 'anonymous', limit: 10, remaining: 9, resetSeconds: 3600 });
    const keyed = await limiter.consume({ tier: 'authenticated', keyName: 'lab' });
    expect(keyed).toMatchObject({ allowed: true, tier: 'authenticated', limit: 100, remaining: 99, resetSeconds: 3600 });
    await limiter.close();
  });

  it('takes configured limits and window, and refuses with Retry-After', async () => {
    const t = clock();
    const limiter = new RateLimiter(await FileRateLimitStore.open(newDir(), { logger: silent, now: t.now }), {
      anonymousLimit: 2,
      authenticatedLimit: 3,
      windowSeconds: 60,
    });
    const subject = { tier: 'anonymous', ip: '192.0.2.1' } as const;
    await limiter.consume(subject);
    t.advance(20_500);
    const second = await limiter.consume(subject);
    expect(second).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 40 });
    expect(rateLimitHeaders(second)).toEqual({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '40' });
    t.advance(39_000);
    const third = await limiter.consume(subject);
    expect(third).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect(rateLimitHeaders(third)).toEqual({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1', 'retry-after': '1' });
    t.advance(600);
    expect((await limiter.consume(subject)).allowed).toBe(true);
    expect(() => new RateLimiter(null as unknown as RateLimitStore, { anonymousLimit: 0 })).toThrow();
    // A peek reports the fresh window without opening it.
    expect(await limiter.peek({ tier: 'authenticated', keyName: 'k' })).toEqual({
      allowed: true,
      tier: 'authenticated',
      limit: 3,
      remaining: 3,
      resetSeconds: 60,
      window: 0,
    });
    expect((await limiter.peek(subject)).remaining).toBe(1);
    await limiter.close();
  });

  it('refund gives the request back in the same window and reports one more left', async () => {
    const limiter = new RateLimiter(await FileRateLimitStore.open(newDir(), { logger: silent }), { anonymousLimit: 2 });
    const subject = { tier: 'anonymous', ip: '192.0.2.9' } as const;
    await limiter.consume(subject);
    const second = await limiter.consume(subject);
    expect(second.remaining).toBe(0);
    expect(await limiter.refund(subject, second)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.peek(subject)).remaining).toBe(1);
    // A refused request was never counted: nothing to give back.
    await limiter.consume(subject);
    const refused = await limiter.consume(subject);
    expect(await limiter.refund(subject, refused)).toBe(refused);
    expect((await limiter.peek(subject)).remaining).toBe(0);
    await limiter.close();
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped client as IPv4', () => {
    expect(clientAddressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(clientAddressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(clientAddressKey('[::1]')).toBe('::/64');
    expect(subjectKey({ tier: 'anonymous', ip: '::ffff:192.0.2.1' })).toBe(subjectKey({ tier: 'anonymous', ip: '192.0.2.1' }));
    expect(subjectKey({ tier: 'authenticated', keyName: 'lab' })).toBe('key:lab');
  });
});
