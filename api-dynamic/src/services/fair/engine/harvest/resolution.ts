/**
 * Whose fault a failure is (docs/api-fair.md "Failures"). The one place that decides, for the
 * landing-page fetch and for the services the engine depends on, between
 *
 * - 422 RESOLUTION_FAILED (ResolutionFailedError): the identifier's problem. Its resolver answered that it does
 *   not know it (doi.org or hdl.handle.net said 404), or the landing host the resolver points to does not
 *   exist, refuses connections, does not answer, or answers an HTTP error;
 * - 503 UPSTREAM_UNAVAILABLE (UpstreamUnavailableError): ours. The resolver itself (DOI, Handle, ARK, URN:NBN,
 *   identifiers.org), DataCite's REST API or the code host's API cannot be reached, times out or answers 5xx/429,
 *   or this server's name resolution or network is failing (a DNS lookup that fails temporarily rather than
 *   answering "no such host", or "no such host" for the landing host while the DOI resolver's name, which
 *   exists, does not resolve either: this server cannot look names up).
 *
 * A resolver is told from the landing host by the hop that failed (FetchError.at): the first hop of a
 * resolver URL is the resolver, every later hop is where it sent us. Messages are plain words and name a URL at
 * most once.
 */
import { STATUS_CODES } from 'node:http';
import type { FetchLogEntry, IdentifierEvidence } from '../../../../../../contracts/fair/evidence.ts';
import { FetchError, type Fetcher, type FetchResponse } from '../../fetcher.ts';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../../../../../../contracts/common/errors.ts';
import { ResolutionFailedError, UpstreamUnavailableError } from '../errors.ts';
import type { Upstreams } from '../options.ts';

/** DNS answers that mean "this name does not exist" (the host's fault); any other lookup failure is ours. */
const NAME_NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'EAI_NONAME', 'EAI_NODATA']);
/** Connection failures that say this server has no way out (ours), not that the far host is at fault. */
const OUR_NETWORK = new Set(['ENETUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL']);

/** The resolvers the engine builds URLs for, with the words used in messages. */
const RESOLVERS: ReadonlyArray<{ key: keyof Upstreams; label: string }> = [
  { key: 'doi', label: 'the DOI resolver' },
  { key: 'handle', label: 'the Handle resolver' },
  { key: 'ark', label: 'the ARK resolver' },
  { key: 'nbn', label: 'the URN:NBN resolver' },
  { key: 'identifiersOrg', label: 'the identifiers.org resolver' },
];

export interface ResolverInfo {
  /** Base URL without trailing slash. */
  base: string;
  /** "the DOI resolver (doi.org)". */
  name: string;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The configured resolver whose URL this is (the URL the engine built for a DOI, Handle …), or null. */
export function resolverOf(url: string, upstreams: Upstreams): ResolverInfo | null {
  for (const { key, label } of RESOLVERS) {
    const base = upstreams[key];
    if (url.startsWith(`${base}/`)) return { base, name: `${label} (${hostOf(base)})` };
  }
  return null;
}

/** Services whose failure makes an assessment wrong rather than low: fetch-log purpose → the service's name. */
const DEPENDENCIES: ReadonlyArray<{ purpose: (purpose: string) => boolean; service: (u: Upstreams) => string }> = [
  { purpose: (p) => p === 'registry:datacite-rest', service: (u) => `DataCite's REST API (${hostOf(u.datacite)})` },
  { purpose: (p) => p.startsWith('code-host:'), service: (u) => `the code host's API (${hostOf(u.github)})` },
];

/** The longest Retry-After a rate-limit answer is passed on with (GitHub resets its anonymous quota hourly). */
const MAX_RATE_LIMIT_WAIT_SECONDS = 3600;

/**
 * The code host refusing this server for a while, or null: 429, or 403 with `X-RateLimit-Remaining: 0` or a
 * `Retry-After` (GitHub's primary and secondary rate limits answer 403). Ours (503), never the identifier's:
 * the quota is this server's. Retry-After comes from the answer's Retry-After or `X-RateLimit-Reset`.
 */
export function codeHostRateLimit(response: FetchResponse, upstreams: Upstreams, nowMs = Date.now()): UpstreamUnavailableError | null {
  const { status, headers } = response;
  const retryAfter = headers['retry-after'];
  if (!(status === 429 || (status === 403 && (headers['x-ratelimit-remaining'] === '0' || retryAfter !== undefined)))) return null;
  let wait = Number(retryAfter);
  if (!Number.isFinite(wait) || wait <= 0) {
    const reset = Number(headers['x-ratelimit-reset']);
    wait = Number.isFinite(reset) && reset > 0 ? Math.ceil(reset - nowMs / 1000) : DEFAULT_RETRY_AFTER_SECONDS;
  }
  const seconds = Math.min(MAX_RATE_LIMIT_WAIT_SECONDS, Math.max(1, Math.ceil(wait)));
  return new UpstreamUnavailableError(
    `the code host's API (${hostOf(upstreams.github)})`,
    `its request limit for this server is used up (${statusWords(status)})`,
    seconds,
  );
}

/** A failed fetch in plain words, for a service that is ours to depend on. */
function outageWords(reason: FetchLogEntry['error'] | FetchError['reason'], code?: string): string {
  switch (reason) {
    case 'dns':
      return code && !NAME_NOT_FOUND.has(code) ? `looking up its name failed (${code})` : 'its name does not resolve';
    case 'timeout':
      return 'it did not answer in time';
    case 'address':
      return 'its address is refused by this server’s outbound guard';
    case 'redirects':
      return 'it redirects in a loop';
    default:
      return code ? `the connection failed (${code})` : 'the connection failed';
  }
}

function statusWords(status: number): string {
  const phrase = STATUS_CODES[status];
  return phrase ? `HTTP ${status} ${phrase}` : `HTTP ${status}`;
}

/**
 * Whether this server's name service is down: asked after a landing host "does not exist", it checks a name
 * that does (the DOI resolver's host) through the same fetcher. Only a DNS failure there says so.
 */
export async function nameServiceDown(fetcher: Fetcher, upstreams: Upstreams, signal: AbortSignal): Promise<boolean> {
  try {
    await fetcher.fetch({ url: `${upstreams.doi}/`, method: 'HEAD', followRedirects: false }, signal);
    return false;
  } catch (error) {
    return error instanceof FetchError && error.reason === 'dns';
  }
}

/**
 * The error for a landing fetch that failed without any answer. `identifier` is the caller's text, `parsed` its
 * recognised form; `dnsDown` whether this server could not look up the DOI resolver's name either.
 */
export function landingFetchFailure(
  identifier: string,
  parsed: IdentifierEvidence & { url: string },
  upstreams: Upstreams,
  failure: FetchError | null,
  dnsDown = false,
): Error {
  const at = failure?.at ?? parsed.url;
  const resolver = resolverOf(parsed.url, upstreams);
  // The resolver's own hop: it is a service we depend on, whatever went wrong.
  if (resolver && at.startsWith(`${resolver.base}/`))
    return new UpstreamUnavailableError(resolver.name, outageWords(failure?.reason ?? 'network', failure?.code));
  const host = hostOf(at);
  const code = failure?.code;
  if (failure?.reason === 'dns' && code && !NAME_NOT_FOUND.has(code))
    return new UpstreamUnavailableError('its name service (DNS)', `looking up ${host} failed (${code})`);
  if (failure?.reason === 'dns' && dnsDown)
    return new UpstreamUnavailableError('its name service (DNS)', `it cannot look up ${host}, nor ${hostOf(upstreams.doi)}, which exists`);
  if (failure?.reason === 'network' && code && OUR_NETWORK.has(code))
    return new UpstreamUnavailableError('the network', `connecting to ${host} failed (${code})`);
  const lead = resolver ? `${resolver.name} sends it to ${at}, but ` : at !== parsed.url ? `it redirects to ${at}, but ` : '';
  let what: string;
  switch (failure?.reason) {
    case 'dns':
      what = `the host ${host} does not exist (it has no DNS entry)`;
      break;
    case 'timeout':
      what = `${host} did not answer in time`;
      break;
    case 'address':
      what = `${host} is a private or internal address, which this service does not fetch`;
      break;
    case 'redirects':
      what = `${host} redirects too many times`;
      break;
    case 'scheme':
      what = 'it leads to an address that is not http or https';
      break;
    case 'too_large':
      what = `${host} sent more than this service reads`;
      break;
    default:
      if (code === 'ECONNREFUSED') what = `${host} refuses connections`;
      else if (code && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code)) what = `the TLS certificate of ${host} could not be verified (${code})`;
      else what = `${host} could not be reached${code ? ` (${code})` : ''}`;
  }
  const detail = `${lead}${what}. Check the identifier; if it is right, its landing page is offline or has moved.`;
  return new ResolutionFailedError(identifier, 'fetch', detail, 'landing');
}

/** The error for a landing fetch that ended in an HTTP error status, or null when the answer is usable. */
export function landingStatusFailure(
  identifier: string,
  parsed: IdentifierEvidence & { url: string },
  upstreams: Upstreams,
  landing: FetchResponse,
): Error | null {
  const resolver = resolverOf(parsed.url, upstreams);
  // DataCite's resolver page for a DOI it does not know (doi.org redirects there for some prefixes).
  if (resolver && /datacite\.org\/invalid\.html/i.test(landing.url))
    return new ResolutionFailedError(identifier, 'status', `${resolver.name} reports that it is not registered. Check the identifier for typos.`, 'resolver');
  const { status } = landing;
  if (status < 400 || status === 410) return null;
  if (resolver && landing.redirects.length === 0) {
    if (status >= 500 || status === 429) return new UpstreamUnavailableError(resolver.name, `it answered ${statusWords(status)}`);
    const what = status === 404 ? 'does not know it' : 'refuses it';
    return new ResolutionFailedError(identifier, 'status', `${resolver.name} ${what} (${statusWords(status)}). Check the identifier for typos.`, 'resolver');
  }
  const lead = resolver
    ? `${resolver.name} sends it to ${landing.url}, which`
    : landing.redirects.length > 0
      ? `it redirects to ${landing.url}, which`
      : 'its landing page';
  return new ResolutionFailedError(
    identifier,
    'status',
    `${lead} answered ${statusWords(status)}. Check the identifier; if it is right, its landing page is offline or has moved.`,
    'landing',
  );
}

/**
 * The first failure of a service the engine depends on, from the assessment's fetch log, or null. A dependency
 * that did not answer would leave the metrics it feeds failing for a reason that is not the object's, so the
 * whole assessment is refused as ours (503) rather than scored low.
 */
export function dependencyOutage(log: readonly FetchLogEntry[], upstreams: Upstreams): UpstreamUnavailableError | null {
  for (const entry of log) {
    const dependency = DEPENDENCIES.find((d) => d.purpose(entry.purpose));
    if (!dependency) continue;
    if (entry.error !== null && entry.error !== 'too_large') return new UpstreamUnavailableError(dependency.service(upstreams), outageWords(entry.error));
    if (entry.status !== null && (entry.status >= 500 || entry.status === 429))
      return new UpstreamUnavailableError(dependency.service(upstreams), `it answered ${statusWords(entry.status)}`);
  }
  return null;
}
