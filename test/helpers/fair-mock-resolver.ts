/**
 * A loopback HTTP server that stands in for every host the FAIR engine talks to. A request for
 * `https://<host>/<path>` is served at `<base>/<host>/<path>`; the engine reaches it because tests point
 * every upstream base URL (DOI resolver, DataCite REST, GitHub API) at `<base>/<host>`.
 *
 * `replayRoutes('pangaea' | 'zenodo')` replays F-UJI's recorded interactions from
 * ../shared/reference/fair-fixtures (read at test time, never copied): same paths, same Accept headers (an
 * exact match is required, so a test proves the engine sends F-UJI's Accept strings), same statuses, Content-
 * Type, Location and Link headers, with absolute URLs to the repository hosts rewritten to the mock. DOI URLs
 * (doi.org) inside bodies are left alone: they are identifiers, and the engine fetches DOIs through its
 * configured resolver. Hand-written routes (landing pages for the metric tests, data files the cassettes did
 * not record) are added with `route()`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/** The shared fixtures folder, next to the repository. */
export const FAIR_FIXTURES = path.resolve(import.meta.dirname, '../..', '../shared/reference/fair-fixtures');

/** Are the recorded fixtures present (they live outside the repository)? */
export function fairFixturesAvailable(): boolean {
  return existsSync(path.join(FAIR_FIXTURES, 'pangaea_902845_interactions.json'));
}

export interface MockRoute {
  method?: 'GET' | 'HEAD';
  /** `/<host>/<path>?<query>` exactly as the request line carries it. */
  path: string;
  /** Exact Accept header required; null or absent = any. */
  accept?: string | null;
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Delay before answering, in ms (timeouts). */
  delayMs?: number;
}

export interface MockRequest {
  method: string;
  path: string;
  accept: string | null;
  /** The route that answered, or null for a miss (404 unknown path, 406 unknown Accept). */
  matched: boolean;
}

export interface FairMock {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Every request in arrival order. */
  requests: MockRequest[];
  /** Add routes (later routes with the same path and Accept do not replace earlier ones). */
  route(...routes: MockRoute[]): void;
  /** Upstream base URLs pointing at the mock, for AssessOptions.upstreams. */
  upstreams(): {
    doi: string;
    handle: string;
    ark: string;
    nbn: string;
    identifiersOrg: string;
    datacite: string;
    re3data: string;
    github: string;
    githubWeb: string;
  };
  /** `<base>/<host>/<path>` for an absolute https URL. */
  url(absolute: string): string;
  close(): Promise<void>;
}

/** Hosts whose absolute URLs are rewritten to the mock in replayed headers and bodies. */
const REWRITTEN_HOSTS = ['doi.pangaea.de', 'zenodo.org', 'data.crosscite.org', 'api.datacite.org', 'www.re3data.org', 're3data.org', 'api.github.com'];

/** Rewrite absolute URLs of the repository hosts to the mock. */
export function rewriteHosts(text: string, base: string): string {
  let out = text;
  for (const host of REWRITTEN_HOSTS) {
    out = out.replace(new RegExp(`https?://${host.replace(/\./g, '\\.')}(?=[/"'\\s>?]|$)`, 'g'), `${base}/${host}`);
  }
  return out;
}

/** Start the mock on 127.0.0.1 with an OS-chosen port. */
export async function startFairMock(routes: MockRoute[] = []): Promise<FairMock> {
  const table: MockRoute[] = [...routes];
  const requests: MockRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const requestPath = req.url ?? '/';
    const accept = typeof req.headers.accept === 'string' ? req.headers.accept : null;
    const samePath = table.filter((r) => r.path === requestPath && (r.method ?? 'GET') === method);
    // HEAD falls back to the GET route of the same path (headers only).
    const candidates = samePath.length || method !== 'HEAD' ? samePath : table.filter((r) => r.path === requestPath && (r.method ?? 'GET') === 'GET');
    const route = candidates.find((r) => r.accept === undefined || r.accept === null || r.accept === accept);
    requests.push({ method, path: requestPath, accept, matched: route !== undefined });
    if (!route) {
      res.writeHead(candidates.length ? 406 : 404, { 'content-type': 'text/plain' });
      res.end(candidates.length ? 'not acceptable (no recorded interaction for this Accept)' : 'not found');
      return;
    }
    const answer = () => {
      const body = route.body === undefined ? Buffer.alloc(0) : Buffer.from(route.body);
      res.writeHead(route.status ?? 200, { 'content-length': String(body.length), ...(route.headers ?? {}) });
      res.end(method === 'HEAD' ? undefined : body);
    };
    if (route.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    requests,
    route: (...more) => table.push(...more),
    upstreams: () => ({
      doi: `${base}/doi.org`,
      handle: `${base}/hdl.handle.net`,
      ark: `${base}/n2t.net`,
      nbn: `${base}/nbn-resolving.org`,
      identifiersOrg: `${base}/identifiers.org`,
      datacite: `${base}/api.datacite.org`,
      re3data: `${base}/re3data.org`,
      github: `${base}/api.github.com`,
      githubWeb: `${base}/github.com`,
    }),
    url: (absolute) => absolute.replace(/^https?:\/\//, `${base}/`),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

interface Interaction {
  index: number;
  method: 'GET' | 'HEAD';
  uri: string;
  request_headers: Record<string, string[]>;
  status: number;
  response_headers: Record<string, string[]>;
  body_length: number;
}

/** Which recorded body file answers which interaction (SOURCES.md; repeated requests share a file). */
const BODIES: Record<'pangaea' | 'zenodo', Record<number, string>> = {
  pangaea: {
    1: 'pangaea_902845_landing.html',
    4: 'pangaea_902845_schemaorg.jsonld',
    6: 'pangaea_902845_crosscite_schemaorg.jsonld',
    8: 'pangaea_902845_landing.html',
    9: 'pangaea_902845_schemaorg.jsonld',
    12: 'pangaea_902845_schemaorg.jsonld',
    14: 'pangaea_902845_datacite.json',
    15: 'pangaea_902845_datacite4.xml',
    16: 'pangaea_902845_iso19139.xml',
    17: 'pangaea_902845_dif.xml',
    18: 'pangaea_902845_schemaorg.jsonld',
    20: 'pangaea_902845_schemaorg.jsonld',
    21: 'pangaea_902845_iso19139.xml',
    22: 'pangaea_902845_datacite4.xml',
    23: 'pangaea_902845_datacite4.xml',
    24: 'pangaea_902845_dif.xml',
  },
  zenodo: {
    2: 'zenodo_8347772_landing.html',
    3: 'zenodo_8347772_landing.html',
    4: 'zenodo_8347772_landing.html',
    6: 'zenodo_8347772_crosscite_schemaorg.jsonld',
    7: 'zenodo_8347772_landing.html',
    10: 'zenodo_8347772_landing.html',
    14: 'zenodo_8347772_datacite.json',
    16: 're3data_r3d100010468_zenodo_query.xml',
    17: 're3data_r3d100010468_zenodo.xml',
    18: 'zenodo_8347772_api_datacite_dois.json',
    19: 'zenodo_8347772_oaipmh_listmetadataformats.xml',
  },
};

const MANIFESTS = { pangaea: 'pangaea_902845_interactions.json', zenodo: 'zenodo_8347772_interactions.json' } as const;

/** The recorded interactions of one cassette as mock routes (first recording of a path + Accept wins). */
export function replayRoutes(fixture: 'pangaea' | 'zenodo', base: string): MockRoute[] {
  const manifest = JSON.parse(readFileSync(path.join(FAIR_FIXTURES, MANIFESTS[fixture]), 'utf8')) as { interactions: Interaction[] };
  const routes: MockRoute[] = [];
  for (const interaction of manifest.interactions) {
    const absolute = new URL(interaction.uri);
    const routePath = `/${absolute.host}${absolute.pathname}${absolute.search}`;
    const accept = interaction.request_headers.Accept?.[0] ?? null;
    if (routes.some((r) => r.path === routePath && r.accept === accept)) continue;
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(interaction.response_headers)) {
      const key = name.toLowerCase();
      if (['content-type', 'location', 'link', 'vary'].includes(key)) headers[key] = rewriteHosts(values.join(', '), base);
    }
    const file = BODIES[fixture][interaction.index];
    let body: string | Buffer = '';
    if (file) {
      const raw = readFileSync(path.join(FAIR_FIXTURES, file), 'utf8');
      body = rewriteHosts(raw, base);
    }
    routes.push({ method: interaction.method, path: routePath, accept, status: interaction.status, headers, body });
  }
  return routes;
}

/** GitHub REST records of pangaea-data-publisher/fuji (repository and licence), for code-host tests. */
export function githubRoutes(base: string): MockRoute[] {
  const read = (file: string) => rewriteHosts(readFileSync(path.join(FAIR_FIXTURES, file), 'utf8'), base);
  const json = { 'content-type': 'application/json; charset=utf-8' };
  return [
    { path: '/api.github.com/repos/pangaea-data-publisher/fuji', headers: json, body: read('github_repo_pangaea-data-publisher_fuji.json') },
    { path: '/api.github.com/repos/pangaea-data-publisher/fuji/license', headers: json, body: read('github_repo_pangaea-data-publisher_fuji_license.json') },
  ];
}

/**
 * The whole recorded GitHub side of F-UJI's software cassette (test_evaluation_software, 2024-05-03):
 * https://github.com/pangaea-data-publisher/fuji's landing page (exact Accept, as F-UJI sent it) and every GitHub
 * REST answer (any Accept: PyGithub sent `*\/*`, the engine sends GitHub's own media type). The six file bodies the
 * fixtures leave out because they embed F-UJI's Python source are answered with an empty file object (SOURCES.md
 * suggests so); files the cassette never asked for (the GitHub Actions workflows, added to F-UJI's patterns after
 * the recording) are not routed, so the mock answers 404.
 */
export function fujiRepositoryRoutes(base: string): MockRoute[] {
  const manifest = JSON.parse(readFileSync(path.join(FAIR_FIXTURES, 'github_repo_pangaea-data-publisher_fuji_interactions.json'), 'utf8')) as {
    interactions: (Interaction & { body_file?: string; body_note?: string })[];
  };
  const routes: MockRoute[] = [];
  for (const interaction of manifest.interactions) {
    if (interaction.method !== 'GET') continue;
    const absolute = new URL(interaction.uri);
    const routePath = `/${absolute.host}${absolute.pathname}${absolute.search}`;
    if (routes.some((r) => r.path === routePath)) continue;
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(interaction.response_headers)) {
      const key = name.toLowerCase();
      if (key === 'content-type' || key.startsWith('x-ratelimit-')) headers[key] = values.join(', ');
    }
    let body = '';
    if (interaction.body_file) body = rewriteHosts(readFileSync(path.join(FAIR_FIXTURES, interaction.body_file), 'utf8'), base);
    else if (interaction.body_note && absolute.pathname.includes('/contents/')) {
      const filePath = decodeURIComponent(absolute.pathname.replace(/^.*?\/contents\//, ''));
      body = JSON.stringify({ type: 'file', name: filePath.split('/').at(-1), path: filePath, content: '', encoding: 'base64' });
    }
    const accept = absolute.host === 'github.com' ? (interaction.request_headers.Accept?.[0] ?? null) : null;
    routes.push({ method: 'GET', path: routePath, accept, status: interaction.status, headers, body });
  }
  return routes;
}
