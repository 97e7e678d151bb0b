/**
 * Build directories and the atomic switch. Each build is written to `<out>/builds/.tmp-*`, renamed to
 * `<out>/builds/<name>` when complete, and published by replacing the `<out>/current` symlink with rename(2),
 * which is atomic: a reader sees the old build or the new one, never a mix. A failed run never touches
 * `current`, so the previous build keeps serving.
 */
import { existsSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export const CURRENT = 'current';
export const BUILDS = 'builds';

export function newTempBuild(out: string): string {
  const dir = join(out, BUILDS, `.tmp-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Moves a finished temp build to its final name (replacing an older copy of the same name). */
export function finishBuild(out: string, tmp: string, name: string): string {
  const target = join(out, BUILDS, name);
  if (existsSync(target)) {
    // Same name means same content: keep serving the existing copy if it is the current one.
    if (currentName(out) === name) {
      rmSync(tmp, { recursive: true, force: true });
      return target;
    }
    rmSync(target, { recursive: true, force: true });
  }
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

/** Removes old builds and abandoned temp directories, keeping the current one and the `keep - 1` newest others. */
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
    const abandoned = e.name.startsWith('.tmp-') && !e.name.startsWith(`.tmp-${process.pid}-`);
    if (!e.name.startsWith('.tmp-') && kept < keep) {
      kept++;
      continue;
    }
    if (abandoned || !e.name.startsWith('.tmp-')) rmSync(join(dir, e.name), { recursive: true, force: true });
  }
}
