/**
 * One server process per state directory (docs/operations.md "One process per STATE_DIR").
 *
 * The embedded stores under STATE_DIR (permalinks, the recent layer, the FAIR rate-limit journal) keep their
 * state in memory and write files as a journal for the next start; they never reread them while running. Two
 * processes on one directory would each count the anonymous tier alone while the journal held both. Rather
 * than make every store lock and reread on each write, a server takes the directory for itself at start:
 * `<STATE_DIR>/server.lock`, created exclusively (O_EXCL), holding the owner's pid, host and start time, and
 * removed when the server closes. A second server on the same directory refuses to start with a message that
 * names the owner and what to do. Replicas share state through Redis (REDIS_URL), each with its own directory.
 *
 * A lock left by a process that died without closing (SIGKILL, power loss) is recognised by its pid no longer
 * running on this host (or being this very process's pid while this process holds no such lock: a container
 * restarted with the server as pid 1 again) and taken over, with a warning. Two processes taking over the same stale lock at once
 * are serialized by a second exclusive file (`server.lock.takeover`), so only one of them wins. A lock written
 * on another host (a shared network directory) cannot be checked and is always refused.
 */
import { hostname } from 'node:os';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { pidIsAlive } from '../../../../contracts/common/local-files.ts';
import type { StateLogger } from './store.ts';

export const LOCK_FILE = 'server.lock';

const holderSchema = z.object({ pid: z.number().int().positive(), host: z.string(), started: z.string() });
type Holder = z.infer<typeof holderSchema>;

/**
 * Lock files this process holds. A lock naming this process's own pid that is not in here was left by an earlier
 * process that had the same pid: typically the server as pid 1 of a container restarted after a crash.
 */
const heldHere = new Set<string>();

/** A takeover file older than this was left by a process that died mid-takeover; it is removed. */
const STALE_TAKEOVER_MS = 10_000;

/** Another live process holds the state directory. */
export class StateDirInUseError extends Error {
  override name = 'StateDirInUseError';
  constructor(
    readonly dir: string,
    readonly lockPath: string,
    readonly holder: Holder,
  ) {
    const where = holder.host === hostname() ? `pid ${holder.pid}` : `pid ${holder.pid} on host ${holder.host}`;
    super(
      `STATE_DIR ${dir} is in use by another server process (${where}, started ${holder.started}). Two processes must not share one state directory: each would keep its own rate-limit counts and permalinks in memory. Give this process its own STATE_DIR (replicas share state through REDIS_URL), or stop the other one. If no such process is running, delete ${lockPath}.`,
    );
  }
}

export interface StateDirLock {
  readonly path: string;
  /** Removes the lock file if it is still this process's. */
  release(): Promise<void>;
}

/** The lock file's JSON; null when it is torn (a crash while it was being written) or not JSON; 'absent'. */
async function readHolder(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const exists = (err: unknown) => (err as NodeJS.ErrnoException).code === 'EEXIST';
let staging = 0;

/**
 * The one lock protocol with stale-owner detection (the state directory's `server.lock`, the recent layer's run
 * lock): takes the lock file `path`, writing `text` into it, unless `live(holder)` says the holder written there
 * (its parsed JSON, null when torn) still holds it. The lock appears whole or not at all: written to a staged file
 * of this call's, then linked into place (link fails when the name exists, as O_EXCL does); created and then
 * written, a racing contender could read it empty, take it for a torn lock of a dead process and remove it while
 * its owner runs. A stale lock is removed only by the contender holding `<path>.takeover` (created exclusively),
 * and only if it is still the one judged stale, so two contenders never both take it over.
 */
export async function takeLockFile(
  path: string,
  text: string,
  live: (holder: unknown) => boolean,
  onTakeover: (holder: unknown) => void,
): Promise<{ taken: true } | { taken: false; holder: unknown }> {
  const takeover = `${path}.takeover`;
  const staged = `${path}.${process.pid}-${staging++}.staged`;
  await writeFile(staged, text);
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        await link(staged, path);
        return { taken: true };
      } catch (err) {
        if (!exists(err)) throw new Error(`cannot take the lock ${path}: ${(err as Error).message}`, { cause: err });
      }
      const holder = await readHolder(path);
      if (holder === 'absent') continue; // released meanwhile: try again
      if (live(holder)) return { taken: false, holder };
      try {
        await writeFile(takeover, text, { flag: 'wx' });
      } catch (err) {
        if (!exists(err)) throw err;
        const age = await stat(takeover).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (age > STALE_TAKEOVER_MS) await unlink(takeover).catch(() => undefined);
        else await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      try {
        // Still the same stale lock (not a fresh one another contender wrote since we read it)?
        const again = await readHolder(path);
        if (again !== 'absent' && JSON.stringify(again) === JSON.stringify(holder)) {
          onTakeover(holder);
          await unlink(path).catch(() => undefined);
        }
      } finally {
        await unlink(takeover).catch(() => undefined);
      }
    }
    throw new Error(`cannot take the lock ${path}: it keeps changing; is another process taking it?`);
  } finally {
    await unlink(staged).catch(() => undefined);
  }
}

/**
 * Takes `<dir>/server.lock` for this process (creating `dir` when missing), or throws StateDirInUseError.
 * @example const lock = await lockStateDir(config.STATE_DIR); … await lock.release();
 */
export async function lockStateDir(dir: string, options: { logger?: StateLogger } = {}): Promise<StateDirLock> {
  const logger = options.logger ?? console;
  await mkdir(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const mine: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  const parse = (h: unknown) => holderSchema.safeParse(h).data ?? null;
  const got = await takeLockFile(
    path,
    text,
    (h) => {
      const holder = parse(h);
      return holder !== null && (holder.host !== mine.host || (holder.pid === process.pid ? heldHere.has(path) : pidIsAlive(holder.pid)));
    },
    (h) => {
      const holder = parse(h);
      const gone =
        holder === null
          ? 'an interrupted write'
          : holder.pid === process.pid
            ? `an earlier process with this pid (${holder.pid})`
            : `pid ${holder.pid}, which is no longer running`;
      logger.warn(`state: ${path} was left by ${gone}; taking it over`);
    },
  );
  if (!got.taken) throw new StateDirInUseError(dir, path, parse(got.holder)!);
  return ownedLock(path, text);
}

function ownedLock(path: string, text: string): StateDirLock {
  // On an exit that skips close (an uncaught exception), the lock goes with the process rather than waiting
  // for the next start to find it stale.
  const onExit = () => {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);
  heldHere.add(path);
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(path);
      process.removeListener('exit', onExit);
      const current = await readFile(path, 'utf8').catch(() => null);
      if (current === text) await unlink(path).catch(() => undefined);
    },
  };
}
