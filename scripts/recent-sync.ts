/**
 * `npm run recent:sync -- --days 30`: one sync of the rolling recent layer (api-dynamic/src/services/frame/
 * recent/sync.ts). Reads the same settings as the server (STATE_DIR, REDIS_URL, CATALOGUE_*, BUILD_OUTPUT), so
 * the servers see the new layer within RECENT_REFRESH_MS. Exit codes: 0 succeeded or skipped, 1 failed,
 * 2 bad usage or setup, 3 another sync is running, 130 interrupted (the next run resumes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildManifestSchema } from '../contracts/common/build-manifest.ts';
import { CANADIAN_LISTS_FILE, canadianListsSchema } from '../contracts/frame/canadian-lists.ts';
import { RECENT_MAX_DAYS, RECENT_MIN_DAYS } from '../contracts/frame/recent.ts';
import { loadConfig } from '../api-dynamic/src/config.ts';
import { resolveCurrent } from '../api-dynamic/src/services/build-store.ts';
import { routeRules } from '../api-dynamic/src/services/frame/recent/classify.ts';
import { SyncBusyError } from '../api-dynamic/src/services/frame/recent/layer-store.ts';
import { openLayerStore } from '../api-dynamic/src/services/frame/recent/open-layer-store.ts';
import { runSync, type SyncProgress } from '../api-dynamic/src/services/frame/recent/sync.ts';
import { silentProgress, terminalProgress } from '../pipeline/lib/progress.ts';

const HELP = `Usage: npm run recent:sync -- [options]

Pulls the works published in the last N days from the upstream catalogue (CATALOGUE_URL, default OpenAlex),
classifies them into the four routes with the current build's pinned lists and the about-Canada lexicon, and
replaces the recent layer in the state store (STATE_DIR/recent, or Redis with REDIS_URL). Every run is
recorded; one runs at a time; a run that crashed or was interrupted is resumed by the next one.

Options:
  --days N              window length in days, ${RECENT_MIN_DAYS} to ${RECENT_MAX_DAYS} (default ${RECENT_MAX_DAYS})
  --if-stale-hours H    do nothing when the last successful run finished less than H hours ago
  --concurrency N       candidate queries paged at once, 1 to 8 (default 2)
  --per-page N          works per catalogue page, 1 to 200 (default 200)
  --retries N           retries per request after a 429, 5xx, timeout or bad body, 0 to 10 (default 6)
  --no-progress         no progress bar
  -h, --help            this text

Schedule it daily (cron: 15 5 * * *  cd /srv/ori && npm run recent:sync -- --days 30 --if-stale-hours 20);
docs/operations.md has a systemd timer too. Exit codes: 0 succeeded or skipped, 1 failed, 2 bad usage or
setup, 3 another sync is running, 130 interrupted.
`;

function fail(message: string, code = 2): never {
  process.stderr.write(`recent:sync: ${message}\n`);
  process.exit(code);
}

function intOption(name: string, value: string | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    fail(`--${name} must be a whole number from ${min} through ${max} (got ${JSON.stringify(value)})`);
  return Number(value);
}

let args;
try {
  args = parseArgs({
    options: {
      days: { type: 'string' },
      'if-stale-hours': { type: 'string' },
      concurrency: { type: 'string' },
      'per-page': { type: 'string' },
      retries: { type: 'string' },
      'no-progress': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (err) {
  fail(`${(err as Error).message}\n\n${HELP}`);
}
if (args.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const days = intOption('days', args.days, RECENT_MIN_DAYS, RECENT_MAX_DAYS, RECENT_MAX_DAYS);
const ifStaleHours = args['if-stale-hours'] === undefined ? undefined : intOption('if-stale-hours', args['if-stale-hours'], 0, 10_000, 0);
const concurrency = intOption('concurrency', args.concurrency, 1, 8, 2);
const perPage = intOption('per-page', args['per-page'], 1, 200, 200);
const retries = intOption('retries', args.retries, 0, 10, 6);

let config;
try {
  config = loadConfig();
} catch (err) {
  fail((err as Error).message);
}

// The build whose pinned lists define the routes (the one the servers answer from).
let buildDir: string;
let lists;
let snapshotId: string;
try {
  buildDir = resolveCurrent(config.BUILD_OUTPUT);
  snapshotId = buildManifestSchema.parse(JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8'))).snapshot.id;
  lists = canadianListsSchema.parse(JSON.parse(readFileSync(join(buildDir, CANADIAN_LISTS_FILE), 'utf8')));
} catch (err) {
  fail(`cannot read the current build's pinned lists: ${(err as Error).message}`);
}

const log = {
  info: (m: string) => process.stderr.write(`${new Date().toISOString()} recent:sync ${m}\n`),
  warn: (m: string) => process.stderr.write(`${new Date().toISOString()} recent:sync warning: ${m}\n`),
};
const bar = args['no-progress'] ? silentProgress : terminalProgress();
let started = false;
let done = 0;
const progress: SyncProgress = {
  setTotal(total) {
    if (!started) bar.start('catalogue rows', Math.max(total, 1));
    started = true;
    bar.update(done);
  },
  increment(rows) {
    done += rows;
    if (started) bar.update(done);
  },
  stop() {
    if (started) bar.stop();
    started = false;
  },
};

const store = await openLayerStore({ stateDir: config.STATE_DIR, redisUrl: config.REDIS_URL, logger: { warn: log.warn } }).catch((err: Error) =>
  fail(err.message),
);
const abort = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    log.warn(`${sig}: stopping after the page in flight; the next run resumes from the checkpoint`);
    abort.abort();
  });

log.info(`catalogue ${config.CATALOGUE_URL}, store ${store.description}, build ${buildDir} (${lists.funders.length} funders, ${lists.sources.length} sources)`);
let code = 0;
try {
  const outcome = await runSync({
    store,
    catalogue: {
      baseUrl: config.CATALOGUE_URL,
      mailto: config.CATALOGUE_MAILTO,
      apiKey: config.CATALOGUE_API_KEY,
      timeoutMs: config.CATALOGUE_TIMEOUT_MS,
      retries,
    },
    rules: routeRules(lists),
    lists,
    snapshotId,
    days,
    concurrency,
    perPage,
    ifStaleHours,
    log,
    progress,
    signal: abort.signal,
  });
  if (outcome.status === 'skipped') log.info(`skipped: ${outcome.reason}`);
  else if (outcome.status === 'failed') {
    log.warn(`run ${outcome.run.id} failed: ${outcome.run.error}`);
    code = 1;
  } else if (outcome.status === 'interrupted') {
    log.warn(`run ${outcome.run.id} interrupted; run the command again to resume`);
    code = 130;
  }
} catch (err) {
  if (err instanceof SyncBusyError) {
    log.warn(err.message);
    code = 3;
  } else {
    log.warn(`failed: ${(err as Error).stack ?? err}`);
    code = 1;
  }
} finally {
  await store.close();
}
process.exit(code);
