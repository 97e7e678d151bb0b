/**
 * The README's first command, for real: `npm start` (here: its script) builds build-output/ from the committed
 * sample and the Astro site, serves them, reloads on SIGHUP and exits 0 on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/net.ts';

const ROOT = join(import.meta.dirname, '../..');
let child: ChildProcess | null = null;
let output = '';
afterAll(() => child?.kill('SIGKILL'));

async function waitFor(pred: () => boolean, ms: number, what: string) {
  const until = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; output:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('npm start', () => {
  it(
    'builds, serves the site and the API, reloads on SIGHUP, exits 0 on SIGTERM',
    {
      timeout: 240_000,
    },
    async () => {
      const port = await freePort();
      child = spawn(
        process.execPath,
        // tsx as a loader in this one process (its CLI would run start.ts in a child that SIGKILL would orphan).
        ['--import', 'tsx', join(ROOT, 'scripts/start.ts')],
        {
          cwd: ROOT,
          env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
      await waitFor(() => output.includes('serving frame'), 200_000, 'the server to listen');
      const base = `http://127.0.0.1:${port}`;

      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain('Research Cohort Query');
      expect(html).toContain('20,000');

      const summary = await fetch(`${base}/frame/api/v1/stats/summary`);
      expect(summary.status).toBe(200);
      const snapshotId = summary.headers.get('x-snapshot');
      expect(snapshotId).toMatch(/^sample-[0-9a-f]{12}$/);
      expect(((await summary.json()) as { works: number }).works).toBe(20_000);

      const ssr = await fetch(`${base}/frame/snapshot`);
      expect(ssr.status).toBe(200);
      expect(await ssr.text()).toContain(snapshotId!);

      // A permalink's human page, server-rendered with the counts /cohort gives.
      const minted = await fetch(`${base}/frame/api/v1/permalink?route=no_aff&lang=fr`, { method: 'POST' });
      expect(minted.status).toBeLessThan(300);
      const link = (await minted.json()) as { hash: string; url: string; total: number };
      expect(new URL(link.url).pathname).toBe(`/frame/q/${link.hash}`);
      const page = await fetch(link.url);
      expect(page.status).toBe(200);
      const pageHtml = await page.text();
      expect(pageHtml).toContain(link.hash);
      expect(pageHtml).toContain(`<strong>${link.total.toLocaleString('en-CA')}</strong> works`);
      expect((await fetch(`${base}/frame/q/0123456789abcdef`)).status).toBe(404);

      const missing = await fetch(`${base}/frame/api/v1/nothing-here`);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { code: string }).code).toBe('NOT_FOUND');

      const image = await fetch(`${base}/_image?href=/etc/passwd`);
      expect(image.status).toBe(404);
      expect(((await image.json()) as { code: string }).code).toBe('NOT_FOUND');

      // The server runs in the start.ts process: its pid is in every log line.
      const pid = Number(/"pid":(\d+),[^\n]*serving frame/.exec(output)?.[1]);
      expect(pid).toBeGreaterThan(0);
      process.kill(pid, 'SIGHUP');
      await waitFor(() => output.includes('reload (SIGHUP): build unchanged'), 20_000, 'the reload log line');

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
  );
});
