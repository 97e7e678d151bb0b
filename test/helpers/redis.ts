/**
 * A real redis-server for the tests that need one: started per test file on a free local port, without
 * persistence, and stopped by the file. Tests that need it are skipped with a printed reason when the binary is
 * missing, except on CI, where a missing binary is a failure (.ci/run installs it).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './net.ts';

export { freePort };

/** Whether redis-server is on PATH. */
export function haveRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).error === undefined;
}

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

/** Whether a server on the port answers an inline PING with +PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let text = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\r\n')) finish(text.startsWith('+PONG'));
    });
  });
}

export interface RunningRedis {
  url: string;
  port: number;
  /** SIGTERM (unless it has already exited), then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts redis-server on a free port (or `atPort`) and waits (up to 10 s) until it answers PING. */
export async function startRedis(atPort?: number): Promise<RunningRedis> {
  const port = atPort ?? (await freePort());
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const giveUp = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null || Date.now() > giveUp) {
      child.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} never answered PING: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
