/**
 * The `recent:sync` command for real: scripts/recent-sync.ts spawned through tsx (as `npm run recent:sync`
 * does), against a mock catalogue on loopback and a fixture build. Its usage errors and exit codes, a run whose
 * layer is exactly the designed matches (the fixtures' own route design is the oracle), a process killed with
 * SIGKILL mid-run that the next run marks interrupted and resumes from its checkpoint, SIGTERM (exit 130,
 * recorded interrupted), the run lock between two processes (exit 3), and --if-stale-hours.
 *
 * tsx runs the script in a child process of its own: signals meant for the sync go to the process that holds
 * the run lock (its pid is in lock.json), which is the one doing the work.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { utcDay } from '../../contracts/frame/recent.ts';
import { FileLayerStore } from '../../api-dynamic/src/services/frame/recent/file-layer-store.ts';
import { type DesignedWork, expectedLayerIds, recentFixture } from '../helpers/catalogue-fixtures.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import type { MockCatalogue } from '../helpers/mock-catalogue.ts';

const ROOT = join(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/recent-sync.ts');
const tmp = tempDir('recent-cli');
const today = utcDay();
let out = '';
let designed: DesignedWork[];
let mock: MockCatalogue;
let dirs = 0;
const stateDir = () => join(tmp.path, `state-${++dirs}`);
const children = new Set<ChildProcess>();
/** Pids of sync processes signalled by the tests (tsx's children), killed at the end if still there. */
const syncPids = new Set<number>();

beforeAll(async () => {
  ({ out, designed, mock } = await recentFixture(tmp.path, today));
}, 120_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const pid of syncPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await mock?.close();
  tmp.remove();
});

beforeEach(() => mock.clearFaults());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** The exit code (tsx reports a signal as 128 + its number). */
  exited: Promise<number | null>;
}

/** Starts the command with only the settings the test gives (no REDIS_URL or CATALOGUE_* from outside). */
function start(state: string, args: string[], env: Record<string, string> = {}): Cli {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(REDIS_URL|CATALOGUE_|STATE_DIR|BUILD_OUTPUT|RECENT_|ABSTRACT_)/.test(k)));
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), SCRIPT, ...args], {
    cwd: ROOT,
    env: { ...base, BUILD_OUTPUT: out, STATE_DIR: state, CATALOGUE_URL: mock.url, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function run(state: string, args: string[], env: Record<string, string> = {}) {
  const cli = start(state, args, env);
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

async function waitFor(pred: () => boolean, ms: number, what: string, cli?: Cli) {
  const until = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${cli ? `; stderr:\n${cli.stderr().slice(-3000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** /works requests the mock has received since `mark`. */
const listRequests = (mark: number) => mock.requests.slice(mark).filter((r) => r.path === '/works');

/** A fault that makes the mock hang on the n-th /works request from now on. */
function hangOnListRequest(n: number) {
  let seen = 0;
  mock.fault({ kind: 'hang' }, { match: (path) => path === '/works' && ++seen === n });
}

/** The pid in the state's run lock: the process running the sync (tsx's child, not the spawned tsx). */
function lockHolderPid(state: string): number {
  const lock = JSON.parse(readFileSync(join(state, 'recent', 'lock.json'), 'utf8')) as { pid: number };
  syncPids.add(lock.pid);
  return lock.pid;
}

/** The oracle: designed works in the window with at least one designed route. */
const expectedIds = (days: number) => expectedLayerIds(designed, today, days);

/** The state's served layer is exactly the designed matches of 30 days, each with its designed routes. */
async function expectOracleLayer(state: string) {
  const { works } = await (await FileLayerStore.open(state)).layer();
  expect(works.map((w) => w.id).sort()).toEqual(expectedIds(30));
  const byId = new Map(designed.map((d) => [d.work.id.replace('https://openalex.org/', ''), d]));
  for (const w of works) {
    const d = byId.get(w.id)!;
    expect({ id: w.id, ...w.route_flags }).toEqual({ id: w.id, ...d.expected, invisible_to_affiliation: !d.expected.aff });
    expect(w.has_abstract).toBe(d.abstract !== null);
    expect(w.provenance.source_window_end).toBe(today);
  }
}

const runsOf = async (state: string) => (await FileLayerStore.open(state)).runs();

/** What is left of unfinished runs and locks in the state's recent directory. */
const leftovers = (state: string) => readdirSync(join(state, 'recent')).filter((f) => /^(checkpoint|staging|lock)/.test(f));

describe('recent:sync usage', () => {
  it('--help exits 0 and lists every option the command parses', async () => {
    const { code, stdout } = await run(stateDir(), ['--help']);
    expect(code).toBe(0);
    // The options the script declares to parseArgs, read from its source: a new option must be documented.
    const source = readFileSync(SCRIPT, 'utf8');
    const block = /parseArgs\(\{\s*options: \{([\s\S]*?)\n {4}\},/.exec(source)?.[1] ?? '';
    const declared = [...block.matchAll(/^\s+'?([a-z-]+)'?: \{ type:/gm)].map((m) => m[1]!);
    expect(declared.sort()).toEqual(['concurrency', 'days', 'help', 'if-stale-hours', 'no-progress', 'per-page', 'retries']);
    for (const option of declared) expect(stdout, option).toMatch(new RegExp(`^\\s+(-h, )?--${option}\\b`, 'm'));
    expect(stdout).toMatch(/^\s+-h, --help\b/m);
  });

  it('rejects --days 14 (and an unknown option) with exit 2 and a message naming it, touching nothing', async () => {
    const state = stateDir();
    const days = await run(state, ['--days', '14']);
    expect(days.code).toBe(2);
    expect(days.stderr).toContain('--days');
    expect(days.stderr).toMatch(/15 through 30/);
    const bogus = await run(state, ['--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('--bogus');
    expect(existsSync(state)).toBe(false);
    expect(mock.requests).toEqual([]);
  });
});

describe('recent:sync runs', () => {
  const fresh = stateDir();

  it('stores exactly the designed matches of the window and records the run', async () => {
    const mark = mock.requests.length;
    const { code, stderr } = await run(fresh, []);
    expect(code, stderr).toBe(0);
    await expectOracleLayer(fresh);
    const runs = await runsOf(fresh);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      id: 1,
      status: 'succeeded',
      requested_days: 30,
      window_end: today,
      stored_rows: expectedIds(30).length,
      error: null,
      resumed_from: null,
    });
    expect(runs[0]!.api_requests).toBe(mock.requests.length - mark);
    expect(leftovers(fresh)).toEqual([]);
  });

  it('--if-stale-hours 20 right after a success exits 0, logs skipped and changes nothing', async () => {
    const store = await FileLayerStore.open(fresh);
    const version = await store.layerVersion();
    const mark = mock.requests.length;
    const { code, stderr } = await run(fresh, ['--if-stale-hours', '20', '--no-progress']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/skipped/);
    expect(mock.requests.length).toBe(mark);
    expect(await runsOf(fresh)).toHaveLength(1);
    expect(await store.layerVersion()).toBe(version);
  });

  it('resumes from the checkpoint after the process is killed with SIGKILL mid-run', async () => {
    const state = stateDir();
    const args = ['--per-page', '3', '--concurrency', '1', '--retries', '0', '--no-progress'];
    const env = { CATALOGUE_TIMEOUT_MS: '60000' };
    let mark = mock.requests.length;
    hangOnListRequest(5);
    const first = start(state, args, env);
    await waitFor(() => listRequests(mark).length >= 5, 20_000, 'the fifth /works request', first);
    const hung = listRequests(mark)[4]!;
    // The page in flight never answers: four pages are staged and checkpointed, the run is still running.
    await waitFor(() => existsSync(join(state, 'recent', 'checkpoint-1.json')), 5_000, 'the checkpoint', first);
    const checkpoint = JSON.parse(readFileSync(join(state, 'recent', 'checkpoint-1.json'), 'utf8')) as { queries: { pages: number }[]; api_requests: number };
    expect(checkpoint.queries.reduce((s, q) => s + q.pages, 0)).toBe(4);
    expect(checkpoint.api_requests).toBe(4);
    const pid = lockHolderPid(state);
    expect(pid).not.toBe(first.child.pid);
    process.kill(pid, 'SIGKILL');
    expect(await first.exited).toBe(128 + 9);
    const crashed = await runsOf(state);
    expect(crashed.map((r) => [r.id, r.status])).toEqual([[1, 'running']]);
    expect(existsSync(join(state, 'recent', 'lock.json'))).toBe(true);

    mark = mock.requests.length;
    const second = await run(state, args, env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/run 1 was left running by a process that is gone: marked interrupted/);
    expect(second.stderr).toMatch(/resuming run 1/);
    const runs = await runsOf(state);
    expect(runs.map((r) => [r.id, r.status, r.resumed_from])).toEqual([
      [2, 'succeeded', 1],
      [1, 'interrupted', null],
    ]);
    // Marked by the second run: its end is no later than the second run's start.
    expect(runs[1]!.error).toMatch(/crash or kill/);
    expect(runs[1]!.completed_at! <= runs[0]!.started_at).toBe(true);
    // The second run starts with the page that hung: the four pages already read are not read again.
    const again = listRequests(mark);
    expect(again[0]!.params.get('filter')).toBe(hung.params.get('filter'));
    expect(again[0]!.params.get('cursor')).toBe(hung.params.get('cursor'));
    expect(runs[0]!.api_requests).toBe(4 + (mock.requests.length - mark));
    await expectOracleLayer(state);
    expect(leftovers(state)).toEqual([]);
  });

  it('stops on SIGTERM with exit 130 and records the run interrupted', async () => {
    const state = stateDir();
    const mark = mock.requests.length;
    hangOnListRequest(3);
    const cli = start(state, ['--per-page', '3', '--concurrency', '1', '--no-progress'], { CATALOGUE_TIMEOUT_MS: '60000' });
    await waitFor(() => listRequests(mark).length >= 3, 20_000, 'the third /works request', cli);
    process.kill(lockHolderPid(state), 'SIGTERM');
    expect(await cli.exited).toBe(130);
    expect(cli.stderr()).toMatch(/SIGTERM: stopping/);
    expect(cli.stderr()).toMatch(/run 1 interrupted; run the command again to resume/);
    const runs = await runsOf(state);
    expect(runs.map((r) => [r.id, r.status])).toEqual([[1, 'interrupted']]);
    expect(runs[0]!.error).toMatch(/interrupted/);
    expect(runs[0]!.api_requests).toBe(3);
    // The lock is released and the checkpoint kept for the next run; the served layer was never written.
    expect(leftovers(state).sort()).toEqual(['checkpoint-1.json', 'staging-1.jsonl']);
    expect((await (await FileLayerStore.open(state)).layer()).version).toBeNull();
  });

  it('exits 3 when another sync holds the lock', async () => {
    const state = stateDir();
    const mark = mock.requests.length;
    hangOnListRequest(1);
    // One query at a time: the holder sends nothing more while its first page hangs.
    const holder = start(state, ['--concurrency', '1', '--no-progress'], { CATALOGUE_TIMEOUT_MS: '60000' });
    await waitFor(() => listRequests(mark).length >= 1, 20_000, 'the first /works request', holder);
    const pid = lockHolderPid(state);
    const second = await run(state, ['--no-progress']);
    expect(second.code, second.stderr).toBe(3);
    expect(second.stderr).toMatch(new RegExp(`another sync is running \\(pid ${pid} `));
    // The refused command asked the catalogue nothing and recorded nothing; the holder is still running.
    expect(listRequests(mark)).toHaveLength(1);
    expect((await runsOf(state)).map((r) => [r.id, r.status])).toEqual([[1, 'running']]);
    process.kill(pid, 'SIGTERM');
    expect(await holder.exited).toBe(130);
  });
});
