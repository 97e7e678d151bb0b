/**
 * A real nginx (Debian's package) serving a static bundle with the configuration `npm run export:static`
 * generated, on a free loopback port, as an unprivileged-style process with every path in its own directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './net.ts';
import { programPath } from './needs.ts';

export interface RunningNginx {
  base: string;
  stop(): Promise<void>;
}

/** Starts nginx with `include <conf>` inside its one server block; waits (up to 10 s) until it answers. */
export async function startNginx(workDir: string, conf: string): Promise<RunningNginx> {
  const nginx = programPath('nginx');
  if (!nginx) throw new Error('nginx is not installed');
  const port = await freePort();
  mkdirSync(join(workDir, 'temp'), { recursive: true });
  const temp = (name: string) => `${name}_temp_path ${join(workDir, 'temp', name)};`;
  const main = join(workDir, 'nginx.conf');
  writeFileSync(
    main,
    [
      'daemon off;',
      // Started as root (CI), nginx's workers would run as nobody and could not read a private temporary dir.
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'worker_processes 1;',
      `pid ${join(workDir, 'nginx.pid')};`,
      `error_log ${join(workDir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${temp(t)}`),
      '  server {',
      `    listen 127.0.0.1:${port};`,
      `    include ${conf};`,
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(nginx, ['-p', workDir, '-c', main], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const giveUp = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    try {
      await fetch(`${base}/`, { redirect: 'manual' });
      break;
    } catch {
      if (Date.now() > giveUp) {
        child.kill('SIGKILL');
        throw new Error(`nginx on port ${port} did not answer: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    base,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
