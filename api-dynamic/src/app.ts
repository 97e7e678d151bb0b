/**
 * Builds the Fastify app: cross-cutting conventions first, then each enabled service under its prefix, then
 * the site (static build and server-rendered pages). Never listens: server.ts does, tests use inject().
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.ts';
import { logsAsText, textLogStream } from './log-text.ts';
import httpConventions, { clientErrorHandler, frameworkError } from './plugins/http-conventions.ts';
import probes from './plugins/probes.ts';
import sitePlugin, { injectApi } from './plugins/site.ts';
import frameRoutes from './routes/frame/index.ts';
import corpusRoutes from './routes/corpus/index.ts';
import fairRoutes from './routes/fair/index.ts';
import { openFairServices } from './services/fair/open.ts';
import type { Fetcher } from './services/fair/fetcher.ts';
import type { BuildStore } from './services/build-store.ts';
import { Permalinks } from './services/frame/permalinks.ts';
import { Snapshots } from './services/frame/snapshots.ts';
import { cacheControl } from './services/frame/cohort/answers.ts';
import { lockStateDir } from './services/state/dir-lock.ts';
import { openStateStore } from './services/state/open-store.ts';
import type { StateStore } from './services/state/store.ts';
import { AbstractService } from './services/frame/abstracts.ts';
import { CatalogueClient } from './services/frame/recent/catalogue.ts';
import { openLayerStore } from './services/frame/recent/open-layer-store.ts';
import { RecentView } from './services/frame/recent/recent-view.ts';

export interface AppOptions {
  config: Config;
  store: BuildStore;
  /** false in tests: pino logging off. */
  logger?: boolean;
  /** Serve the Astro site (default true when its build exists). */
  site?: boolean;
  /** Writable state (permalinks); default: opened from the config (STATE_DIR, REDIS_URL) and closed with the app. */
  state?: StateStore;
  /** Replaces the FAIR engine's SSRF-safe fetcher (tests only: e.g. one that reaches nothing but loopback mocks). */
  fairFetcher?: Fetcher;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Credentials never reach the logs: API keys travel in Authorization (Bearer), cookies are not used.
    logger:
      o.logger === false
        ? false
        : {
            level: o.config.LOG_LEVEL,
            redact: {
              paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]'],
              censor: '[redacted]',
            },
            // A person at a terminal reads lines, a program reads JSON (LOG_FORMAT).
            ...(logsAsText(o.config.LOG_FORMAT) ? { stream: textLogStream() } : {}),
          },
    // Keep a caller's request id when it is sane, so logs can be joined across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: 16 * 1024,
    // Client addresses (the FAIR anonymous tier counts by them) from X-Forwarded-For only when configured.
    trustProxy: o.config.TRUST_PROXY,
    return503OnClosing: true,
    // Loading the site's server entry can take longer than Fastify's default 10 s on a loaded 2-core machine.
    pluginTimeout: 60_000,
    connectionTimeout: o.config.SERVER_IDLE_TIMEOUT_MS,
    keepAliveTimeout: o.config.SERVER_KEEPALIVE_TIMEOUT_MS,
    requestTimeout: o.config.SERVER_REQUEST_TIMEOUT_MS,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: frameworkError,
    // Requests Node's parser refuses (431, malformed HTTP, 408) get the shared error body too.
    clientErrorHandler: clientErrorHandler(o.store, (err, code) =>
      app.log.info({ err: { code: (err as { code?: string }).code, message: err.message } }, `client error: ${code}`),
    ),
  });
  // STATE_DIR is this process's alone (services/state/dir-lock.ts): taken before any store opens it, given back
  // after every store has closed (onClose hooks run last-registered first, so this one runs last).
  const lock = await lockStateDir(o.config.STATE_DIR, { logger: app.log });
  app.addHook('onClose', async () => lock.release());
  try {
    await registerAll(app, o);
  } catch (err) {
    await app.close().catch(() => undefined);
    await lock.release();
    throw err;
  }
  return app;
}

/** Everything the app serves, in order: conventions, probes, the services, the site. */
async function registerAll(app: FastifyInstance, o: AppOptions): Promise<void> {
  await app.register(httpConventions, { store: o.store });
  const state = o.state ?? (await openStateStore({ stateDir: o.config.STATE_DIR, redisUrl: o.config.REDIS_URL, logger: app.log, patient: true }));
  if (!o.state) app.addHook('onClose', async () => state.close());
  app.log.info(`state store: ${state.description}`);
  // Node's own default (60 s) lets a slow client hold a socket for a minute before sending its headers.
  app.server.headersTimeout = o.config.SERVER_HEADERS_TIMEOUT_MS;
  await app.register(probes, { store: o.store, state });
  cacheControl.enabled = o.config.COHORT_CACHE === 'on';
  const permalinks = new Permalinks(state);
  const frame = o.config.SERVICES.includes('frame');
  // Retained snapshots are the frame's: a server of the other services alone has no builds to keep or record.
  const snapshots = frame ? new Snapshots(o.store, state, permalinks, o.config.FRAME_PREFIX, app.log) : null;
  if (snapshots) {
    o.store.retained.setLogger(app.log);
    // Not awaited: a state store that does not answer (Redis down) must not hold up the start; record() logs failures.
    void snapshots.record();
  }
  if (frame) {
    // Live abstracts ask the catalogue once (a user is waiting); the sync command retries, the server does not.
    const catalogue = new CatalogueClient({
      baseUrl: o.config.CATALOGUE_URL,
      mailto: o.config.CATALOGUE_MAILTO,
      apiKey: o.config.CATALOGUE_API_KEY,
      timeoutMs: o.config.CATALOGUE_TIMEOUT_MS,
      retries: 0,
    });
    const layerStore = await openLayerStore({ stateDir: o.config.STATE_DIR, redisUrl: o.config.REDIS_URL, logger: app.log, patient: true });
    app.addHook('onClose', async () => layerStore.close());
    app.log.info(`recent layer: ${layerStore.description}; catalogue: ${catalogue.description}`);
    await app.register(frameRoutes, {
      prefix: o.config.FRAME_PREFIX,
      publicOrigin: o.config.PUBLIC_ORIGIN,
      store: o.store,
      permalinks,
      snapshots: snapshots!,
      abstracts: new AbstractService(catalogue, o.config.ABSTRACT_CACHE_SIZE),
      recent: new RecentView(layerStore, o.config.RECENT_REFRESH_MS, app.log),
    });
  }
  if (o.config.SERVICES.includes('corpus')) await app.register(corpusRoutes, { prefix: o.config.CORPUS_PREFIX, store: o.store });
  if (o.config.SERVICES.includes('fair')) {
    const fair = await openFairServices(o.config, { logger: app.log, ...(o.fairFetcher ? { fetcher: o.fairFetcher } : {}) });
    app.addHook('onClose', async () => fair.close());
    app.log.info(`fair: ${fair.assessments.backend.description}; rate limits: ${fair.limiter.description}; ${fair.keys.size} API keys`);
    await app.register(fairRoutes, { prefix: o.config.FAIR_PREFIX, services: fair });
  }
  if (o.site !== false)
    await app.register(sitePlugin, {
      siteDir: o.config.SITE_DIR,
      locals: (request) => ({
        manifest: o.store.current.manifest,
        api: injectApi((options) => app.inject(options), request),
        ...(frame
          ? {
              permalink: (hash: string) => o.store.use((b) => permalinks.resolve(hash, b, snapshots!, (path) => `${o.config.FRAME_PREFIX}${path}`)),
              inNetwork: (ids: readonly string[]) => o.store.use(async (b) => new Set(ids.filter((id) => b.cohort.inNetwork(id)))),
            }
          : {}),
      }),
    });
}
