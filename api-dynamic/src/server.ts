/**
 * The server process: configuration, logger, listen, reload on SIGHUP, graceful close on SIGTERM/SIGINT.
 * `npm run serve` runs this file; `npm start` builds first when needed, then runs it.
 */
import { watch } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type Config, loadConfig } from './config.ts';
import { BuildLoadError, BuildStore } from './services/build-store.ts';
import { StateDirInUseError } from './services/state/dir-lock.ts';
import type { RetentionOptions } from './services/retained-builds.ts';

/** The retention settings of the configuration (RETAIN_SNAPSHOTS, RETAINED_IDLE_MS, RETAINED_MEMORY_MIB). */
export function retentionOf(config: Config): RetentionOptions {
  return { retain: config.RETAIN_SNAPSHOTS, idleMs: config.RETAINED_IDLE_MS, budgetBytes: config.RETAINED_MEMORY_MIB * 2 ** 20 };
}

/** After the grace period, how long exports cut short get to send their last line before connections close, ms. */
const CUT_FLUSH_MS = 1_000;

export interface Running {
  app: FastifyInstance;
  store: BuildStore;
  url: string;
  /** Stops accepting connections, lets in-flight requests finish (up to the grace period), then closes. */
  stop(): Promise<void>;
}

export async function startServer(config: Config, options: { logger?: boolean; site?: boolean } = {}): Promise<Running> {
  const store = await BuildStore.open(config.BUILD_OUTPUT, retentionOf(config));
  const app = await buildApp({ config, store, ...options }).catch((err: unknown) => {
    store.close();
    throw err;
  });
  let url: string;
  try {
    url = await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    await app.close();
    store.close();
    throw err;
  }
  app.log.info({ snapshot: store.current.snapshotId, build: store.current.dir }, `serving ${config.SERVICES.join(', ')} on ${url}`);
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      const timer = setTimeout(() => {
        app.log.warn(`grace period of ${config.SHUTDOWN_GRACE_MS} ms over: cutting exports short, closing remaining connections`);
        // An export cut short ends its CSV with a truncation line at its next chunk: a moment to send it.
        store.cutStreams();
        setTimeout(() => app.server.closeAllConnections(), CUT_FLUSH_MS).unref();
      }, config.SHUTDOWN_GRACE_MS);
      timer.unref();
      // A keep-alive connection whose request finishes after close() began goes idle and would hold the
      // process until the grace period ends: close connections as they go idle.
      const sweeper = setInterval(() => app.server.closeIdleConnections(), 100);
      sweeper.unref();
      await app.close();
      clearInterval(sweeper);
      clearTimeout(timer);
      store.close();
    })();
    return stopping;
  };
  return { app, store, url, stop };
}

const HELP = `Usage: npm run serve

Serves build-output/current (the three services and the site) on http://$HOST:$PORT. Settings come from the
environment (docs/configuration.md). SIGHUP, or a newly published build, reloads; SIGTERM finishes in-flight
requests and exits 0.
`;

export async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`server: ${(err as Error).message}\n`);
    process.exit(2);
  }
  let running: Running;
  try {
    running = await startServer(config);
  } catch (err) {
    if (err instanceof BuildLoadError || err instanceof StateDirInUseError) {
      process.stderr.write(`server: cannot start: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const { app, store } = running;
  const reload = (why: string) =>
    store.reload().then(
      (r) => app.log.info({ snapshot: store.current.snapshotId }, r.changed ? `reload (${why}): now serving ${r.to}` : `reload (${why}): build unchanged`),
      (err) => app.log.error({ err }, `reload (${why}) failed; still serving ${store.current.dir}`),
    );
  process.on('SIGHUP', () => reload('SIGHUP'));
  if (config.WATCH_BUILD) {
    // The pipeline publishes by renaming a new `current` link into place: reload shortly after that.
    let timer: NodeJS.Timeout | null = null;
    const watcher = watch(config.BUILD_OUTPUT, (_event, name) => {
      if (name !== 'current') return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => reload('new build published'), 200);
    });
    watcher.on('error', (err) => app.log.error({ err }, 'watching the build output failed; reload with SIGHUP'));
    watcher.unref();
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info(`${signal}: finishing in-flight requests, refusing new ones`);
      running.stop().then(
        () => process.exit(0),
        (err) => {
          app.log.error({ err }, 'error while closing');
          process.exit(1);
        },
      );
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
