/**
 * Two server processes on different ports sharing one Redis (issue 9): a permalink minted on one resolves on
 * the other; the anonymous FAIR tier is one count across both (the 11th call is 429, from either); keys and
 * Authorization headers never reach the logs; /readyz on both. Skipped with a printed reason where
 * redis-server is missing (a failure on CI).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fairMockEnv } from '../helpers/fair-app.ts';
import { type FairMock, startFairMock } from '../helpers/fair-mock-resolver.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { type RunningRedis, startRedis } from '../helpers/redis.ts';
import { needProgram } from '../helpers/needs.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';

const redisHere = needProgram('redis-server', 'the two-process replica tests');

describe.skipIf(!redisHere)('two server processes sharing one Redis', () => {
  let redis: RunningRedis;
  let mock: FairMock;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    const { out } = await sharedFixture({ works: 300, articles: 0 });
    redis = await startRedis();
    mock = await startFairMock();
    const env = (name: string) => ({
      BUILD_OUTPUT: out,
      STATE_DIR: mkdtempSync(join(tmpdir(), `replica-${name}-`)),
      REDIS_URL: redis.url,
      ...fairMockEnv(mock),
    });
    [a, b] = await Promise.all([startServerProcess(env('a')), startServerProcess(env('b'))]);
  }, 180_000);
  afterAll(async () => {
    a?.kill();
    b?.kill();
    await mock?.close();
    await redis?.stop();
  });

  it('both are ready, on the same snapshot, with the Redis store', async () => {
    const [ra, rb] = await Promise.all([fetch(`${a.base}/readyz`), fetch(`${b.base}/readyz`)]);
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    const [ja, jb] = (await Promise.all([ra.json(), rb.json()])) as { snapshot: string; state: string }[];
    expect(ja!.snapshot).toBe(jb!.snapshot);
    expect(ja!.state).toContain('redis');
  });

  it('a permalink minted on one process resolves on the other, with the same counts', async () => {
    const minted = await fetch(`${a.base}/frame/api/v1/permalink?lang=fr&year_from=2010`, { method: 'POST' });
    expect(minted.status).toBe(201);
    const link = (await minted.json()) as { hash: string; total: number };
    const resolved = await fetch(`${b.base}/frame/api/v1/permalink/${link.hash}`);
    expect(resolved.status).toBe(200);
    expect(((await resolved.json()) as { hash: string; total: number }).total).toBe(link.total);
    // Minting the same cohort on the other process is the same permalink, not a new one.
    const again = await fetch(`${b.base}/frame/api/v1/permalink?year_from=2010&lang=fr`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { hash: string }).hash).toBe(link.hash);
  });

  it('the anonymous FAIR tier is global: 10 calls spread over both, the 11th is 429 from either', async () => {
    const secret = 'not-a-real-key-3f9c2a7d41b6e8f0';
    const post = (s: ServerProcess, auth = false) =>
      fetch(`${s.base}/fair/api/v1/assess`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${secret}` } : {}) },
        body: JSON.stringify({ identifier: '10.9999/replica-process' }),
      });
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await post(i % 2 === 0 ? a : b);
      expect(r.status).toBe(422);
      remaining.push(r.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    for (const s of [a, b]) {
      const refused = await post(s);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');
    }
    // An unknown key is refused (400, docs/api-fair.md), without echoing it, and it is in no log line.
    const keyed = await post(a, true);
    expect(keyed.status).toBe(400);
    const refusal = await keyed.text();
    expect(refusal).toContain('Authorization:');
    expect(refusal).not.toContain(secret);
    await new Promise((r) => setTimeout(r, 200));
    expect(a.output()).toContain('"reqId"');
    expect(a.output() + b.output()).not.toContain(secret);
  });
});
