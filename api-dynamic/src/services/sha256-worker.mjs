// Worker thread for build verification (build-verify.ts): answers a list of paths with each file's sha256 and
// length (or the error reading it), read in 4 MiB pieces, never a whole file in memory. Plain JavaScript, so it
// starts without tsx.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const buf = Buffer.allocUnsafe(4 << 20);
function hashFile(path) {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  let bytes = 0;
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      hash.update(buf.subarray(0, n));
      bytes += n;
    }
  } finally {
    closeSync(fd);
  }
  return { sha256: hash.digest('hex'), bytes };
}

parentPort.on('message', (paths) =>
  parentPort.postMessage(
    paths.map((path) => {
      try {
        return hashFile(path);
      } catch (err) {
        return { error: err.message };
      }
    }),
  ),
);
