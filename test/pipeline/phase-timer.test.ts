// Per-phase timing of the pipeline: each phase is recorded once, in order, even when it throws, and logged.
import { describe, expect, it } from 'vitest';
import { PhaseTimer, phaseTable } from '../../pipeline/lib/phase-timer.ts';
import { silentProgress } from '../../pipeline/lib/progress.ts';

describe('PhaseTimer', () => {
  it('records wall time, CPU time and peak RSS per phase, in order, and logs each', async () => {
    const logs: string[] = [];
    const timer = new PhaseTimer({ ...silentProgress, log: (m) => logs.push(m) });
    expect(await timer.time('first', () => 1)).toBe(1);
    await timer.time('second', () => new Promise((r) => setTimeout(r, 120)));
    // A phase that spins: its CPU time is counted (and one that waits is not).
    await timer.time('busy', () => {
      // Until it has used 400 ms of CPU (not of wall time: a loaded machine gives a spinning loop less).
      const from = process.cpuUsage();
      while (process.cpuUsage(from).user < 400_000);
    });
    await expect(timer.time('third', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(timer.phases.map((p) => p.phase)).toEqual(['first', 'second', 'busy', 'third']);
    expect(timer.phases[2]!.cpu_seconds).toBeGreaterThanOrEqual(0.4);
    // The waiting phase's CPU is the whole process's while it waits (GC and other threads, rounded to 0.1 s: 0.1
    // was seen under CI load), at most 0.24 s in its 120 ms on two cores: never the spinning phase's 0.4 s.
    expect(timer.phases[1]!.cpu_seconds).toBeLessThan(timer.phases[2]!.cpu_seconds!);
    expect(timer.phases[1]!.cpu_seconds).toBeLessThanOrEqual(0.3);
    expect(timer.phases[1]!.seconds).toBeGreaterThanOrEqual(0.1);
    expect(timer.phases[1]!.seconds).toBeLessThan(5);
    for (const p of timer.phases) expect(p.max_rss_mib).toBeGreaterThan(10);
    expect(logs).toHaveLength(4);
    expect(logs[1]).toMatch(/^pipeline: phase second: \d+\.\d s, CPU \d+\.\d s, peak RSS \d+ MiB$/);
  });

  it('prints a table with one column pair per run and a total', () => {
    const table = phaseTable([
      {
        label: '1000',
        phases: [
          { phase: 'validate', seconds: 1.25, max_rss_mib: 100 },
          { phase: 'corpus', seconds: 2, max_rss_mib: 120 },
        ],
      },
      { label: '2000', phases: [{ phase: 'validate', seconds: 3, max_rss_mib: 200 }] },
    ]);
    expect(table.split('\n')).toEqual([
      '| phase | 1000 s | 1000 peak RSS MiB | 2000 s | 2000 peak RSS MiB |',
      '|---|---:|---:|---:|---:|',
      '| validate | 1.3 | 100 | 3.0 | 200 |',
      '| corpus | 2.0 | 120 |  |  |',
      '| total | 3.3 |  | 3.0 |  |',
    ]);
    // With CPU seconds recorded, they stand beside the wall seconds.
    const withCpu = phaseTable([
      {
        label: '1000',
        phases: [
          { phase: 'validate', seconds: 1.25, max_rss_mib: 100, cpu_seconds: 2.4 },
          { phase: 'corpus', seconds: 2, max_rss_mib: 120, cpu_seconds: 1 },
        ],
      },
    ]);
    expect(withCpu.split('\n').slice(2)).toEqual(['| validate | 1.3 (CPU 2.4) | 100 |', '| corpus | 2.0 (CPU 1.0) | 120 |', '| total | 3.3 (CPU 3.4) |  |']);
  });
});
