/**
 * One sync of the recent layer: pull the candidate works of the window from the catalogue, classify them,
 * and replace the served layer, recording the run.
 *
 *   1. Take the run lock (one sync at a time); runs left `running` by a process that died become `interrupted`.
 *   2. With `ifStaleHours`, stop early when the last successful run is younger than that.
 *   3. Resume: when the newest unfinished run (interrupted or failed) covered the same window with the same
 *      rules, continue from its checkpoint (its cursors and staged pages) instead of starting over.
 *   4. Run the candidate queries with bounded concurrency; classify each page (classify.ts: the frame rules'
 *      SQL in DuckDB), stage its candidates and then write the checkpoint, so a crash loses at most the page in flight.
 *   5. Merge: the staged matches upsert the layer (first_seen_at kept, last_seen_at and synced_at now);
 *      works published before the layer's oldest day, and works of this window that no longer match (or no
 *      longer exist), are removed. The layer is replaced in one step and the run marked succeeded.
 * Failure keeps the checkpoint (the next run resumes) and records the error; an abort (SIGINT/SIGTERM) marks
 * the run interrupted. The served layer is only ever touched by step 5.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pLimit from 'p-limit';
import { RECENT_MAX_DAYS, type RecentWork, type SyncRun, utcDay, windowStart } from '../../../../../contracts/frame/recent.ts';
import { CatalogueClient, type CatalogueClientOptions, CatalogueError, shortId } from './catalogue.ts';
import { candidateQueries } from './candidate-queries.ts';
import { openClassifier, type RouteRules } from './classify.ts';
import { type Checkpoint, type LockOwner, type RecentLayerStore, type Staged, SyncBusyError } from './layer-store.ts';

export interface SyncProgress {
  setTotal(total: number): void;
  increment(rows: number): void;
  stop(): void;
}

export interface SyncLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface SyncOptions {
  store: RecentLayerStore;
  catalogue: Omit<CatalogueClientOptions, 'onRequest' | 'onRetry'>;
  rules: RouteRules;
  lists: { funders: readonly { id: string }[]; sources: readonly { id: string }[] };
  snapshotId: string;
  /** Window length, 15 to 30. */
  days: number;
  /** Candidate queries paged at the same time. */
  concurrency: number;
  /** Works per catalogue page (the catalogue allows up to 200). */
  perPage: number;
  /** Skip the run when the last successful one finished less than this many hours ago. */
  ifStaleHours?: number | undefined;
  log: SyncLog;
  progress?: SyncProgress | undefined;
  signal?: AbortSignal | undefined;
  /** Lease of the run lock; renewed every third of it. Default 60 s. */
  lockTtlMs?: number;
  /** The clock (tests pin the day). */
  now?: () => Date;
}

export type SyncOutcome = { status: 'skipped'; reason: string; run: SyncRun | null } | { status: 'succeeded' | 'failed' | 'interrupted'; run: SyncRun };

const iso = (d: Date) => d.toISOString();

export async function runSync(o: SyncOptions): Promise<SyncOutcome> {
  const now = o.now ?? (() => new Date());
  const ttl = o.lockTtlMs ?? 60_000;
  const owner: LockOwner = { id: randomUUID(), pid: process.pid, host: hostname(), acquired_at: iso(now()) };
  const lock = await o.store.acquireLock(owner, ttl);
  if (!lock.acquired) {
    const h = lock.holder;
    throw new SyncBusyError(
      h
        ? `another sync is running (pid ${h.pid} on ${h.host}, since ${h.acquired_at}); only one runs at a time`
        : 'another sync holds the run lock; only one runs at a time',
    );
  }
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  let lockLost = false;
  const heartbeat = setInterval(
    () => {
      o.store.renewLock(owner, ttl).then(
        (ok) => {
          if (!ok) {
            lockLost = true;
            stop.abort();
          }
        },
        (err: Error) => o.log.warn(`could not renew the run lock: ${err.message}`),
      );
    },
    Math.max(50, Math.floor(ttl / 3)),
  );
  try {
    return await locked(o, now, signal, () => lockLost);
  } finally {
    clearInterval(heartbeat);
    o.progress?.stop();
    await o.store.releaseLock(owner).catch((err: Error) => o.log.warn(`could not release the run lock: ${err.message}`));
  }
}

async function locked(o: SyncOptions, now: () => Date, signal: AbortSignal, lockLost: () => boolean): Promise<SyncOutcome> {
  const { store } = o;
  // 1. Runs still marked running belong to a process that died (we hold the lock).
  let runs = await store.runs();
  for (const r of runs.filter((r) => r.status === 'running')) {
    await store.putRun({
      ...r,
      status: 'interrupted',
      completed_at: iso(now()),
      error: r.error ?? 'the sync process stopped before recording an end (crash or kill)',
    });
    o.log.warn(`run ${r.id} was left running by a process that is gone: marked interrupted`);
  }
  runs = await store.runs();

  // 2. Fresh enough already?
  const lastOk = runs.find((r) => r.status === 'succeeded') ?? null;
  if (o.ifStaleHours !== undefined && lastOk?.completed_at) {
    const ageH = (now().getTime() - Date.parse(lastOk.completed_at)) / 3_600_000;
    if (ageH < o.ifStaleHours)
      return {
        status: 'skipped',
        reason: `the last successful run (${lastOk.id}) finished ${ageH.toFixed(1)} h ago, less than --if-stale-hours ${o.ifStaleHours}`,
        run: lastOk,
      };
  }

  // 3. Resume the newest unfinished run of the same window and rules, if any.
  const today = utcDay(now());
  const start = windowStart(today, o.days);
  const unfinished = runs.filter((r) => (lastOk === null || r.id > lastOk.id) && (r.status === 'interrupted' || r.status === 'failed'));
  let resumeFrom: Checkpoint | null = null;
  let resumedRun: SyncRun | null = null;
  for (const r of unfinished) {
    const cp = await store.checkpoint(r.id);
    if (cp && cp.window_end === today && cp.window_start === start && cp.route_version === o.rules.routeVersion) {
      resumeFrom = cp;
      resumedRun = r;
      break;
    }
  }
  const id = await store.nextRunId();
  const run: SyncRun = {
    id,
    status: 'running',
    started_at: iso(now()),
    completed_at: null,
    requested_days: o.days,
    window_start: start,
    window_end: today,
    route_version: o.rules.routeVersion,
    snapshot_id: o.snapshotId,
    resumed_from: resumedRun?.id ?? null,
    api_requests: resumeFrom?.api_requests ?? 0,
    returned_rows: resumeFrom?.returned_rows ?? 0,
    candidate_rows: 0,
    matched_rows: 0,
    stored_rows: 0,
    removed_rows: 0,
    error: null,
  };
  await store.putRun(run);
  const checkpoint: Checkpoint = resumeFrom
    ? { ...resumeFrom, run_id: id }
    : {
        run_id: id,
        window_start: start,
        window_end: today,
        requested_days: o.days,
        route_version: o.rules.routeVersion,
        queries: candidateQueries(o.lists, start, today).map((filter) => ({ filter, cursor: '*', done: false, pages: 0, count: null })),
        api_requests: 0,
        returned_rows: 0,
      };
  if (resumedRun) {
    await store.stage(id, await store.staged(resumedRun.id));
    o.log.info(`resuming run ${resumedRun.id}: ${checkpoint.queries.filter((q) => q.done).length} of ${checkpoint.queries.length} queries done`);
  }
  await store.putCheckpoint(checkpoint);
  for (const r of unfinished) await store.dropRunData(r.id);
  o.log.info(`run ${id}: window ${start} to ${today} (${o.days} days), ${checkpoint.queries.length} candidate queries, rules ${o.rules.routeVersion}`);

  // 4. Page every query; page commits (stage, then checkpoint) run one at a time.
  const client = new CatalogueClient({
    ...o.catalogue,
    onRequest: () => {
      checkpoint.api_requests++;
    },
    onRetry: (m) => o.log.warn(m),
  });
  let commits: Promise<unknown> = Promise.resolve();
  const commit = (fn: () => Promise<void>) => {
    const next = commits.then(fn);
    commits = next.catch(() => undefined);
    return next;
  };
  const updateTotal = () => o.progress?.setTotal(checkpoint.queries.reduce((s, q) => s + (q.count ?? 0), 0));
  updateTotal();
  o.progress?.increment(checkpoint.returned_rows);
  const syncedAt = iso(now());
  const limit = pLimit(Math.max(1, o.concurrency));
  const classifier = await openClassifier(o.rules);
  let stopped = false;
  const pageQuery = async (q: Checkpoint['queries'][number]) => {
    while (!q.done && !stopped) {
      if (signal.aborted) throw new CatalogueError('aborted', 'stopped');
      let page;
      try {
        page = await client.listWorks(q.filter, q.cursor, o.perPage, signal);
      } catch (err) {
        // A cursor kept across a crash may have expired upstream: start that query again once.
        if (err instanceof CatalogueError && err.kind === 'http' && err.status === 400 && q.cursor !== '*') {
          o.log.warn(`the catalogue refused a saved cursor (${err.message}); restarting that query`);
          q.cursor = '*';
          continue;
        }
        throw err;
      }
      for (const bad of page.invalid) o.log.warn(`skipped a result that is not a valid work: ${bad}`);
      const classified = await classifier.classify(page.works);
      const entries: Staged[] = page.works.map((w, k) => {
        const c = classified[k] ?? null;
        return {
          id: c?.id ?? shortId(w.id)!,
          work: c && {
            ...c,
            provenance: {
              route_version: o.rules.routeVersion,
              catalogue_updated_date: w.updated_date ?? null,
              source_window_start: start,
              source_window_end: today,
              first_seen_at: syncedAt,
              last_seen_at: syncedAt,
              synced_at: syncedAt,
              sync_run: id,
            },
          },
        };
      });
      await commit(async () => {
        await store.stage(id, entries);
        q.cursor = page.nextCursor ?? q.cursor;
        q.done = page.nextCursor === null;
        q.pages++;
        if (q.count === null) {
          q.count = page.count;
          updateTotal();
        }
        checkpoint.returned_rows += page.returned;
        await store.putCheckpoint(checkpoint);
      });
      o.progress?.increment(page.returned);
    }
  };
  const finish = async (status: 'failed' | 'interrupted', error: string): Promise<SyncOutcome> => {
    await commits;
    const ended: SyncRun = { ...run, status, completed_at: iso(now()), api_requests: checkpoint.api_requests, returned_rows: checkpoint.returned_rows, error };
    await store.putRun(ended);
    return { status, run: ended };
  };
  try {
    // Once a query fails, no other starts a page (the limiter starts the next one as soon as a slot frees).
    const stopAll = (err: unknown) => {
      stopped = true;
      throw err;
    };
    await Promise.all(checkpoint.queries.filter((q) => !q.done).map((q) => limit(() => pageQuery(q).catch(stopAll))));
  } catch (err) {
    limit.clearQueue();
    // A page another query had fetched is classified and staged before the run ends.
    await classifier.close();
    if (lockLost()) return finish('failed', 'lost the run lock (another process took it over after the lease expired); the checkpoint is kept');
    if (signal.aborted || (err instanceof CatalogueError && err.kind === 'aborted'))
      return finish('interrupted', 'interrupted (signal); the next run resumes from the checkpoint');
    return finish('failed', (err as Error).message);
  }
  await classifier.close();
  await commits;

  // 5. Merge into the layer and replace it.
  const staged = await store.staged(id);
  const candidates = new Map<string, RecentWork | null>();
  for (const s of staged) candidates.set(s.id, s.work ?? candidates.get(s.id) ?? null);
  const matched = [...candidates.values()].filter((w): w is RecentWork => w !== null);
  const current = await store.layer();
  const previous = new Map(current.works.map((w) => [w.id, w]));
  const oldestDay = windowStart(today, RECENT_MAX_DAYS);
  const next = new Map<string, RecentWork>();
  for (const w of current.works) {
    const inThisWindow = w.publication_date >= start && w.publication_date <= today;
    if (w.publication_date >= oldestDay && !inThisWindow) next.set(w.id, w);
  }
  for (const w of matched) {
    const before = previous.get(w.id);
    next.set(w.id, before ? { ...w, provenance: { ...w.provenance, first_seen_at: before.provenance.first_seen_at } } : w);
  }
  const removed = [...previous.keys()].filter((k) => !next.has(k)).length;
  const works = [...next.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await store.replaceLayer(works, `run-${id}-${syncedAt}`);
  const done: SyncRun = {
    ...run,
    status: 'succeeded',
    completed_at: iso(now()),
    api_requests: checkpoint.api_requests,
    returned_rows: checkpoint.returned_rows,
    candidate_rows: candidates.size,
    matched_rows: matched.length,
    stored_rows: works.length,
    removed_rows: removed,
  };
  await store.putRun(done);
  await store.dropRunData(id);
  o.log.info(
    `run ${id} succeeded: ${done.api_requests} requests, ${done.returned_rows} rows returned, ${done.candidate_rows} candidates, ${done.matched_rows} matched, layer ${done.stored_rows} works (${removed} removed)`,
  );
  return { status: 'succeeded', run: done };
}
