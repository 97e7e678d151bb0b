/**
 * SIGTERM with requests in flight (issue 9): an export being streamed and an assessment waiting on a slow
 * resolver both finish, complete; a new request is refused; the process exits 0 within the grace period.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fairMockEnv } from '../helpers/fair-app.ts';
import { type FairMock, startFairMock } from '../helpers/fair-mock-resolver.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';

describe('SIGTERM during an export and an assessment', () => {
  let mock: FairMock;
  let server: ServerProcess;
  beforeAll(async () => {
    const { out } = await sharedFixture();
    mock = await startFairMock();
    // The DOI resolver takes 1.5 s to say it does not know the DOI: the assessment is in flight that long.
    mock.route({ path: '/doi.org/10.1234/slow', status: 404, body: 'not found', delayMs: 1_500 });
    server = await startServerProcess({
      BUILD_OUTPUT: out,
      STATE_DIR: mkdtempSync(join(tmpdir(), 'shutdown-state-')),
      SHUTDOWN_GRACE_MS: '8000',
      ...fairMockEnv(mock),
    });
  }, 120_000);
  afterAll(async () => {
    server?.kill();
    await mock?.close();
  });

  it('finishes both, refuses new requests, exits 0', async () => {
    const assessment = fetch(`${server.base}/fair/api/v1/assess`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: '10.1234/slow' }),
    });
    const exported = await fetch(`${server.base}/frame/api/v1/cohort/export?format=csv`);
    expect(exported.status).toBe(200);
    const rows = Number(exported.headers.get('x-export-rows'));
    expect(rows).toBe(3_000);
    const reader = exported.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // Both are in flight: the signal now.
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));

    // A new request is refused (the listening socket is closed: connection refused, or 503 on a kept-alive one).
    const late = await fetch(`${server.base}/healthz`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(late);

    // The export arrives whole.
    const chunks: Uint8Array[] = [first.value!];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv.trimEnd().split('\n')).toHaveLength(rows + 1);

    // The assessment finishes with its real answer (the resolver's 404: 422 naming the identifier).
    const answer = await assessment;
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { message: string }).message).toContain('10.1234/slow');

    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('SIGTERM: finishing in-flight requests, refusing new ones');
  });
});

describe('SIGTERM during exports that outlast the grace period', () => {
  const tmp = tempDir('shutdown-cut');
  let server: ServerProcess;
  beforeAll(async () => {
    // Enough rows (about 30 MB of CSV) that the sockets' buffers cannot hold the whole export.
    const snapshot = await fixtureSnapshot(tmp.path, { works: 12_000, articles: 0 });
    const out = join(tmp.path, 'out');
    await fixtureBuild(snapshot, out, false);
    server = await startServerProcess({ BUILD_OUTPUT: out, STATE_DIR: mkdtempSync(join(tmpdir(), 'shutdown-state-')), SHUTDOWN_GRACE_MS: '1000' });
  }, 300_000);
  afterAll(() => {
    server?.kill();
    tmp.remove();
  });

  it('a CSV export ends with the truncation line after whole rows; a JSON export is broken off; exit 0', async () => {
    const url = `${server.base}/frame/api/v1/cohort/export`;
    const whole = await (await fetch(`${url}?format=csv`)).text();
    const csv = await fetch(`${url}?format=csv`);
    const json = await fetch(`${url}?format=json`);
    const csvReader = csv.body!.getReader();
    const jsonReader = json.body!.getReader();
    const chunks: Uint8Array[] = [(await csvReader.read()).value!];
    await jsonReader.read();
    // Neither client reads on: both exports wait on their sockets until the grace period is over.
    server.child.kill('SIGTERM');
    const until = Date.now() + 30_000;
    while (!server.output().includes('grace period of 1000 ms over') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    for (;;) {
      const { done, value } = await csvReader.read();
      if (done) break;
      chunks.push(value);
    }
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    const last = lines.pop()!;
    const [, sent, of] = /^# TRUNCATED: the server stopped \(shutdown or restart\) after (\d+) of (\d+) rows\./.exec(last) ?? [];
    expect(Number(of)).toBe(12_000);
    expect(Number(sent)).toBeLessThan(12_000);
    // The header and whole rows: exactly the first rows of the uncut export.
    expect(lines).toHaveLength(Number(sent) + 1);
    expect(lines).toEqual(whole.split('\n').slice(0, lines.length));

    await expect(
      (async () => {
        for (;;) if ((await jsonReader.read()).done) return 'ended';
      })(),
    ).rejects.toThrow();
    expect(await server.exited).toBe(0);
  }, 120_000);
});
