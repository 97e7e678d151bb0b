/**
 * The whole product for site tests: a fixture snapshot, its pipeline build, the Astro site built from it, and
 * the real app (APIs + site) listening on 127.0.0.1 with the FAIR engine's upstreams pointed at the loopback
 * mock resolver. The default fixture's build and site are made once per test run and shared (read-only);
 * every test file gets its own server, state directory and mock.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../api-dynamic/src/app.ts';
import { loadConfig } from '../../api-dynamic/src/config.ts';
import { BuildStore } from '../../api-dynamic/src/services/build-store.ts';
import { runAstroBuild } from '../../scripts/astro-build.ts';
import { fairMockEnv } from './fair-app.ts';
import { type FairMock, startFairMock } from './fair-mock-resolver.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from './fixture-build.ts';
import { oncePerRun, sharedFixture } from './shared-fixture.ts';

export interface SiteServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  buildOutput: string;
  siteDir: string;
  /** The mock resolver the FAIR engine fetches from (add routes per test). */
  fairMock: FairMock;
  app: Awaited<ReturnType<typeof buildApp>>;
  store: BuildStore;
  /** GET (or POST) a path on the server: status, headers and text. */
  get(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; text: string }>;
  /** The JSON of an API path (throws unless 2xx). */
  json<T>(path: string): Promise<T>;
  close(): Promise<void>;
}

/** The build output and the site of the default fixture: made by the first file that asks, reused by the rest. */
async function sharedBuild(): Promise<{ buildOutput: string; siteDir: string }> {
  const { out } = await sharedFixture();
  const dir = await oncePerRun('site', async (d) => {
    runAstroBuild({ buildOutput: out, siteDir: join(d, 'site'), cacheDir: join(d, 'astro-cache'), quiet: true });
  });
  return { buildOutput: out, siteDir: join(dir, 'site') };
}

/** Fixture options other than the default's: a size, or a snapshot whose manifest says `synthetic: false`. */
interface SiteOptions {
  works?: number;
  articles?: number;
  synthetic?: boolean;
  /** A snapshot directory to build instead of a generated fixture (e.g. one snapshot:from-openalex wrote). */
  snapshot?: string;
}

/** A fixture, its build and its site in a directory of their own (for non-default fixture options). */
async function privateBuild(dir: string, options: SiteOptions): Promise<{ buildOutput: string; siteDir: string; remove: () => void }> {
  const snapshot = options.snapshot ?? (await fixtureSnapshot(dir, { works: options.works, articles: options.articles, synthetic: options.synthetic }));
  const buildOutput = join(dir, 'build-output');
  await fixtureBuild(snapshot, buildOutput);
  mkdirSync(SITE_ROOT, { recursive: true });
  const siteDir = mkdtempSync(join(SITE_ROOT, 'site-'));
  runAstroBuild({ buildOutput, siteDir, cacheDir: join(dir, 'astro-cache'), quiet: true });
  return { buildOutput, siteDir, remove: () => rmSync(siteDir, { recursive: true, force: true }) };
}

// The server half of the site imports Astro's own packages by name: it must sit below the repository's
// node_modules to find them (as build-output/site does), so not in the system's temporary directory.
export const SITE_ROOT = join(import.meta.dirname, '..', 'artifacts', 'site-builds');

/**
 * The default fixture (no works/articles option) is built once per test run and shared read-only by every
 * file (each gets its own server, state directory and FAIR mock); other options build privately.
 */
export async function startSiteServer(options: SiteOptions & { env?: Record<string, string> } = {}): Promise<SiteServer> {
  const dir = tempDir('site-test');
  const shared = options.works === undefined && options.articles === undefined && options.synthetic === undefined && options.snapshot === undefined;
  const built = shared ? { ...(await sharedBuild()), remove: () => {} } : await privateBuild(dir.path, options);
  const { buildOutput, siteDir } = built;
  const fairMock = await startFairMock();
  const config = loadConfig({
    BUILD_OUTPUT: buildOutput,
    SITE_DIR: siteDir,
    STATE_DIR: join(dir.path, 'state'),
    LOG_LEVEL: 'silent',
    ...fairMockEnv(fairMock),
    ...options.env,
  });
  const store = await BuildStore.open(buildOutput);
  const app = await buildApp({ config, store, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  const base = `http://127.0.0.1:${address.port}`;
  return {
    base,
    buildOutput,
    siteDir,
    fairMock,
    app,
    store,
    async get(path, init) {
      const r = await fetch(`${base}${path}`, { redirect: 'manual', ...init });
      return { status: r.status, headers: r.headers, text: await r.text() };
    },
    async json<T>(path: string) {
      const r = await fetch(`${base}${path}`);
      if (!r.ok) throw new Error(`GET ${path}: ${r.status} ${await r.text()}`);
      return (await r.json()) as T;
    },
    async close() {
      await app.close();
      store.close();
      await fairMock.close();
      dir.remove();
      built.remove();
    },
  };
}

/**
 * Times `n` GETs (paths chosen by `path(i)`), each of which must answer 200, after one warm-up request;
 * logs and returns the median and the maximum in ms. Logged, not asserted: a loaded machine is slow, not
 * wrong (`npm run bench:site` measures the 100 ms target).
 */
export async function pageTimes(s: SiteServer, label: string, path: (i: number) => string, n = 20): Promise<{ median: number; max: number }> {
  await s.get(path(0));
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const { status } = await s.get(path(i));
    times.push(performance.now() - t);
    if (status !== 200) throw new Error(`${path(i)}: status ${status}`);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(n / 2)]!;
  const max = times[n - 1]!;
  console.log(`${label}: median ${median.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
  return { median, max };
}

/** The frame's statistics pages (the stats family and the two documents beside it), for the tests that read them all. */
export const STATS_PAGES = [
  '/frame/stats',
  '/frame/stats/routes',
  '/frame/stats/fields',
  '/frame/stats/languages',
  '/frame/stats/labels',
  '/frame/stats/retractions',
  '/frame/findings',
  '/frame/predictions',
] as const;
