/**
 * Publishing a directory written aside: the complete `tmp` takes the place of `out` by two renames, so a reader
 * of `out` never sees it half-written, and a run that fails before this leaves the previous `out` as it was.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

/** Moves the complete directory `tmp` to `out`, replacing (then deleting) whatever `out` held. */
export function swapIntoPlace(tmp: string, out: string): void {
  mkdirSync(dirname(out), { recursive: true });
  const old = `${out}.old-${process.pid}`;
  if (existsSync(out)) renameSync(out, old);
  renameSync(tmp, out);
  rmSync(old, { recursive: true, force: true });
}
