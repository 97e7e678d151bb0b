/**
 * The embedded engine as an AssessmentBackend: `assess()` (engine/assess.ts) over the SSRF-safe fetcher, with
 * the upstream base URLs, deadline and body cap from the configuration, and its typed failures turned into
 * the shared error body (422 RESOLUTION_FAILED, 400 for an unknown metric version). Nothing the engine meets
 * after resolution throws (a failing source fails a metric), so any other rejection is a bug: a 500.
 */
import { ApiError } from '../../../../contracts/common/errors.ts';
import type { AssessRequest } from '../../../../contracts/fair/request.ts';
import type { AssessResponse } from '../../../../contracts/fair/responses.ts';
import type { AssessmentBackend } from './backend.ts';
import { assess } from './engine/assess.ts';
import { ResolutionFailedError, UnknownMetricVersionError, UpstreamUnavailableError } from './engine/errors.ts';
import { parseIdentifier } from './engine/identifier.ts';
import type { Upstreams } from './engine/options.ts';
import type { Fetcher } from './fetcher.ts';

export interface EmbeddedBackendOptions {
  /** The production fetcher is the safe one (safe-fetch.ts); tests may pass another. */
  fetcher: Fetcher;
  upstreams: Upstreams;
  /** Whole-assessment deadline (`FAIR_ASSESSMENT_TIMEOUT_MS`). */
  deadlineMs: number;
  /** Body cap per fetched document (`FAIR_FETCH_MAX_BYTES`). */
  maxBodyBytes: number;
  /** `FAIR_GITHUB_TOKEN`. */
  githubToken?: string | undefined;
}

export class EmbeddedBackend implements AssessmentBackend {
  readonly name = 'embedded';
  readonly description: string;
  readonly dependency: string;

  constructor(private readonly options: EmbeddedBackendOptions) {
    this.description = `embedded engine (DOI resolver ${options.upstreams.doi})`;
    this.dependency = `the DOI resolver (${new URL(options.upstreams.doi).host})`;
  }

  async assess(request: AssessRequest): Promise<AssessResponse> {
    const { fetcher, upstreams, deadlineMs, maxBodyBytes, githubToken } = this.options;
    try {
      return await assess(
        request.identifier,
        {
          useRegistry: request.options.use_registry,
          useCodeHost: request.options.use_code_host,
          metricVersion: request.options.metric_version,
          deadlineMs,
          maxBodyBytes,
          upstreams,
          ...(githubToken ? { githubToken } : {}),
        },
        { fetcher },
      );
    } catch (err) {
      throw engineError(err);
    }
  }

  /** Recognising the identifier needs no network: one that is none, or has no web resolver, is refused here. */
  precheck(request: AssessRequest): void {
    try {
      parseIdentifier(request.identifier, this.options.upstreams);
    } catch (err) {
      throw engineError(err);
    }
  }

  /** The DOI resolver answers a HEAD of its root (any status below 500, redirects not followed). */
  async probe(signal: AbortSignal): Promise<boolean> {
    try {
      const response = await this.options.fetcher.fetch({ url: `${this.options.upstreams.doi}/`, method: 'HEAD', followRedirects: false }, signal);
      return response.status < 500;
    } catch {
      return false;
    }
  }
}

/** The shared error for the engine's typed failures; other errors pass through unchanged (→ 500). */
export function engineError(err: unknown): unknown {
  if (err instanceof ResolutionFailedError)
    return new ApiError('RESOLUTION_FAILED', err.message, [{ parameter: 'identifier', message: `${err.step}: ${err.reason}` }]);
  if (err instanceof UpstreamUnavailableError)
    return new ApiError('UPSTREAM_UNAVAILABLE', err.message, [{ message: `${err.service}: ${err.detail}` }], { retryAfterSeconds: err.retryAfterSeconds });
  if (err instanceof UnknownMetricVersionError)
    return new ApiError('INVALID_PARAMETER', err.message, [
      { parameter: 'options.metric_version', message: 'unknown metric version', allowed: [...err.accepted] },
    ]);
  return err;
}
