/**
 * The pieces behind the FAIR routes, without HTTP: the request parser's defaults and canonical forms, the
 * assessment service's cache and single-flight rules with a scripted backend, and the health check's reuse.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../contracts/common/errors.ts';
import { parseAssessRequest, type AssessRequest } from '../../../contracts/fair/request.ts';
import type { AssessResponse } from '../../../contracts/fair/responses.ts';
import { AssessmentService } from '../../../api-dynamic/src/services/fair/assessment-service.ts';
import type { AssessmentBackend } from '../../../api-dynamic/src/services/fair/backend.ts';
import { HealthCheck } from '../../../api-dynamic/src/services/fair/health.ts';
import { charged } from '../../../api-dynamic/src/services/fair/quota.ts';
import { ENGINE_METRIC_VERSIONS } from '../../../api-dynamic/src/services/fair/open.ts';

describe('parseAssessRequest', () => {
  it('fills the defaults, trims the identifier and names the metric version canonically', () => {
    expect(parseAssessRequest({ identifier: '  10.1594/PANGAEA.902845\n' }, ENGINE_METRIC_VERSIONS)).toEqual({
      identifier: '10.1594/PANGAEA.902845',
      options: { use_registry: true, use_code_host: false, metric_version: 'metrics_v0.8' },
    });
    expect(parseAssessRequest({ identifier: 'x', options: { metric_version: '0.5', use_code_host: true } }, ENGINE_METRIC_VERSIONS).options).toEqual({
      use_registry: true,
      use_code_host: true,
      metric_version: 'metrics_v0.5',
    });
    expect(parseAssessRequest({ identifier: 'x', options: { metric_version: 'metrics_v0.8.yaml' } }, ENGINE_METRIC_VERSIONS).options.metric_version).toBe(
      'metrics_v0.8',
    );
  });

  it('reports an unknown field before a wrong value, and never echoes more than 60 characters of a name', () => {
    const err = (() => {
      try {
        parseAssessRequest({ identifier: 42, ['x'.repeat(500)]: 1 }, ENGINE_METRIC_VERSIONS);
      } catch (e) {
        return e as ApiError;
      }
      throw new Error('no error');
    })();
    expect(err.code).toBe('UNKNOWN_PARAMETER');
    expect(err.message.length).toBeLessThan(200);
  });

  it('a "__proto__" key is an unknown field, not a prototype', () => {
    expect(() => parseAssessRequest(JSON.parse('{"identifier": "x", "__proto__": {"identifier": 1}}'), ENGINE_METRIC_VERSIONS)).toThrow(
      /Unknown field "__proto__"/,
    );
  });
});

/** A backend whose answers the test releases by hand. */
function scriptedBackend() {
  const calls: AssessRequest[] = [];
  const pending: Array<{ resolve: (r: AssessResponse) => void; reject: (e: unknown) => void }> = [];
  const backend: AssessmentBackend = {
    name: 'embedded',
    description: 'scripted',
    dependency: 'the scripted resolver',
    assess: (request) => {
      calls.push(request);
      return new Promise<AssessResponse>((resolve, reject) => pending.push({ resolve, reject }));
    },
    probe: async () => true,
  };
  const result = (n: number, size = 0) => ({ id: `run-${n}`, objectIdentifier: 'first spelling', padding: 'x'.repeat(size) }) as unknown as AssessResponse;
  return { backend, calls, pending, result };
}

const request = (identifier: string, metric_version = 'metrics_v0.8'): AssessRequest => ({
  identifier,
  options: { use_registry: true, use_code_host: false, metric_version },
});
const flush = () => new Promise((r) => setImmediate(r));

describe('AssessmentService', () => {
  it('shares a running assessment between spellings of one identifier, not between option sets', async () => {
    const s = scriptedBackend();
    const service = new AssessmentService(s.backend, { ttlSeconds: 0, maxBytes: 0 });
    const a = service.assess(request('10.1594/X'));
    const b = service.assess(request('https://doi.org/10.1594/X'));
    const c = service.assess(request('10.1594/X', 'metrics_v0.5'));
    await flush();
    expect(s.calls).toHaveLength(2);
    s.pending[0]!.resolve(s.result(1));
    s.pending[1]!.resolve(s.result(2));
    const [ra, rb, rc] = await Promise.all([a, b, c]);
    expect([ra.source, rb.source, rc.source]).toEqual(['fresh', 'shared', 'fresh']);
    expect(rb.result.id).toBe('run-1');
    expect(rb.result.objectIdentifier).toBe('https://doi.org/10.1594/X');
    // Cache off: the next request assesses again.
    const d = service.assess(request('10.1594/X'));
    await flush();
    expect(s.calls).toHaveLength(3);
    s.pending[2]!.resolve(s.result(3));
    expect((await d).source).toBe('fresh');
  });

  it('caches successes (within maxBytes), never failures', async () => {
    const s = scriptedBackend();
    const service = new AssessmentService(s.backend, { ttlSeconds: 3600, maxBytes: 10_000 });
    const failed = service.assess(request('10.1/fails'));
    await flush();
    s.pending[0]!.reject(new ApiError('RESOLUTION_FAILED', 'no'));
    await expect(failed).rejects.toThrow('no');
    const retried = service.assess(request('10.1/fails'));
    await flush();
    expect(s.calls).toHaveLength(2);
    s.pending[1]!.resolve(s.result(2));
    expect((await retried).source).toBe('fresh');
    expect((await service.assess(request('doi:10.1/fails'))).source).toBe('cache');
    // A result larger than the whole cache is served but not kept.
    const big = service.assess(request('10.1/big'));
    await flush();
    s.pending[2]!.resolve(s.result(3, 20_000));
    expect((await big).source).toBe('fresh');
    const again = service.assess(request('10.1/big'));
    await flush();
    expect(s.calls).toHaveLength(4);
    s.pending[3]!.resolve(s.result(4));
    await again;
  });
});

describe('HealthCheck', () => {
  it('probes once for concurrent checks, reuses the answer for its TTL, and counts a failing probe as unreachable', async () => {
    let now = Date.parse('2026-11-21T10:00:00Z');
    let probes = 0;
    let answer: boolean | Error = true;
    const check = new HealthCheck(
      {
        dependency: 'the DOI resolver (doi.test)',
        probe: async () => {
          probes++;
          await flush();
          if (answer instanceof Error) throw answer;
          return answer;
        },
      },
      async () => undefined,
      { ttlMs: 30_000, now: () => new Date(now) },
    );
    const [a, b] = await Promise.all([check.status(), check.status()]);
    expect(probes).toBe(1);
    expect(a).toBe(b);
    expect(a).toEqual({ status: 'healthy', reachable: true, reasons: [], checkedAt: new Date('2026-11-21T10:00:00Z') });
    now += 29_999;
    answer = new Error('boom');
    expect((await check.status()).reachable).toBe(true);
    now += 1;
    expect(await check.status()).toEqual({
      status: 'degraded',
      reachable: false,
      reasons: ['the DOI resolver (doi.test) does not answer, so assessments fail with 503 until it does'],
      checkedAt: new Date('2026-11-21T10:00:30Z'),
    });
    expect(probes).toBe(2);
  });

  it('is unhealthy, with both reasons, when the rate-limit counters fail or do not answer within a second', async () => {
    const failing = new HealthCheck({ probe: async () => false }, async () => Promise.reject(new Error('Redis ECONNREFUSED')));
    const status = await failing.status();
    expect(status.status).toBe('unhealthy');
    expect(status.reasons).toEqual([
      'the rate-limit counters cannot be reached (Redis ECONNREFUSED), so no assessment can be made',
      'the assessment backend does not answer, so assessments fail with 503 until it does',
    ]);
    const hanging = new HealthCheck({ probe: async () => true }, () => new Promise(() => {}));
    const slow = await hanging.status();
    expect(slow).toMatchObject({
      status: 'unhealthy',
      reachable: true,
      reasons: ['the rate-limit counters cannot be reached (no answer within 1000 ms), so no assessment can be made'],
    });
  });
});

describe('the quota rule (what counts against a caller)', () => {
  const result = {} as AssessResponse;
  it('a fresh result and a fresh 422 count; shared, cached, 503, 502 and 500 do not', () => {
    expect(charged({ source: 'fresh', result })).toBe(true);
    expect(charged({ source: 'fresh', error: new ApiError('RESOLUTION_FAILED', 'x') })).toBe(true);
    expect(charged({ source: 'shared', result })).toBe(false);
    expect(charged({ source: 'shared', error: new ApiError('RESOLUTION_FAILED', 'x') })).toBe(false);
    expect(charged({ source: 'cache', result })).toBe(false);
    expect(charged({ source: 'fresh', error: new ApiError('UPSTREAM_UNAVAILABLE', 'x') })).toBe(false);
    expect(charged({ source: 'fresh', error: new ApiError('ASSESSMENT_FAILED', 'x') })).toBe(false);
    expect(charged({ source: 'fresh', error: new TypeError('bug') })).toBe(false);
  });
});
