/**
 * Wall time and memory per pipeline phase, so a slow build says where its time went. The RSS
 * figure is the process's high-water mark when the phase ended (getrusage: cheap, covers worker threads and
 * DuckDB's native memory); it only ever grows, so the phase where it jumps is the one that needed the memory.
 * CPU seconds are the whole process's (every thread: workers and DuckDB's too): on a shared machine they move
 * far less with the load than the wall time does, and CPU over wall says how much of the 2 cores a phase used.
 */
import type { Progress } from './progress.ts';

export interface PhaseTiming {
  phase: string;
  seconds: number;
  /** Process peak RSS so far, at the end of the phase, in MiB. */
  max_rss_mib: number;
  /** CPU time of the whole process (user + system, every thread) during the phase. */
  cpu_seconds?: number;
}

const maxRssMib = () => Math.round(process.resourceUsage().maxRSS / 1024);

export class PhaseTimer {
  readonly phases: PhaseTiming[] = [];

  constructor(private readonly progress: Progress) {}

  /** Runs `work` as the phase `phase`, records it (even when it throws) and logs one line. */
  async time<T>(phase: string, work: () => Promise<T> | T): Promise<T> {
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      return await work();
    } finally {
      const t: PhaseTiming = {
        phase,
        seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
        max_rss_mib: maxRssMib(),
      };
      const used = process.cpuUsage(cpu);
      t.cpu_seconds = Number(((used.user + used.system) / 1e6).toFixed(1));
      this.phases.push(t);
      this.progress.log(`pipeline: phase ${phase}: ${t.seconds.toFixed(1)} s, CPU ${t.cpu_seconds.toFixed(1)} s, peak RSS ${t.max_rss_mib} MiB`);
    }
  }
}

/** Wall seconds, with the CPU seconds beside them when they were recorded. */
const seconds = (wall: number, cpu: number | undefined): string => (cpu === undefined ? wall.toFixed(1) : `${wall.toFixed(1)} (CPU ${cpu.toFixed(1)})`);

/** The phases as a Markdown table (bench:pipeline prints it; docs/benchmarks.md quotes it). */
export function phaseTable(rows: { label: string; phases: PhaseTiming[] }[]): string {
  const names = [...new Set(rows.flatMap((r) => r.phases.map((p) => p.phase)))];
  const head = `| phase | ${rows.map((r) => `${r.label} s | ${r.label} peak RSS MiB`).join(' | ')} |`;
  const rule = `|---|${rows.map(() => '---:|---:').join('|')}|`;
  const body = names.map((n) => {
    const cells = rows.map((r) => {
      const p = r.phases.find((x) => x.phase === n);
      return p ? `${seconds(p.seconds, p.cpu_seconds)} | ${p.max_rss_mib}` : ' | ';
    });
    return `| ${n} | ${cells.join(' | ')} |`;
  });
  const totals = rows.map((r) => {
    const cpu = r.phases.every((p) => p.cpu_seconds !== undefined) ? r.phases.reduce((s, p) => s + p.cpu_seconds!, 0) : undefined;
    return `${seconds(
      r.phases.reduce((s, p) => s + p.seconds, 0),
      r.phases.length > 0 ? cpu : undefined,
    )} | `;
  });
  return [head, rule, ...body, `| total | ${totals.join(' | ')} |`].join('\n');
}
