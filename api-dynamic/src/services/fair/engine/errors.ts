/**
 * The engine's typed failures. The route maps them onto the shared error body (contracts/common/errors.ts):
 * ResolutionFailedError → 422 RESOLUTION_FAILED, UnknownMetricVersionError → 400 INVALID_PARAMETER. Anything
 * that goes wrong after the identifier resolved (a metadata document that does not parse, a data link that
 * times out) is not an error: it is recorded in the evidence and the metric fails with a reason.
 */

/** Why an identifier could not be turned into a landing page. */
export const RESOLUTION_FAILURES = [
  'unparseable', // not a DOI, handle, ARK, PURL, URN, w3id, identifiers.org id, UUID, hash or http(s) URL
  'no_resolver', // a recognised scheme without a web resolver (UUID, hash, an unknown URN namespace)
  'fetch', // the resolver or landing page could not be fetched (DNS, refused address, timeout …)
  'status', // the landing fetch ended in an HTTP error status (404, 500 …)
] as const;
export type ResolutionFailure = (typeof RESOLUTION_FAILURES)[number];

export class ResolutionFailedError extends Error {
  override name = 'ResolutionFailedError';
  readonly code = 'RESOLUTION_FAILED';
  constructor(
    /** The identifier as the caller gave it. */
    readonly identifier: string,
    readonly reason: ResolutionFailure,
    /** What went wrong, without the identifier (the message adds it). */
    readonly detail: string,
  ) {
    super(`The identifier "${identifier}" could not be resolved: ${detail}`);
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
