/**
 * The FAIR service alone for `inject` tests: the real app (buildApp) with SERVICES=fair, no build and no site,
 * its own state directory, and every upstream base URL pointed at a loopback mock (fair-mock-resolver.ts)
 * with private addresses allowed, as the tests must stay offline.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../api-dynamic/src/app.ts';
import { type Config, loadConfig } from '../../api-dynamic/src/config.ts';
import type { BuildStore } from '../../api-dynamic/src/services/build-store.ts';
import type { Fetcher } from '../../api-dynamic/src/services/fair/fetcher.ts';
import { type FairMock, type MockRoute, replayRoutes, startFairMock } from './fair-mock-resolver.ts';

/** The FAIR service needs no build; the shared HTTP conventions only read a snapshot id from the store. */
const NO_BUILD = { current: { snapshotId: 'none' } } as unknown as BuildStore;

/** Settings pointing the embedded engine and /health at the mock (loopback allowed). */
export function fairMockEnv(mock: FairMock): Record<string, string> {
  const u = mock.upstreams();
  return {
    FAIR_ALLOW_PRIVATE_ADDRESSES: 'true',
    FAIR_DOI_RESOLVER_URL: u.doi,
    FAIR_HANDLE_RESOLVER_URL: u.handle,
    FAIR_ARK_RESOLVER_URL: u.ark,
    FAIR_NBN_RESOLVER_URL: u.nbn,
    FAIR_IDENTIFIERS_ORG_URL: u.identifiersOrg,
    FAIR_DATACITE_API_URL: u.datacite,
    FAIR_RE3DATA_URL: u.re3data,
    FAIR_GITHUB_API_URL: u.github,
    FAIR_GITHUB_URL: u.githubWeb,
  };
}

export interface FairApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  config: Config;
  close(): Promise<void>;
}

/** `fetcher` replaces the engine's fetcher (e.g. a SafeFetcher whose name lookups a test scripts). */
export async function fairApp(env: Record<string, string> = {}, options: { fetcher?: Fetcher } = {}): Promise<FairApp> {
  const stateDir = env.STATE_DIR ?? mkdtempSync(join(tmpdir(), 'fair-state-'));
  const config = loadConfig({ SERVICES: 'fair', LOG_LEVEL: 'silent', SITE_DIR: '/nonexistent', BUILD_OUTPUT: '/nonexistent', ...env, STATE_DIR: stateDir });
  const app = await buildApp({ config, store: NO_BUILD, logger: false, site: false, ...(options.fetcher ? { fairFetcher: options.fetcher } : {}) });
  return { app, config, close: () => app.close() };
}

/** The PANGAEA 902845 data file the cassette did not record (the live repository answers its HEAD so). */
export const PANGAEA_ZIP: MockRoute = {
  path: '/doi.pangaea.de/10.1594/PANGAEA.902845?format=zip',
  headers: { 'content-type': 'application/zip' },
  body: 'PK\u0003\u0004',
};

/**
 * A mock replaying the recorded PANGAEA answers, also for `dois` copies of its DOI (10.1594/PANGAEA.902845.b0,
 * .b1 …): the benchmarks assess each afresh.
 */
export async function pangaeaBenchMock(dois: number): Promise<FairMock> {
  const mock = await startFairMock();
  const replay = replayRoutes('pangaea', mock.base);
  mock.route(...replay, PANGAEA_ZIP);
  const perDoi = replay.filter((r) => /^\/(doi\.org|api\.datacite\.org|data\.crosscite\.org)\//.test(r.path) && r.path.includes('PANGAEA.902845'));
  const routes: MockRoute[] = [];
  for (let n = 0; n < dois; n++) routes.push(...perDoi.map((r) => ({ ...r, path: r.path.replace('PANGAEA.902845', `PANGAEA.902845.b${n}`) })));
  mock.route(...routes);
  return mock;
}

/** The request body of an /assess call, as JSON. */
export const assessBody = (identifier: unknown, options?: unknown) => JSON.stringify(options === undefined ? { identifier } : { identifier, options });
