/**
 * A separate process taking a state directory's lock (state-dir-lock.test.ts starts several at once, as
 * servers started together would): `tsx state-lock-worker.ts DIR` waits for "go" on stdin, tries
 * lockStateDir(DIR), prints `{"locked": true}` or `{"locked": false, "message": …}`, and holds a won lock until
 * its stdin closes.
 */
import { lockStateDir, StateDirInUseError } from '../../api-dynamic/src/services/state/dir-lock.ts';

const dir = process.argv[2]!;
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
try {
  const lock = await lockStateDir(dir, { logger: { warn: () => {} } });
  process.stdout.write(`${JSON.stringify({ locked: true })}\n`);
  process.stdin.resume();
  await new Promise<void>((resolve) => process.stdin.once('end', () => resolve()));
  await lock.release();
} catch (err) {
  if (!(err instanceof StateDirInUseError)) throw err;
  process.stdout.write(`${JSON.stringify({ locked: false, message: err.message })}\n`);
}
