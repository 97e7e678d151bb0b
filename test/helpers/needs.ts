/**
 * What some tests need beyond `npm ci`: reference files in ../shared (checked out beside the repository) and
 * Debian packages (`.ci/run` installs them). Each `need…` call says whether a file's tests can run. When they
 * cannot, the reason is recorded for the summary that ends the run (test/setup/run.ts), and on CI
 * (CI=true) a test is added that fails, so that a missing prerequisite can never pass as a skip.
 * Call them at the top level of a test file (or of a describe block) and skip with `describe.skipIf(!…)`.
 */
import { accessSync, appendFileSync, constants, existsSync } from 'node:fs';
import { delimiter, join, relative, resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

/** Whether this run is on CI (.ci/run sets CI=true); CI=false or CI=0 does not count. */
export const onCi = process.env.CI === 'true' || process.env.CI === '1';

const REPO = resolve(import.meta.dirname, '..', '..');

/** The shared folder beside the repository (reference data kept out of it). */
export const SHARED = resolve(REPO, '..', 'shared');

/** A path inside ../shared, e.g. `sharedPath('reference/hedged/jats')`. */
export const sharedPath = (...parts: string[]): string => join(SHARED, ...parts);

/** The Debian packages the tests use: the commands looked for on PATH, and the package that installs them. */
const PROGRAMS = {
  'redis-server': { commands: ['redis-server'], package: 'redis-server' },
  // Debian installs it in /usr/sbin, which is on root's PATH (CI runs as root).
  nginx: { commands: ['nginx'], package: 'nginx' },
  // CHROMIUM_PATH, when set, names the binary instead.
  chromium: { commands: ['chromium', 'chromium-browser'], package: 'chromium' },
  openssl: { commands: ['openssl'], package: 'openssl' },
} as const;
export type Program = keyof typeof PROGRAMS;

/** The absolute path of an executable `command` on PATH, or null. */
function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(dir, command);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** The program's path, or null when it is not installed. */
export function programPath(program: Program): string | null {
  if (program === 'chromium' && process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null;
  for (const command of PROGRAMS[program].commands) {
    const path = onPath(command);
    if (path) return path;
  }
  return null;
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
  const remedy = `not on PATH: apt-get install ${PROGRAMS[program].package}${program === 'chromium' ? ', or set CHROMIUM_PATH' : ''}; .ci/run installs it`;
  skipBecause({ missing: program, remedy, skipped }, true);
  return false;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file the run's skip records are appended to. */
    skipLog: string;
  }
}
