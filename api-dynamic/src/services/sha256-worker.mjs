// Worker thread for build verification (build-verify.ts): answers each path it is sent with the file's sha256 and
// length, read in 4 MiB pieces (never the whole file in memory). Plain JavaScript, so it starts without tsx.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const buf = Buffer.allocUnsafe(4 << 20);
parentPort.on('message', (path) => {
  try {
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
    parentPort.postMessage({ sha256: hash.digest('hex'), bytes });
  } catch (err) {
    parentPort.postMessage({ error: err.message });
  }
});
