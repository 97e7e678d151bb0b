/**
 * The build the server answers from, and the switch to a newer one. A Build is the resolved directory of
 * `build-output/current` with every file checked against its manifest (build-verify.ts), its frozen JSON in
 * memory and its frame database open read-only. `reload()` loads the new `current` fully before swapping it
 * in; requests that started on the old build keep it (see acquire/release) and it is closed once the last of
 * them finishes. Reloads run one at a time, and a build is marked as served (`.serving-<pid>`) so the
 * pipeline does not prune it.
 */
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { type BuildManifest, buildManifestSchema, PIPELINE_VERSION } from '../../../contracts/common/build-manifest.ts';
import { servingMarker } from '../../../contracts/common/build-markers.ts';
import type { SnapshotRef } from '../../../contracts/frame/snapshot-ref.ts';
import { BuildLoadError, verifyBuild } from './build-verify.ts';
import { CohortIndex } from './frame/cohort/cohort-index.ts';
import { CorpusData } from './corpus/corpus-data.ts';
import { NO_RETENTION, RetainedBuilds, type RetentionChange, type RetentionOptions } from './retained-builds.ts';

export { BuildLoadError };

/** A `snapshot=` this server neither serves nor retains (the frame routes answer 400 or 410). */
export class UnknownSnapshotError extends Error {
  constructor(readonly snapshotId: string) {
    super(`snapshot ${snapshotId} is not served here`);
  }
}

export interface FrozenDoc {
  body: Buffer;
  etag: string;
}

/** The real directory `<outDir>/current` points at, or an error saying what is missing. */
export function resolveCurrent(outDir: string): string {
  const link = join(outDir, 'current');
  if (!existsSync(link)) throw new BuildLoadError(`no build at ${link}: run \`npm run build\` (or \`npm run pipeline\`) first`);
  return realpathSync(link);
}

export class Build {
  private refs = 0;
  private retired = false;
  private closed = false;
  private constructor(
    readonly dir: string,
    readonly manifest: BuildManifest,
    readonly frozen: Map<string, FrozenDoc>,
    private readonly instance: DuckDBInstance | null,
    readonly db: DuckDBConnection | null,
    /** The in-memory cohort index. */
    readonly cohort: CohortIndex,
    /** The corpus database and excerpt index; null for a build without one. */
    readonly corpus: CorpusData | null,
  ) {}

  get snapshotId(): string {
    return this.manifest.snapshot.id;
  }

  /** The snapshot block responses carry (`meta.snapshot`). */
  get snapshotRef(): SnapshotRef {
    const { manifest_sha256: _, ...ref } = this.manifest.snapshot;
    return ref;
  }

  /** Bytes the build holds in memory (its cohort index and frozen JSON), as the retention budget counts them. */
  get bytes(): number {
    let frozen = 0;
    for (const d of this.frozen.values()) frozen += d.body.length;
    return this.cohort.bytes + frozen;
  }

  /**
   * Loads a build directory. `corpus: false` (retained older builds, which answer only the cohort service's
   * `snapshot=`) leaves the corpus database closed.
   */
  static async load(dir: string, options: { corpus?: boolean } = {}): Promise<Build> {
    const manifestPath = join(dir, 'manifest.json');
    if (!existsSync(manifestPath)) throw new BuildLoadError(`${dir} has no manifest.json: the build is incomplete`);
    let manifest: BuildManifest;
    try {
      manifest = buildManifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
    } catch (err) {
      throw new BuildLoadError(`${manifestPath} is not a valid build manifest: ${(err as Error).message}`);
    }
    if (manifest.pipeline_version !== PIPELINE_VERSION)
      throw new BuildLoadError(`${dir} was built by pipeline version ${manifest.pipeline_version}; this server reads version ${PIPELINE_VERSION}: rebuild`);
    // The check runs in worker threads while this thread loads the cohort index and the corpus (their readers
    // are bounded: a damaged file ends in an error, which the check's own, naming the file, then replaces);
    // the frame database, read by native code, is opened only once every file has passed.
    const verifying = verifyBuild(dir, manifest);
    verifying.catch(() => undefined);
    let cohort: CohortIndex | null = null;
    let corpus: CorpusData | null = null;
    let instance: DuckDBInstance | null = null;
    let db: DuckDBConnection | null = null;
    const frozen = new Map<string, FrozenDoc>();
    let what = 'the cohort index';
    try {
      if (!CohortIndex.exists(dir)) throw new Error('it is missing');
      cohort = CohortIndex.load(dir);
      what = 'the corpus database';
      if (options.corpus !== false) corpus = await CorpusData.open(dir);
      what = 'the frame database';
      for (const [rel, body] of await verifying)
        frozen.set(rel.slice(0, -'.json'.length), { body, etag: `"${manifest.snapshot.id}.${manifest.files[rel]!.sha256.slice(0, 16)}"` });
      const dbPath = join(dir, 'frame', 'frame.duckdb');
      if (existsSync(dbPath)) {
        instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY', threads: '2' });
        db = await instance.connect();
      }
    } catch (err) {
      db?.closeSync();
      instance?.closeSync();
      corpus?.close();
      cohort?.close();
      await verifying;
      throw new BuildLoadError(`${dir}: ${what} cannot be loaded (${(err as Error).message}): rebuild with npm run pipeline`);
    }
    try {
      writeFileSync(join(dir, servingMarker(process.pid)), '');
    } catch {
      // A read-only build directory cannot be pruned by this process's pipeline either: nothing to protect.
    }
    return new Build(dir, manifest, frozen, instance, db, cohort, corpus);
  }

  /** Requests (or streams, such as an export) using this build right now. */
  get inFlight(): number {
    return this.refs;
  }

  acquire(): this {
    this.refs++;
    return this;
  }

  release(): void {
    this.refs--;
    if (this.retired && this.refs === 0) this.close();
  }

  /** Closes now if idle, else once the last in-flight request releases it. */
  retire(): void {
    this.retired = true;
    if (this.refs === 0) this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db?.closeSync();
    this.instance?.closeSync();
    this.cohort.close();
    this.corpus?.close();
    rmSync(join(this.dir, servingMarker(process.pid)), { force: true });
  }
}

export interface ReloadResult {
  changed: boolean;
  from: string;
  to: string;
}

export class BuildStore {
  /** The reload in progress, if any: reloads run one after another, never interleaved. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly switchListeners: ((r: RetentionChange) => void)[] = [];

  private constructor(
    readonly outDir: string,
    private build: Build,
    /** Older published builds kept answerable (`snapshot=`), loaded on first use. */
    readonly retained: RetainedBuilds,
  ) {}

  static async open(outDir: string, retention: RetentionOptions = NO_RETENTION): Promise<BuildStore> {
    const build = await Build.load(resolveCurrent(outDir));
    const retained = new RetainedBuilds(outDir, retention);
    const store = new BuildStore(outDir, build, retained);
    store.lastChange = retained.refresh(build, null);
    return store;
  }

  /** What the last choice of retained builds kept and dropped (at open, then at each switch). */
  lastChange: RetentionChange = { retained: [], dropped: [] };

  /** Called after each switch of the served build, with the retained builds chosen anew. */
  onSwitch(listener: (r: RetentionChange) => void): void {
    this.switchListeners.push(listener);
  }

  /**
   * Runs `fn` on the build of snapshot `id`: the served one (id null or its id) or a retained one, loaded if
   * needed. Throws UnknownSnapshotError when this server has no such snapshot.
   */
  async useSnapshot<T>(id: string | null, fn: (build: Build) => T | Promise<T>): Promise<T> {
    if (id === null || id === this.build.snapshotId) return this.use(async (b) => fn(b));
    if (!this.retained.has(id)) throw new UnknownSnapshotError(id);
    return this.retained.use(id, fn);
  }

  /** The build of snapshot `id` (as useSnapshot), acquired: the caller releases it (a stream that outlives the handler). */
  async acquireSnapshot(id: string | null): Promise<Build> {
    if (id === null || id === this.build.snapshotId) return this.build.acquire();
    if (!this.retained.has(id)) throw new UnknownSnapshotError(id);
    return this.retained.acquire(id);
  }

  get current(): Build {
    return this.build;
  }

  /** Runs `fn` on the current build, which stays open until `fn` settles even if a reload swaps it out. */
  async use<T>(fn: (build: Build) => Promise<T>): Promise<T> {
    const build = this.build.acquire();
    try {
      return await fn(build);
    } finally {
      build.release();
    }
  }

  /** Loads the build `current` points at and swaps it in. Rejects (keeping the old build) when it is unusable. */
  reload(): Promise<ReloadResult> {
    const next = this.queue.then(() => this.reloadNow());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async reloadNow(): Promise<ReloadResult> {
    const from = this.build.dir;
    const target = resolveCurrent(this.outDir);
    if (target === from) return { changed: false, from, to: from };
    const loaded = await Build.load(target);
    // `current` may have moved again while loading: serve only what it points at now.
    if (resolveCurrent(this.outDir) !== target) {
      loaded.retire();
      return this.reloadNow();
    }
    const old = this.build;
    this.build = loaded;
    // The build swapped out stays loaded when it is retained (a permalink minted on it resolves at once).
    const change = this.retained.refresh(loaded, old);
    this.lastChange = change;
    for (const l of this.switchListeners) l(change);
    return { changed: true, from, to: loaded.dir };
  }

  private readonly cut = new AbortController();
  /** Aborted once the drain after SIGTERM has run out: a stream still running (an export) ends at its next chunk. */
  get streamsCut(): AbortSignal {
    return this.cut.signal;
  }

  cutStreams(): void {
    this.cut.abort();
  }

  close(): void {
    this.retained.close();
    this.build.retire();
  }
}
