/**
 * A stand-in for the upstream catalogue (OpenAlex's works API) on 127.0.0.1, so no test touches the internet.
 * It answers `/works?filter=…&cursor=…&per_page=…` by evaluating the filter over its works (the filter keys
 * the sync uses; any other key is a 400, as upstream) with opaque cursors, and `/works/W…` with one work or a
 * 404. Faults are queued per test: a status (429 with Retry-After, 500), malformed JSON, a hang (timeout).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { foldText } from '../../contracts/frame/title-terms.ts';

/** A catalogue work in the upstream shape (only what the fixtures set). */
export interface UpstreamWork {
  id: string;
  doi?: string | null;
  title: string;
  display_name?: string;
  publication_date: string;
  publication_year: number;
  language?: string | null;
  type?: string;
  primary_location?: { source: { id: string; display_name: string } | null } | null;
  primary_topic?: { display_name: string; field: { id?: string; display_name: string } } | null;
  cited_by_count?: number;
  is_retracted?: boolean;
  abstract_inverted_index?: Record<string, number[]> | null;
  authorships?: {
    author: { id: string; display_name: string; orcid: string | null };
    institutions: { id: string; display_name: string; ror: string | null; country_code: string | null }[];
    countries: string[];
  }[];
  funders?: { id: string; display_name: string }[];
  awards?: { funder_id: string; funder_display_name: string }[];
  grants?: { funder: string; funder_display_name: string }[];
  keywords?: { id: string; display_name: string; score: number }[];
  ids?: { pmid?: string; pmcid?: string };
  updated_date?: string;
}

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  | { kind: 'malformed' }
  /** Never answers (until the mock closes): the client's timeout must fire. */
  | { kind: 'hang' }
  | { kind: 'reset' };

export interface MockCatalogue {
  url: string;
  /** Every request received (path and query), in order. */
  requests: { path: string; params: URLSearchParams }[];
  /** Faults served to the next matching requests, first in first out; `match` narrows them by path. */
  fault(f: Fault, options?: { times?: number; match?: (path: string, params: URLSearchParams) => boolean }): void;
  /** Drops faults not served yet. */
  clearFaults(): void;
  /** Replaces the catalogue's works (e.g. a later day). */
  setWorks(works: UpstreamWork[]): void;
  close(): Promise<void>;
}

const short = (id: string) => id.replace(/^https:\/\/openalex\.org\//, '');

function restored(w: UpstreamWork): string {
  const placed: [number, string][] = [];
  for (const [t, ps] of Object.entries(w.abstract_inverted_index ?? {})) for (const p of ps) placed.push([p, t]);
  return placed
    .sort((a, b) => a[0] - b[0])
    .map(([, t]) => t)
    .join(' ');
}

/** Folded title + abstract per work, computed once (the bench serves tens of thousands of works). */
const folded = new WeakMap<UpstreamWork, string>();

/** One `key:value` filter as a predicate over works (parsed once per request); throws on a key the mock (and the sync) does not know. */
function predicate(key: string, value: string): (w: UpstreamWork) => boolean {
  const any = new Set(value.split('|'));
  switch (key) {
    case 'from_publication_date':
      return (w) => w.publication_date >= value;
    case 'to_publication_date':
      return (w) => w.publication_date <= value;
    case 'authorships.countries':
      return (w) => (w.authorships ?? []).some((a) => a.countries.some((c) => any.has(c)) || a.institutions.some((i) => any.has(i.country_code ?? '')));
    case 'primary_location.source.id':
      return (w) => w.primary_location?.source != null && any.has(short(w.primary_location.source.id));
    case 'funders.id':
      return (w) =>
        [...(w.funders ?? []).map((f) => f.id), ...(w.awards ?? []).map((a) => a.funder_id), ...(w.grants ?? []).map((g) => g.funder)].some((id) =>
          any.has(short(id)),
        );
    case 'title_and_abstract.search': {
      // Upstream search is stemmed and loose; a substring test is loose too, which is what candidates need.
      const terms = value.split(' OR ').map((t) => foldText(t.replace(/"/g, '')));
      return (w) => {
        let text = folded.get(w);
        if (text === undefined) folded.set(w, (text = foldText(`${w.title} ${restored(w)}`)));
        return terms.some((t) => text.includes(t));
      };
    }
    default:
      throw new Error(`Invalid query parameters error: ${key} is not a valid filter key`);
  }
}

export async function startMockCatalogue(initial: UpstreamWork[]): Promise<MockCatalogue> {
  let works = [...initial].sort((a, b) => (a.id < b.id ? -1 : 1));
  const requests: MockCatalogue['requests'] = [];
  const faults: { f: Fault; times: number; match?: ((path: string, params: URLSearchParams) => boolean) | undefined }[] = [];
  const hanging = new Set<ServerResponse>();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, params: url.searchParams });
    const queued = faults.find((q) => q.times > 0 && (!q.match || q.match(url.pathname, url.searchParams)));
    if (queued) {
      queued.times--;
      const f = queued.f;
      if (f.kind === 'status') return send(res, f.status, f.body ?? { error: `mock fault ${f.status}` }, f.retryAfter ? { 'retry-after': f.retryAfter } : {});
      if (f.kind === 'malformed') return send(res, 200, '{"meta": {"count": 3, "next_cursor": "x"}, "results": [{"id": "W1",');
      if (f.kind === 'reset') return req.socket.destroy();
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    const one = /^\/works\/(W\d+)$/.exec(url.pathname);
    if (one) {
      const w = works.find((x) => short(x.id) === one[1]);
      if (!w) return send(res, 404, { error: 'Not Found', message: `${one[1]} does not exist` });
      const select = url.searchParams.get('select');
      if (!select) return send(res, 200, w);
      return send(res, 200, Object.fromEntries(select.split(',').map((k) => [k, (w as unknown as Record<string, unknown>)[k] ?? null])));
    }
    if (url.pathname !== '/works') return send(res, 404, { error: 'Not Found' });
    const filter = url.searchParams.get('filter') ?? '';
    const perPage = Number(url.searchParams.get('per_page') ?? '25');
    const cursor = url.searchParams.get('cursor') ?? '*';
    let offset = 0;
    if (cursor !== '*') {
      const m = /^c(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
      if (!m) return send(res, 400, { error: 'Invalid query parameters error.', message: 'cursor is invalid or expired' });
      offset = Number(m[1]);
    }
    let matched: UpstreamWork[];
    try {
      const tests = filter === '' ? [] : filter.split(',').map((p) => predicate(p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)));
      matched = works.filter((w) => tests.every((t) => t(w)));
    } catch (err) {
      return send(res, 400, { error: 'Invalid query parameters error.', message: (err as Error).message });
    }
    const page = matched.slice(offset, offset + perPage);
    const next = offset + perPage < matched.length ? Buffer.from(`c${offset + perPage}`).toString('base64url') : null;
    send(res, 200, {
      meta: { count: matched.length, db_response_time_ms: 3, page: null, per_page: perPage, next_cursor: next, groups_count: null },
      results: page,
      group_by: [],
    });
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fault(f, options = {}) {
      faults.push({ f, times: options.times ?? 1, match: options.match });
    },
    clearFaults() {
      faults.length = 0;
    },
    setWorks(next) {
      works = [...next].sort((a, b) => (a.id < b.id ? -1 : 1));
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
