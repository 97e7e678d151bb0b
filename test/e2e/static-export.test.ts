/**
 * The static bundle served by a real nginx with its generated configuration, next to our server on the same
 * build: every frozen API document and every prerendered page answers the same status, content type, headers
 * and bytes from both; the pages' links all lead somewhere; pages and API paths that need the dynamic layer go
 * to `--api-origin` (here: our server) or, without one, say that the copy is static.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentProgress } from '../../pipeline/lib/progress.ts';
import { BUNDLE_FILES, BUNDLE_MANIFEST, exportStatic, OWN_DIR, parseOrigin } from '../../scripts/static-export/export-static.ts';
import { pagePattern } from '../../scripts/static-export/dynamic-pages.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { type RunningNginx, startNginx } from '../helpers/nginx.ts';
import { needProgram } from '../helpers/needs.ts';
import { type SiteServer, startSiteServer } from '../helpers/site-server.ts';

const canRun = needProgram('nginx', 'the static bundle tests');

interface Answer {
  status: number;
  type: string;
  headers: Headers;
  body: Buffer;
}

async function get(base: string, path: string): Promise<Answer> {
  const r = await fetch(`${base}${path}`, { redirect: 'manual' });
  return { status: r.status, type: (r.headers.get('content-type') ?? '').toLowerCase(), headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

/** The bundle's files as the manifest lists them: path → [sha256, bytes]. */
function listed(bundle: string): Map<string, [string, number]> {
  const map = new Map<string, [string, number]>();
  for (const line of readFileSync(join(bundle, BUNDLE_FILES), 'utf8').split('\n').filter(Boolean)) {
    const [sha, bytes, path] = line.split('\t');
    map.set(path!, [sha!, Number(bytes)]);
  }
  return map;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

describe.runIf(canRun)('the static bundle on nginx', () => {
  let server: SiteServer;
  let dir: ReturnType<typeof tempDir>;
  let alone: string; // no dynamic origin
  let linked: string; // --api-origin = our server
  let nginxAlone: RunningNginx;
  let nginxLinked: RunningNginx;

  beforeAll(async () => {
    server = await startSiteServer();
    dir = tempDir('static-export');
    alone = join(dir.path, 'alone');
    linked = join(dir.path, 'linked');
    await exportStatic({ buildOutput: server.buildOutput, siteDir: server.siteDir, out: alone, apiOrigin: null, progress: silentProgress });
    await exportStatic({
      buildOutput: server.buildOutput,
      siteDir: server.siteDir,
      out: linked,
      apiOrigin: server.base,
      workDocuments: 'none',
      progress: silentProgress,
    });
    nginxAlone = await startNginx(join(dir.path, 'nginx-alone'), join(alone, 'nginx/static-bundle.conf'));
    nginxLinked = await startNginx(join(dir.path, 'nginx-linked'), join(linked, 'nginx/static-bundle.conf'));
  });

  afterAll(async () => {
    await nginxAlone?.stop();
    await nginxLinked?.stop();
    await server?.close();
    dir?.remove();
  });

  it('lists every file in its manifest with bytes and sha256, and names the snapshot the server serves', () => {
    const files = listed(alone);
    const onDisk = walk(alone)
      .map((f) => relative(alone, f).split(sep).join('/'))
      .filter((f) => f !== BUNDLE_FILES && f !== BUNDLE_MANIFEST);
    expect(new Set(onDisk)).toEqual(new Set(files.keys()));
    for (const [path, [sha, bytes]] of files) {
      const body = readFileSync(join(alone, path));
      expect(body.length, path).toBe(bytes);
      expect(createHash('sha256').update(body).digest('hex'), path).toBe(sha);
    }
    const manifest = JSON.parse(readFileSync(join(alone, BUNDLE_MANIFEST), 'utf8')) as {
      snapshot: { id: string };
      files: number;
      files_index: { sha256: string };
    };
    expect(manifest.snapshot.id).toBe(server.store.current.snapshotId);
    expect(manifest.files).toBe(files.size);
    expect(manifest.files_index.sha256).toBe(
      createHash('sha256')
        .update(readFileSync(join(alone, BUNDLE_FILES)))
        .digest('hex'),
    );
  });

  it('answers every frozen API document like the server: status, content type, cache headers, CORS, snapshot and bytes', async () => {
    const docs = [...listed(alone).keys()].filter((p) => /^[a-z]+\/api\/v\d+\//.test(p));
    expect(docs.some((p) => p.startsWith('frame/api/v1/works/'))).toBe(true);
    expect(docs.some((p) => p.startsWith('corpus/api/v1/articles/'))).toBe(true);
    expect(docs).toContain('frame/api/v1/openapi.json');
    let compared = 0;
    for (const file of docs) {
      const url = `/${file.endsWith('openapi.json') ? file : file.slice(0, -'.json'.length)}`;
      const [ours, theirs] = await Promise.all([get(server.base, url), get(nginxAlone.base, url)]);
      expect(theirs.status, url).toBe(200);
      expect(ours.status, url).toBe(200);
      expect(theirs.type, url).toBe(ours.type);
      for (const h of ['cache-control', 'access-control-allow-origin', 'x-snapshot']) expect(theirs.headers.get(h), `${url} ${h}`).toBe(ours.headers.get(h));
      expect(theirs.body.equals(ours.body), url).toBe(true);
      compared++;
    }
    console.log(`compared ${compared} API documents`);
  });

  it('answers every prerendered page and asset like the server, with the same security headers', async () => {
    const files = [...listed(alone).keys()].filter(
      (p) => !/^[a-z]+\/api\//.test(p) && !p.startsWith(`${OWN_DIR}/`) && !p.startsWith('nginx/') && !p.startsWith('_') && p !== '404.html',
    );
    const notices = new Set(walk(join(server.siteDir, 'client')).map((f) => relative(join(server.siteDir, 'client'), f).split(sep).join('/')));
    let compared = 0;
    for (const file of files.filter((f) => notices.has(f))) {
      const url = file === 'index.html' ? '/' : file.endsWith('/index.html') ? `/${file.slice(0, -'index.html'.length)}` : `/${file}`;
      const [ours, theirs] = await Promise.all([get(server.base, url), get(nginxAlone.base, url)]);
      expect(theirs.status, url).toBe(ours.status);
      expect(theirs.type, url).toBe(ours.type);
      for (const h of ['content-security-policy', 'cache-control', 'x-frame-options', 'x-content-type-options', 'x-snapshot'])
        expect(theirs.headers.get(h), `${url} ${h}`).toBe(ours.headers.get(h));
      expect(theirs.body.equals(ours.body), url).toBe(true);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
    console.log(`compared ${compared} pages and assets`);
  });

  it('has no broken link: every link of every static page answers 200 from the bundle alone (an API link computed per request: the notice)', async () => {
    const pages = [...listed(alone).keys()].filter((p) => p.endsWith('.html'));
    const links = new Set<string>();
    for (const page of pages) {
      const html = readFileSync(join(alone, page), 'utf8');
      for (const m of html.matchAll(/\b(?:href|src|action)="(\/[^"#]*)/g)) links.add(m[1]!.replace(/&amp;/g, '&'));
    }
    expect(links.size).toBeGreaterThan(50);
    const broken: string[] = [];
    for (const link of links) {
      const r = await get(nginxAlone.base, link);
      const notice = r.status === 404 && /^\/[a-z]+\/api\//.test(link) && r.body.toString().includes('static copy');
      if (r.status !== 200 && !notice) broken.push(`${link} → ${r.status}`);
    }
    expect(broken).toEqual([]);
  });

  it('without a dynamic origin, a page that needs the live service says this copy is static; an API path gets a JSON notice', async () => {
    for (const path of ['/frame/cohort?lang=fr', '/corpus/excerpts?q=trend', '/fair', '/frame/q/0123456789abcdef']) {
      const r = await get(nginxAlone.base, path);
      expect(r.status, path).toBe(200);
      expect(r.type).toMatch(/^text\/html/);
      expect(r.body.toString(), path).toContain('This copy of the site is static');
      expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
    const api = await get(nginxAlone.base, '/frame/api/v1/cohort?lang=fr');
    expect(api.status).toBe(404);
    expect(api.type).toMatch(/^application\/json/);
    const body = JSON.parse(api.body.toString()) as { code: string; message: string };
    expect(body.code).toBe('NOT_FOUND');
    expect(body.message).toContain('static copy');
    expect(api.headers.get('access-control-allow-origin')).toBe('*');
    const work = [...listed(alone).keys()].find((p) => p.startsWith('frame/api/v1/works/'))!.slice(0, -'.json'.length);
    expect((await get(nginxAlone.base, `/${work}?abstract=1`)).status).toBe(404);
  });

  it('with --api-origin, pages and API paths computed per request redirect to the live service, which answers them', async () => {
    const page = await get(nginxLinked.base, '/frame/cohort?lang=fr&year_from=2015');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`${server.base}/frame/cohort?lang=fr&year_from=2015`);
    expect((await get(server.base, '/frame/cohort?lang=fr&year_from=2015')).status).toBe(200);
    const api = await get(nginxLinked.base, '/frame/api/v1/cohort?lang=fr');
    expect(api.status).toBe(307);
    expect(api.headers.get('location')).toBe(`${server.base}/frame/api/v1/cohort?lang=fr`);
    // Work documents were left out of this bundle: the live service answers them.
    const id = (await server.json<{ results: { id: string }[] }>('/frame/api/v1/cohort?per_page=1')).results[0]!.id;
    expect((await get(nginxLinked.base, `/frame/api/v1/works/${id}`)).headers.get('location')).toBe(`${server.base}/frame/api/v1/works/${id}`);
    // Frozen documents stay static; the pages' policy lets them reach the origin.
    expect((await get(nginxLinked.base, '/frame/api/v1/stats/summary')).status).toBe(200);
    const home = await get(nginxLinked.base, '/');
    expect(home.headers.get('content-security-policy')).toContain(`connect-src 'self' ${server.base}`);
    // The page the bundle holds at a fixed dynamic address links there too (for hosts without the configuration).
    expect(readFileSync(join(linked, 'frame/cohort/index.html'), 'utf8')).toContain(`href="${server.base}/frame/cohort"`);
  });

  it('redirects PMCID spellings and trailing slashes as the configuration says', async () => {
    const article = [...listed(alone).keys()].find((p) => /^corpus\/api\/v1\/articles\/PMC\d+\.json$/.test(p))!;
    const num = /PMC(\d+)/.exec(article)![1]!;
    for (const spelling of [`pmc${num}`, num]) {
      const r = await get(nginxAlone.base, `/corpus/api/v1/articles/${spelling}`);
      expect(r.status).toBe(301);
      expect(r.headers.get('location')).toBe(`/corpus/api/v1/articles/PMC${num}`);
      expect((await get(server.base, `/corpus/api/v1/articles/${spelling}`)).status).toBe(200);
    }
    const slash = await get(nginxAlone.base, '/frame/api/v1/stats/summary/');
    expect(slash.status).toBe(301);
    expect(slash.headers.get('location')).toBe('/frame/api/v1/stats/summary');
    expect((await get(nginxAlone.base, '/no/such/page')).status).toBe(404);
  });

  it('leaves the previous bundle as it was when an export fails', async () => {
    const before = readFileSync(join(alone, BUNDLE_FILES));
    await expect(
      exportStatic({ buildOutput: server.buildOutput, siteDir: join(dir.path, 'no-site'), out: alone, apiOrigin: null, progress: silentProgress }),
    ).rejects.toThrow(/no site build/);
    expect(readFileSync(join(alone, BUNDLE_FILES)).equals(before)).toBe(true);
    expect(existsSync(join(alone, 'index.html')) && statSync(join(alone, 'index.html')).size > 0).toBe(true);
  });
});

describe('static export helpers', () => {
  it('turns page files into URL patterns', () => {
    expect(pagePattern('frame/q/[hash].astro').pattern).toBe('/frame/q/*');
    expect(pagePattern('frame/works/[...id].astro').pattern).toBe('/frame/works/**');
    expect(pagePattern('fair/index.astro').pattern).toBe('/fair');
    expect(new RegExp(pagePattern('frame/q/[hash].astro').regex).test('/frame/q/abc/')).toBe(true);
    expect(new RegExp(pagePattern('frame/q/[hash].astro').regex).test('/frame/q/abc/def')).toBe(false);
  });

  it('takes an origin and refuses a URL with a path', () => {
    expect(parseOrigin('https://research.example.org/')).toBe('https://research.example.org');
    expect(() => parseOrigin('https://research.example.org/frame')).toThrow(/without a path/);
    expect(() => parseOrigin('ftp://x')).toThrow(/http\(s\)/);
    expect(() => parseOrigin('nope')).toThrow(/not a URL/);
  });
});
