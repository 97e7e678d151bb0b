/**
 * `GET /fair/api/v1/health`'s answer to "is the assessment backend reachable" (DECISIONS.md §6): the backend's
 * probe (the DOI resolver for the embedded engine, the F-UJI server otherwise) with a short timeout, reused
 * for `ttlMs` so a burst of health checks costs one probe, and never two probes at once.
 */
import type { AssessmentBackend } from './backend.ts';

export interface HealthStatus {
  reachable: boolean;
  /** When the probe ran. */
  checkedAt: Date;
}

export interface HealthCheckOptions {
  /** How long a probe's answer is reused; default 30 s. */
  ttlMs?: number;
  /** How long a probe may take before the backend counts as unreachable; default 3 s. */
  timeoutMs?: number;
  now?: () => Date;
}

export class HealthCheck {
  private last: HealthStatus | null = null;
  private running: Promise<HealthStatus> | null = null;
  private readonly ttlMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly backend: Pick<AssessmentBackend, 'probe'>,
    options: HealthCheckOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.now = options.now ?? (() => new Date());
  }

  async status(): Promise<HealthStatus> {
    if (this.last && this.now().getTime() - this.last.checkedAt.getTime() < this.ttlMs) return this.last;
    this.running ??= (async () => {
      try {
        const checkedAt = this.now();
        const reachable = await this.backend.probe(AbortSignal.timeout(this.timeoutMs)).catch(() => false);
        this.last = { reachable, checkedAt };
        return this.last;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
