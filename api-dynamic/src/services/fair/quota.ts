/**
 * What counts against a caller's rate limit (docs/api-fair.md "What counts"): only a request that cost the
 * service real work and whose outcome was the caller's to decide.
 *
 * Never counted, because the route answers them before counting: a 400 or 413 (the request is not one), a 422
 * for an identifier nothing could resolve without asking the network (not an identifier at all, or a scheme
 * without a web resolver: AssessmentBackend.precheck), a 429, and an answer served from the result cache.
 *
 * Counted, then taken back with `RateLimiter.refund` when this rule says so:
 * - a fresh assessment (200) counts, and so does a fresh 422 RESOLUTION_FAILED: the resolver or the landing host
 *   was asked, and the identifier was the caller's choice;
 * - an answer shared with an identical assessment already running (single-flight) does not: that work was
 *   someone else's request;
 * - a 503 UPSTREAM_UNAVAILABLE (a resolver, DataCite, the code host or F-UJI is down), a 502 (F-UJI failed on
 *   its own) and a 500 (our bug) do not: they are ours.
 */
import { ApiError } from '../../../../contracts/common/errors.ts';
import type { Settled } from './assessment-service.ts';

/** Whether a settled assessment request stays counted against its caller. */
export function charged(outcome: Settled): boolean {
  if (outcome.source !== 'fresh') return false;
  if (!('error' in outcome)) return true;
  return outcome.error instanceof ApiError && outcome.error.code === 'RESOLUTION_FAILED';
}
