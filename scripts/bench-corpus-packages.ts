/**
 * `npm run bench:corpus -- --packages [--articles 100000] [--small 25000] [--per-package 10000] [--changed 0.01] [--seed 1] [--keep DIR]`
 *
 * The corpus step on PMC-style bulk packages, end to end: generated articles packed as baseline
 * `.tar.gz` packages with file lists (pipeline/generate/corpus/packages.ts; generation not timed), then
 * `buildCorpus` in a fresh child process (read, gunzip, untar, parse, extract, cache, database, documents,
 * report), timed by wall clock and by the process's CPU time, with its peak RSS, at two sizes (--small and
 * --articles), so "RSS flat with input size" is measured, not assumed. Then a daily incremental package
 * revising --changed of the articles, and the rebuild with the extraction cache of the full build: its time
 * against the full build's. Prints Markdown for docs/benchmarks.md; progress goes to stderr.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { generateBaselinePackages, generateIncrementPackage } from '../pipeline/generate/corpus/packages.ts';
import { type Progress, terminalProgress } from '../pipeline/lib/progress.ts';
import { buildCorpus } from '../pipeline/steps/corpus/corpus.ts';
import { wholeArg } from './lib/whole-arg.ts';

const HELP = `Usage: npm run bench:corpus -- --packages [--articles 100000] [--small 25000] [--per-package 10000] [--changed 0.01] [--seed 1] [--keep DIR]

Packs --small and then --articles generated articles into PMC-style bulk packages (--per-package articles each,
with file lists), times the corpus step on each in a fresh process (wall and CPU seconds, articles/s, peak RSS),
then adds a daily incremental package revising --changed of the articles and times the rebuild with the
extraction cache of the full build. Work files go under the system temp directory and are removed, unless
--keep DIR names where to put and keep them. Prints Markdown for docs/benchmarks.md; progress goes to stderr.
`;

const values = commandLine(HELP, {
  packages: { type: 'boolean' },
  articles: { type: 'string', default: '100000' },
  small: { type: 'string', default: '25000' },
  'per-package': { type: 'string', default: '10000' },
  changed: { type: 'string', default: '0.01' },
  seed: { type: 'string', default: '1' },
  keep: { type: 'string' },
  'child-build': { type: 'string' },
  out: { type: 'string' },
  cache: { type: 'string' },
});

interface ChildResult {
  wall: number;
  cpu: number;
  maxRssMiB: number;
  articles: number;
  excerpts: number;
  log: string[];
}

const err = (s: string) => process.stderr.write(s);

// The child: one corpus step, measured from inside.
if (values['child-build']) {
  const log: string[] = [];
  const inner = terminalProgress();
  const progress: Progress = { ...inner, log: (m) => (log.push(m), inner.log(m)) };
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const m = await buildCorpus({ snapshot: values['child-build'], out: values.out!, snapshotId: 'bench', synthetic: true, cacheDir: values.cache!, progress });
  const wall = (performance.now() - t) / 1000;
  const c = process.cpuUsage(cpu0);
  const result: ChildResult = {
    wall,
    cpu: (c.user + c.system) / 1e6,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    articles: m.articles,
    excerpts: m.excerpts,
    log,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

const int = wholeArg;
const large = int('articles', values.articles);
const small = int('small', values.small);
const perPackage = int('per-package', values['per-package']);
const seed = int('seed', values.seed);
const changed = Number(values.changed);
if (!(changed > 0 && changed <= 1)) {
  err('--changed must be a share in (0, 1]\n');
  process.exit(2);
}
const work = values.keep ? resolve(values.keep) : mkdtempSync(join(tmpdir(), 'bench-corpus-packages-'));
mkdirSync(work, { recursive: true });
process.on('exit', () => {
  if (!values.keep) rmSync(work, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));
const progress = terminalProgress();
const fmt = (n: number) => n.toLocaleString('en');

function childBuild(snapshot: string, out: string, cache: string): ChildResult {
  rmSync(out, { recursive: true, force: true });
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child-build', snapshot, '--out', out, '--cache', cache], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`the corpus build in ${snapshot} failed (${r.status ?? r.signal})`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as ChildResult;
}
/** Seconds of the extraction part, from the step's own log line ("N articles in X s"). */
const extractionSecs = (r: ChildResult) => Number(/ articles in ([\d.]+) s/.exec(r.log.find((l) => / articles in [\d.]+ s/.test(l)) ?? '')?.[1] ?? NaN);

const rows: { label: string; n: number; r: ChildResult; packMB: number }[] = [];
let incremental: { r: ChildResult; full: ChildResult; revised: number } | null = null;
for (const n of [...new Set([small, large])].sort((a, b) => a - b)) {
  const snapshot = join(work, `n${n}`, 'snapshot');
  const t = performance.now();
  const { bytes } = await generateBaselinePackages({ dir: join(snapshot, 'corpus'), articles: n, seed, perPackage, progress });
  err(`packed ${fmt(n)} articles (${(bytes / 2 ** 20).toFixed(0)} MiB of .tar.gz) in ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
  const cache = join(work, `n${n}`, 'cache');
  const full = childBuild(snapshot, join(work, `n${n}`, 'out-full'), cache);
  rows.push({ label: 'full build (empty cache)', n, r: full, packMB: bytes / 2 ** 20 });
  if (n === large) {
    const step = Math.round(1 / changed);
    const revised = Array.from({ length: Math.floor(n / step) }, (_, k) => k * step + (k % step));
    await generateIncrementPackage({ dir: join(snapshot, 'corpus'), seed, revised, added: [] });
    const r = childBuild(snapshot, join(work, `n${n}`, 'out-incr'), cache);
    rows.push({ label: `after a daily package revising ${fmt(revised.length)} articles (cache of the full build)`, n, r, packMB: bytes / 2 ** 20 });
    incremental = { r, full, revised: revised.length };
  }
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const out = (s: string) => process.stdout.write(s);
out(
  `### Bulk packages end to end (\`npm run bench:corpus -- --packages --articles ${large} --small ${small} --per-package ${perPackage} --changed ${changed}\`)\n\n`,
);
out(
  `Machine: ${machine}; load average at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} (shared with other jobs). Date: ${new Date().toISOString().slice(0, 10)}.\n\n`,
);
out(
  '| run | articles | packages (MiB) | wall s | CPU s | articles/s (wall) | articles per CPU-second | extraction s | peak RSS MiB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n',
);
for (const { label, n, r, packMB } of rows)
  out(
    `| ${label} | ${fmt(n)} | ${packMB.toFixed(0)} | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} | ${fmt(Math.round(n / r.wall))} | **${fmt(Math.round(n / r.cpu))}** | ` +
      `${extractionSecs(r).toFixed(1)} | ${r.maxRssMiB.toFixed(0)} |\n`,
  );
out('\n');
for (const { n, r } of rows) out(`- ${fmt(n)}: ${r.log.filter((l) => /articles in|cache:|search index|step in/.test(l)).join(' / ')}\n`);
if (incremental) {
  const ratio = incremental.r.wall / incremental.full.wall;
  out(
    `\nIncremental rebuild (${fmt(incremental.revised)} of ${fmt(large)} articles revised): ${incremental.r.wall.toFixed(1)} s against ${incremental.full.wall.toFixed(1)} s ` +
      `for the full build, **${(ratio * 100).toFixed(1)}%** (target ≤ 35%: ${ratio <= 0.35 ? '**met**' : '**missed**'}); ` +
      `CPU time ${incremental.r.cpu.toFixed(1)} s against ${incremental.full.cpu.toFixed(1)} s, ${((incremental.r.cpu / incremental.full.cpu) * 100).toFixed(1)}%.\n`,
  );
}
const [a, b] = rows.filter((x) => x.label.startsWith('full'));
if (a && b && a !== b)
  out(
    `Peak RSS ${a.r.maxRssMiB.toFixed(0)} MiB at ${fmt(a.n)} articles, ${b.r.maxRssMiB.toFixed(0)} MiB at ${fmt(b.n)} (×${(b.r.maxRssMiB / a.r.maxRssMiB).toFixed(2)} for ×${(b.n / a.n).toFixed(1)} the input).\n`,
  );
if (values.keep) err(`kept ${work}\n`);
