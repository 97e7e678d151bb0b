/**
 * Property-based fuzzing of every route of every service (issue 9): at least 1,000 generated requests per
 * service through inject; every answer is a 2xx/3xx or a 4xx with the shared error body, never a 5xx, never
 * a hang. Larger runs: `npm run fuzz -- --runs 10000`. FUZZ_SEED replays a failure's seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRoutes } from './check.ts';
import { FAIR_IDENTIFIERS, type FuzzTarget, fuzzTarget } from './apps.ts';

const RUNS = 1_000;
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

let t: FuzzTarget;
beforeAll(async () => {
  t = await fuzzTarget();
});
afterAll(async () => t?.close());

describe('fuzzing: never a 5xx, never a hang, errors in the shared body', () => {
  for (const service of ['frame', 'corpus', 'fair'] as const) {
    it(`${service}: ${RUNS} generated requests over every route`, { timeout: 240_000 }, async () => {
      const routes = await t.routes(`/${service}`);
      expect(routes.length).toBeGreaterThan(0);
      const report = await fuzzRoutes(t.app, routes, { runs: RUNS, seed, identifiers: FAIR_IDENTIFIERS });
      expect(report.cases).toBe(RUNS);
      // Every route was reached, and the generator made both answers and refusals.
      expect(Object.keys(report.routes).sort()).toEqual(
        routes
          .map((r) => r.path)
          .filter((p, i, a) => a.indexOf(p) === i)
          .sort(),
      );
      const ok = Object.entries(report.statuses)
        .filter(([s]) => Number(s) < 300)
        .reduce((n, [, c]) => n + c, 0);
      expect(ok).toBeGreaterThan(0);
      expect(RUNS - ok).toBeGreaterThan(0);
      console.log(`fuzz ${service}: ${JSON.stringify(report)}`);
    });
  }
});
