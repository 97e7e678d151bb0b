/**
 * `npm run bench:frame -- --build <build-output dir> [--n 500]`
 * Latency of work records, network ego views and screened pages through the Fastify app (routing, validation,
 * the cohort index or DuckDB, serialization; `inject`, no socket), on a real build. Prints p50/p95/max.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { appFor } from '../test/helpers/app.ts';

const { values } = parseArgs({ options: { build: { type: 'string' }, n: { type: 'string', default: '500' }, help: { type: 'boolean', short: 'h' } } });
if (values.help || !values.build) {
  process.stdout.write('Usage: npm run bench:frame -- --build <build-output dir> [--n 500]\n\nMeasures /works/{id} and /network?author_id= latency (p50, p95, max) on a build.\n');
  process.exit(values.help ? 0 : 2);
}
const n = Number(values.n);
const h = await appFor(values.build);
const db = h.store.current.db!;
const sample = async (sql: string) => ((await db.runAndReadAll(sql)).getRowObjectsJS() as { id: string }[]).map((r) => r.id);
const works = await sample(`SELECT id FROM works USING SAMPLE ${n} ROWS (reservoir, 42) ORDER BY id`);
const authors = await sample(`SELECT id FROM (SELECT id FROM authors WHERE ca_works > 0) USING SAMPLE ${n} ROWS (reservoir, 42) ORDER BY id`);
const hubs = await sample(`SELECT id FROM authors WHERE ca_works > 0 ORDER BY ca_works DESC, id LIMIT ${Math.min(n, 100)}`);

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
await measure('works/{id} (record blob)', works.map((id) => `/frame/api/v1/works/${id}`));
await measure('network ego, random researchers', authors.map((id) => `/frame/api/v1/network?author_id=${id}`));
await measure('network ego, most prolific researchers', hubs.map((id) => `/frame/api/v1/network?author_id=${id}`));
await measure('network overview (cached)', Array.from({ length: 100 }, () => '/frame/api/v1/network'));
await measure('screened page', Array.from({ length: 100 }, (_, k) => `/frame/api/v1/screened?page=${1 + (k % 20)}`));
await h.close();
