/**
 * A real redis-server on a free local port, without persistence: for tests (through redis.ts, which adds the
 * skip-or-fail rule) and for `npm run bench:load`. No vitest here, so scripts can import it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './net.ts';

/** Whether redis-server is on PATH. */
export function haveRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).error === undefined;
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
