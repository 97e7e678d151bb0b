/**
 * Wall-clock seconds of the phases of a long step, for its log line ("database 12.3 s: rows 2.9, full-text
 * index 2.4, …"), so an operator sees where a build's time went without a profiler.
 */
export class PhaseClock {
  private readonly started = performance.now();
  private last = this.started;
  private readonly phases: [string, number][] = [];

  /** Ends the phase running since the previous lap (or the start) as `name`. */
  lap(name: string): void {
    const now = performance.now();
    this.phases.push([name, (now - this.last) / 1000]);
    this.last = now;
  }

  /** "12.3 s: rows 2.9, full-text index 2.4, …" (the total since the start, then each phase). */
  toString(): string {
    return `${((this.last - this.started) / 1000).toFixed(1)} s: ${this.phases.map(([n, s]) => `${n} ${s.toFixed(1)}`).join(', ')}`;
  }
}
