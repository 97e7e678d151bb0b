/**
 * The apps the fuzz tests and `npm run fuzz` drive: the real app over a fixture build (frame and corpus),
 * with the live-abstract catalogue and the FAIR engine pointed at loopback mocks, and a FAIR fetcher that
 * reaches nothing but 127.0.0.1 (a generated identifier must never make a request to the internet). The
 * anonymous FAIR limit is raised so generated bodies reach the engine, not only the 429.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { buildApp } from '../../api-dynamic/src/app.ts';
import { loadConfig } from '../../api-dynamic/src/config.ts';
import { BuildStore } from '../../api-dynamic/src/services/build-store.ts';
import { FetchError, type Fetcher } from '../../api-dynamic/src/services/fair/fetcher.ts';
import { fairMockEnv, PANGAEA_ZIP } from '../helpers/fair-app.ts';
import { fairFixturesAvailable, replayRoutes, startFairMock } from '../helpers/fair-mock-resolver.ts';
import { plainFetcher } from '../helpers/fair-plain-fetcher.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';
import { startMockCatalogue } from '../helpers/mock-catalogue.ts';
import { type RouteSpec, routesOf } from './requests.ts';

/** The engine's fetcher, refusing every host but loopback, as if the name did not resolve. */
export function loopbackOnly(): Fetcher {
  const inner = plainFetcher({ timeoutMs: 2_000 });
  return {
    fetch(request, signal) {
      let host = '';
      try {
        host = new URL(request.url).hostname;
      } catch {
        return Promise.reject(new FetchError('scheme', request.url, 'not a URL'));
      }
      if (host !== '127.0.0.1') return Promise.reject(new FetchError('dns', request.url, `fuzzing reaches loopback only, not ${host}`));
      return inner.fetch(request, signal);
    },
  };
}

/** Identifiers that go somewhere on the mock resolver, or nowhere. */
export const FAIR_IDENTIFIERS = fc.oneof(
  fc.constantFrom(
    '10.1594/PANGAEA.902845',
    'doi:10.5281/zenodo.1234',
    'https://doi.org/10.1/x',
    'hdl:20.500.12345/1',
    'ark:/12345/x1',
    'urn:nbn:de:1234',
    'https://127.0.0.1:1/x',
    'http://127.0.0.1/',
    'ftp://x',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
  ),
  fc.stringMatching(/^10\.\d{4,5}\/[a-z0-9.]{1,12}$/),
);

export interface FuzzTarget {
  app: Awaited<ReturnType<typeof buildApp>>;
  routes: (prefix: string) => Promise<RouteSpec[]>;
  close(): Promise<void>;
}

/** Every service over a fixture build. */
export async function fuzzTarget(): Promise<FuzzTarget> {
  const dir = tempDir('fuzz');
  const snapshot = await fixtureSnapshot(dir.path);
  const out = join(dir.path, 'build-output');
  await fixtureBuild(snapshot, out, false);
  const catalogue = await startMockCatalogue([]);
  const fair = await startFairMock();
  // With the recorded PANGAEA answers (../shared/reference), one generated identifier gets a whole assessment.
  if (fairFixturesAvailable()) fair.route(...replayRoutes('pangaea', fair.base), PANGAEA_ZIP);
  const config = loadConfig({
    BUILD_OUTPUT: out,
    SITE_DIR: '/nonexistent',
    STATE_DIR: mkdtempSync(join(tmpdir(), 'fuzz-state-')),
    LOG_LEVEL: 'silent',
    CATALOGUE_URL: catalogue.url,
    CATALOGUE_TIMEOUT_MS: '2000',
    FAIR_ANON_LIMIT: '1000000',
    FAIR_FETCH_TIMEOUT_MS: '2000',
    FAIR_ASSESSMENT_TIMEOUT_MS: '5000',
    ...fairMockEnv(fair),
  });
  const store = await BuildStore.open(out);
  const app = await buildApp({ config, store, logger: false, site: false, fairFetcher: loopbackOnly() });
  return {
    app,
    async routes(prefix) {
      const r = await app.inject(`${prefix}/api/v1/openapi.json`);
      return routesOf(JSON.parse(r.body));
    },
    async close() {
      await app.close();
      store.close();
      await catalogue.close();
      await fair.close();
      dir.remove();
    },
  };
}
