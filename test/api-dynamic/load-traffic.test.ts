/**
 * The request mixes of `npm run bench:load` (scripts/load/traffic.ts) are valid traffic: every generated
 * request, thousands of random cohorts included, answers 2xx on a fixture build. A benchmark that counted
 * 400s as throughput, or a soak that reported "no errors" over requests the server refuses, would measure
 * nothing; and random valid cohorts are a property of the API worth holding: no combination of valid filters,
 * sorts and pages is refused or fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../pipeline/generate/prng.ts';
import { cohortRequest, collectPools, type LoadRequest, type Pools, type SoakState, soakRequest, staticPaths } from '../../scripts/load/traffic.ts';
import { appFor } from '../helpers/app.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';

describe('the load benchmark traffic', () => {
  let app: Awaited<ReturnType<typeof appFor>>;
  let pools: Pools;
  const send = (r: LoadRequest) =>
    app.app.inject({
      method: r.method,
      url: r.path,
      headers: r.headers,
      payload: r.body,
    });

  beforeAll(async () => {
    app = await appFor((await sharedFixture()).out);
    pools = await collectPools(async (path) => {
      const res = await app.app.inject(path);
      expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
      return res.json();
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('reads every pool from the build', () => {
    for (const [name, pool] of Object.entries(pools)) if (Array.isArray(pool)) expect(pool.length, name).toBeGreaterThan(0);
    expect(pools.years.min).toBeLessThan(pools.years.max);
  });

  it('serves every frozen document', async () => {
    for (const path of staticPaths(pools)) expect((await app.app.inject(path)).statusCode, path).toBe(200);
  });

  it('answers 3,000 random cohort-family requests with 2xx, and they are mostly distinct', async () => {
    const rng = new Rng(7, 1);
    const seen = new Set<string>();
    const kinds = new Set<string>();
    for (let i = 0; i < 3_000; i++) {
      const r = cohortRequest(rng, pools);
      seen.add(r.path);
      kinds.add(r.kind);
      const res = await send(r);
      expect(res.statusCode, `${r.path}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    }
    expect([...kinds].sort()).toEqual(['cohort', 'cohort facets', 'typeahead', 'works']);
    expect(seen.size).toBeGreaterThan(2_000);
  }, 120_000);

  it('answers 2,000 requests of the soak mix with 2xx, permalinks minted then resolved', async () => {
    const rng = new Rng(7, 2);
    const state: SoakState = { hashes: [], fairDois: 1, fairNext: 0 };
    const kinds = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) {
      // No FAIR upstream here (bench:fair and the FAIR suites cover assessments): null leaves them out.
      const r = soakRequest(rng, pools, state, null);
      kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
      const res = await send(r);
      expect(res.statusCode, `${r.method} ${r.path}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
      if (r.kind === 'permalink mint') state.hashes.push(res.json<{ hash: string }>().hash);
    }
    for (const kind of ['static', 'cohort', 'work record', 'network', 'screened', 'excerpts', 'article', 'permalink mint', 'permalink resolve', 'export'])
      expect(kinds.get(kind), kind).toBeGreaterThan(0);
  }, 120_000);
});
