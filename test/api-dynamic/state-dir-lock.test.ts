/**
 * One server process per STATE_DIR (services/state/dir-lock.ts): a second app or process on the same directory
 * refuses to start, naming the owner and what to do; closing gives the directory back; a lock left by a dead
 * process (or torn) is taken over; several processes racing for a stale lock leave exactly one owner. The
 * two-server-process case (the real server refusing to start) is in test/e2e/state-dir.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE, lockStateDir, StateDirInUseError } from '../../api-dynamic/src/services/state/dir-lock.ts';
import { fairApp } from '../helpers/fair-app.ts';

const ROOT = join(import.meta.dirname, '../..');
const newDir = () => mkdtempSync(join(tmpdir(), 'state-lock-'));
const silent = { warn: () => {} };

/** The pid of a process that has exited (so no process runs under it, barring reuse within the test). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('lockStateDir', () => {
  it('a second lock on a held directory is refused naming the holder; release gives it back', async () => {
    const dir = newDir();
    const lock = await lockStateDir(dir, { logger: silent });
    const holder = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, host: hostname() });
    const refused = await lockStateDir(dir, { logger: silent }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StateDirInUseError);
    expect((refused as Error).message).toContain(`STATE_DIR ${dir} is in use by another server process (pid ${process.pid}, started ${holder.started})`);
    expect((refused as Error).message).toContain('REDIS_URL');
    expect((refused as Error).message).toContain(`delete ${join(dir, LOCK_FILE)}`);
    await lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    await (await lockStateDir(dir, { logger: silent })).release();
  });

  it('takes over a lock whose process is gone, or that is torn, with a warning', async () => {
    const dir = newDir();
    const pid = deadPid();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
    const warnings: string[] = [];
    const lock = await lockStateDir(dir, { logger: { warn: (m) => warnings.push(m) } });
    expect(warnings).toEqual([`state: ${join(dir, LOCK_FILE)} was left by pid ${pid}, which is no longer running; taking it over`]);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await lock.release();
    writeFileSync(join(dir, LOCK_FILE), '{"pid": 12');
    await (await lockStateDir(dir, { logger: silent })).release();
  });

  it("a lock naming this process's own pid that this process does not hold is an earlier incarnation's (a restarted container)", async () => {
    const dir = newDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
    const warnings: string[] = [];
    const lock = await lockStateDir(dir, { logger: { warn: (m) => warnings.push(m) } });
    expect(warnings).toEqual([`state: ${join(dir, LOCK_FILE)} was left by an earlier process with this pid (${process.pid}); taking it over`]);
    await expect(lockStateDir(dir, { logger: silent })).rejects.toBeInstanceOf(StateDirInUseError);
    await lock.release();
  });

  it('a lock written on another host is never taken over', async () => {
    const dir = newDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: 'elsewhere.example', started: '2026-01-01T00:00:00.000Z' }));
    await expect(lockStateDir(dir, { logger: silent })).rejects.toThrow(/on host elsewhere\.example/);
  });

  it('four processes racing for one stale lock: exactly one gets it', async () => {
    const dir = newDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
    const workers = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/state-lock-worker.ts'), dir], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    const lines = workers.map((w) => createInterface({ input: w.stdout! })[Symbol.asyncIterator]());
    try {
      for (const line of lines) expect((await line.next()).value).toBe('ready');
      for (const w of workers) w.stdin!.write('go\n');
      const results = await Promise.all(lines.map(async (line) => JSON.parse((await line.next()).value as string) as { locked: boolean; message?: string }));
      expect(results.filter((r) => r.locked)).toHaveLength(1);
      for (const r of results.filter((x) => !x.locked)) expect(r.message).toMatch(/is in use by another server process/);
    } finally {
      for (const w of workers) w.stdin!.end();
      await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))));
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 60_000);
});

describe('the app takes its STATE_DIR', () => {
  it('a second app on the same STATE_DIR does not start; once the first closes, it does', async () => {
    const dir = newDir();
    const first = await fairApp({ STATE_DIR: dir });
    await expect(fairApp({ STATE_DIR: dir })).rejects.toBeInstanceOf(StateDirInUseError);
    await first.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const second = await fairApp({ STATE_DIR: dir });
    await second.close();
  });
});
