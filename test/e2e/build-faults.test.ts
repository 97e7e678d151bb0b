/**
 * A missing, incomplete or corrupted build (issue 9): the server refuses to start, saying why, and exits 1;
 * on a reload (SIGHUP, or a newly published `current`) it keeps serving the build it has.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fixture-build.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';

const tmp = tempDir('build-faults');
let out: string;
let good: string;
beforeAll(async () => {
  out = (await sharedFixture({ works: 300, articles: 0 })).out;
  good = readdirSync(join(out, 'builds'))[0]!;
}, 120_000);
afterAll(() => tmp.remove());

/** A copy of the good build output with one change made to the copy of the build. */
function brokenCopy(name: string, damage: (buildDir: string) => void): string {
  const dir = join(tmp.path, name);
  cpSync(out, dir, { recursive: true, verbatimSymlinks: true });
  damage(join(dir, 'builds', good));
  return dir;
}

/** Points `current` at another build directory the way the pipeline publishes: a new link renamed over it. */
function publish(outDir: string, build: string): void {
  const tmpLink = join(outDir, `.current-${process.pid}`);
  symlinkSync(join('builds', build), tmpLink);
  renameSync(tmpLink, join(outDir, 'current'));
}

/** Changes the first byte of a file, keeping its size. */
function flipByte(path: string): void {
  const bytes = readFileSync(path);
  bytes[0] = bytes[0]! ^ 0xff;
  writeFileSync(path, bytes);
}

async function startFails(buildOutput: string): Promise<string> {
  try {
    const s = await startServerProcess({ BUILD_OUTPUT: buildOutput, STATE_DIR: mkdtempSync(join(tmpdir(), 'bf-')) }, 30_000);
    s.kill();
    throw new Error('the server started');
  } catch (err) {
    return (err as Error).message;
  }
}

describe('the server refuses to start on a bad build, and says why', () => {
  it('no build at all', async () => {
    const empty = join(tmp.path, 'empty');
    mkdirSync(empty);
    const why = await startFails(empty);
    expect(why).toContain('exited with 1');
    expect(why).toContain('server: cannot start: no build at');
    expect(why).toContain('npm run build');
  });

  it('an incomplete build (no manifest)', async () => {
    const why = await startFails(brokenCopy('incomplete', (b) => rmSync(join(b, 'manifest.json'))));
    expect(why).toMatch(/server: cannot start: .* has no manifest\.json: the build is incomplete/);
  });

  it('a frozen document that does not match its checksum', async () => {
    const why = await startFails(
      brokenCopy('corrupt', (b) => {
        const file = join(b, 'frame/api/v1/stats/summary.json');
        writeFileSync(file, readFileSync(file, 'utf8').replace(/"works":\d/, '"works":9'));
      }),
    );
    expect(why).toMatch(/server: cannot start: .*summary\.json (does not match its checksum|has the wrong size)/);
  });

  it('one byte changed in a binary file (same size): refused, naming the file', async () => {
    const why = await startFails(brokenCopy('flipped', (b) => flipByte(join(b, 'frame/cohort/flags.u8'))));
    expect(why).toMatch(/server: cannot start: .*\/frame\/cohort\/flags\.u8 does not match its checksum/);
  });
});

describe('a bad build published while serving', () => {
  let server: ServerProcess;
  let outDir: string;
  beforeAll(async () => {
    outDir = join(tmp.path, 'live');
    cpSync(out, outDir, { recursive: true, verbatimSymlinks: true });
    server = await startServerProcess({ BUILD_OUTPUT: outDir, STATE_DIR: mkdtempSync(join(tmpdir(), 'bf-')), WATCH_BUILD: 'true' });
  }, 60_000);
  afterAll(() => server?.kill());

  it('is refused on reload: the previous build stays served, and the log says why', async () => {
    const before = await fetch(`${server.base}/frame/api/v1/stats/summary`);
    const snapshot = before.headers.get('x-snapshot');
    const summary = await before.text();
    // A copy of the build with one byte of the cohort index changed, published as `current`.
    const bad = `${good}-bad`;
    cpSync(join(outDir, 'builds', good), join(outDir, 'builds', bad), { recursive: true });
    flipByte(join(outDir, 'builds', bad, 'frame/cohort/flags.u8'));
    publish(outDir, bad);
    const until = Date.now() + 10_000;
    while (!server.output().includes('failed; still serving') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(server.output()).toMatch(/reload \(new build published\) failed; still serving .*\b/);
    // SIGHUP says the same.
    server.child.kill('SIGHUP');
    const until2 = Date.now() + 10_000;
    while (!server.output().includes('reload (SIGHUP) failed') && Date.now() < until2) await new Promise((r) => setTimeout(r, 100));
    expect(server.output()).toContain('reload (SIGHUP) failed');
    const after = await fetch(`${server.base}/frame/api/v1/stats/summary`);
    expect(after.status).toBe(200);
    expect(after.headers.get('x-snapshot')).toBe(snapshot);
    expect(await after.text()).toBe(summary);
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
  });
});
