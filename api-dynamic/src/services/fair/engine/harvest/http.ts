/**
 * The harvest's one way to the network: every request goes through the injected Fetcher (fetcher.ts) with the
 * assessment's deadline signal, is logged in the evidence, and is asked at most once per assessment (F-UJI
 * repeats identical requests; the cassettes show it). A refused or failed fetch is a logged null, never a throw:
 * one failing source must not abort the harvest (fair.md §4.4).
 */
import type { FetchLogEntry } from '../../../../../../contracts/fair/evidence.ts';
import { FetchError, type FetchRequest, type FetchResponse, type Fetcher } from '../../fetcher.ts';
import type { AssessOptions } from '../options.ts';

/** The Accept strings F-UJI sends (fair.md §2.3, confirmed by the recorded cassettes). */
export const ACCEPT = {
  html: 'text/html, */*',
  xml: 'application/xml, text/xml;q=0.5',
  jsonld: 'application/ld+json',
  schemaorg: 'application/vnd.schemaorg.ld+json, application/ld+json',
  rdf: 'text/turtle, application/turtle, application/x-turtle;q=0.8, application/rdf+xml, text/n3;q=0.9, text/rdf+n3;q=0.9,application/ld+json',
  dataciteJson: 'application/vnd.datacite.datacite+json',
  dataciteXml: 'application/vnd.datacite.datacite+xml',
  linkset: 'application/linkset+json, application/linkset',
  any: '*/*',
} as const;

/** Accept for a typed-link XML document: the link's own type first (fair.md §2.3). */
export function typedXmlAccept(type: string): string {
  return `${type},${ACCEPT.xml}`;
}

export interface HarvestContext {
  readonly fetcher: Fetcher;
  readonly options: AssessOptions;
  /** Aborts at the assessment deadline (and when the caller gives up). */
  readonly signal: AbortSignal;
  readonly log: FetchLogEntry[];
  readonly warnings: string[];
  /** One promise per distinct request, so a repeated request costs nothing. */
  readonly memo: Map<string, Promise<FetchResponse | null>>;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * Fetch once, log, and return the response (any status), or null when the fetch failed. The failure reason
 * (a FetchFailure) is in the log; `onError` receives the error for callers that must report it (resolution).
 */
export function fetchLogged(ctx: HarvestContext, purpose: string, request: FetchRequest, onError?: (error: FetchError) => void): Promise<FetchResponse | null> {
  const method = request.method ?? 'GET';
  const key = `${method} ${request.url} ${request.accept ?? ''} ${JSON.stringify(request.headers ?? {})} ${request.followRedirects ?? true}`;
  const known = ctx.memo.get(key);
  if (known) return known;
  const promise = (async () => {
    const started = performance.now();
    const entry: FetchLogEntry = {
      purpose,
      method,
      url: request.url,
      accept: request.accept ?? null,
      status: null,
      contentType: null,
      error: null,
      ms: 0,
    };
    ctx.log.push(entry);
    try {
      const response = await ctx.fetcher.fetch({ maxBytes: ctx.options.maxBodyBytes, ...request }, ctx.signal);
      entry.status = response.status;
      entry.contentType = response.headers['content-type'] ?? null;
      return response;
    } catch (error) {
      let failure: FetchError;
      if (error instanceof FetchError) failure = error;
      else if (isAbort(error) || ctx.signal.aborted) failure = new FetchError('timeout', request.url, 'the assessment deadline passed');
      else throw error;
      entry.error = failure.reason;
      onError?.(failure);
      return null;
    } finally {
      entry.ms = Math.round(performance.now() - started);
    }
  })();
  ctx.memo.set(key, promise);
  return promise;
}

/** `type/subtype` of a Content-Type header, lower-cased, without parameters; '' when absent. */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isOk(response: FetchResponse | null): response is FetchResponse {
  return response !== null && response.status >= 200 && response.status < 300;
}

/** Decode a body with the charset its Content-Type names (UTF-8 when absent or unknown). */
export function bodyText(response: FetchResponse): string {
  const charset = /charset=["']?([\w-]+)/i.exec(response.headers['content-type'] ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(response.body);
  } catch {
    return new TextDecoder('utf-8').decode(response.body);
  }
}

/** Largest JSON document parsed synchronously; bigger ones would stall the event loop (and carry no more metadata). */
export const MAX_JSON_BYTES = 2 * 1024 * 1024;

/** Parse a JSON body, or null (with a warning) when it is not JSON or too large to parse inline. */
export function bodyJson(ctx: HarvestContext, response: FetchResponse, what: string): unknown {
  if (response.body.length > MAX_JSON_BYTES) {
    ctx.warnings.push(`${what}: ${response.body.length} bytes of JSON is over the ${MAX_JSON_BYTES}-byte parse limit; skipped`);
    return null;
  }
  try {
    return JSON.parse(bodyText(response)) as unknown;
  } catch {
    ctx.warnings.push(`${what}: the response is not valid JSON`);
    return null;
  }
}

/**
 * The registered site of a URL, to decide whether a PID resolves "into the landing page's domain"
 * (fair.md §2.4). Without a public-suffix list: the last two labels, three for `co.uk`-style suffixes.
 */
export function siteKey(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (/^[0-9.]+$/.test(host) || host.includes(':')) return host;
  const labels = host.replace(/^www\./, '').split('.');
  if (labels.length <= 2) return labels.join('.');
  const last = labels.at(-1)!;
  const second = labels.at(-2)!;
  const take = last.length === 2 && second.length <= 3 ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** Resolve a possibly relative URL against a base; null when it is not a URL. */
export function absoluteUrl(href: string, base: string): string | null {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

/** Yield to the event loop, so long parses leave room for other requests. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
