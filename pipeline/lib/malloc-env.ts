/**
 * The pipeline's processes run with glibc's mmap threshold fixed (`MALLOC_MMAP_THRESHOLD_`), on Linux with glibc.
 *
 * Why: the corpus step allocates and frees many large typed arrays (summaries, hashes, sorting arrays, the excerpt
 * index). glibc serves a block above its mmap threshold with its own mapping, returned to the system when freed,
 * but it raises that threshold to the size of every mapped block freed (up to 32 MiB). After the first few, blocks
 * of several MiB come from the heap instead, and freed heap memory mostly stays with the process. The resident size
 * then grew with the corpus by more than the data held (issue 21 session 25: peak RSS at 100,000 articles
 * 334–362 MiB as glibc sets itself, ~300 with the threshold fixed at 128 KiB, its starting value; docs/benchmarks.md).
 * Fixing the threshold also stops the adjusting. glibc reads the variable when the process starts, so it is set for
 * the child processes that build (scripts/build.ts, the benchmark's builds) and `npm run pipeline` runs itself again
 * with it (`rerunWithMallocEnv`). Elsewhere (macOS, musl, Windows) nothing changes.
 */
import { spawnSync } from 'node:child_process';

export const MMAP_THRESHOLD_VAR = 'MALLOC_MMAP_THRESHOLD_';
/** glibc's starting threshold (128 KiB), kept from moving. */
const MMAP_THRESHOLD = String(128 * 1024);

function isGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return typeof header?.glibcVersionRuntime === 'string';
}

/** The environment for a child process that builds: this one's, with the threshold set where glibc reads it (unless set already). */
export function buildEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env[MMAP_THRESHOLD_VAR] !== undefined || !isGlibc()) return env;
  return { ...env, [MMAP_THRESHOLD_VAR]: MMAP_THRESHOLD };
}

/**
 * Runs this process's command again as a child with `buildEnv` when it would set anything, and exits as the child
 * did; returns (doing nothing) when the threshold is set already or glibc is not in use. Signals from the terminal
 * reach both (one process group); the parent only waits.
 */
export function rerunWithMallocEnv(): void {
  const env = buildEnv();
  if (env === process.env) return;
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  if (r.error) throw r.error;
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
}
