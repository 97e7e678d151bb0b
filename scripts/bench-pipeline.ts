/**
 * `npm run bench:pipeline -- [--works N[,N...]] [--dir DIR] [--work-files]`
 * Generates a snapshot of each size and runs the pipeline on it, each step in its own process, and prints
 * wall time and peak RSS per step, then the pipeline's own per-phase table (wall time, peak RSS so far). Default sizes: the committed sample's 20,000 and the full 4,300,000.
 */
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { commandLine } from '../pipeline/lib/command-line.ts';
import { type PhaseTiming, phaseTable } from '../pipeline/lib/phase-timer.ts';
import { marginalsTable } from './marginals.ts';

const values = commandLine(
  `Usage: npm run bench:pipeline -- [--works 20000,4300000] [--dir /tmp/bench-pipeline] [--work-files]

Measures generator + pipeline wall time and peak RSS per frame size (each step in its own process), then
the pipeline's wall time and peak RSS per phase (validate, frame database load, derived tables, ...).
--work-files also writes one JSON document per work (off by default, as in the target).
`,
  {
    works: { type: 'string', default: '20000,4300000' },
    dir: { type: 'string', default: '/tmp/bench-pipeline' },
    'work-files': { type: 'boolean', default: false },
  },
);
const sizes = values.works!.split(',').map(Number);
const dir = resolve(values.dir!);
const marginals: string[] = [];
const phaseRows: { label: string; phases: PhaseTiming[] }[] = [];
process.stdout.write(`machine: ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`);
process.stdout.write('| works | step | wall s | peak RSS MiB |\n|---:|---|---:|---:|\n');
for (const n of sizes) {
  const snap = join(dir, `snapshot-${n}`);
  const out = join(dir, `out-${n}`);
  let total = 0;
  for (const step of ['generate', 'pipeline']) {
    const r = spawnSync(
      process.execPath,
      [resolve('node_modules/tsx/dist/cli.mjs'), resolve('scripts/bench-step.ts'), step, String(n), snap, out, String(values['work-files'])],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
      },
    );
    if (r.status !== 0) throw new Error(`${step} failed for ${n} works`);
    const m = JSON.parse(r.stdout.trim().split('\n').pop()!) as { seconds: number; max_rss_mib: number; phases: PhaseTiming[] };
    total += m.seconds;
    if (step === 'pipeline') phaseRows.push({ label: String(n), phases: m.phases });
    process.stdout.write(`| ${n} | ${step}${step === 'pipeline' && values['work-files'] ? ' (+work files)' : ''} | ${m.seconds} | ${m.max_rss_mib} |\n`);
  }
  process.stdout.write(`| ${n} | total | ${total.toFixed(1)} | |\n`);
  marginals.push(`\nMarginals of the ${n}-work build against the published frame:\n\n${await marginalsTable(out, snap)}`);
}
process.stdout.write(`\nPipeline phases (works per column):\n\n${phaseTable(phaseRows)}\n`);
process.stdout.write(marginals.join(''));
