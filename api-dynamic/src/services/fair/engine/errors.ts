/**
 * The engine's typed failures. The route maps them onto the shared error body (contracts/common/errors.ts):
 * ResolutionFailedError → 422 RESOLUTION_FAILED (the identifier's fault), UpstreamUnavailableError → 503
 * UPSTREAM_UNAVAILABLE (a service the engine depends on is down: ours to fix, never counted against the
 * caller), UnknownMetricVersionError → 400 INVALID_PARAMETER. Which failure is whose is decided in one place,
 * harvest/resolution.ts. Anything else that goes wrong after the identifier resolved (a metadata document that
 * does not parse, a data link that times out) is not an error: it is recorded in the evidence and the metric
 * fails with a reason.
 */

import { DEFAULT_RETRY_AFTER_SECONDS } from '../../../../../contracts/common/errors.ts';

/** Why an identifier could not be turned into a landing page. */
export const RESOLUTION_FAILURES = [
  'unparseable', // not a DOI, handle, ARK, PURL, URN, w3id, identifiers.org id, UUID, hash or http(s) URL
  'no_resolver', // a recognised scheme without a web resolver (UUID, hash, an unknown URN namespace)
  'fetch', // the resolver or landing page could not be fetched (DNS, refused address, timeout …)
  'status', // the landing fetch ended in an HTTP error status (404, 500 …)
] as const;
export type ResolutionFailure = (typeof RESOLUTION_FAILURES)[number];

/** Which step of resolution failed: recognising the identifier, asking its resolver, or fetching its landing page. */
export type ResolutionStep = 'identifier' | 'resolver' | 'landing';

export class ResolutionFailedError extends Error {
  override name = 'ResolutionFailedError';
  readonly code = 'RESOLUTION_FAILED';
  constructor(
    /** The identifier as the caller gave it. */
    readonly identifier: string,
    readonly reason: ResolutionFailure,
    /** What went wrong, in plain words, without the identifier (the message adds it). */
    readonly detail: string,
    readonly step: ResolutionStep = 'identifier',
  ) {
    super(`The identifier "${identifier}" could not be resolved: ${detail}`);
  }
}

/** A service the engine depends on (a resolver, DataCite, the code host, name resolution) cannot be reached. */
export class UpstreamUnavailableError extends Error {
  override name = 'UpstreamUnavailableError';
  readonly code = 'UPSTREAM_UNAVAILABLE';
  constructor(
    /** The service in plain words, e.g. "the DOI resolver (doi.org)". */
    readonly service: string,
    /** What failed, in plain words, e.g. "it did not answer in time". */
    readonly detail: string,
    /** Seconds after which trying again is worth it (the Retry-After header). */
    readonly retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS,
  ) {
    super(
      `This service cannot reach ${service} right now: ${detail}. No assessment was made. The problem is on our side, not with the identifier, and the request was not counted against your limit; try again shortly.`,
    );
  }
}

export class UnknownMetricVersionError extends Error {
  override name = 'UnknownMetricVersionError';
  readonly code = 'INVALID_PARAMETER';
  constructor(
    readonly requested: string,
    /** Canonical names of the versions the engine has, e.g. `metrics_v0.8`. */
    readonly accepted: readonly string[],
  ) {
    super(`Unknown metric_version "${requested}"; accepted: ${accepted.join(', ')}`);
  }
}
