/**
 * Build directories and the atomic switch. Each build is written to `<out>/builds/.tmp-<pid>-*`, renamed to
 * `<out>/builds/<name>` when complete, and published by replacing the `<out>/current` symlink with rename(2),
 * which is atomic: a reader sees the old build or the new one, never a mix. A failed run never touches
 * `current`, so the previous build keeps serving.
 *
 * A server marks each build it holds open with a `.serving-<pid>` file (contracts/common/build-markers.ts);
 * pruning never removes a build so marked by a live process, nor the temp directory of a live pipeline run.
 */
import { existsSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { markerPid } from '../../contracts/common/build-markers.ts';
import { pidIsAlive } from '../../contracts/common/local-files.ts';

/** True when a live server marked the build as being served. */
export function isInUse(dir: string): boolean {
  try {
    return readdirSync(dir).some((f) => {
      const pid = markerPid(f);
      return pid !== null && pidIsAlive(pid);
    });
  } catch {
    return false;
  }
}

export const CURRENT = 'current';
export const BUILDS = 'builds';

export function newTempBuild(out: string): string {
  const dir = join(out, BUILDS, `.tmp-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Moves a finished temp build to its final name. Same name means same content: an existing copy is kept. */
export function finishBuild(out: string, tmp: string, name: string): string {
  const target = join(out, BUILDS, name);
  if (existsSync(target) && existsSync(join(target, 'manifest.json'))) {
    rmSync(tmp, { recursive: true, force: true });
    return target;
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
  return target;
}

/** Points `<out>/current` at `builds/<name>` atomically. */
export function publish(out: string, name: string): void {
  const link = join(out, CURRENT);
  const tmpLink = join(out, `.current-${process.pid}`);
  rmSync(tmpLink, { force: true });
  symlinkSync(join(BUILDS, name), tmpLink);
  renameSync(tmpLink, link);
}

export function currentName(out: string): string | null {
  try {
    return readlinkSync(join(out, CURRENT)).split('/').pop() ?? null;
  } catch {
    return null;
  }
}

/**
 * Removes old builds, keeping the current one, the `keep - 1` newest others, and any build a live server
 * holds; removes temp directories only of pipeline runs that are no longer alive.
 */
export function prune(out: string, keep: number): void {
  const dir = join(out, BUILDS);
  if (!existsSync(dir)) return;
  const current = currentName(out);
  const entries = readdirSync(dir)
    .map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  let kept = current ? 1 : 0;
  for (const e of entries) {
    if (e.name === current) continue;
    const path = join(dir, e.name);
    const tmpPid = /^\.tmp-(\d+)-/.exec(e.name)?.[1];
    if (tmpPid !== undefined) {
      if (!pidIsAlive(Number(tmpPid))) rmSync(path, { recursive: true, force: true });
      continue;
    }
    if (kept < keep) {
      kept++;
      continue;
    }
    if (!isInUse(path)) rmSync(path, { recursive: true, force: true });
  }
}
