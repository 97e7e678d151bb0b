/**
 * One measured step of `npm run bench:pipeline`, run in its own process so its peak RSS is its own.
 * Prints one JSON line: {step, seconds, max_rss_mib, phases} (phases: the pipeline's own per-phase timings).
 */
import { availableParallelism } from 'node:os';
import { generateSnapshot } from '../pipeline/generate/snapshot.ts';
import { runPipeline } from '../pipeline/build.ts';
import type { PhaseTiming } from '../pipeline/lib/phase-timer.ts';
import { terminalProgress } from '../pipeline/lib/progress.ts';

const [step, works, snapshot, out, workFiles] = process.argv.slice(2);
const started = performance.now();
const progress = terminalProgress();
let phases: PhaseTiming[] = [];
if (step === 'generate') {
  await generateSnapshot({
    works: Number(works),
    seed: 20260624,
    out: snapshot!,
    name: 'bench',
    releaseDate: '2026-06-24',
    buildDate: '2026-07-12',
    threads: Math.min(4, availableParallelism()),
    progress,
  });
} else if (step === 'pipeline') {
  ({ phases } = await runPipeline({ snapshot: snapshot!, out: out!, workFiles: workFiles === 'true', keep: 1, progress }));
} else throw new Error(`unknown step ${step}`);
// maxRSS covers the whole process: worker threads and DuckDB's native memory included.
process.stdout.write(
  `${JSON.stringify({ step, seconds: Number(((performance.now() - started) / 1000).toFixed(1)), max_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024), phases })}\n`,
);
