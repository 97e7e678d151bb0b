/**
 * Rules for files that processes on one machine share, one place for the server and the pipeline (both import
 * it, neither imports the other): whether the process that left a file still runs, and writing a file whole or
 * not at all.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';

/** Whether a process with this pid runs on this host (EPERM: it runs, under another user). */
export function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let temps = 0;
/** A temporary name beside `path`, this process's and this call's own. */
const tempBeside = (path: string) => `${path}.tmp-${process.pid}-${(temps++).toString(36)}`;

/**
 * Writes `path` whole or not at all: `data` goes to a temporary file beside it, which is fsynced and renamed over
 * `path`, so a reader sees the old file or the new one and a crash leaves one of the two. `mode` is a new file's.
 * The directory is not fsynced: a crash just after the rename may bring the old file back, never a torn one.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o666): Promise<void> {
  const tmp = tempBeside(path);
  try {
    const file = await open(tmp, 'w', mode);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** writeFileAtomic, synchronously; `data` may be a function that writes the file through its descriptor. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array | ((fd: number) => void)): void {
  const tmp = tempBeside(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      if (typeof data === 'function') data(fd);
      else writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
