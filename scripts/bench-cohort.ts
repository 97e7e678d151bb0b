/**
 * `npm run bench:cohort -- --build <build-output dir> [--snapshot ID] [--runs 30] [--duration 15] [--connections 16]`
 *
 * The cohort engine's benchmark, through the HTTP layer of a real server process on loopback:
 *   1. latency (p50/p95) of a fixed list of cohort and /works requests, one at a time, count cache OFF, so
 *      every request runs its full count pass;
 *   2. a 100,000-row CSV export: time to last byte and the server's peak RSS while it streams;
 *   3. throughput under concurrent load (autocannon), cache off and on.
 * Filter values are picked from the build's own cohort index (a common field, a topic of ~1,000 works, a venue
 * of a handful, frequent title terms, the most prolific author), so the list means the same on any build.
 * With `--snapshot ID` every cohort request asks for that retained snapshot (`snapshot=ID`, the server started
 * with RETAIN_SNAPSHOTS=ID): its first use (the build loaded on demand) is timed with the RSS before and after,
 * then the same latencies are measured on it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import autocannon from 'autocannon';
import { cohortIndexManifestSchema, COHORT_DIR, type CsrName, file, isPackedCsr } from '../contracts/frame/cohort-index.ts';
import { rssMiB, startBenchServer } from './lib/bench-server.ts';

const values = commandLine(
  'Usage: npm run bench:cohort -- --build <build-output dir> [--snapshot ID] [--runs 30] [--duration 15] [--connections 16] [--starts 1]\n\n' +
    'Starts a server on the build and measures cohort latency (p50/p95), a 100,000-row CSV export, and\n' +
    'throughput under concurrent load. Prints Markdown tables for docs/benchmarks.md.\n' +
    '--snapshot ID: ask every cohort request for that retained (older, published) snapshot, and time its first use.\n' +
    '--starts N: start and stop the server N times first, timing each start (spawn to the first 200 from /readyz).\n',
  {
    build: { type: 'string' },
    runs: { type: 'string', default: '30' },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '16' },
    snapshot: { type: 'string' },
    starts: { type: 'string', default: '1' },
  },
  ['build'],
);
const buildOut = resolve(values.build);
const runs = Number(values.runs);
const snapshot = values.snapshot ?? null;
/** The build directory of the snapshot asked for (a published build under builds/), else `current`. */
function buildDirOf(id: string | null): string {
  if (id === null) return join(buildOut, 'current');
  for (const name of readdirSync(join(buildOut, 'builds'))) {
    const manifest = join(buildOut, 'builds', name, 'manifest.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { snapshot: { id: string } }).snapshot.id === id)
      return join(buildOut, 'builds', name);
  }
  throw new Error(`no published build of snapshot ${id} under ${buildOut}/builds`);
}
const dir = join(buildDirOf(snapshot), COHORT_DIR);
/** `snapshot=` first in every cohort query string when a retained snapshot is benchmarked. */
const withSnapshot = (qs: string) => (snapshot === null ? qs : [`snapshot=${encodeURIComponent(snapshot)}`, qs].filter(Boolean).join('&'));
const index = cohortIndexManifestSchema.parse(JSON.parse(readFileSync(join(dir, file.manifest), 'utf8')));
const f64 = (name: string) => {
  const b = readFileSync(join(dir, name));
  return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};

/** The number of values of each key of a CSR, whichever way it is stored. */
const csrSizes = (name: CsrName): ((k: number) => number) => {
  if (isPackedCsr(name)) {
    const b = readFileSync(join(dir, file.csrCounts(name)));
    const counts = new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    return (k) => counts[k]!;
  }
  const offsets = f64(file.csrOffsets(name));
  return (k) => offsets[k + 1]! - offsets[k]!;
};

// ---- pick filter values from the build ----
const byWorks = <T>(entries: [T, number][]) => [...entries].sort((a, b) => b[1] - a[1]);
const field = byWorks(index.dictionaries.field)[0]![0];
const topic = [...index.dictionaries.topic].sort((a, b) => Math.abs(a[1] - 1000) - Math.abs(b[1] - 1000))[0]![0];
const venue = index.dictionaries.venue.find(([, n]) => n >= 5 && n <= 10)?.[0] ?? byWorks(index.dictionaries.venue).at(-1)![0];
const termSize = csrSizes('title_terms');
// Content words: frequent, but not the stopwords that are in most titles.
const terms = index.title_terms
  .map((t, k) => ({ t, n: termSize(k) }))
  .filter((x) => x.t.length >= 4 && /^[a-z]+$/.test(x.t))
  .sort((a, b) => b.n - a.n);
const common = terms.slice(20, 22).map((x) => x.t);
// The most frequent terms of all (stopwords included): the heaviest title search there is.
const top = index.title_terms
  .map((t, k) => ({ t, n: termSize(k) }))
  .sort((a, b) => b.n - a.n)
  .slice(0, 2)
  .map((x) => x.t);
const mid = terms.find((x) => x.n < index.rows / 200)!.t;
const rare = terms.find((x) => x.n < 50)?.t ?? terms.at(-1)!.t;
const authorOffsets = f64(file.csrOffsets('author_works'));
const authorIds = f64(file.authorId);
let prolific = 0;
for (let a = 1; a < authorIds.length; a++)
  if (authorOffsets[a + 1]! - authorOffsets[a]! > authorOffsets[prolific + 1]! - authorOffsets[prolific]!) prolific = a;
const authorId = `A${authorIds[prolific]}`;
const authorTermSize = csrSizes('author_terms');
const nameTerm = index.author_terms
  .map((t, k) => ({ t, n: authorTermSize(k) }))
  .filter((x) => x.t.length >= 4)
  .sort((a, b) => b.n - a.n)[5]!.t;

const enc = encodeURIComponent;
const COHORT: [string, string][] = [
  ['no filter', ''],
  ['route_aff=1', 'route_aff=1'],
  ['route=no_aff', 'route=no_aff'],
  ['route_fund=1 & route_aff=0', 'route_fund=1&route_aff=0'],
  ['route_venue=1 & route_about=1', 'route_venue=1&route_about=1'],
  ['year 2015–2020', 'year_from=2015&year_to=2020'],
  ['lang=fr', 'lang=fr'],
  ['type=preprint', 'type=preprint'],
  [`field (most common)`, `field=${enc(field)}`],
  ['topic (~1,000 works)', `topic=${enc(topic)}`],
  ['venue (rare)', `venue=${enc(venue)}`],
  ['cited_min=50', 'cited_min=50'],
  ['retracted=1', 'retracted=1'],
  ['abstract=none', 'abstract=none'],
  ['n_in=2', 'n_in=2'],
  ['category, direct any', 'category=metaresearch'],
  ['category, direct all', 'category=metaresearch&agreement=all'],
  ['design, direct', 'design=systematic_review'],
  ['category, predicted candidate', 'category=metaresearch&label_source=predicted'],
  ['category, predicted consensus', 'category=metaresearch&label_source=predicted&prediction_mode=consensus'],
  ['design, predicted candidate', 'design=observational&label_source=predicted'],
  ['labeled=1', 'labeled=1'],
  ['title search, 2 common terms', `q=${common.join('+')}`],
  ['title search, the 2 most frequent terms', `q=${top.join('+')}`],
  ['title search + relevance', `q=${mid}&sort=relevance`],
  ['author_id (most prolific)', `author_id=${authorId}`],
  ['author name', `author=${nameTerm}`],
  ['aff + years + en + article + field', `route_aff=1&year_from=2010&lang=en&type=article&field=${enc(field)}`],
  ['aff & ¬fund & article & field (db-bench Q3)', `route_aff=1&route_fund=0&type=article&field=${enc(field)}`],
  ['q + years + en + aff', `q=${mid}&year_from=2010&lang=en&route_aff=1`],
  ['year_desc, broad', 'route_aff=1&sort=year_desc'],
  ['deep page (page 400)', 'year_from=2015&page=400'],
];
const WORKS: [string, string][] = [
  ['/works q, 2 common terms', `q=${common.join('+')}`],
  ['/works q, the 2 most frequent terms', `q=${top.join('+')}`],
  ['/works q, mid term', `q=${mid}`],
  ['/works q, rare term', `q=${rare}`],
  ['/works q + year + lang', `q=${mid}&year_from=2015&lang=en`],
  ['/works author', `author=${nameTerm}`],
];

// ---- the server ----
/** The server on the build, logging at warn, so per-request logging does not cost throughput. */
async function startServer(env: Record<string, string>) {
  const retain: Record<string, string> = snapshot === null ? {} : { RETAIN_SNAPSHOTS: snapshot };
  const server = await startBenchServer({ env: { BUILD_OUTPUT: buildOut, LOG_LEVEL: 'warn', STATE_DIR: join(buildOut, '.bench-state'), ...retain, ...env } });
  process.stdout.write(`server ready in ${server.readySeconds.toFixed(1)} s\n`);
  // The latency targets are for a retained build already loaded: the load itself is timed separately below.
  if (snapshot !== null && env.COHORT_CACHE === 'on') await time(`${server.base}/frame/api/v1/cohort?${withSnapshot('per_page=1')}`);
  return server;
}

async function time(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`);
  return performance.now() - t;
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

process.stdout.write(
  `machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; build ${buildOut} (${index.rows.toLocaleString('en')} works)\n`,
);
process.stdout.write(
  `values: field=${field}, topic=${topic}, venue=${venue}, terms=${common.join(',')}/${top.join(',')}/${mid}/${rare}, author_id=${authorId}, author=${nameTerm}\n\n`,
);

if (Number(values.starts) > 1) {
  const seconds: number[] = [];
  for (let i = 0; i < Number(values.starts); i++) {
    const s = await startServer({ COHORT_CACHE: 'off' });
    seconds.push(s.readySeconds);
    await s.stop();
  }
  seconds.sort((a, b) => a - b);
  process.stdout.write(
    `server start over ${seconds.length} runs: median ${seconds[seconds.length >> 1]!.toFixed(2)} s, range ${seconds[0]!.toFixed(2)}–${seconds.at(-1)!.toFixed(2)} s\n`,
  );
}
const cold = await startServer({ COHORT_CACHE: 'off' });
const startRss = rssMiB(cold.child.pid!);
if (snapshot !== null) {
  // First use of the retained build: the request that loads it, then the same request again.
  const url = `${cold.base}/frame/api/v1/cohort?${withSnapshot('route_aff=1')}`;
  const load = await time(url);
  const loadedRss = rssMiB(cold.child.pid!);
  const again = await time(url);
  process.stdout.write(
    `retained snapshot ${snapshot}: first use ${load.toFixed(0)} ms (loads the build), next request ${again.toFixed(1)} ms; server RSS ${startRss.toFixed(0)} → ${loadedRss.toFixed(0)} MiB (+${(loadedRss - startRss).toFixed(0)})\n`,
  );
}
process.stdout.write(`server RSS after start: ${startRss.toFixed(0)} MiB\n\n| request | total | p50 ms | p95 ms |\n|---|---:|---:|---:|\n`);
const worst = { p95: 0, label: '' };
async function latency(label: string, url: string) {
  for (let k = 0; k < 3; k++) await time(url);
  const ts: number[] = [];
  for (let k = 0; k < runs; k++) ts.push(await time(url));
  const total = ((await (await fetch(url)).json()) as { meta: { total: number } }).meta.total;
  const p95 = pct(ts, 0.95);
  if (p95 > worst.p95) Object.assign(worst, { p95, label });
  process.stdout.write(`| ${label} | ${total.toLocaleString('en')} | ${pct(ts, 0.5).toFixed(1)} | ${p95.toFixed(1)} |\n`);
}
for (const [label, qs] of COHORT) await latency(label, `${cold.base}/frame/api/v1/cohort${withSnapshot(qs) ? `?${withSnapshot(qs)}` : ''}`);
{
  // A cursor page deep into a broad cohort.
  let url = `${cold.base}/frame/api/v1/cohort?${withSnapshot('route_aff=1&per_page=100')}`;
  for (let k = 0; k < 5; k++) {
    const next = ((await (await fetch(url)).json()) as { meta: { next_cursor: string } }).meta.next_cursor;
    url = `${cold.base}/frame/api/v1/cohort?${withSnapshot('route_aff=1&per_page=100')}&cursor=${next}`;
  }
  await latency('cursor page (6th page of route_aff=1)', url);
}
process.stdout.write(`\nworst cohort p95: ${worst.p95.toFixed(1)} ms (${worst.label})\n\n| /works request | total | p50 ms | p95 ms |\n|---|---:|---:|---:|\n`);
for (const [label, qs] of WORKS) await latency(label, `${cold.base}/frame/api/v1/works?${qs}`);

async function typeahead(label: string, url: string) {
  for (let k = 0; k < 3; k++) await time(url);
  const ts: number[] = [];
  for (let k = 0; k < runs; k++) ts.push(await time(url));
  process.stdout.write(`| ${label} | ${pct(ts, 0.5).toFixed(1)} | ${pct(ts, 0.95).toFixed(1)} |\n`);
}
process.stdout.write('\n| typeahead | p50 ms | p95 ms |\n|---|---:|---:|\n');
for (const [which, q] of [
  ['venue', 'ca'],
  ['venue', 'journal of'],
  ['topic', 'ca'],
  ['author', 'ma'],
  ['author', nameTerm],
  ['author', `${nameTerm} t`],
] as const)
  await typeahead(`/facets/${which}?q=${q}`, `${cold.base}/frame/api/v1/facets/${which}?q=${encodeURIComponent(q)}`);

// ---- export ----
{
  const url = `${cold.base}/frame/api/v1/cohort/export?${withSnapshot('format=csv&route_aff=1')}`;
  let peak = rssMiB(cold.child.pid!);
  const before = peak;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(cold.child.pid!))), 50);
  const t = performance.now();
  const res = await fetch(url);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const secs = (performance.now() - t) / 1000;
  clearInterval(sampler);
  process.stdout.write(
    `\nCSV export of route_aff=1: ${res.headers.get('x-export-rows')} rows (truncated: ${res.headers.get('x-export-truncated')}), ${(bytes / 2 ** 20).toFixed(1)} MiB, ${lines} lines in ${secs.toFixed(2)} s; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB\n`,
  );
}

// ---- throughput ----
async function load(base: string, label: string) {
  const requests = COHORT.map(([, qs]) => ({ method: 'GET' as const, path: `/frame/api/v1/cohort${withSnapshot(qs) ? `?${withSnapshot(qs)}` : ''}` }));
  const result = await autocannon({ url: base, connections: Number(values.connections), duration: Number(values.duration), requests });
  process.stdout.write(
    `| ${label} | ${values.connections} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |\n`,
  );
}
process.stdout.write(
  `\n| load (${COHORT.length} cohort requests round-robin, ${values.duration} s) | connections | req/s | p50 ms | p99 ms | non-2xx |\n|---|---:|---:|---:|---:|---:|\n`,
);
await load(cold.base, 'count cache off (every request counts)');
await cold.stop();
const warm = await startServer({ COHORT_CACHE: 'on' });
await load(warm.base, 'count cache on (64 cohorts)');
await warm.stop();
