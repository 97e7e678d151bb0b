/**
 * The production Fetcher (fetcher.ts): HTTP(S) GET and HEAD for the FAIR engine, safe to point at
 * user-supplied URLs (DECISIONS.md §6).
 *
 * - Only http: and https: URLs.
 * - Every hop (the first request and each redirect) resolves its host name once, checks every address
 *   against the address guard (address-guard.ts), and connects to exactly those checked addresses: the
 *   socket gets a `lookup` that answers from the checked list, so a DNS answer that changes between the
 *   check and the connection (DNS rebinding) cannot redirect the connection. TLS still verifies the
 *   certificate against the host name and sends it as SNI; the Host header is the URL's host.
 * - At most `maxRedirects` redirects (10); Authorization, Cookie and Proxy-Authorization are dropped when a
 *   redirect leaves the origin, so a credential for one host is never handed to another.
 * - One wall-clock deadline (`timeoutMs`, 10 s) for the whole call, redirects and body included, enforced
 *   by destroying the socket: a server that trickles bytes or never finishes its headers (slow loris) is cut
 *   at the deadline, not kept alive by each byte. The caller's AbortSignal (the assessment's 60 s) cuts too.
 * - Bodies are streamed and counted: reading stops at `maxBytes` (5 MB) and the connection is closed, so
 *   an endless or huge body costs at most the cap. gzip, deflate and br bodies are decoded, and the cap
 *   counts decoded bytes, so a compression bomb is cut the same way.
 *
 * Node's own http/https modules are used rather than the global fetch (undici) because they take a
 * `createConnection` per request: the pinning above needs to choose the socket's addresses, and undici's
 * equivalent (a dispatcher with `connect`) is not a dependency of this project.
 */
import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { rootCertificates, connect as tlsConnect } from 'node:tls';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { type AddressPolicy, checkAddress, checkHostname } from './address-guard.ts';
import { FetchError, type Fetcher, type FetchRequest, type FetchResponse } from './fetcher.ts';

/** The limits of DECISIONS.md §6. */
export const SAFE_FETCH_DEFAULTS = {
  maxRedirects: 10,
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  userAgent: 'ori-fair-assessment/0.1 (FAIR assessment harvester)',
  accept: '*/*',
} as const;

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; rejects (or returns none) when it does not resolve. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Where one hop connects: the URL's host and port, and the addresses that passed the guard. */
export interface DialTarget {
  protocol: 'http:' | 'https:';
  /** The URL's host name (brackets removed from an IPv6 literal). */
  hostname: string;
  port: number;
  /** Checked addresses, in resolver order; the only ones the connection may use. */
  addresses: readonly ResolvedAddress[];
}

/** Opens the socket for one hop (TLS included for https). */
export type Dialer = (target: DialTarget) => Socket;

export interface SafeFetcherOptions {
  /**
   * Let requests reach loopback, RFC 1918, CGNAT, link-local and unique-local addresses
   * (`FAIR_ALLOW_PRIVATE_ADDRESSES`). Off in production; tests against 127.0.0.1 mocks turn it on. Metadata
   * endpoints, unspecified, multicast and broadcast addresses stay refused either way.
   */
  allowPrivateAddresses?: boolean;
  /** Resolver for host names; default the system resolver (getaddrinfo, all addresses). Tests inject one. */
  lookup?: Resolver;
  /**
   * Opens the connection of a hop, given the checked addresses. Default: a TCP (or TLS) socket pinned to
   * them. Only tests replace it, to route a checked public-looking address to a loopback mock; it must
   * connect to one of `target.addresses`' stand-ins, never resolve the name again.
   */
  dial?: Dialer;
  /** Redirects followed per call before failing with reason `redirects`; default 10. */
  maxRedirects?: number;
  /** Milliseconds one call may take, redirects and body included; default 10 000. */
  timeoutMs?: number;
  /** Body bytes kept (decoded); the cap for every request, which `FetchRequest.maxBytes` can only lower. Default 5 MB. */
  maxBytes?: number;
  /**
   * Extra certificate authorities (PEM) trusted for https besides Node's bundled roots: an internal CA, or a
   * test's own. Ignored when `dial` is given.
   */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** User-Agent header. */
  userAgent?: string;
  /** Accept header when the request has none; default any. */
  accept?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers the fetcher owns: a caller's value would break framing or point the request elsewhere. */
const RESERVED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'te']);
/** Credentials that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** The system resolver: every address, in the order the system prefers. */
export const systemResolver: Resolver = async (hostname) => {
  const results = await dns.lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};

/**
 * A `lookup` for net/tls that answers only with the checked addresses. With `autoSelectFamily` (Node's
 * default) the socket asks for all of them and tries each in turn (happy eyeballs), still only among them.
 */
function pinnedLookup(target: DialTarget): LookupFunction {
  return (hostname, options, callback) => {
    if (hostname !== target.hostname) {
      callback(Object.assign(new Error(`unexpected lookup of ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
      return;
    }
    if (options.all) (callback as (err: null, addresses: ResolvedAddress[]) => void)(null, [...target.addresses]);
    else callback(null, target.addresses[0]!.address, target.addresses[0]!.family);
  };
}

/**
 * The default dialer: TCP, or TLS with SNI and certificate check against the host name, pinned to the
 * checked addresses. `ca` adds trusted certificates (PEM) to Node's bundled roots rather than replacing them.
 */
export function pinnedDialer(options: { ca?: string | Buffer | ReadonlyArray<string | Buffer> } = {}): Dialer {
  const extra = options.ca === undefined ? [] : Array.isArray(options.ca) ? options.ca : [options.ca];
  const ca = extra.length > 0 ? [...rootCertificates, ...(extra as Array<string | Buffer>)] : undefined;
  return (target) => {
    const lookup = pinnedLookup(target);
    if (target.protocol === 'https:')
      return tlsConnect({
        host: target.hostname,
        port: target.port,
        lookup,
        // SNI carries names only; for an IP literal the certificate is checked against the IP.
        ...(isIP(target.hostname) ? {} : { servername: target.hostname }),
        ...(ca ? { ca } : {}),
        ALPNProtocols: ['http/1.1'],
      });
    return netConnect({ host: target.hostname, port: target.port, lookup });
  };
}

/**
 * Creates the production Fetcher.
 *
 * @example
 *   const fetcher = createSafeFetcher({ allowPrivateAddresses: config.FAIR_ALLOW_PRIVATE_ADDRESSES });
 *   const res = await fetcher.fetch({ url: 'https://doi.org/10.5281/zenodo.1234', accept: 'text/html' }, signal);
 */
export function createSafeFetcher(options: SafeFetcherOptions = {}): Fetcher {
  return new SafeFetcher(options);
}

export class SafeFetcher implements Fetcher {
  private readonly policy: AddressPolicy;
  private readonly resolve: Resolver;
  private readonly dial: Dialer;
  private readonly maxRedirects: number;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly userAgent: string;
  private readonly accept: string;

  constructor(options: SafeFetcherOptions = {}) {
    this.policy = { allowPrivateAddresses: options.allowPrivateAddresses ?? false };
    this.resolve = options.lookup ?? systemResolver;
    this.dial = options.dial ?? pinnedDialer(options.ca === undefined ? {} : { ca: options.ca });
    this.maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
    this.timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
    this.maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
    this.userAgent = options.userAgent ?? SAFE_FETCH_DEFAULTS.userAgent;
    this.accept = options.accept ?? SAFE_FETCH_DEFAULTS.accept;
  }

  async fetch(request: FetchRequest, signal?: AbortSignal): Promise<FetchResponse> {
    const requestedUrl = request.url;
    if (signal?.aborted) throw new FetchError('timeout', requestedUrl, `not fetched: the caller's deadline has passed`);
    // One controller for the whole call: the per-call deadline and the caller's signal both abort it, with
    // the FetchError the call then rejects with.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new FetchError('timeout', requestedUrl, `${requestedUrl}: no complete response within ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const onCallerAbort = () => deadline.abort(new FetchError('timeout', requestedUrl, `${requestedUrl}: abandoned at the caller's deadline`));
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    // The hop in progress, so a failure (a deadline included) names the URL where it happened.
    const progress = { at: requestedUrl };
    try {
      return await this.follow(request, deadline.signal, progress);
    } catch (err) {
      const failure: FetchError = deadline.signal.aborted
        ? (deadline.signal.reason as FetchError)
        : err instanceof FetchError
          ? err
          : new FetchError('network', requestedUrl, `${requestedUrl}: ${(err as Error).message}`, (err as NodeJS.ErrnoException).code);
      if (failure instanceof FetchError) failure.at = progress.at;
      throw failure;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** The redirect loop: one checked hop after another. */
  private async follow(request: FetchRequest, signal: AbortSignal, progress: { at: string }): Promise<FetchResponse> {
    let method = request.method ?? 'GET';
    const maxBytes = Math.min(request.maxBytes ?? this.maxBytes, this.maxBytes);
    const headers = this.requestHeaders(request);
    const redirects: string[] = [];
    let url = parseHttpUrl(request.url, request.url);

    for (;;) {
      progress.at = url.href;
      const res = await this.hop(url, method, headers, signal);
      const location = res.headers.location;
      if (request.followRedirects === false || !REDIRECT_STATUSES.has(res.statusCode ?? 0) || location === undefined) {
        const { body, truncated } = method === 'HEAD' ? { body: Buffer.alloc(0), truncated: false } : await readBody(res, url.href, maxBytes, signal);
        if (method === 'HEAD') res.destroy();
        return { requestedUrl: request.url, url: url.href, redirects, status: res.statusCode ?? 0, headers: joinHeaders(res.rawHeaders), body, truncated };
      }
      res.destroy(); // the redirect's own body is not needed
      if (redirects.length >= this.maxRedirects)
        throw new FetchError('redirects', request.url, `${request.url}: more than ${this.maxRedirects} redirects (last at ${url.href})`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new FetchError('network', request.url, `${url.href} redirects to an unparseable Location ${JSON.stringify(location)}`);
      }
      next = parseHttpUrl(next.href, request.url);
      if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
      // 303 means "GET the other resource"; the other redirects repeat the method (GET or HEAD here).
      if (res.statusCode === 303 && method !== 'HEAD') method = 'GET';
      redirects.push(url.href);
      url = next;
    }
  }

  /** The request headers, lower-cased, with the fetcher's own defaults and without the ones it owns. */
  private requestHeaders(request: FetchRequest): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      const lower = name.toLowerCase();
      if (!RESERVED_HEADERS.has(lower)) headers[lower] = value;
    }
    headers['user-agent'] ??= this.userAgent;
    if (request.accept !== undefined) headers.accept = request.accept;
    headers.accept ??= this.accept;
    // A range applies to the encoded bytes, so a ranged probe asks for the identity encoding.
    headers['accept-encoding'] ??= headers.range === undefined ? 'gzip, deflate, br' : 'identity';
    return headers;
  }

  /** One request: guard the host, resolve and guard its addresses, connect to them, wait for the headers. */
  private async hop(url: URL, method: string, headers: Record<string, string>, signal: AbortSignal): Promise<http.IncomingMessage> {
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const addresses = await this.checkedAddresses(url, hostname, signal);
    const target: DialTarget = {
      protocol: url.protocol as 'http:' | 'https:',
      hostname,
      port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
      addresses,
    };
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const req = client.request({
        method,
        host: hostname,
        port: target.port,
        path: `${url.pathname}${url.search}`,
        headers,
        // No agent: a fresh connection per hop, opened by the dialer on the checked addresses.
        createConnection: () => this.dial(target),
      });
      const onAbort = () => req.destroy(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      req.once('response', (res) => {
        signal.removeEventListener('abort', onAbort);
        resolve(res);
      });
      req.once('error', (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? signal.reason : new FetchError('network', url.href, `${url.href}: ${err.message}`, (err as NodeJS.ErrnoException).code));
      });
      req.end();
    });
  }

  /** The addresses of the hop's host, every one allowed by the guard, or a FetchError. */
  private async checkedAddresses(url: URL, hostname: string, signal: AbortSignal): Promise<ResolvedAddress[]> {
    const literal = isIP(hostname);
    let addresses: ResolvedAddress[];
    if (literal !== 0) {
      addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
    } else {
      const byName = checkHostname(hostname, this.policy);
      if (!byName.allowed) throw new FetchError('address', url.href, `${url.href}: refused to fetch from ${hostname} (${byName.range})`);
      try {
        addresses = await abortable(this.resolve(hostname), signal);
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        throw new FetchError(
          'dns',
          url.href,
          `${url.href}: ${hostname} does not resolve (${(err as Error).message})`,
          (err as NodeJS.ErrnoException).code ?? 'ENOTFOUND',
        );
      }
      addresses = addresses.filter((a) => isIP(a.address) !== 0);
      if (addresses.length === 0) throw new FetchError('dns', url.href, `${url.href}: ${hostname} has no address`, 'ENODATA');
    }
    // Every address must pass: a name that answers with one public and one private address is refused
    // rather than trimmed, since nothing legitimate needs that and a rebinding attack does.
    for (const { address } of addresses) {
      const verdict = checkAddress(address, this.policy);
      if (!verdict.allowed) {
        const via = literal !== 0 ? '' : `${hostname} resolves to `;
        throw new FetchError('address', url.href, `${url.href}: refused to fetch from ${via}${address} (${verdict.range})`);
      }
    }
    return addresses;
  }
}

/** Parses an absolute http(s) URL, or throws FetchError `scheme`. */
function parseHttpUrl(text: string, requestedUrl: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new FetchError('scheme', requestedUrl, `${JSON.stringify(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchError('scheme', requestedUrl, `${url.href}: refused to fetch a ${url.protocol} URL (only http and https)`);
  if (url.hostname === '') throw new FetchError('scheme', requestedUrl, `${url.href} has no host`);
  return url;
}

/** Rejects with the signal's reason as soon as it aborts (the promise itself cannot be cancelled). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Response headers from the raw list: names lower-cased, repeats joined with ", " (Node's own object drops some repeats). */
function joinHeaders(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    out[name] = out[name] === undefined ? raw[i + 1]! : `${out[name]}, ${raw[i + 1]!}`;
  }
  return out;
}

/** The decoder for a Content-Encoding, or null to keep the bytes as they are (identity or unknown). */
function decoderFor(encoding: string | undefined) {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * Reads at most maxBytes of the (decoded) body, then closes the connection. Leaving the loop early destroys
 * the stream, which closes the socket: the rest of a huge body is never transferred, let alone buffered.
 */
async function readBody(res: http.IncomingMessage, url: string, maxBytes: number, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  const decoder = decoderFor(res.headers['content-encoding']);
  let stream: Readable = res;
  if (decoder) {
    res.on('error', (err) => decoder.destroy(err));
    stream = res.pipe(decoder);
  }
  const onAbort = () => {
    res.destroy(signal.reason);
    decoder?.destroy(signal.reason);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      if (size + buf.length > maxBytes) {
        chunks.push(buf.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buf);
      size += buf.length;
    }
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    throw new FetchError('network', url, `${url}: the body could not be read (${(err as Error).message})`);
  } finally {
    signal.removeEventListener('abort', onAbort);
    res.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}
