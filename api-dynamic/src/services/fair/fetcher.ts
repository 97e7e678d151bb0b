/**
 * The one door through which the FAIR engine reaches the outside world. The engine (harvesting, content
 * negotiation, data links) only ever calls a Fetcher; the production Fetcher (safe-fetch.ts) refuses
 * private addresses, caps bodies and time (DECISIONS.md §6), and tests pass one that may reach loopback
 * mock servers. Keeping the interface this small is what lets the engine be tested without the network and
 * the guard be tested without the engine.
 */

export interface FetchRequest {
  url: string;
  /** Default GET. HEAD is used to learn a data file's size and type without downloading it. */
  method?: 'GET' | 'HEAD';
  /** The Accept header (content negotiation); omitted means the fetcher's default (any). */
  accept?: string;
  /** Extra request headers (e.g. Authorization for the code host, Range for a capped data probe). */
  headers?: Readonly<Record<string, string>>;
  /** Stop reading after this many bytes and mark the response truncated (default: the fetcher's cap, 5 MB). */
  maxBytes?: number;
  /** Follow redirects (default true, at most the fetcher's limit, 10). When false a 3xx is returned as is. */
  followRedirects?: boolean;
}

export interface FetchResponse {
  /** The URL asked for. */
  requestedUrl: string;
  /** The URL of the final response, after redirects. */
  url: string;
  /** Every URL visited before `url`, in order (empty without redirects). */
  redirects: string[];
  status: number;
  /** Header names lower-cased; repeated headers joined with ", " (so several Link headers become one list). */
  headers: Readonly<Record<string, string>>;
  /** The body bytes read (empty for HEAD). */
  body: Buffer;
  /** True when the body was cut at maxBytes. */
  truncated: boolean;
}

export interface Fetcher {
  fetch(request: FetchRequest, signal?: AbortSignal): Promise<FetchResponse>;
}

/** Why a fetch was refused or abandoned; the engine reports it in the evidence, never as a 500. */
export const FETCH_FAILURES = [
  'scheme', // not http(s)
  'address', // loopback, private, link-local, unique-local, metadata … (after DNS, on every redirect)
  'dns', // the name does not resolve
  'redirects', // more than the redirect limit
  'timeout', // per-request or per-assessment deadline
  'too_large', // declared or streamed body over the cap when truncation is not acceptable
  'network', // connection refused, reset, TLS …
] as const;
export type FetchFailure = (typeof FETCH_FAILURES)[number];

export class FetchError extends Error {
  override name = 'FetchError';
  /**
   * The URL of the hop that failed: `url` itself, or a redirect target. The engine needs it to say whose fault
   * a failure is (a DOI resolver that cannot be reached is ours, a landing host it points to that does not exist
   * is the identifier's). Set by the fetcher when it knows; defaults to `url`.
   */
  at: string;
  constructor(
    readonly reason: FetchFailure,
    readonly url: string,
    message: string,
    /** The system error code behind a `dns` or `network` failure (ENOTFOUND, EAI_AGAIN, ECONNREFUSED …), when known. */
    readonly code?: string,
  ) {
    super(message);
    this.at = url;
  }
}
