// Per-phase timing of the pipeline: each phase is recorded once, in order, even when it throws, and logged.
import { describe, expect, it } from 'vitest';
import { PhaseTimer, phaseTable } from '../../pipeline/lib/phase-timer.ts';
import { silentProgress } from '../../pipeline/lib/progress.ts';

describe('PhaseTimer', () => {
  it('records wall time and peak RSS per phase, in order, and logs each', async () => {
    const logs: string[] = [];
    const timer = new PhaseTimer({ ...silentProgress, log: (m) => logs.push(m) });
    expect(await timer.time('first', () => 1)).toBe(1);
    await timer.time('second', () => new Promise((r) => setTimeout(r, 120)));
    await expect(timer.time('third', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(timer.phases.map((p) => p.phase)).toEqual(['first', 'second', 'third']);
    expect(timer.phases[1]!.seconds).toBeGreaterThanOrEqual(0.1);
    expect(timer.phases[1]!.seconds).toBeLessThan(5);
    for (const p of timer.phases) expect(p.max_rss_mib).toBeGreaterThan(10);
    expect(logs).toHaveLength(3);
    expect(logs[1]).toMatch(/^pipeline: phase second: \d+\.\d s, peak RSS \d+ MiB$/);
  });

  it('prints a table with one column pair per run and a total', () => {
    const table = phaseTable([
      { label: '1000', phases: [{ phase: 'validate', seconds: 1.25, max_rss_mib: 100 }, { phase: 'corpus', seconds: 2, max_rss_mib: 120 }] },
      { label: '2000', phases: [{ phase: 'validate', seconds: 3, max_rss_mib: 200 }] },
    ]);
    expect(table.split('\n')).toEqual([
      '| phase | 1000 s | 1000 peak RSS MiB | 2000 s | 2000 peak RSS MiB |',
      '|---|---:|---:|---:|---:|',
      '| validate | 1.3 | 100 | 3.0 | 200 |',
      '| corpus | 2.0 | 120 |  |  |',
      '| total | 3.3 |  | 3.0 |  |',
    ]);
  });
});
