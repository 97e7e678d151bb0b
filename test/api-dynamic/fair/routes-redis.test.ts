/**
 * Two app instances (replicas, each with its own STATE_DIR) sharing one Redis (REDIS_URL): the FAIR rate limit is
 * one count across both, and a Redis outage is a 503 UPSTREAM_UNAVAILABLE for /assess, never unlimited
 * service. Skipped with a printed reason where redis-server is missing (a failure on CI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/cohort.ts';
import { fairApp, type FairApp, fairMockEnv } from '../../helpers/fair-app.ts';
import { type FairMock, startFairMock } from '../../helpers/fair-mock-resolver.ts';
import { type RunningRedis, startRedis } from '../../helpers/redis.ts';
import { needProgram } from '../../helpers/needs.ts';

const redisHere = needProgram('redis-server', 'the FAIR replica rate-limit tests');

describe.skipIf(!redisHere)('FAIR rate limits in Redis, shared by two replicas', () => {
  let redis: RunningRedis;
  let a: FairApp;
  let b: FairApp;
  let mock: FairMock;
  beforeAll(async () => {
    redis = await startRedis();
    // A DOI the mock resolver does not know is a counted 422 after one loopback fetch: cheap and offline.
    mock = await startFairMock();
    a = await fairApp({ REDIS_URL: redis.url, ...fairMockEnv(mock) });
    b = await fairApp({ REDIS_URL: redis.url, ...fairMockEnv(mock) });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
    await mock?.close();
  });

  const post = (app: FairApp, ip: string) =>
    app.app.inject({
      method: 'POST',
      url: '/fair/api/v1/assess',
      headers: { 'content-type': 'application/json' },
      payload: '{"identifier": "10.9999/replica"}',
      remoteAddress: ip,
    });

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

  it('with Redis gone, /assess is 503 UPSTREAM_UNAVAILABLE (no headers, no assessment) and /health says unhealthy (503) with the reason', async () => {
    await redis.stop();
    const res = await post(a, '192.0.2.79');
    const body = expectError(res, 'UPSTREAM_UNAVAILABLE', 503);
    expect(body.message).toMatch(/rate-limit counters cannot be reached/);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    // A malformed request is still a 400, without the headers it cannot look up.
    const bad = await a.app.inject({
      method: 'POST',
      url: '/fair/api/v1/assess',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
      remoteAddress: '192.0.2.79',
    });
    expectError(bad, 'MISSING_PARAMETER');
    // b never probed while Redis was up (a's probe is reused for 30 s): its first probe meets Redis down.
    const health = await b.app.inject('/fair/api/v1/health');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'unhealthy', service: 'fair-assessment', assessmentBackend: true });
    expect(health.json().reasons[0]).toMatch(/^the rate-limit counters cannot be reached \(.+\), so no assessment can be made$/);
  });
});
