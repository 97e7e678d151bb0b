/**
 * Assessments as the route asks for them: one backend (embedded engine or F-UJI), a result cache and
 * single-flight.
 *
 * - **Single-flight.** Requests for the same canonical identifier (engine/identifier.ts: `doi:10.1/x`,
 *   `10.1/x` and `https://doi.org/10.1/x` are one) with the same options, arriving while an assessment of it
 *   runs, wait for that assessment instead of starting their own; its failure is theirs too.
 * - **Cache.** A successful result is kept for `ttlSeconds` (FAIR_CACHE_TTL_SECONDS; 0 = off) in this
 *   process's memory, least recently used out first beyond `maxBytes` of serialized results. It is per process
 *   (replicas do not share it): a miss only costs a fresh assessment, so the shared store is not worth its
 *   traffic here. Failures are never cached: a resolver's bad minute must not stick.
 *
 * What a request costs its caller depends on how it was answered (quota.ts: a cached or shared answer is free),
 * and each answer echoes its own request's identifier in `objectIdentifier`; `id` and `details` are the shared
 * assessment's.
 */
import { LRUCache } from 'lru-cache';
import type { AssessRequest } from '../../../../contracts/fair/request.ts';
import type { AssessResponse } from '../../../../contracts/fair/responses.ts';
import type { AssessmentBackend } from './backend.ts';
import { tryParseIdentifier } from './engine/identifier.ts';

export interface AssessmentServiceOptions {
  /** Seconds a result is reused; 0 turns the cache off (single-flight stays). */
  ttlSeconds: number;
  /** Bytes of serialized results the cache may hold; 0 turns it off. */
  maxBytes: number;
}

/** How an answer was obtained, for logs, tests and the quota rule (quota.ts). */
export type AssessmentSource = 'fresh' | 'shared' | 'cache';

/** An assessment request's outcome: a result or the error it failed with, and where it came from. */
export type Settled = { source: AssessmentSource; result: AssessResponse } | { source: AssessmentSource; error: unknown };

interface Cached {
  result: AssessResponse;
}

export class AssessmentService {
  private readonly cache: LRUCache<string, Cached> | null;
  private readonly inflight = new Map<string, Promise<AssessResponse>>();

  constructor(
    readonly backend: AssessmentBackend,
    options: AssessmentServiceOptions,
  ) {
    this.cache =
      options.ttlSeconds > 0 && options.maxBytes > 0 ? new LRUCache<string, Cached>({ maxSize: options.maxBytes, ttl: options.ttlSeconds * 1000 }) : null;
  }

  /** The key shared by equivalent requests: canonical identifier and every option. */
  static key(request: AssessRequest): string {
    const canonical = tryParseIdentifier(request.identifier)?.normalized ?? request.identifier;
    const o = request.options;
    return JSON.stringify([canonical, o.use_registry, o.use_code_host, o.metric_version]);
  }

  /** Assesses a parsed request, reusing a cached or running assessment of the same key; rejects as the backend does. */
  async assess(request: AssessRequest): Promise<{ result: AssessResponse; source: AssessmentSource }> {
    const outcome = await this.settle(request);
    if ('error' in outcome) throw outcome.error;
    return outcome;
  }

  /**
   * Refuses, before anything is counted or fetched, a request the backend would refuse without any work
   * (AssessmentBackend.precheck): an ApiError, or nothing.
   */
  precheck(request: AssessRequest): void {
    this.backend.precheck?.(request);
  }

  /** The cached answer to a request, or null (nothing is fetched, nothing counted). */
  cached(request: AssessRequest): AssessResponse | null {
    const hit = this.cache?.get(AssessmentService.key(request));
    return hit ? ownResult(hit.result, request) : null;
  }

  /** Like `assess`, but a failure is returned with its source rather than thrown (the route's quota needs both). */
  async settle(request: AssessRequest): Promise<Settled> {
    const key = AssessmentService.key(request);
    const hit = this.cache?.get(key);
    if (hit) return { result: ownResult(hit.result, request), source: 'cache' };
    const running = this.inflight.get(key);
    const source: AssessmentSource = running ? 'shared' : 'fresh';
    let task = running;
    if (!task) {
      task = this.run(key, request);
      this.inflight.set(key, task);
    }
    try {
      return { result: ownResult(await task, request), source };
    } catch (error) {
      return { error, source };
    } finally {
      if (!running) this.inflight.delete(key);
    }
  }

  private async run(key: string, request: AssessRequest): Promise<AssessResponse> {
    const result = await this.backend.assess(request);
    this.cache?.set(key, { result }, { size: Math.max(1, Buffer.byteLength(JSON.stringify(result))) });
    return result;
  }

  /** Forgets every cached result (tests, benchmark). */
  clear(): void {
    this.cache?.clear();
  }
}

/** A shared result with the request's own spelling of the identifier. */
function ownResult(result: AssessResponse, request: AssessRequest): AssessResponse {
  return result.objectIdentifier === request.identifier ? result : { ...result, objectIdentifier: request.identifier };
}
