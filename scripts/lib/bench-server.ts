/**
 * The server as its own process, for the benchmarks that measure it over HTTP (bench:cohort, bench:load), as
 * production runs it: `node --import tsx api-dynamic/src/server.ts` on a free loopback port, ready once `/readyz`
 * answers 200. Tests use test/helpers/server-process.ts instead, which keeps everything the server prints for
 * their assertions; a benchmark's output (minutes of request logs) goes to a file or to the terminal.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../test/helpers/net.ts';

const ROOT = join(import.meta.dirname, '../..');

export interface BenchServer {
  child: ChildProcess;
  base: string;
  /** Seconds from spawn to the first 200 from /readyz. */
  readySeconds: number;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export async function startBenchServer(o: { env: Record<string, string>; nodeArgs?: string[]; logFile?: string }): Promise<BenchServer> {
  const port = await freePort();
  const fd = o.logFile === undefined ? null : openSync(o.logFile, 'w');
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), '--import', 'tsx', join(ROOT, 'api-dynamic/src/server.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WATCH_BUILD: 'false', SITE_DIR: '/nonexistent', ...o.env },
    stdio: fd === null ? ['ignore', 'inherit', 'inherit'] : ['ignore', fd, fd],
  });
  if (fd !== null) closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}${o.logFile ? `; see ${o.logFile}` : ''}`);
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    base,
    readySeconds: (performance.now() - t0) / 1000,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident memory of a process from /proc, MiB. */
export const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
