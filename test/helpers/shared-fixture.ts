/**
 * Fixture snapshots and their pipeline builds made once per test run, for each set of options, in the run's
 * directory (test/setup/run.ts), and shared read-only by every test file that asks: the first file to ask
 * builds while the others wait. A test that changes a snapshot or publishes into a build output makes its own
 * (fixture-build.ts, or `mutate` in snapshot.ts, which copies).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { CORPUS_DB_FILE } from '../../contracts/corpus/database.ts';
import { fixtureBuild, fixtureCorpusDatabase, fixtureSnapshot } from './fixture-build.ts';

/**
 * `make(dir)` run once in this test run for `key`, in the directory it returns. The directory itself is the
 * lock (mkdir is atomic); `<dir>.ready` or `<dir>.failed` tells the files waiting for it how it went.
 */
export async function oncePerRun(key: string, make: (dir: string) => Promise<void>): Promise<string> {
  const dir = join(inject('runDir'), key);
  const ready = `${dir}.ready`;
  const failed = `${dir}.failed`;
  let builder = false;
  try {
    mkdirSync(dir);
    builder = true;
  } catch {
    // another test file is making it
  }
  if (builder) {
    try {
      await make(dir);
      writeFileSync(ready, '');
    } catch (err) {
      writeFileSync(failed, (err as Error).stack ?? String(err));
      throw err;
    }
  } else {
    while (!existsSync(ready)) {
      if (existsSync(failed)) throw new Error(`${key}, made once for the run by another test file, failed:\n${readFileSync(failed, 'utf8')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return dir;
}

export interface SharedFixtureOptions {
  /** Works of the generated snapshot (fixture-build.ts's FIXTURE_WORKS by default). */
  works?: number;
  seed?: number;
  /** Articles of its synthetic corpus (FIXTURE_ARTICLES by default; 0 for none). */
  articles?: number;
  /** The pipeline's per-work files besides the frame database. */
  workFiles?: boolean;
}

/** The generated snapshot of these options, shared by the run; treat it as read-only. */
export async function sharedSnapshot(options: Omit<SharedFixtureOptions, 'workFiles'> = {}): Promise<string> {
  const { works, seed, articles } = options;
  const dir = await oncePerRun(`snapshot-w${works ?? 'default'}-s${seed ?? 'default'}-a${articles ?? 'default'}`, async (d) => {
    await fixtureSnapshot(d, { works, seed, articles });
  });
  return join(dir, 'fixture');
}

/** The snapshot of these options and its pipeline build output, shared by the run; treat both as read-only. */
export async function sharedFixture(options: SharedFixtureOptions = {}): Promise<{ snapshot: string; out: string }> {
  const snapshot = await sharedSnapshot(options);
  const key = `build-${snapshot.split('/').at(-2)!.slice('snapshot-'.length)}-${options.workFiles ? 'files' : 'db'}`;
  const out = await oncePerRun(key, async (d) => {
    await fixtureBuild(snapshot, d, options.workFiles ?? false);
  });
  return { snapshot, out };
}

/** The corpus step alone on the fixture corpus (fixture-build.ts's fixtureCorpusDatabase), shared by the run; read-only. */
export async function sharedCorpusDatabase(): Promise<string> {
  const dir = await oncePerRun('corpus-database', async (d) => {
    await fixtureCorpusDatabase(d, 'fixture');
  });
  return join(dir, 'out', CORPUS_DB_FILE);
}
