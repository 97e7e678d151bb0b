/**
 * Opens everything the FAIR routes use, from the configuration: API keys, the rate limiter (file or Redis),
 * the backend the configuration chooses (embedded engine over the SSRF-safe fetcher, or F-UJI), the
 * assessment cache and the health probe. app.ts calls it once and closes it with the app.
 */
import { readFileSync } from 'node:fs';
import type { MetricVersions } from '../../../../contracts/fair/request.ts';
import type { Config } from '../../config.ts';
import type { StateLogger } from '../state/store.ts';
import { ApiKeys } from './api-keys.ts';
import { AssessmentService } from './assessment-service.ts';
import type { AssessmentBackend } from './backend.ts';
import { EmbeddedBackend } from './embedded-backend.ts';
import type { Fetcher } from './fetcher.ts';
import { FujiBackend } from './fuji-backend.ts';
import { HealthCheck } from './health.ts';
import { canonicalMetricVersion, METRIC_VERSIONS } from './metrics/load.ts';
import { openRateLimiter, type RateLimiter } from './rate-limit.ts';
import { createSafeFetcher } from './safe-fetch.ts';

/** The engine's metric versions, as the request parser needs them. */
export const ENGINE_METRIC_VERSIONS: MetricVersions = { accepted: METRIC_VERSIONS, canonical: canonicalMetricVersion };

export interface FairServices {
  keys: ApiKeys;
  limiter: RateLimiter;
  assessments: AssessmentService;
  health: HealthCheck;
  metricVersions: MetricVersions;
  /** Releases the limiter's store (file journal or Redis connection). */
  close(): Promise<void>;
}

export interface OpenFairOptions {
  logger?: StateLogger;
  /** Replaces the safe fetcher (tests only; production always uses the guarded one). */
  fetcher?: Fetcher;
}

/** The embedded engine's or F-UJI's backend, as FAIR_BACKEND says. */
export function backendFor(config: Config, fetcher: Fetcher): AssessmentBackend {
  if (config.FAIR_BACKEND === 'fuji')
    return new FujiBackend({
      url: config.FUJI_URL!,
      username: config.FUJI_USERNAME,
      password: config.FUJI_PASSWORD,
      timeoutMs: config.FUJI_TIMEOUT_MS,
      metricVersions: ENGINE_METRIC_VERSIONS,
    });
  return new EmbeddedBackend({
    fetcher,
    upstreams: {
      doi: config.FAIR_DOI_RESOLVER_URL,
      handle: config.FAIR_HANDLE_RESOLVER_URL,
      ark: config.FAIR_ARK_RESOLVER_URL,
      nbn: config.FAIR_NBN_RESOLVER_URL,
      identifiersOrg: config.FAIR_IDENTIFIERS_ORG_URL,
      datacite: config.FAIR_DATACITE_API_URL,
      re3data: config.FAIR_RE3DATA_URL,
      github: config.FAIR_GITHUB_API_URL,
      githubWeb: config.FAIR_GITHUB_URL,
    },
    deadlineMs: config.FAIR_ASSESSMENT_TIMEOUT_MS,
    maxBodyBytes: config.FAIR_FETCH_MAX_BYTES,
    githubToken: config.FAIR_GITHUB_TOKEN,
  });
}

/** The guarded outbound fetcher with the configured limits. */
export function safeFetcherFor(config: Config): Fetcher {
  return createSafeFetcher({
    allowPrivateAddresses: config.FAIR_ALLOW_PRIVATE_ADDRESSES,
    timeoutMs: config.FAIR_FETCH_TIMEOUT_MS,
    maxBytes: config.FAIR_FETCH_MAX_BYTES,
    maxRedirects: config.FAIR_FETCH_MAX_REDIRECTS,
    ...(config.FAIR_FETCH_CA ? { ca: readCa(config.FAIR_FETCH_CA) } : {}),
  });
}

function readCa(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`FAIR_FETCH_CA: cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
}

export async function openFairServices(config: Config, options: OpenFairOptions = {}): Promise<FairServices> {
  const logger = options.logger ?? console;
  const fetcher = options.fetcher ?? safeFetcherFor(config);
  const keys = await ApiKeys.open({ file: config.FAIR_KEYS_FILE, envHashes: config.FAIR_API_KEYS, refreshMs: config.FAIR_KEYS_REFRESH_MS, logger });
  const limiter = await openRateLimiter({
    stateDir: config.STATE_DIR,
    redisUrl: config.REDIS_URL,
    anonymousLimit: config.FAIR_ANON_LIMIT,
    authenticatedLimit: config.FAIR_AUTH_LIMIT,
    windowSeconds: config.FAIR_WINDOW_SECONDS,
    logger,
    patient: true,
  });
  const backend = backendFor(config, fetcher);
  return {
    keys,
    limiter,
    assessments: new AssessmentService(backend, { ttlSeconds: config.FAIR_CACHE_TTL_SECONDS, maxBytes: config.FAIR_CACHE_MAX_BYTES }),
    // The counters' probe peeks at a key no client has, so it counts nothing.
    health: new HealthCheck(backend, () => limiter.peek({ tier: 'anonymous', ip: 'health-probe' })),
    metricVersions: ENGINE_METRIC_VERSIONS,
    close: () => limiter.close(),
  };
}
