/**
 * Older published builds kept answerable beside the served one, so a citation made on an earlier snapshot can
 * still be checked (`snapshot=<id>` on the cohort routes, permalinks minted on it). Which ones: the N newest
 * published builds other than the served one, or the snapshot ids listed (RETAIN_SNAPSHOTS). A retained build
 * is only named at first (its manifest read, a `.retained-<pid>` marker written so the pipeline does not prune
 * it); it is loaded on first use, and unloaded when it has been idle for RETAINED_IDLE_MS or when the loaded
 * retained builds together exceed RETAINED_MEMORY_MIB (least recently used first). The served build is not one
 * of them and is never unloaded.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PIPELINE_VERSION } from '../../../contracts/common/build-manifest.ts';
import { retainedMarker } from '../../../contracts/common/build-markers.ts';
import type { SnapshotRef } from '../../../contracts/frame/snapshot-ref.ts';
import { Build } from './build-store.ts';

export interface RetentionOptions {
  /** The N newest published builds besides the served one, or the builds of these snapshot ids. */
  retain: { count: number } | { ids: string[] };
  /** A loaded retained build unused this long is unloaded (milliseconds). */
  idleMs: number;
  /** Memory the loaded retained builds may hold together (bytes, as Build.bytes counts them). */
  budgetBytes: number;
  logger?: { info(message: string): void; warn(message: string): void };
}

export const NO_RETENTION: RetentionOptions = { retain: { count: 0 }, idleMs: 600_000, budgetBytes: 2048 * 2 ** 20 };

export interface RetentionChange {
  /** Snapshot ids retained now, newest first. */
  retained: string[];
  /** Snapshot ids that were retained until this change. */
  dropped: string[];
}

/** What /snapshots says about a retained build. */
export interface RetainedInfo {
  id: string;
  ref: SnapshotRef;
  loaded: boolean;
  /** Bytes it holds while loaded (null when not loaded). */
  bytes: number | null;
  last_used_at: string | null;
}

interface Entry {
  id: string;
  dir: string;
  ref: SnapshotRef;
  build: Build | null;
  loading: Promise<Build> | null;
  lastUsed: number;
}

/** The published builds under `<outDir>/builds`: the newest directory per snapshot id, newest first. */
function publishedBuilds(outDir: string): { id: string; dir: string; ref: SnapshotRef; mtime: number }[] {
  const root = join(outDir, 'builds');
  if (!existsSync(root)) return [];
  const byId = new Map<string, { id: string; dir: string; ref: SnapshotRef; mtime: number }>();
  for (const name of readdirSync(root)) {
    if (name.startsWith('.')) continue; // a pipeline run's temporary directory
    const dir = join(root, name);
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
        pipeline_version?: string;
        snapshot?: SnapshotRef & { manifest_sha256?: string };
      };
      if (manifest.pipeline_version !== PIPELINE_VERSION || typeof manifest.snapshot?.id !== 'string') continue;
      const { manifest_sha256: _, ...ref } = manifest.snapshot;
      const mtime = statSync(dir).mtimeMs;
      const seen = byId.get(ref.id);
      if (!seen || seen.mtime < mtime) byId.set(ref.id, { id: ref.id, dir, ref, mtime });
    } catch {
      // Incomplete or unreadable: not a build that can be retained.
    }
  }
  return [...byId.values()].sort((a, b) => b.mtime - a.mtime);
}

export class RetainedBuilds {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  private readonly options: RetentionOptions;

  constructor(
    readonly outDir: string,
    options: RetentionOptions,
  ) {
    this.options = { ...options };
    const every = Math.max(50, Math.min(options.idleMs / 4, 60_000));
    this.timer = setInterval(() => this.unloadIdle(), every);
    this.timer.unref();
  }

  /**
   * Chooses the retained builds anew for the served build `current`. `previous` is the build just swapped
   * out: kept loaded when it is retained, retired otherwise. Builds no longer chosen are unloaded and unmarked.
   */
  refresh(current: Build, previous: Build | null): RetentionChange {
    const chosen = this.choose(current);
    const before = [...this.entries.keys()];
    const keep = new Set(chosen.map((c) => c.id));
    const dropped = before.filter((id) => !keep.has(id));
    for (const id of dropped) this.drop(id);
    for (const c of chosen) {
      if (this.entries.has(c.id)) continue;
      const entry: Entry = { ...c, build: null, loading: null, lastUsed: 0 };
      this.entries.set(c.id, entry);
      this.mark(entry.dir, true);
    }
    let adopted = false;
    if (previous) {
      const entry = this.entries.get(previous.snapshotId);
      if (entry && entry.dir === previous.dir && entry.build === null) {
        entry.build = previous;
        entry.lastUsed = Date.now();
        adopted = true;
        this.enforceBudget(entry);
      }
      if (!adopted) previous.retire();
    }
    const retained = chosen.map((c) => c.id);
    if (retained.length > 0 || dropped.length > 0)
      this.options.logger?.info(
        `snapshots: serving ${current.snapshotId}; retained ${retained.join(', ') || 'none'}${dropped.length ? `; dropped ${dropped.join(', ')}` : ''}`,
      );
    return { retained, dropped };
  }

  private choose(current: Build): { id: string; dir: string; ref: SnapshotRef }[] {
    const builds = publishedBuilds(this.outDir).filter((b) => b.id !== current.snapshotId);
    const { retain } = this.options;
    if ('count' in retain) return builds.slice(0, retain.count);
    const wanted = new Set(retain.ids);
    const found = builds.filter((b) => wanted.has(b.id));
    const missing = retain.ids.filter((id) => id !== current.snapshotId && !found.some((b) => b.id === id));
    if (missing.length > 0)
      this.options.logger?.warn(`snapshots: RETAIN_SNAPSHOTS names ${missing.join(', ')}, which no published build under ${this.outDir}/builds has`);
    return found;
  }

  /** Where load, unload and choice are logged (the server's logger, once the app exists). */
  setLogger(logger: NonNullable<RetentionOptions['logger']>): void {
    this.options.logger = logger;
  }

  /** Snapshot ids retained, newest first. */
  get ids(): string[] {
    return [...this.entries.keys()];
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  info(): RetainedInfo[] {
    return [...this.entries.values()].map((e) => ({
      id: e.id,
      ref: e.ref,
      loaded: e.build !== null,
      bytes: e.build ? e.build.bytes : null,
      last_used_at: e.lastUsed ? new Date(e.lastUsed).toISOString() : null,
    }));
  }

  /** Bytes held by the loaded retained builds. */
  get loadedBytes(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.build) n += e.build.bytes;
    return n;
  }

  async use<T>(id: string, fn: (build: Build) => T | Promise<T>): Promise<T> {
    const build = await this.acquire(id);
    try {
      return await fn(build);
    } finally {
      build.release();
    }
  }

  /** The loaded build of a retained snapshot, acquired (the caller releases it); loads it on first use. */
  async acquire(id: string): Promise<Build> {
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`snapshot ${id} is not retained`);
    entry.lastUsed = Date.now();
    if (entry.build) return entry.build.acquire();
    entry.loading ??= this.load(entry);
    const build = await entry.loading;
    entry.lastUsed = Date.now();
    return build.acquire();
  }

  private async load(entry: Entry): Promise<Build> {
    const started = performance.now();
    try {
      const build = await Build.load(entry.dir, { corpus: false });
      // Dropped (or the store closed) while loading: serve this request, then close.
      if (this.entries.get(entry.id) !== entry) {
        setImmediate(() => build.retire());
        return build;
      }
      entry.build = build;
      this.options.logger?.info(
        `snapshots: loaded retained ${entry.id} in ${Math.round(performance.now() - started)} ms (${(build.bytes / 2 ** 20).toFixed(1)} MiB)`,
      );
      this.enforceBudget(entry);
      return build;
    } finally {
      entry.loading = null;
    }
  }

  /** Unloads the least recently used loaded builds other than `keep` while the loaded ones exceed the budget. */
  private enforceBudget(keep: Entry): void {
    const loaded = [...this.entries.values()].filter((e) => e.build !== null && e !== keep).sort((a, b) => a.lastUsed - b.lastUsed);
    let total = this.loadedBytes;
    for (const e of loaded) {
      if (total <= this.options.budgetBytes) break;
      total -= e.build!.bytes;
      this.unload(e, 'over the memory budget');
    }
    if (total > this.options.budgetBytes)
      this.options.logger?.warn(
        `snapshots: retained ${keep.id} alone holds ${(total / 2 ** 20).toFixed(0)} MiB, over RETAINED_MEMORY_MIB; it stays loaded while in use`,
      );
  }

  private unloadIdle(): void {
    const now = Date.now();
    for (const e of this.entries.values()) {
      if (!e.build) continue;
      if (e.build.inFlight > 0) e.lastUsed = now;
      else if (now - e.lastUsed >= this.options.idleMs) this.unload(e, 'idle');
    }
  }

  /** Unloads a retained build now (requests still using it keep it until they finish). */
  private unload(e: Entry, why: string): void {
    const build = e.build;
    if (!build) return;
    e.build = null;
    build.retire();
    this.options.logger?.info(`snapshots: unloaded retained ${e.id} (${why})`);
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    this.unload(e, 'no longer retained');
    this.mark(e.dir, false);
  }

  private mark(dir: string, on: boolean): void {
    const path = join(dir, retainedMarker(process.pid));
    try {
      if (on) writeFileSync(path, '');
      else rmSync(path, { force: true });
    } catch {
      // A read-only build directory cannot be pruned by this process's pipeline either.
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const id of [...this.entries.keys()]) this.drop(id);
  }
}
