/**
 * Two app instances (replicas, each with its own STATE_DIR) sharing one Redis (REDIS_URL): the FAIR rate limit is
 * one count across both, and a Redis outage is a 503 UPSTREAM_UNAVAILABLE for /assess, never unlimited
 * service. Skipped with a printed reason where redis-server is missing (a failure on CI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/cohort.ts';
import { fairApp, type FairApp } from '../../helpers/fair-app.ts';
import { redisTestsCanRun, type RunningRedis, startRedis } from '../../helpers/redis.ts';

const redisHere = redisTestsCanRun('routes-redis.test.ts', 'the FAIR replica rate-limit tests');

describe.skipIf(!redisHere)('FAIR rate limits in Redis, shared by two replicas', () => {
  let redis: RunningRedis;
  let a: FairApp;
  let b: FairApp;
  beforeAll(async () => {
    redis = await startRedis();
    // An identifier without a resolver is a 422 after counting and before any fetch: cheap and offline.
    a = await fairApp({ REDIS_URL: redis.url });
    b = await fairApp({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  const post = (app: FairApp, ip: string) =>
    app.app.inject({ method: 'POST', url: '/fair/api/v1/assess', headers: { 'content-type': 'application/json' }, payload: '{"identifier": "urn:example:replica"}', remoteAddress: ip });

  it('one client spread over both replicas gets 10 in all, counting 9..0, then 429 from either', async () => {
    const ip = '192.0.2.77';
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await post(i % 2 === 0 ? a : b, ip);
      expect(res.statusCode).toBe(422);
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    for (const app of [a, b]) {
      const refused = await post(app, ip);
      expectError(refused, 'RATE_LIMITED', 429);
      expect(refused.headers['retry-after']).toBe(refused.headers['x-ratelimit-reset']);
    }
  });

  it('parallel requests on both replicas never pass the limit together', async () => {
    const ip = '192.0.2.78';
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => post(i % 2 === 0 ? a : b, ip)));
    expect(answers.filter((r) => r.statusCode === 422)).toHaveLength(10);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(6);
  });

  it('with Redis gone, /assess is 503 UPSTREAM_UNAVAILABLE (no headers, no assessment) and /health still answers', async () => {
    await redis.stop();
    const res = await post(a, '192.0.2.79');
    const body = expectError(res, 'UPSTREAM_UNAVAILABLE', 503);
    expect(body.message).toMatch(/rate-limit counters cannot be reached/);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    // A malformed request is still a 400, without the headers it cannot look up.
    const bad = await a.app.inject({ method: 'POST', url: '/fair/api/v1/assess', headers: { 'content-type': 'application/json' }, payload: '{}', remoteAddress: '192.0.2.79' });
    expectError(bad, 'MISSING_PARAMETER');
    expect((await a.app.inject('/fair/api/v1/health')).statusCode).toBe(200);
  });
});
