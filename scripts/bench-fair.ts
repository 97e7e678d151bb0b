/**
 * `npm run bench:fair -- [--runs 50] [--concurrency 20] [--rounds 5] [--software]`
 *
 * The FAIR service's benchmark: the real app (SERVICES=fair, cache off, limits out of the way, the SSRF-safe
 * fetcher with loopback allowed) serving POST /fair/api/v1/assess over HTTP on loopback, every upstream a
 * local mock replaying the recorded PANGAEA 902845 responses (../shared/reference/fair-fixtures; no internet).
 *
 * 1. one assessment at a time: p50/p95/max latency (target: one assessment against the mock <= 300 ms);
 * 2. `concurrency` assessments at once, `rounds` times: assessments per second, p50/p95 latency, and the event
 *    loop's longest stall (perf_hooks.monitorEventLoopDelay; target: no stall over 50 ms).
 * Both phases also report this process's CPU time (user + system) per assessment, the figure to compare on a
 * shared machine, where wall time and stalls include other processes taking the cores.
 *
 * Each request names its own DOI (`10.1594/PANGAEA.902845.b<n>`: the mock answers every one with the
 * recorded PANGAEA documents), so single-flight never merges two of them and every request is a full
 * assessment. Client, server and mock share this process, so the stall includes the mock's (small) work.
 *
 * `--software`: metrics_v0.7_software on F-UJI's recorded GitHub repository (pangaea-data-publisher/fuji: landing
 * page plus the repository walk, ~50 GitHub API answers); each request names its own landing URL (`?b=<n>`) so
 * none is merged, and the page's one off-site link (a favicon on github.githubassets.com) points at the mock.
 * Prints Markdown for docs/benchmarks.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { buildApp } from '../api-dynamic/src/app.ts';
import { loadConfig } from '../api-dynamic/src/config.ts';
import type { BuildStore } from '../api-dynamic/src/services/build-store.ts';
import { fairMockEnv, pangaeaBenchMock } from '../test/helpers/fair-app.ts';
import { FAIR_FIXTURES, fairFixturesAvailable, fujiRepositoryRoutes } from '../test/helpers/fair-mock-resolver.ts';

const values = commandLine(
  'Usage: npm run bench:fair -- [--runs 50] [--concurrency 20] [--rounds 5] [--software]\n\n' +
    'Serves the FAIR API on loopback against a mock replaying the recorded PANGAEA responses (cache off) and\n' +
    'measures: RUNS sequential assessments (p50/p95 latency), then ROUNDS batches of CONCURRENCY assessments at\n' +
    'once (assessments/s, p50/p95, longest event-loop stall). Needs ../shared/reference/fair-fixtures.\n' +
    '--software assesses the recorded GitHub repository (F-UJI) with metrics_v0.7_software instead.\n' +
    'Prints Markdown tables for docs/benchmarks.md.\n',
  {
    runs: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '5' },
    software: { type: 'boolean', default: false },
  },
);
if (!fairFixturesAvailable()) {
  process.stderr.write(`bench:fair: the recorded fixtures are missing (${FAIR_FIXTURES}); nothing to measure\n`);
  process.exit(1);
}
const runs = Number(values.runs);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
const total = runs + concurrency * rounds + 3;

// The mock: the PANGAEA cassette, and the resolver and registry routes again for every benchmark DOI.
const mock = await pangaeaBenchMock(total);
const software = values.software === true;
const REPO_PAGE = '/github.com/pangaea-data-publisher/fuji';
if (software) {
  const repository = fujiRepositoryRoutes(mock.base).map((r) =>
    r.path === REPO_PAGE ? { ...r, body: String(r.body).replaceAll('https://github.githubassets.com/', `${mock.base}/github.githubassets.com/`) } : r,
  );
  const page = repository.find((r) => r.path === REPO_PAGE)!;
  mock.route(...repository);
  for (let n = 0; n < total; n++) mock.route({ ...page, path: `${REPO_PAGE}?b=${n}` });
}

const stateDir = mkdtempSync(join(tmpdir(), 'bench-fair-'));
const config = loadConfig({
  ...fairMockEnv(mock),
  SERVICES: 'fair',
  LOG_LEVEL: 'silent',
  STATE_DIR: stateDir,
  FAIR_CACHE_TTL_SECONDS: '0',
  FAIR_ANON_LIMIT: '1000000',
});
const app = await buildApp({ config, store: { current: { snapshotId: 'bench' } } as unknown as BuildStore, logger: false, site: false });
const base = await app.listen({ port: 0, host: '127.0.0.1' });

let next = 0;
/** The score of the last assessment, to show every run assessed the whole record. */
let score = '';
async function assessOnce(): Promise<number> {
  const n = next++;
  const identifier = software ? `${mock.base}${REPO_PAGE}?b=${n}` : `10.1594/PANGAEA.902845.b${n}`;
  const t0 = performance.now();
  const res = await fetch(`${base}${config.FAIR_PREFIX}/api/v1/assess`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(software ? { identifier, options: { metric_version: 'metrics_v0.7_software' } } : { identifier }),
  });
  const body = (await res.json()) as { summary?: { scoreEarned: number; scoreTotal: number } };
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${identifier}: HTTP ${res.status} ${JSON.stringify(body)}`);
  score = `${body.summary!.scoreEarned}/${body.summary!.scoreTotal}`;
  return ms;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const fmt = (ms: number) => ms.toFixed(0);

// Warm-up: module compilation, first connections.
for (let i = 0; i < 3; i++) await assessOnce();
const requestsBefore = mock.requests.length;

// 1. One at a time.
const sequential: number[] = [];
// CPU time (user + system) of this process per assessment: on a shared machine wall time measures the neighbours too
const cpu0 = process.cpuUsage();
for (let i = 0; i < runs; i++) sequential.push(await assessOnce());
const cpuSequential = process.cpuUsage(cpu0);
const perAssessment = (mock.requests.length - requestsBefore) / runs;
sequential.sort((a, b) => a - b);

// 2. `concurrency` at once, `rounds` times, with the event loop watched.
const loop = monitorEventLoopDelay({ resolution: 5 });
const concurrent: number[] = [];
loop.enable();
const t0 = performance.now();
const cpu1 = process.cpuUsage();
for (let r = 0; r < rounds; r++) concurrent.push(...(await Promise.all(Array.from({ length: concurrency }, () => assessOnce()))));
const elapsed = performance.now() - t0;
const cpuConcurrent = process.cpuUsage(cpu1);
loop.disable();
concurrent.sort((a, b) => a - b);

await app.close();
await mock.close();
rmSync(stateDir, { recursive: true, force: true });

const cpu = cpus();
const cpuMs = (usage: NodeJS.CpuUsage, n: number) => ((usage.user + usage.system) / 1000 / n).toFixed(1);
process.stdout.write(
  [
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}.`,
    `Command: \`npm run bench:fair -- --runs ${runs} --concurrency ${concurrency} --rounds ${rounds}${software ? ' --software' : ''}\` (cache off; ${perAssessment.toFixed(0)} upstream requests per assessment; the last one scored ${score}).`,
    '',
    '| measure | assessments | p50 ms | p95 ms | max ms | assessments/s | CPU ms per assessment | longest event-loop stall |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| one at a time | ${runs} | ${fmt(pct(sequential, 50))} | ${fmt(pct(sequential, 95))} | ${fmt(sequential.at(-1)!)} | ${(runs / (sequential.reduce((a, b) => a + b, 0) / 1000)).toFixed(1)} | ${cpuMs(cpuSequential, runs)} | |`,
    `| ${concurrency} at once × ${rounds} | ${concurrent.length} | ${fmt(pct(concurrent, 50))} | ${fmt(pct(concurrent, 95))} | ${fmt(concurrent.at(-1)!)} | ${(concurrent.length / (elapsed / 1000)).toFixed(1)} | ${cpuMs(cpuConcurrent, concurrent.length)} | ${(loop.max / 1e6).toFixed(1)} ms (p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms) |`,
    '',
  ].join('\n'),
);
