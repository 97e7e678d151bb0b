/**
 * A client that disconnects in the middle of a 100,000-row export (issue 9): the export stops being produced
 * (the build is released by the stream at once, not after 100,000 rows), and memory returns to its baseline.
 * The fixture is the largest of the suite (100,050 works, shared with test/api-dynamic/cohort-export.test.ts).
 */
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFor } from '../helpers/app.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage();
};

describe('a client disconnecting mid-export', () => {
  let h: Awaited<ReturnType<typeof appFor>>;
  let base: string;
  beforeAll(async () => {
    h = await appFor((await sharedFixture({ works: 100_050 })).out);
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  }, 600_000);
  afterAll(async () => {
    await h?.close();
  });

  /** Reads `chunks` chunks of a 100,000-row export, then drops the connection; the bytes it got. */
  const readThenDrop = (chunks: number) =>
    new Promise<{ bytes: number; rows: number }>((resolve, reject) => {
      const req = request(`${base}/frame/api/v1/cohort/export?format=csv`, (res) => {
        const rows = Number(res.headers['x-export-rows']);
        let seen = 0;
        let bytes = 0;
        res.on('data', (d: Buffer) => {
          bytes += d.length;
          if (++seen === chunks) {
            req.destroy();
            resolve({ bytes, rows });
          }
        });
        res.on('error', () => {});
      });
      req.on('error', (err) => {
        if (!req.destroyed) reject(err);
      });
      req.end();
    });

  it('stops producing rows and releases the build; memory returns to its baseline', { timeout: 120_000 }, async () => {
    // Warm up once (first-use allocations are not a leak), then take the baseline.
    await readThenDrop(3);
    await new Promise((r) => setTimeout(r, 300));
    const before = await settle();

    for (let i = 0; i < 10; i++) {
      const got = await readThenDrop(3);
      expect(got.rows).toBe(100_000);
      // Wait for the server side to notice: the export stream closes and releases the build.
      const until = Date.now() + 5_000;
      while (h.store.current.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect(h.store.current.inFlight).toBe(0);
      // A whole export is ~100,000 lines of CSV (megabytes); the client took three chunks of it.
      expect(got.bytes).toBeLessThan(1_000_000);
    }
    const after = await settle();
    const grown = (after.heapUsed - before.heapUsed) / before.heapUsed;
    console.log(
      `export disconnect: heapUsed ${(before.heapUsed / 2 ** 20).toFixed(1)} → ${(after.heapUsed / 2 ** 20).toFixed(1)} MiB (${(grown * 100).toFixed(1)}%), rss ${(before.rss / 2 ** 20).toFixed(0)} → ${(after.rss / 2 ** 20).toFixed(0)} MiB`,
    );
    expect(grown).toBeLessThan(0.1);
  });
});
