/**
 * What the FAIR route needs from whatever computes assessments: the embedded engine (embedded-backend.ts) or
 * an external F-UJI server (fuji-backend.ts), chosen by `FAIR_BACKEND`. Both answer in the same shape
 * (contracts/fair/responses.ts) and fail with the shared error codes, so the route, the cache and the tests do
 * not care which one runs.
 */
import type { AssessRequest } from '../../../../contracts/fair/request.ts';
import type { AssessResponse } from '../../../../contracts/fair/responses.ts';

export interface AssessmentBackend {
  readonly name: 'embedded' | 'fuji';
  /** For the start-up log, e.g. "embedded engine (DOI resolver https://doi.org)". */
  readonly description: string;
  /**
   * Assesses one parsed request. Rejects with ApiError for the caller's problems and upstream outages
   * (422 RESOLUTION_FAILED, 502 ASSESSMENT_FAILED, 503 UPSTREAM_UNAVAILABLE); any other rejection is a bug
   * and becomes a 500.
   */
  assess(request: AssessRequest): Promise<AssessResponse>;
  /**
   * Throws the ApiError `assess` would reject with when it can tell without any work (no fetch): the embedded
   * engine's 422 for a text that is no identifier or has no web resolver. The route calls it before counting
   * the request (quota.ts). Absent: every request goes to `assess`.
   */
  precheck?(request: AssessRequest): void;
  /** What `probe` asks, in plain words for /health's reasons, e.g. "the DOI resolver (doi.org)". */
  readonly dependency: string;
  /** Whether the backend answers (GET /health): true when it sent any HTTP answer below 500 in time. */
  probe(signal: AbortSignal): Promise<boolean>;
}
