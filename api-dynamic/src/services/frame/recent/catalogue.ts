/**
 * The upstream catalogue (OpenAlex's public works API): the work shape we read from it, and a client with a
 * timeout per request, retries with backoff on 429/5xx/timeouts (honouring `Retry-After`), and typed errors,
 * so callers can say exactly what went wrong instead of answering 500. The base URL is configuration
 * (`CATALOGUE_URL`): tests point it at a mock server on loopback.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

// The work shape and its pure helpers live in contracts (shared with the snapshot builder).
export {
  abstractIndexSchema,
  bareDoi,
  bareNumber,
  type CatalogueWork,
  catalogueWorkSchema,
  restoreAbstract,
  shortId,
} from '../../../../../contracts/frame/catalogue-work.ts';
import { type CatalogueWork, catalogueWorkSchema } from '../../../../../contracts/frame/catalogue-work.ts';

const listPageSchema = z
  .object({
    meta: z.object({ count: z.number().int().min(0).nullish(), next_cursor: z.string().nullish() }).loose(),
    results: z.array(z.unknown()),
  })
  .loose();

// ---- the client ----

export type CatalogueErrorKind = 'timeout' | 'http' | 'network' | 'invalid' | 'aborted';

/** What went wrong with the catalogue, in words a response or a run record can carry. */
export class CatalogueError extends Error {
  override name = 'CatalogueError';
  constructor(
    readonly kind: CatalogueErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface CatalogueClientOptions {
  /** e.g. https://api.openalex.org (no trailing slash needed). */
  baseUrl: string;
  /** Sent as `mailto`, which puts requests in the catalogue's polite pool. */
  mailto?: string | undefined;
  /** Sent as `api_key` when set. */
  apiKey?: string | undefined;
  /** Per request, milliseconds. */
  timeoutMs: number;
  /** Further attempts after a 429, 5xx, timeout, network error or malformed body (0: none). */
  retries: number;
  /** First backoff delay; doubles per attempt, with jitter. */
  retryBaseMs?: number;
  /** Upper bound on any single wait, including a `Retry-After` the server asks for. */
  maxDelayMs?: number;
  /** Called once per HTTP request sent (counts `api_requests`). */
  onRequest?: () => void;
  /** Told about each retry, for logs. */
  onRetry?: (message: string) => void;
}

export interface WorksPage {
  /** Works that passed the schema. */
  works: CatalogueWork[];
  /** Results the catalogue returned (invalid ones included). */
  returned: number;
  /** Results skipped because they did not have the shape of a work (logged by the caller). */
  invalid: string[];
  /** Total the catalogue reports for the query. */
  count: number | null;
  nextCursor: string | null;
}

export class CatalogueClient {
  private readonly base: string;
  constructor(private readonly o: CatalogueClientOptions) {
    this.base = o.baseUrl.replace(/\/+$/, '');
  }

  get description(): string {
    return this.base;
  }

  /** One page of `/works` for an OpenAlex filter expression, with cursor paging. */
  async listWorks(filter: string, cursor: string, perPage: number, signal?: AbortSignal): Promise<WorksPage> {
    const body = await this.getJson('/works', { filter, cursor, per_page: String(perPage) }, signal);
    const page = listPageSchema.safeParse(body);
    if (!page.success) throw new CatalogueError('invalid', `the catalogue's /works answer has no meta/results: ${page.error.issues[0]?.message}`);
    const works: CatalogueWork[] = [];
    const invalid: string[] = [];
    for (const r of page.data.results) {
      const w = catalogueWorkSchema.safeParse(r);
      if (w.success) works.push(w.data);
      else {
        const id = typeof r === 'object' && r !== null && 'id' in r ? String((r as { id: unknown }).id) : '?';
        invalid.push(`${id}: ${w.error.issues[0]?.path.join('.')} ${w.error.issues[0]?.message}`);
      }
    }
    return {
      works,
      returned: page.data.results.length,
      invalid,
      count: page.data.meta.count ?? null,
      nextCursor: page.data.results.length === 0 ? null : (page.data.meta.next_cursor ?? null),
    };
  }

  /** One work (`/works/W…`), restricted to `select` fields; null when the catalogue has no such work. */
  async work(id: string, select: readonly string[], signal?: AbortSignal): Promise<unknown> {
    try {
      return await this.getJson(`/works/${encodeURIComponent(id)}`, { select: select.join(',') }, signal);
    } catch (err) {
      if (err instanceof CatalogueError && err.kind === 'http' && err.status === 404) return null;
      throw err;
    }
  }

  /** GET with retries; resolves to the parsed JSON body or rejects with a CatalogueError. */
  async getJson(path: string, params: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
    const url = new URL(`${this.base}${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    if (this.o.mailto) url.searchParams.set('mailto', this.o.mailto);
    if (this.o.apiKey) url.searchParams.set('api_key', this.o.apiKey);
    const base = this.o.retryBaseMs ?? 1000;
    const cap = this.o.maxDelayMs ?? 60_000;
    for (let attempt = 0; ; attempt++) {
      let retryAfterMs: number | null = null;
      let failure: CatalogueError;
      try {
        return await this.once(url, signal);
      } catch (err) {
        if (!(err instanceof CatalogueError)) throw err;
        failure = err;
        if (err instanceof RetryableHttpError) retryAfterMs = err.retryAfterMs;
      }
      const retryable =
        failure.kind === 'timeout' ||
        failure.kind === 'network' ||
        failure.kind === 'invalid' ||
        (failure.kind === 'http' && (failure.status === 429 || (failure.status ?? 0) >= 500));
      if (!retryable || attempt >= this.o.retries) throw failure;
      const backoff = base * 2 ** attempt * (0.5 + Math.random() / 2);
      const wait = Math.min(cap, Math.max(retryAfterMs ?? 0, backoff));
      this.o.onRetry?.(`${failure.message}; retrying in ${Math.round(wait)} ms (attempt ${attempt + 2} of ${this.o.retries + 1})`);
      try {
        await sleep(wait, undefined, { signal });
      } catch {
        throw new CatalogueError('aborted', 'stopped while waiting to retry');
      }
    }
  }

  private async once(url: URL, signal?: AbortSignal): Promise<unknown> {
    this.o.onRequest?.();
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const shown = `${url.pathname}${url.search.length > 120 ? `${url.search.slice(0, 120)}…` : url.search}`;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { signal: combined, headers: { accept: 'application/json' } });
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw new CatalogueError('aborted', `stopped during GET ${shown}`);
      if (timeout.aborted) throw new CatalogueError('timeout', `the catalogue did not answer GET ${shown} within ${this.o.timeoutMs} ms`);
      throw new CatalogueError('network', `cannot reach the catalogue for GET ${shown}: ${(err as Error).message}`);
    }
    if (!res.ok) {
      const msg = `the catalogue answered HTTP ${res.status} to GET ${shown}`;
      if (res.status === 429 || res.status >= 500) throw new RetryableHttpError(msg, res.status, retryAfter(res.headers.get('retry-after')));
      throw new CatalogueError('http', msg, res.status);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new CatalogueError('invalid', `the catalogue's answer to GET ${shown} is not JSON (${text.length} bytes)`);
    }
  }
}

class RetryableHttpError extends CatalogueError {
  constructor(
    message: string,
    status: number,
    readonly retryAfterMs: number | null,
  ) {
    super('http', message, status);
  }
}

/** `Retry-After` as seconds or an HTTP date → milliseconds (null when absent or unreadable). */
function retryAfter(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
