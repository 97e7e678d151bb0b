/**
 * `npm run bench:site -- [--build-output DIR] [--site DIR] [--n 50]`
 * Latency of the server-rendered pages over HTTP on loopback (the issue's target: within 100 ms on the sample
 * build), and of a few static pages for comparison, on an existing build and site (`npm run build` first).
 * Each page kind gets fresh query values per request where it takes any; prints p50/p95/max per kind.
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { buildApp } from '../api-dynamic/src/app.ts';
import { loadConfig } from '../api-dynamic/src/config.ts';
import { BuildStore } from '../api-dynamic/src/services/build-store.ts';

const HELP = `Usage: npm run bench:site -- [--build-output DIR] [--site DIR] [--n 50]

Serves DIR (default build-output, with its site in build-output/site) on a loopback port and times GET requests
for each server-rendered page kind and a few static pages: p50, p95, max (ms). Run \`npm run build\` first.
  --build-output DIR   the pipeline's output directory (default build-output)
  --site DIR           the Astro build (default <build-output>/site)
  --n N                requests per page kind (default 50)
  -h, --help           show this help
`;
const values = commandLine(HELP, {
  'build-output': { type: 'string', default: 'build-output' },
  site: { type: 'string' },
  n: { type: 'string', default: '50' },
});
const n = Number(values.n);
const buildOutput = resolve(values['build-output']!);
const config = loadConfig({
  BUILD_OUTPUT: buildOutput,
  SITE_DIR: resolve(values.site ?? `${buildOutput}/site`),
  LOG_LEVEL: 'silent',
  STATE_DIR: resolve('/tmp', `bench-site-state-${process.pid}`),
});
const store = await BuildStore.open(buildOutput);
const app = await buildApp({ config, store, logger: false });
const base = await app.listen({ host: '127.0.0.1', port: 0 });

const json = async <T>(path: string): Promise<T> => (await (await fetch(`${base}${path}`)).json()) as T;
const cohort = await json<{ results: { id: string }[] }>('/frame/api/v1/cohort?per_page=100&sort=year_asc');
const ids = cohort.results.map((w) => w.id);
const minted = (await (await fetch(`${base}/frame/api/v1/permalink?lang=fr`, { method: 'POST' })).json()) as { hash: string };
const phrases = await json<{ phrases: { phrase: string }[] }>('/corpus/api/v1/phrases').catch(() => ({ phrases: [] }));

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length]!;
const YEARS = [2005, 2010, 2015, 2018, 2020, 2022];
const KINDS: [string, (i: number) => string][] = [
  ['/frame/cohort (no filter)', () => '/frame/cohort'],
  [
    '/frame/cohort, 3 filters',
    (i) => `/frame/cohort?lang=${pick(['en', 'fr'], i)}&year_from=${pick(YEARS, i)}&route=${pick(['aff', 'fund', 'venue', 'about', 'no_aff'], i)}`,
  ],
  ['/frame/cohort, page 3, sort cited', (i) => `/frame/cohort?year_from=${pick(YEARS, i)}&page=3&sort=cited`],
  ['/frame/q/<hash>', () => `/frame/q/${minted.hash}`],
  ['/frame/works/<id> (on request)', (i) => `/frame/works/${pick(ids, i)}`],
  ['/frame/screening', (i) => `/frame/screening?page=${1 + (i % 5)}`],
  ['/frame/network (overview)', () => '/frame/network'],
  ['/corpus/excerpts', (i) => `/corpus/excerpts?band=${pick(['0.05-0.06', '0.06-0.08', '0.08-0.10', 'ns'], i)}`],
  [
    '/corpus/excerpts, q + phrase',
    (i) =>
      `/corpus/excerpts?q=${pick(['trend', 'significance', 'marginally', 'effect'], i)}${phrases.phrases.length ? `&phrase=${encodeURIComponent(pick(phrases.phrases, i).phrase)}` : ''}`,
  ],
  ['/fair (form)', () => '/fair'],
  ['/api/frame (OpenAPI rendered)', () => '/api/frame'],
  ['static: /', () => '/'],
  ['static: /frame/stats/routes', () => '/frame/stats/routes'],
  ['static: /corpus', () => '/corpus'],
];

process.stdout.write(`machine: ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}, Node ${process.version}; build ${store.current.dir}\n`);
process.stdout.write('| page | n | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|\n');
for (const [label, url] of KINDS) {
  for (let i = 0; i < 5; i++) await (await fetch(`${base}${url(i)}`)).text(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await fetch(`${base}${url(i)}`);
    await r.text();
    times.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`${url(i)}: ${r.status}`);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  process.stdout.write(`| ${label} | ${n} | ${q(0.5)} | ${q(0.95)} | ${times[times.length - 1]!.toFixed(1)} |\n`);
}
await app.close();
store.close();
