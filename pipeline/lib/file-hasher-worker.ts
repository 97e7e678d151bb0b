/** The thread of file-hasher.ts: hashes `workerData.paths` in order, answering `{ path, sha256 }` (null: unreadable). */
import { parentPort, workerData } from 'node:worker_threads';
import { sha256FileSync } from './hash.ts';

for (const path of (workerData as { paths: string[] }).paths) {
  let sha256: string | null = null;
  try {
    sha256 = sha256FileSync(path);
  } catch {
    // answered null: the caller hashes it itself, and meets the error there
  }
  parentPort!.postMessage({ path, sha256 });
}
