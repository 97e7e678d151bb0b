/**
 * A small Fetcher for tests: global fetch with manual redirects, lower-cased headers, a body cap and
 * FetchError mapping (failures name the hop's URL, as FetchError.at needs), and no address checks (so it reaches the loopback mock). Production uses the
 * SSRF-safe fetcher (api-dynamic/src/services/fair/safe-fetch.ts); this one must never be used there.
 */
import { FetchError, type FetchRequest, type FetchResponse, type Fetcher } from '../../api-dynamic/src/services/fair/fetcher.ts';

export interface PlainFetcherOptions {
  maxRedirects?: number;
  /** Per-request timeout in ms. */
  timeoutMs?: number;
  /** Default body cap in bytes. */
  maxBytes?: number;
  /**
   * Refuse (FetchError 'address') every host but 127.0.0.1, so absolute links in recorded pages (a favicon on a
   * CDN, say) never reach the internet.
   */
  loopbackOnly?: boolean;
}

async function readCapped(response: Response, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  if (!response.body) return { body: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = Buffer.from(value);
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/** Build the test fetcher. */
export function plainFetcher(options: PlainFetcherOptions = {}): Fetcher & { requests: FetchRequest[] } {
  const maxRedirects = options.maxRedirects ?? 10;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const defaultMax = options.maxBytes ?? 5 * 1024 * 1024;
  const requests: FetchRequest[] = [];
  return {
    requests,
    async fetch(request: FetchRequest, signal?: AbortSignal): Promise<FetchResponse> {
      requests.push(request);
      let url = request.url;
      let method = request.method ?? 'GET';
      const redirects: string[] = [];
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      for (;;) {
        if (!/^https?:\/\//i.test(url)) throw new FetchError('scheme', url, `not an http(s) URL: ${url}`);
        if (options.loopbackOnly && new URL(url).hostname !== '127.0.0.1')
          throw new FetchError('address', url, `test fetcher: ${url} is not on the loopback mock`);
        let response: Response;
        try {
          response = await fetch(url, {
            method,
            redirect: 'manual',
            signal: combined,
            headers: { accept: request.accept ?? '*/*', ...(request.headers ?? {}) },
          });
        } catch (error) {
          if (combined.aborted) throw new FetchError('timeout', url, 'timed out');
          throw new FetchError('network', url, (error as Error).message, (error as { cause?: { code?: string } }).cause?.code);
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location && request.followRedirects !== false) {
          await response.body?.cancel();
          if (redirects.length >= maxRedirects) throw new FetchError('redirects', url, `more than ${maxRedirects} redirects`);
          redirects.push(url);
          url = new URL(location, url).href;
          if (response.status === 303) method = 'GET';
          continue;
        }
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          headers[name.toLowerCase()] = headers[name.toLowerCase()] ? `${headers[name.toLowerCase()]}, ${value}` : value;
        });
        let read: { body: Buffer; truncated: boolean };
        try {
          read = method === 'HEAD' ? { body: Buffer.alloc(0), truncated: false } : await readCapped(response, request.maxBytes ?? defaultMax);
        } catch (error) {
          if (combined.aborted) throw new FetchError('timeout', url, 'timed out reading the body');
          throw new FetchError('network', url, (error as Error).message);
        }
        return { requestedUrl: request.url, url, redirects, status: response.status, headers, ...read };
      }
    },
  };
}
