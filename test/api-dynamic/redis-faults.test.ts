/**
 * Redis unavailable at start and mid-run (issue 9). The server starts anyway and serves what needs no Redis;
 * what needs it answers 503 UPSTREAM_UNAVAILABLE with the shared error body (never a 500, never a hang):
 * creating a permalink, resolving one this process has never seen, a FAIR assessment (the rate limit fails
 * closed). Permalinks this process has seen resolve from its local copy. /readyz says not ready. When Redis
 * comes back, everything works again without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFor } from '../helpers/app.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { freePort, type RunningRedis, startRedis } from '../helpers/redis.ts';
import { needProgram } from '../helpers/needs.ts';

const redisHere = needProgram('redis-server', 'the Redis outage tests');

const post = (app: Awaited<ReturnType<typeof appFor>>['app'], query: string) => app.inject({ method: 'POST', url: `/frame/api/v1/permalink?${query}` });
// A URL whose port refuses: counted (so it needs the counters), then a 422 after one refused connection.
const assess = (app: Awaited<ReturnType<typeof appFor>>['app']) =>
  app.inject({
    method: 'POST',
    url: '/fair/api/v1/assess',
    headers: { 'content-type': 'application/json' },
    payload: '{"identifier":"http://127.0.0.1:1/x"}',
    remoteAddress: '192.0.2.5',
  });

async function eventually(check: () => Promise<boolean>, ms: number, what: string) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!redisHere)('Redis outages', () => {
  let out: string;
  const running: RunningRedis[] = [];
  beforeAll(async () => {
    out = (await sharedFixture({ works: 300, articles: 0 })).out;
  }, 120_000);
  afterAll(async () => {
    for (const r of running) await r.stop();
  });

  it('down at start: the server starts; what needs Redis is 503, the rest is served; Redis back, all works', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const h = await appFor(out, { REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      expect((await h.app.inject('/frame/api/v1/cohort?lang=fr')).statusCode).toBe(200);
      const minted = await post(h.app, 'lang=fr');
      expect(minted.statusCode).toBe(503);
      expect(minted.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', error: 'Upstream unavailable' });
      expect(minted.json().message).not.toContain('127.0.0.1');
      expect(minted.headers['cache-control']).toBe('no-store');
      expect((await h.app.inject('/frame/api/v1/permalink/0123456789abcdef')).statusCode).toBe(503);
      expect((await assess(h.app)).statusCode).toBe(503);
      expect((await h.app.inject('/readyz')).statusCode).toBe(503);
      expect((await h.app.inject('/healthz')).statusCode).toBe(200);

      running.push(await startRedis(port));
      await eventually(async () => (await h.app.inject('/readyz')).statusCode === 200, 20_000, '/readyz after Redis started');
      expect((await post(h.app, 'lang=fr')).statusCode).toBe(201);
      // The rate limiter has its own connection, reconnecting on its own schedule (backoff up to 5 s).
      await eventually(async () => (await assess(h.app)).statusCode === 422, 20_000, 'an assessment after Redis started');
    } finally {
      await h.close();
    }
  });

  it('down mid-run: known permalinks resolve from the local copy, new ones are 503, readyz 503', { timeout: 60_000 }, async () => {
    const redis = await startRedis();
    const h = await appFor(out, { REDIS_URL: redis.url });
    try {
      const minted = await post(h.app, 'year_from=2015');
      expect(minted.statusCode).toBe(201);
      const { hash, total } = minted.json() as { hash: string; total: number };
      await redis.stop();
      const known = await h.app.inject(`/frame/api/v1/permalink/${hash}`);
      expect(known.statusCode).toBe(200);
      expect(known.json().total).toBe(total);
      const fresh = await post(h.app, 'year_from=2016');
      expect(fresh.statusCode).toBe(503);
      expect(fresh.json().code).toBe('UPSTREAM_UNAVAILABLE');
      expect((await assess(h.app)).statusCode).toBe(503);
      expect((await h.app.inject('/readyz')).statusCode).toBe(503);
    } finally {
      await h.close();
    }
  });
});
