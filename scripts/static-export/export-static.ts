/**
 * The static bundle: from one build and its site, a directory that any static host can serve. Every file is
 * taken from what this project's own server answers for its URL (Fastify `inject` on the real app, no socket),
 * so the bundle holds the bytes the server sends; the headers each kind of file gets are read off the same
 * answers and written into the host configuration (host-config.ts). Written into a temporary directory beside
 * `out` and renamed into place when complete, so a failed export leaves the previous bundle as it was.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { buildApp } from '../../api-dynamic/src/app.ts';
import { loadConfig, type Config } from '../../api-dynamic/src/config.ts';
import { BuildStore } from '../../api-dynamic/src/services/build-store.ts';
import { workRecordText } from '../../api-dynamic/src/services/frame/work-records.ts';
import type { Progress } from '../../pipeline/lib/progress.ts';
import { apiDocumentFile, pageFile, pageUrl } from './bundle-paths.ts';
import { type DynamicPage, dynamicPages, walk } from './dynamic-pages.ts';
import { hostConfigs, type ServedHeaders } from './host-config.ts';
import { dynamicPageNotice, notFoundPage, staticApiBody } from './notice-page.ts';
import { swapIntoPlace } from '../../pipeline/lib/swap-dir.ts';

export interface ExportOptions {
  /** The pipeline's output directory (its `current` build is exported). */
  buildOutput: string;
  /** The Astro build of that build (`client/` and `server/`). */
  siteDir: string;
  /** The bundle directory to write (replaced whole when the export completes). */
  out: string;
  /** The live service that answers what the bundle cannot (`https://…`, no trailing slash), or null. */
  apiOrigin: string | null;
  /** The bundle's directory on the static host, for the nginx configuration's `root` (default: `out`). */
  nginxRoot?: string;
  /** Per-work API documents: as the build has them (`build`, the default) or none. */
  workDocuments?: 'build' | 'none';
  progress: Progress;
}

export interface ExportResult {
  snapshotId: string;
  files: number;
  bytes: number;
  /** Counts by kind: pages, assets, API documents, work documents, notices. */
  kinds: Record<string, number>;
  dynamicPages: DynamicPage[];
  seconds: number;
}

/** Files the export writes itself, beside the site and the API documents (all under this folder). */
export const OWN_DIR = '_static';
export const BUNDLE_MANIFEST = 'bundle-manifest.json';
export const BUNDLE_FILES = 'bundle-files.tsv';

const PAGES_DIR = resolve(import.meta.dirname, '../../site/src/pages');

/** An origin as `--api-origin` takes it: http(s), a host, no path, no trailing slash. */
export function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--api-origin "${value}" is not a URL: give an origin such as https://research.example.org`);
  }
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw new Error(`--api-origin "${value}" must be an http(s) origin without a path, such as https://research.example.org`);
  return url.origin;
}

export async function exportStatic(o: ExportOptions): Promise<ExportResult> {
  const started = performance.now();
  const out = resolve(o.out);
  const clientDir = join(o.siteDir, 'client');
  if (!existsSync(clientDir)) throw new Error(`no site build at ${o.siteDir}: run \`npm run build\` first`);
  const stateDir = join(tmpdir(), `export-static-state-${process.pid}`);
  const config: Config = loadConfig({ BUILD_OUTPUT: o.buildOutput, SITE_DIR: o.siteDir, STATE_DIR: stateDir, LOG_LEVEL: 'silent', WATCH_BUILD: 'false' });
  const store = await BuildStore.open(o.buildOutput);
  const app = await buildApp({ config, store, logger: false });
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  // The file index is written as the files are (a 4.3M-work bundle lists millions), in the order written.
  const index = new FileIndex(join(tmp, BUNDLE_FILES));
  const kinds: Record<string, number> = {};
  const madeDirs = new Set<string>();
  const write = (path: string, body: Buffer | string, kind: string) => {
    const full = join(tmp, path);
    const folder = dirname(full);
    if (!madeDirs.has(folder)) {
      mkdirSync(folder, { recursive: true });
      madeDirs.add(folder);
    }
    writeFileSync(full, body);
    index.add(path, Buffer.byteLength(body), createHash('sha256').update(body).digest('hex'));
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  };
  const get = async (url: string) => {
    const r = await app.inject({ method: 'GET', url });
    return { status: r.statusCode, headers: r.headers, body: r.rawPayload };
  };
  const header = (h: Record<string, unknown>, name: string) => {
    const v = h[name];
    return v === undefined ? undefined : String(v);
  };
  try {
    const build = store.current;
    const snapshotId = build.snapshotId;
    const prefixes: Record<string, string> = { frame: config.FRAME_PREFIX, corpus: config.CORPUS_PREFIX, fair: config.FAIR_PREFIX };

    // The site: every file of the Astro build as the server sends it (pages and assets).
    const siteFiles = walk(clientDir).map((f) => relative(clientDir, f).split(sep).join('/'));
    const typeByExtension: Record<string, string> = {};
    let pageHeaders: Record<string, unknown> | null = null;
    let assetHeaders: Record<string, unknown> | null = null;
    let done = 0;
    const tick = () => o.progress.update(++done);
    o.progress.start('site files', siteFiles.length);
    for (const file of siteFiles) {
      const url = file.endsWith('.html') ? pageUrl(file) : `/${file}`;
      const r = await get(url);
      if (r.status !== 200) throw new Error(`the server answers ${r.status} for ${url} (site file ${file})`);
      const ext = extname(file).slice(1);
      typeByExtension[ext] ??= header(r.headers, 'content-type') ?? 'application/octet-stream';
      if (file.endsWith('.html')) pageHeaders ??= r.headers;
      else assetHeaders ??= r.headers;
      write(file, r.body, file.endsWith('.html') ? 'pages' : 'assets');
      tick();
    }
    o.progress.stop();
    if (!pageHeaders) throw new Error(`the site build at ${o.siteDir} has no pages`);

    // Frozen API documents: everything the build precomputed, the OpenAPI documents, and the work records.
    const apiUrls: string[] = [];
    for (const key of build.frozen.keys()) {
      // The build holds other JSON too (reports, lists): only what is served under an API path is a document.
      if (!/^[a-z]+\/api\/v\d+\//.test(key)) continue;
      const [service, ...rest] = key.split('/');
      const prefix = prefixes[service!];
      if (prefix && config.SERVICES.includes(service as Config['SERVICES'][number])) apiUrls.push(`${prefix}/${rest.join('/')}`);
    }
    for (const service of config.SERVICES) apiUrls.push(`${prefixes[service]}/api/v1/openapi.json`);
    // Every work of the frame, from the cohort index (the pipeline writes no per-work documents by default).
    const workCount = o.workDocuments === 'none' ? 0 : build.cohort.rows;
    let apiHeaders: Record<string, unknown> | null = null;
    done = 0;
    o.progress.start('API documents', apiUrls.length + workCount);
    const apiDocument = async (url: string, kind: string) => {
      const r = await get(url);
      if (r.status !== 200) throw new Error(`the server answers ${r.status} for ${url}`);
      apiHeaders ??= r.headers;
      typeByExtension.json ??= header(r.headers, 'content-type') ?? 'application/json';
      write(apiDocumentFile(url), r.body, kind);
      tick();
    };
    // Each API's index (`<prefix>/api/v1`: its operations and documents), where the server has one as JSON.
    for (const service of config.SERVICES) {
      const url = `${prefixes[service]}/api/v1`;
      const r = await app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      if (r.statusCode === 200 && String(r.headers['content-type'] ?? '').startsWith('application/json')) apiUrls.push(url);
    }
    for (const url of apiUrls.sort()) await apiDocument(url, 'api documents');
    // Work records: the route's own serializer (services/frame/work-records.ts), called directly, since a
    // request per work through inject would take hours at 4.3M; the test compares them with the route's answers.
    for (let row = 0; row < workCount; row++) {
      const id = `W${build.cohort.col.id[row]}`;
      const text = workRecordText(build, id);
      if (text === null) throw new Error(`the cohort index cannot find its own work ${id}`);
      write(apiDocumentFile(`${config.FRAME_PREFIX}/api/v1/works/${id}`), text, 'work documents');
      tick();
    }
    o.progress.stop();
    if (!apiHeaders) throw new Error('the build has no frozen API documents');

    o.progress.log(`writing the pages of server-rendered addresses, host configuration and manifest (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    // Pages the dynamic layer renders: a page at each fixed address (a link to the live origin, or the static
    // notice), one for the addresses with parameters, a not-found page, and the body of a dynamic API path.
    const template = readFileSync(join(clientDir, existsSync(join(clientDir, 'about/index.html')) ? 'about/index.html' : 'index.html'), 'utf8');
    const pages = dynamicPages(PAGES_DIR);
    const notice = { apiOrigin: o.apiOrigin, snapshotId };
    const written = new Set(siteFiles);
    for (const page of pages.filter((p) => p.fixed)) {
      const file = pageFile(page.pattern);
      if (!written.has(file)) write(file, dynamicPageNotice(template, page.pattern, notice), 'notices');
    }
    write(`${OWN_DIR}/dynamic/index.html`, dynamicPageNotice(template, null, notice), 'notices');
    if (!written.has('404.html')) write('404.html', notFoundPage(template), 'notices');
    write(`${OWN_DIR}/api-static-copy.json`, staticApiBody(), 'notices');

    // Host configuration, from the headers the server sent (nginx, and the _headers/_redirects convention).
    const served: ServedHeaders = {
      page: pickHeaders(pageHeaders),
      asset: pickHeaders(assetHeaders ?? pageHeaders),
      api: pickHeaders(apiHeaders),
      typeByExtension,
    };
    const articleIds = [...build.frozen.keys()].filter((k) => k.startsWith('corpus/api/v1/articles/')).map((k) => k.split('/').pop()!);
    const configs = hostConfigs({
      root: o.nginxRoot ?? out,
      apiOrigin: o.apiOrigin,
      snapshotId,
      served,
      prefixes: config.SERVICES.map((s) => prefixes[s]!),
      corpusPrefix: config.SERVICES.includes('corpus') ? config.CORPUS_PREFIX : null,
      articleIds,
      apiDocuments: apiUrls,
      workDocuments: workCount > 0 ? { prefix: config.FRAME_PREFIX } : null,
      dynamicPages: pages,
      ownDir: OWN_DIR,
    });
    for (const [path, text] of Object.entries(configs)) write(path, text, 'host configuration');

    // The manifest last: every file above, its bytes and sha256, and what the bundle was made from.
    const { count, bytes: total, sha256 } = index.close();
    const manifest = {
      snapshot: build.snapshotRef,
      pipeline_version: build.manifest.pipeline_version,
      api_origin: o.apiOrigin,
      exported_at: new Date().toISOString(),
      files: count,
      bytes: total,
      kinds,
      files_index: { file: BUNDLE_FILES, sha256, format: 'sha256<TAB>bytes<TAB>path, one line per file, in the order written' },
    };
    writeFileSync(join(tmp, BUNDLE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);

    // Swap into place.
    o.progress.log(`bundle complete (${((performance.now() - started) / 1000).toFixed(1)} s): moving it to ${out}`);
    swapIntoPlace(tmp, out);
    return { snapshotId, files: count, bytes: total, kinds, dynamicPages: pages, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    index.abandon();
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  } finally {
    await app.close();
    store.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** `bundle-files.tsv`, appended in blocks as files are written, with its own sha256 and totals. */
class FileIndex {
  private readonly fd: number;
  private readonly hash = createHash('sha256');
  private pending: string[] = [];
  count = 0;
  bytes = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  add(path: string, bytes: number, sha256: string): void {
    this.pending.push(`${sha256}\t${bytes}\t${path}\n`);
    this.count++;
    this.bytes += bytes;
    if (this.pending.length >= 4096) this.flush();
  }

  private flush(): void {
    const block = this.pending.join('');
    this.pending = [];
    this.hash.update(block);
    writeSync(this.fd, block);
  }

  close(): { count: number; bytes: number; sha256: string } {
    this.flush();
    closeSync(this.fd);
    return { count: this.count, bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  abandon(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}

/** The headers a static host must repeat, as the server sent them. */
function pickHeaders(h: Record<string, unknown>): Record<string, string> {
  const keep = [
    'cache-control',
    'access-control-allow-origin',
    'vary',
    'content-security-policy',
    'x-content-type-options',
    'referrer-policy',
    'x-frame-options',
    'permissions-policy',
    'cross-origin-opener-policy',
  ];
  const picked: Record<string, string> = {};
  for (const name of keep) if (h[name] !== undefined) picked[name] = String(h[name]);
  return picked;
}
