/**
 * What some tests need beyond `npm ci`: reference files in ../shared (checked out beside the repository) and
 * Debian packages (`.ci/run` installs them). Each `need…` call says whether a file's tests can run. When they
 * cannot, the reason is recorded for the summary that ends the run (test/setup/run.ts), and on CI
 * (CI=true) a test is added that fails, so that a missing prerequisite can never pass as a skip.
 * Call them at the top level of a test file (or of a describe block) and skip with `describe.skipIf(!…)`.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

/** Whether this run is on CI (.ci/run sets CI=true); CI=false or CI=0 does not count. */
export const onCi = process.env.CI === 'true' || process.env.CI === '1';

const REPO = resolve(import.meta.dirname, '..', '..');

/** The shared folder beside the repository (reference data kept out of it). */
export const SHARED = resolve(REPO, '..', 'shared');

/** A path inside ../shared, e.g. `sharedPath('reference/hedged/jats')`. */
export const sharedPath = (...parts: string[]): string => join(SHARED, ...parts);

/** The Debian packages the tests use, how each is found, and how it is installed. */
const PROGRAMS = {
  'redis-server': { candidates: ['redis-server'], package: 'redis-server' },
  nginx: { candidates: ['/usr/sbin/nginx', 'nginx'], package: 'nginx' },
  chromium: { candidates: [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'], package: 'chromium' },
  openssl: { candidates: ['openssl'], package: 'openssl' },
} as const;
export type Program = keyof typeof PROGRAMS;

const found = new Map<Program, string | null>();

/** The program's path or command name, or null when it is not installed. */
export function programPath(program: Program): string | null {
  if (!found.has(program)) {
    const runs = (bin: string) => (bin.startsWith('/') ? existsSync(bin) : spawnSync(bin, ['-v'], { stdio: 'ignore' }).error === undefined);
    found.set(program, PROGRAMS[program].candidates.find((bin): bin is string => !!bin && runs(bin)) ?? null);
  }
  return found.get(program)!;
}

/** The test file being collected, relative to the repository. */
function currentFile(): string {
  const path = expect.getState().testPath;
  return path ? relative(REPO, path) : 'a test file';
}

/** One line of the run's skip log (test/setup/run.ts reads it). */
export interface SkipRecord {
  file: string;
  /** What is missing, e.g. `../shared` or `redis-server`. */
  missing: string;
  /** How to get it. */
  remedy: string;
  /** What is skipped, e.g. "the Redis tests". */
  skipped: string;
}

/**
 * Records that `skipped` cannot run because `missing` is absent. `failOnCi` (everything `.ci/run` provides)
 * adds a failing test on CI; facts of the machine it cannot change (no IPv6 loopback) are only recorded.
 */
export function skipBecause(record: Omit<SkipRecord, 'file'>, failOnCi: boolean): void {
  const line: SkipRecord = { file: currentFile(), ...record };
  let log: string | undefined;
  try {
    log = inject('skipLog');
  } catch {
    // outside a vitest run with test/setup/run.ts
  }
  if (log) appendFileSync(log, `${JSON.stringify(line)}\n`);
  else console.warn(`${line.file}: ${line.missing} is missing, so ${line.skipped} are skipped (${line.remedy})`);
  if (failOnCi && onCi)
    describe('on CI', () => {
      it(`has ${record.missing}, so ${record.skipped} run`, () => {
        expect.fail(`${record.missing} is missing on CI (${record.remedy})`);
      });
    });
}

/** Whether `../shared/<path>` exists; if not, `skipped` is recorded as skipped (and fails on CI). */
export function needShared(path: string, skipped: string): boolean {
  if (existsSync(sharedPath(path))) return true;
  const whole = !existsSync(SHARED);
  skipBecause(
    {
      missing: whole ? '../shared' : `../shared/${path}`,
      remedy: whole ? 'check out the shared reference folder beside the repository; .ci/run has it' : 'the shared checkout is incomplete',
      skipped,
    },
    true,
  );
  return false;
}

/** Whether the program is installed; if not, `skipped` is recorded as skipped (and fails on CI). */
export function needProgram(program: Program, skipped: string): boolean {
  if (programPath(program) !== null) return true;
  const remedy = `apt-get install ${PROGRAMS[program].package}; .ci/run installs it${program === 'chromium' ? ' (or set CHROMIUM_PATH)' : ''}`;
  skipBecause({ missing: program, remedy, skipped }, true);
  return false;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file the run's skip records are appended to. */
    skipLog: string;
  }
}
