/**
 * Two real server processes on one STATE_DIR (issue 20 §1): the second refuses to start, with a message naming
 * the first and what to do, instead of counting the anonymous FAIR tier on its own. After the first dies
 * without closing (SIGKILL) its lock is stale: the next server takes it over and goes on counting from the
 * journal the first left; a server stopped with SIGTERM gives the directory back.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fairMockEnv } from '../helpers/fair-app.ts';
import { type FairMock, startFairMock } from '../helpers/fair-mock-resolver.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';

describe('two server processes on one STATE_DIR', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'shared-state-'));
  let mock: FairMock;
  let env: Record<string, string>;
  const running: ServerProcess[] = [];
  beforeAll(async () => {
    const { out } = await sharedFixture({ works: 300, articles: 0 });
    mock = await startFairMock();
    env = { BUILD_OUTPUT: out, STATE_DIR: stateDir, ...fairMockEnv(mock) };
  }, 180_000);
  afterAll(async () => {
    for (const s of running) s.kill();
    await mock?.close();
  });

  const assess = (s: ServerProcess, identifier: string) =>
    fetch(`${s.base}/fair/api/v1/assess`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier }) });

  it('the second refuses to start; after a SIGKILL the next takes over and counts on; SIGTERM gives the directory back', async () => {
    const first = await startServerProcess(env);
    running.push(first);
    for (let i = 0; i < 3; i++) expect((await assess(first, `10.9999/first-${i}`)).status).toBe(422);

    const second = await startServerProcess(env).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(second).toMatch(/exited with 1/);
    expect(second).toContain(`server: cannot start: STATE_DIR ${stateDir} is in use by another server process (pid ${first.child.pid},`);
    expect(second).toContain('Give this process its own STATE_DIR (replicas share state through REDIS_URL), or stop the other one.');

    first.kill();
    await first.exited;
    const third = await startServerProcess(env);
    running.push(third);
    expect(third.output()).toContain(`was left by pid ${first.child.pid}, which is no longer running; taking it over`);
    // The first process's three counted requests are still counted: one count for the directory.
    const res = await assess(third, '10.9999/third');
    expect(res.status).toBe(422);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('6');

    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(existsSync(join(stateDir, 'server.lock'))).toBe(false);
  }, 120_000);
});
