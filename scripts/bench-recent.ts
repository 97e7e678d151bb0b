/**
 * `npm run bench:recent -- [--build build-output] [--works 30000] [--runs 200]`
 *
 * The recent layer's benchmark: (1) a sync against a local mock catalogue of N designed works (loopback, no
 * internet): wall time, requests, rows per second, layer size; (2) /recent latency (p50/p95 over HTTP on
 * loopback) on that layer for a few filter combinations, one request at a time. Prints Markdown for
 * docs/benchmarks.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { CANADIAN_LISTS_FILE, canadianListsSchema } from '../contracts/frame/canadian-lists.ts';
import { utcDay } from '../contracts/frame/recent.ts';
import { buildApp } from '../api-dynamic/src/app.ts';
import { loadConfig } from '../api-dynamic/src/config.ts';
import { BuildStore, resolveCurrent } from '../api-dynamic/src/services/build-store.ts';
import { routeRules } from '../api-dynamic/src/services/frame/recent/classify.ts';
import { FileLayerStore } from '../api-dynamic/src/services/frame/recent/file-layer-store.ts';
import { runSync } from '../api-dynamic/src/services/frame/recent/sync.ts';
import { designedWorks } from '../test/helpers/catalogue-fixtures.ts';
import { startMockCatalogue } from '../test/helpers/mock-catalogue.ts';

const values = commandLine(
  'Usage: npm run bench:recent -- [--build build-output] [--works 30000] [--runs 200]\n\n' +
    'Syncs N designed works from a mock catalogue on loopback into a temporary state directory, then measures\n' +
    '/frame/api/v1/recent latency (p50/p95) over HTTP. Prints Markdown tables for docs/benchmarks.md.\n',
  {
    build: { type: 'string', default: 'build-output' },
    works: { type: 'string', default: '30000' },
    runs: { type: 'string', default: '200' },
  },
);
const buildOut = resolve(values.build);
const n = Number(values.works);
const runs = Number(values.runs);
const lists = canadianListsSchema.parse(JSON.parse(readFileSync(join(resolveCurrent(buildOut), CANADIAN_LISTS_FILE), 'utf8')));
const today = utcDay();
const stateDir = mkdtempSync(join(tmpdir(), 'bench-recent-'));
const works = designedWorks({ today, lists, count: n });
const mock = await startMockCatalogue(works.map((d) => d.work));

// 1. The sync.
const store = await FileLayerStore.open(stateDir);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const outcome = await runSync({
  store,
  catalogue: { baseUrl: mock.url, timeoutMs: 30_000, retries: 2 },
  rules: routeRules(lists),
  lists,
  snapshotId: 'bench',
  days: 30,
  concurrency: 2,
  perPage: 200,
  log: { info: () => {}, warn: (m) => process.stderr.write(`${m}\n`) },
});
const syncMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const syncCpu = (cpu.user + cpu.system) / 1e6;
if (outcome.status !== 'succeeded') throw new Error(`sync ${outcome.status}: ${outcome.run?.error}`);
const run = outcome.run;
await mock.close();

// 2. /recent latency over HTTP.
const config = loadConfig({ BUILD_OUTPUT: buildOut, SITE_DIR: '/nonexistent', LOG_LEVEL: 'silent', STATE_DIR: stateDir, RECENT_REFRESH_MS: '5000' });
const builds = await BuildStore.open(buildOut);
const app = await buildApp({ config, store: builds, logger: false, site: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const queries = ['', 'route=fund', 'route=no_aff&has_abstract=true&page=5', 'q=nova+scotia', 'days=15&lang=fr&type=article', 'field=Medicine&per_page=100'];
const rows: string[] = [];
for (const q of queries) {
  const url = `${address}/frame/api/v1/recent?${q}`;
  await (await fetch(url)).text();
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    const res = await fetch(url);
    const body = (await res.json()) as { meta: { total: number } };
    times.push(performance.now() - s);
    total = body.meta.total;
  }
  times.sort((a, b) => a - b);
  const p = (x: number) => times[Math.min(times.length - 1, Math.floor(x * times.length))]!.toFixed(2);
  rows.push(`| \`/recent?${q}\` | ${total.toLocaleString('en')} | ${p(0.5)} | ${p(0.95)} |`);
}
await app.close();
builds.close();
rmSync(stateDir, { recursive: true, force: true });

process.stdout.write(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}

Sync of ${n.toLocaleString('en')} catalogue works (mock on loopback, per_page 200, concurrency 2):

| wall time | CPU (all threads) | requests | rows returned | candidates | matched (layer) | rows/s |
|---|---|---|---|---|---|---|
| ${(syncMs / 1000).toFixed(2)} s | ${syncCpu.toFixed(2)} s | ${run.api_requests} | ${run.returned_rows.toLocaleString('en')} | ${run.candidate_rows.toLocaleString('en')} | ${run.stored_rows.toLocaleString('en')} | ${Math.round(run.returned_rows / (syncMs / 1000)).toLocaleString('en')} |

/recent over HTTP, ${runs} requests each, one at a time (ms):

| request | total | p50 | p95 |
|---|---|---|---|
${rows.join('\n')}
`);
