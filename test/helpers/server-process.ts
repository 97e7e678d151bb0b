/**
 * The server as its own process (`tsx api-dynamic/src/server.ts`), as production runs it: for the replica,
 * signal and log tests. Waits for the "serving" log line; keeps everything it printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './net.ts';

const ROOT = join(import.meta.dirname, '../..');

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far (pino's JSON lines). */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** SIGKILL unless already gone. */
  kill(): void;
}

export async function startServerProcess(env: Record<string, string>, waitMs = 60_000): Promise<ServerProcess> {
  const port = await freePort();
  // tsx as a loader of this one process (not tsx's CLI, which runs the script in a child process): a signal,
  // SIGKILL included, reaches the server itself, so no orphaned server outlives a test.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'api-dynamic/src/server.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', WATCH_BUILD: 'false', SITE_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const until = Date.now() + waitMs;
  while (!/serving [a-z, ]+ on http/.test(output)) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output.slice(-3000)}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start within ${waitMs} ms:\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
