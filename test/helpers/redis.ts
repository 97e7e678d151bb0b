/**
 * A real redis-server for the tests that need one: started per test file on a free local port, without
 * persistence, and stopped by the file. Tests that need it are skipped with a printed reason when the binary is
 * missing, except on CI, where a missing binary is a failure (.ci/run installs it).
 */
import { describe, expect, it } from 'vitest';
import { haveRedisServer } from './redis-server.ts';
import { freePort } from './net.ts';

export { freePort };
export { haveRedisServer, type RunningRedis, startRedis } from './redis-server.ts';

/** Whether this run is on CI (.ci/run sets CI=true); CI=false or CI=0 does not count. */
export const onCi = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Whether the Redis tests of a file can run. When redis-server is missing this prints why `skipped` (e.g.
 * "the replica tests") are skipped, and on CI it adds a test that fails, so that a missing package cannot
 * pass as a skip. Call it at the top level of the test file.
 */
export function redisTestsCanRun(file: string, skipped: string): boolean {
  const have = haveRedisServer();
  if (!have) console.warn(`${file}: redis-server is not on PATH, so ${skipped} are skipped (apt-get install redis-server)`);
  describe.runIf(!have && onCi)('on CI', () => {
    it(`has redis-server installed (.ci/run installs it), so ${skipped} run`, () => {
      expect.fail('redis-server is missing on CI: check DEBIAN_PACKAGES in .ci/run');
    });
  });
  return have;
}
