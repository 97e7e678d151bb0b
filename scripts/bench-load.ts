/**
 * `npm run bench:load -- --build <build-output dir> [--phases static,mixed,soak] [...]`
 *
 * Load and soak of the real server, over HTTP on loopback: the server runs as its own process
 * (`node --import tsx api-dynamic/src/server.ts`, as production runs it, logging at `info` to a file), the
 * load generator (autocannon) and the FAIR upstream mock run in this process, so on a 2-core machine each side
 * has one core.
 *   static  the frozen JSON documents of all three services, round-robin (target >= 5,000 req/s);
 *   mixed   random cohort queries: pages with 0-4 random filters, sorts and pages, /works searches, facet
 *           counts within a cohort, typeahead; almost every request a new cohort (target >= 200 req/s);
 *   soak    everything at once for --soak-minutes after a warm-up: frozen documents, the cohort family, work
 *           records, ego networks, the screening sample, excerpts, articles, permalink mints and resolves
 *           (on Redis when redis-server is installed), narrow exports and FAIR assessments against a local
 *           mock. RSS is sampled every 5 s; target: growth under 10% from the end of the warm-up, and no
 *           response other than 2xx.
 * Memory is read through the inspector after a full collection (scripts/load/inspector.ts), once at the end of
 * the warm-up and once a minute after. Prints Markdown for docs/benchmarks.md. Nothing leaves 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import autocannon from 'autocannon';
import { Rng } from '../pipeline/generate/prng.ts';
import { fairMockEnv, pangaeaBenchMock } from '../test/helpers/fair-app.ts';
import { type FairMock, fairFixturesAvailable } from '../test/helpers/fair-mock-resolver.ts';
import { freePort } from '../test/helpers/net.ts';
import { type BenchServer, rssMiB, startBenchServer } from './lib/bench-server.ts';
import { haveRedisServer, startRedis } from '../test/helpers/redis-server.ts';
import { connectInspector, type LoopReading, type MemoryReading } from './load/inspector.ts';
import { cohortRequest, collectPools, httpGetJson, type LoadRequest, type SoakState, soakRequest, staticPaths } from './load/traffic.ts';

const HELP = `Usage: npm run bench:load -- --build DIR [options]

Starts the server on DIR (a pipeline output directory with a current build) and measures, over loopback:
  static  frozen JSON documents, round-robin                  (target >= 5,000 req/s)
  mixed   random cohort queries, almost all distinct          (target >= 200 req/s)
  soak    mixed traffic of all three services for N minutes  (target: RSS growth < 10%, no non-2xx)
Prints Markdown tables for docs/benchmarks.md; progress goes to stderr.

Options:
  --build DIR           pipeline output directory (required)
  --phases LIST         comma-separated phases to run (default static,mixed,soak)
  --duration S          seconds per static and mixed run (default 30)
  --connections N       concurrent connections (default 32 for static, 16 otherwise)
  --soak-minutes M      length of the soak, after the warm-up (default 10)
  --warmup S            seconds of soak traffic before the memory baseline is taken (default 180: the
                        bounded caches, the FAIR one above all, fill in the first two to three minutes)
  --log-level L         the server's LOG_LEVEL (default info, as in production; logs go to a file)
  --seed N              seed of the request generator (default 20261121)
  --cpu-profile FILE    write a CPU profile of the server over the soak's first minute (open it in Chrome
                        DevTools or speedscope) to see what its time goes to
  -h, --help            show this help
`;

const values = commandLine(
  HELP,
  {
    build: { type: 'string' },
    phases: { type: 'string', default: 'static,mixed,soak' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string' },
    'soak-minutes': { type: 'string', default: '10' },
    warmup: { type: 'string', default: '180' },
    'log-level': { type: 'string', default: 'info' },
    seed: { type: 'string', default: '20261121' },
    'cpu-profile': { type: 'string' },
  },
  ['build'],
);
const phases = new Set(values.phases!.split(','));
for (const p of phases) if (!['static', 'mixed', 'soak'].includes(p)) throw new Error(`--phases: unknown phase "${p}" (static, mixed, soak)`);
const buildOut = resolve(values.build);
const duration = Number(values.duration);
const soakMinutes = Number(values['soak-minutes']);
const seed = Number(values.seed);
const say = (s: string) => process.stdout.write(s);
const progress = (s: string) => process.stderr.write(`bench:load: ${s}\n`);
const work = mkdtempSync(join(tmpdir(), 'bench-load-'));

// ---- the FAIR upstream mock: the recorded PANGAEA answers, for DOIs .b0 … .b<FAIR_DOIS-1> ----
const FAIR_DOIS = 300;
let fairEnv: Record<string, string> = {};
let mock: FairMock | null = null;
if (fairFixturesAvailable()) {
  mock = await pangaeaBenchMock(FAIR_DOIS);
  fairEnv = fairMockEnv(mock);
} else progress('the recorded FAIR fixtures are missing: the soak runs without assessments');

const redis = haveRedisServer() ? await startRedis() : null;

// ---- the server ----
interface Server extends BenchServer {
  log: string;
}
async function startServer(name: string, nodeArgs: string[] = []): Promise<Server> {
  const log = join(work, `${name}.log`);
  const server = await startBenchServer({
    nodeArgs,
    logFile: log,
    env: {
      BUILD_OUTPUT: buildOut,
      LOG_LEVEL: values['log-level']!,
      STATE_DIR: join(work, `${name}-state`),
      // Live abstracts are never asked for; should anything call the catalogue, it finds nothing listening.
      CATALOGUE_URL: 'http://127.0.0.1:9',
      ...fairEnv,
      FAIR_ANON_LIMIT: '1000000',
      // Each benchmark DOI is assessed afresh once a minute: the engine keeps working for the whole soak.
      FAIR_CACHE_TTL_SECONDS: '60',
      ...(redis ? { REDIS_URL: redis.url } : {}),
    },
  });
  progress(`server ready in ${server.readySeconds.toFixed(1)} s (log: ${log})`);
  return { ...server, log };
}

type Result = autocannon.Result;
function run(opts: autocannon.Options, label: string): Promise<Result> {
  return new Promise((done, fail) => {
    const started = Date.now();
    let sent = 0;
    const instance = autocannon(opts, (err, result) => (err ? fail(err) : done(result)));
    instance.on('response', () => sent++);
    const timer = setInterval(() => progress(`${label}: ${Math.round((Date.now() - started) / 1000)} s, ${sent.toLocaleString('en')} responses`), 10_000);
    instance.on('done', () => clearInterval(timer));
  });
}
const errorsOf = (r: Result) => r.non2xx + r.errors + r.timeouts;
const row = (label: string, conns: number, r: Result) =>
  `| ${label} | ${conns} | ${r.requests.total.toLocaleString('en')} | **${Math.round(r.requests.average).toLocaleString('en')}** | ${r.latency.p50} | ${r.latency.p99} | ${(r.throughput.average / 2 ** 20).toFixed(1)} | ${errorsOf(r)} |\n`;
const HEADER = '| run | connections | requests | req/s | p50 ms | p99 ms | MiB/s | non-2xx + errors |\n|---|---:|---:|---:|---:|---:|---:|---:|\n';

const cpu = cpus();
say(
  `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}. ` +
    `Build: ${buildOut}. Server LOG_LEVEL=${values['log-level']}; permalinks on ${redis ? 'Redis' : 'the state directory'}; seed ${seed}.\n\n`,
);

const server = await startServer('server');
progress('reading filter values from the build');
const pools = await collectPools(httpGetJson(server.base), (d, t) => progress(`pools ${d}/${t}`));
say(
  `Pools: ${pools.workIds.length} works, ${pools.authorIds.length} researchers (${pools.networkIds.length} in the network), ${pools.fields.length} fields, ${pools.topics.length} topics, ` +
    `${pools.venues.length} venues, ${pools.titleTerms.length} title terms, ${pools.nameTerms.length} name terms, ${pools.phrases.length} phrases, ${pools.pmcids.length} articles.\n\n`,
);

if (phases.has('static') || phases.has('mixed')) say(HEADER);
if (phases.has('static')) {
  const conns = Number(values.connections ?? 32);
  const paths = staticPaths(pools);
  const r = await run(
    {
      url: server.base,
      connections: conns,
      duration,
      requests: paths.map((path) => ({ method: 'GET', path })),
    },
    'static',
  );
  say(row(`static: ${paths.length} frozen documents round-robin, ${duration} s`, conns, r));
}
if (phases.has('mixed')) {
  const conns = Number(values.connections ?? 16);
  const rng = new Rng(seed, 1);
  const seen = new Set<string>();
  let sent = 0;
  const r = await run(
    {
      url: server.base,
      connections: conns,
      duration,
      requests: [
        {
          setupRequest: (req) => {
            const next = cohortRequest(rng, pools);
            sent++;
            seen.add(next.path);
            return { ...req, method: next.method, path: next.path };
          },
        },
      ],
    },
    'mixed',
  );
  say(row(`mixed cohort queries (${((100 * seen.size) / sent).toFixed(0)}% distinct), ${duration} s`, conns, r));
}

let logErrors = 0;
if (phases.has('soak')) {
  // A fresh process, with the inspector on loopback for the memory readings (scripts/load/inspector.ts).
  await server.stop();
  const inspectPort = await freePort();
  const soakServer = await startServer('soak', [`--inspect=127.0.0.1:${inspectPort}`]);
  const inspector = await connectInspector(inspectPort);
  await inspector.watchLoop();
  const conns = Number(values.connections ?? 16);
  const rng = new Rng(seed, 2);
  const state: SoakState = { hashes: [], fairDois: FAIR_DOIS, fairNext: 0 };
  const byKind = new Map<string, { n: number; bad: Map<number, number>; ms: number[] }>();
  const pid = soakServer.child.pid!;
  const warmup = Number(values.warmup);
  const t0 = Date.now();
  const raw: { t: number; rss: number }[] = [];
  const sampler = setInterval(() => raw.push({ t: (Date.now() - t0) / 1000, rss: rssMiB(pid) }), 5_000);
  // One collected reading at the end of the warm-up and one a minute after, under traffic; the run lasts a
  // little past the last minute so that reading is taken under load too.
  // The loop is read before the collection, so a minute's longest stall is the traffic's, not the forced GC's.
  const readings: ({ minute: number; loop: LoopReading } & MemoryReading)[] = [];
  const readAt = (minute: number) =>
    setTimeout(
      async () => {
        const loop = await inspector.loop();
        readings.push({ minute, loop, ...(await inspector.collectedMemory()) });
      },
      (warmup + minute * 60) * 1000,
    );
  const timers = Array.from({ length: soakMinutes + 1 }, (_, m) => readAt(m));
  const profileTo = values['cpu-profile'];
  if (profileTo) {
    const start = warmup * 1000 + 1000;
    timers.push(setTimeout(() => void inspector.startProfile(), start));
    timers.push(
      setTimeout(async () => {
        writeFileSync(profileTo, JSON.stringify(await inspector.stopProfile()));
        progress(`CPU profile of the server written to ${profileTo}`);
      }, start + 60_000),
    );
  }
  const r = await run(
    {
      url: soakServer.base,
      connections: conns,
      duration: warmup + soakMinutes * 60 + 10,
      requests: [
        {
          setupRequest: (req, context) => {
            const next: LoadRequest = soakRequest(rng, pools, state, mock ? '/fair' : null);
            // One request in flight per connection, so the connection's context can carry its kind and start.
            Object.assign(context, { kind: next.kind, started: performance.now() });
            return {
              ...req,
              method: next.method,
              path: next.path,
              headers: next.headers ?? {},
              body: next.body,
            };
          },
          onResponse: (status, body, context) => {
            const { kind, started } = context as { kind: string; started: number };
            const k = byKind.get(kind) ?? { n: 0, bad: new Map<number, number>(), ms: [] as number[] };
            k.n++;
            k.ms.push(performance.now() - started);
            if (status < 200 || status > 299) k.bad.set(status, (k.bad.get(status) ?? 0) + 1);
            byKind.set(kind, k);
            if (kind === 'permalink mint' && (status === 200 || status === 201) && state.hashes.length < 100_000)
              state.hashes.push((JSON.parse(body) as { hash: string }).hash);
          },
        },
      ],
    },
    'soak',
  );
  clearInterval(sampler);
  timers.forEach(clearTimeout);
  await new Promise((ok) => setTimeout(ok, 5_000));
  const idle = await inspector.collectedMemory();
  inspector.close();
  readings.sort((a, b) => a.minute - b.minute);
  const first = readings[0]!;
  const last = readings.at(-1)!;
  const pct = (a: number, b: number) => `${b >= a ? '+' : ''}${((100 * (b - a)) / a).toFixed(1)}%`;
  const window = raw.filter((x) => x.t >= warmup);
  const rawMax = Math.max(...window.map((x) => x.rss));
  const rawMin = Math.min(...window.map((x) => x.rss));
  say(
    `\nSoak: ${warmup} s warm-up + ${soakMinutes} min (+10 s), ${conns} connections, ${r.requests.total.toLocaleString('en')} requests, ` +
      `${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms; ` +
      `**non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}**.\n\n` +
      `Memory after a full collection, under traffic: RSS ${first.rss.toFixed(0)} MiB at the end of the warm-up, ${last.rss.toFixed(0)} MiB after ` +
      `${last.minute} min: **${pct(first.rss, last.rss)}** (target < 10%); V8 heap in use ${first.heapUsed.toFixed(0)} → ${last.heapUsed.toFixed(0)} MiB ` +
      `(${pct(first.heapUsed, last.heapUsed)}). Ten seconds after the traffic stopped: RSS ${idle.rss.toFixed(0)} MiB, heap in use ${idle.heapUsed.toFixed(0)} MiB. ` +
      `Uncollected RSS sampled every 5 s over the soak: ${rawMin.toFixed(0)}–${rawMax.toFixed(0)} MiB (V8 collects garbage in a sawtooth).\n\n`,
  );
  say(
    '| minute of the soak | RSS after GC MiB | heap used MiB | heap total MiB | external MiB | uncollected RSS over the minute before, MiB | event-loop delay p99 / max ms |\n|---:|---:|---:|---:|---:|---|---|\n',
  );
  for (const x of readings) {
    const span = raw.filter((y) => y.t >= warmup + (x.minute - 1) * 60 && y.t < warmup + x.minute * 60).map((y) => y.rss);
    const range = span.length ? `${Math.min(...span).toFixed(0)}–${Math.max(...span).toFixed(0)}` : '';
    say(
      `| ${x.minute} | ${x.rss.toFixed(0)} | ${x.heapUsed.toFixed(0)} | ${x.heapTotal.toFixed(0)} | ${x.external.toFixed(0)} | ${range} | ${x.loop.p99.toFixed(0)} / ${x.loop.max.toFixed(0)} |\n`,
    );
  }
  // Latency per kind as the client saw it, queueing behind other requests included.
  say('\n| kind | requests | share | p50 ms | p99 ms | max ms | non-2xx |\n|---|---:|---:|---:|---:|---:|---|\n');
  const total = [...byKind.values()].reduce((a, k) => a + k.n, 0);
  for (const [kind, k] of [...byKind].sort((a, b) => b[1].n - a[1].n)) {
    const ms = k.ms.sort((a, b) => a - b);
    const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(0);
    const bad = [...k.bad].map(([s, n]) => `${n} × ${s}`).join(', ') || '0';
    say(`| ${kind} | ${k.n.toLocaleString('en')} | ${((100 * k.n) / total).toFixed(1)}% | ${at(0.5)} | ${at(0.99)} | ${ms.at(-1)!.toFixed(0)} | ${bad} |\n`);
  }
  logErrors = readFileSync(soakServer.log, 'utf8')
    .split('\n')
    .filter((l) => /"level":(50|60)/.test(l)).length;
  say(`\nServer log lines at level error or fatal: ${logErrors}. Permalinks minted: ${state.hashes.length}.\n`);
  await soakServer.stop();
} else await server.stop();

await redis?.stop();
await mock?.close();
// Keep the server's log when anything failed, to read what happened.
if (logErrors === 0) rmSync(work, { recursive: true, force: true });
else progress(`the server logged errors: kept ${work}`);
