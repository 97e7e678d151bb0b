/**
 * The whole product for site tests: a fixture snapshot, its pipeline build, the Astro site built from it, and
 * the real app (APIs + site) listening on 127.0.0.1 with the FAIR engine's upstreams pointed at the loopback
 * mock resolver. Made once per test file (about 10 s); every test file gets its own directories.
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

export async function startSiteServer(options: { works?: number; articles?: number; env?: Record<string, string> } = {}): Promise<SiteServer> {
  const dir = tempDir('site-test');
  const snapshot = await fixtureSnapshot(dir.path, { works: options.works, articles: options.articles });
  const buildOutput = join(dir.path, 'build-output');
  await fixtureBuild(snapshot, buildOutput);
  // The server half of the site imports Astro's own packages by name: it must sit below the repository's
  // node_modules to find them (as build-output/site does), so not in the system's temporary directory.
  const siteRoot = join(import.meta.dirname, '..', 'artifacts', 'site-builds');
  mkdirSync(siteRoot, { recursive: true });
  const siteDir = mkdtempSync(join(siteRoot, 'site-'));
  runAstroBuild({ buildOutput, siteDir, cacheDir: join(dir.path, 'astro-cache'), quiet: true });
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
      rmSync(siteDir, { recursive: true, force: true });
    },
  };
}
