/**
 * `GET /fair/api/v1/health` (DECISIONS.md §6; docs/api-fair.md "GET /health"): what a monitor needs to know
 * about the FAIR service, with the reason whenever it is not fully well.
 *
 * - `healthy`: the assessment backend answers its probe (the DOI resolver for the embedded engine, the F-UJI
 *   server otherwise) and the rate-limit counters answer.
 * - `degraded`: the counters answer but the backend does not: the API is up and answers, but assessments fail
 *   with 503 UPSTREAM_UNAVAILABLE (not counted) until the backend is back.
 * - `unhealthy`: the rate-limit counters (the file journal's process or Redis) cannot be reached, so no request
 *   can be counted and every assessment is refused: this process cannot serve the FAIR API at all.
 *
 * Both probes run with a short timeout, their answer is reused for `ttlMs` so a burst of health checks costs
 * one probe, and never two probes run at once.
 */
import { withTimeout } from '../state/store.ts';
import type { AssessmentBackend } from './backend.ts';

export type HealthState = 'healthy' | 'degraded' | 'unhealthy';

export interface HealthStatus {
  status: HealthState;
  /** Whether the assessment backend answered. */
  reachable: boolean;
  /** Why the status is not `healthy`, in plain words; empty when it is. */
  reasons: string[];
  /** When the probes ran. */
  checkedAt: Date;
}

export interface HealthCheckOptions {
  /** How long a probe's answer is reused; default 30 s. */
  ttlMs?: number;
  /** How long a probe may take before its target counts as unreachable; default 3 s. */
  timeoutMs?: number;
  now?: () => Date;
}

/** The counters' probe: resolves when they answer (a peek, which counts nothing). */
export type CountersProbe = () => Promise<unknown>;

/** How long the counters may take to answer a peek; the readiness probe allows the state store as long. */
const COUNTERS_TIMEOUT_MS = 1000;

export class HealthCheck {
  private last: HealthStatus | null = null;
  private running: Promise<HealthStatus> | null = null;
  private readonly ttlMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly backend: Pick<AssessmentBackend, 'probe'> & { dependency?: string },
    private readonly counters: CountersProbe = async () => undefined,
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
        const [reachable, countersError] = await Promise.all([
          this.backend.probe(AbortSignal.timeout(this.timeoutMs)).catch(() => false),
          withTimeout(this.counters(), COUNTERS_TIMEOUT_MS, `no answer within ${COUNTERS_TIMEOUT_MS} ms`).then(
            () => null,
            (err: unknown) => (err instanceof Error ? err.message : String(err)),
          ),
        ]);
        const reasons: string[] = [];
        if (countersError !== null) reasons.push(`the rate-limit counters cannot be reached (${countersError}), so no assessment can be made`);
        if (!reachable) reasons.push(`${this.backend.dependency ?? 'the assessment backend'} does not answer, so assessments fail with 503 until it does`);
        const status: HealthState = countersError !== null ? 'unhealthy' : reachable ? 'healthy' : 'degraded';
        this.last = { status, reachable, reasons, checkedAt };
        return this.last;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
