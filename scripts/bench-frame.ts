/**
 * `npm run bench:frame -- --build <build-output dir> [--n 500]`
 * Latency of work records, network ego views and screened pages through the Fastify app (routing, validation,
 * the cohort index or DuckDB, serialization; `inject`, no socket), on a real build. Prints p50/p95/max.
 */
import { cpus } from 'node:os';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { appFor } from '../test/helpers/app.ts';

const values = commandLine(
  'Usage: npm run bench:frame -- --build <build-output dir> [--n 500]\n\nMeasures /works/{id} and /network?author_id= latency (p50, p95, max) on a build.\n',
  { build: { type: 'string' }, n: { type: 'string', default: '500' } },
  ['build'],
);
const n = Number(values.n);
const h = await appFor(values.build);
// Ids drawn from the cohort index (the served database holds only the screening sample and the network
// overview): seeded, so runs on one build ask for the same works and researchers.
const index = h.store.current.cohort;
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const draw = <T>(pool: T[], k: number) => Array.from({ length: Math.min(k, pool.length) }, () => pool[Math.floor(random() * pool.length)]!);
const works = draw(
  Array.from(index.col.id, (x) => `W${x}`),
  n,
);
const caAuthors = Array.from(index.authorCaWorks.keys()).filter((a) => index.authorCaWorks[a]! > 0);
const authors = draw(caAuthors, n).map((a) => `A${index.authorId(a)}`);
const hubs = [...caAuthors]
  .sort((a, b) => index.authorCaWorks[b]! - index.authorCaWorks[a]! || index.authorId(a) - index.authorId(b))
  .slice(0, Math.min(n, 100))
  .map((a) => `A${index.authorId(a)}`);

async function measure(label: string, urls: string[]) {
  for (const u of urls.slice(0, 20)) await h.app.inject(u); // warm-up
  const times: number[] = [];
  for (const u of urls) {
    const t = performance.now();
    const res = await h.app.inject(u);
    times.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`${u}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  process.stdout.write(`| ${label} | ${times.length} | ${q(0.5)} | ${q(0.95)} | ${times[times.length - 1]!.toFixed(2)} |\n`);
}

process.stdout.write(`machine: ${cpus().length} cores, Node ${process.version}; build ${h.store.current.dir}\n`);
process.stdout.write('| request | n | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|\n');
await measure(
  'works/{id}',
  works.map((id) => `/frame/api/v1/works/${id}`),
);
await measure(
  'network ego, random researchers',
  authors.map((id) => `/frame/api/v1/network?author_id=${id}`),
);
await measure(
  'network ego, most prolific researchers',
  hubs.map((id) => `/frame/api/v1/network?author_id=${id}`),
);
await measure(
  'network overview (cached)',
  Array.from({ length: 100 }, () => '/frame/api/v1/network'),
);
await measure(
  'screened page',
  Array.from({ length: 100 }, (_, k) => `/frame/api/v1/screened?page=${1 + (k % 20)}`),
);
await h.close();
