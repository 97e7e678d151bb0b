/**
 * Which snapshot a frame request is answered from (`snapshot=`), and what the service remembers about
 * snapshots it no longer keeps. Every snapshot this service has served or retained is recorded in the state
 * store (namespace `snapshots`, write-once, shared by replicas through Redis), and so is the moment one was
 * dropped (`snapshots-dropped`). An unknown `snapshot=` is then a 400 naming the ones kept, and one recorded
 * but no longer kept a 410 Gone, with the numbers a permalink of the asked cohort recorded on it.
 */
import { ApiError, type Gone } from '../../../../contracts/common/errors.ts';
import { type CohortFilters, queryHash } from '../../../../contracts/frame/cohort-query.ts';
import { type Build, type BuildStore, UnknownSnapshotError } from '../build-store.ts';
import type { RetentionChange } from '../retained-builds.ts';
import type { StateLogger, StateStore } from '../state/store.ts';
import type { Permalinks, RetainedAccess } from './permalinks.ts';

const SEEN = 'snapshots';
const DROPPED = 'snapshots-dropped';

export class Snapshots implements RetainedAccess {
  /** Ids this process has already recorded as seen (the store is write-once: once is enough). */
  private readonly recorded = new Set<string>();
  /** What this process saw itself, known before the store's write completes (a request right after a switch). */
  private readonly seenHere = new Set<string>();
  private readonly droppedHere = new Map<string, string>();

  constructor(
    private readonly store: BuildStore,
    private readonly state: StateStore,
    private readonly permalinks: Permalinks,
    /** Mount point of the service, for the links in a 410 body. */
    private readonly prefix: string,
    private readonly logger: StateLogger,
  ) {
    store.onSwitch((change) => void this.record(change));
  }

  /** Records the served and retained snapshots as seen and the dropped ones as dropped; failures are logged. */
  async record(change: RetentionChange = this.store.lastChange): Promise<void> {
    const now = new Date().toISOString();
    const seen = [this.store.current.snapshotId, ...change.retained].filter((id) => !this.recorded.has(id));
    for (const id of seen) this.seenHere.add(id);
    for (const id of change.dropped) if (!this.droppedHere.has(id)) this.droppedHere.set(id, now);
    try {
      for (const id of seen) {
        await this.state.putIfAbsent(SEEN, id, JSON.stringify({ id, first_seen_at: now }));
        this.recorded.add(id);
      }
      for (const id of change.dropped)
        if (id !== this.store.current.snapshotId) await this.state.putIfAbsent(DROPPED, id, JSON.stringify({ id, dropped_at: now }));
    } catch (err) {
      this.logger.warn(`snapshots: could not record ${[...seen, ...change.dropped].join(', ')} in the state store: ${(err as Error).message}`);
    }
  }

  /** Snapshot ids answerable now: the served one first, then the retained ones, newest first. */
  get available(): string[] {
    return [this.store.current.snapshotId, ...this.store.retained.ids];
  }

  isRetained(id: string): boolean {
    return id !== this.store.current.snapshotId && this.store.retained.has(id);
  }

  useRetained<T>(id: string, fn: (build: Build) => T | Promise<T>): Promise<T> {
    return this.store.retained.use(id, fn);
  }

  /**
   * Runs fn on the build of `id` (null: the served one). `filters` (when the request asks for a cohort) lets a
   * 410 carry the numbers a permalink recorded for that cohort on the dropped snapshot.
   */
  async use<T>(id: string | null, filters: CohortFilters | null, fn: (build: Build) => T | Promise<T>): Promise<T> {
    try {
      return await this.store.useSnapshot(id, fn);
    } catch (err) {
      if (err instanceof UnknownSnapshotError) return this.refuse(err.snapshotId, filters);
      throw err;
    }
  }

  /** The build of `id`, acquired (the caller releases it), or the 400/410 of `use`. */
  async acquire(id: string | null, filters: CohortFilters | null): Promise<Build> {
    try {
      return await this.store.acquireSnapshot(id);
    } catch (err) {
      if (err instanceof UnknownSnapshotError) return this.refuse(err.snapshotId, filters);
      throw err;
    }
  }

  /** 410 for a snapshot recorded once and no longer kept, else 400 naming the ones kept. */
  async refuse(id: string, filters: CohortFilters | null): Promise<never> {
    const kept = this.available;
    const seen = this.seenHere.has(id) || (await this.state.get(SEEN, id)) !== null;
    if (!seen)
      throw new ApiError(
        'INVALID_PARAMETER',
        `Invalid value for "snapshot": this service does not have snapshot ${id}. It answers from ${kept[0]} (the default)${kept.length > 1 ? ` and keeps ${kept.slice(1).join(', ')}` : ''}.`,
        [{ parameter: 'snapshot', message: 'unknown snapshot', allowed: kept }],
      );
    const [message, details, gone] = await this.gone(id, filters);
    throw new ApiError('GONE', message, details, { gone });
  }

  /** The message, details and `gone` block of a 410 for snapshot `id` (also used for permalinks minted on it). */
  async gone(id: string, filters: CohortFilters | null): Promise<[string, ApiError['details'], Gone]> {
    const dropped = await this.state.get(DROPPED, id);
    const droppedAt = dropped === null ? (this.droppedHere.get(id) ?? null) : (JSON.parse(dropped) as { dropped_at: string }).dropped_at;
    const record = filters === null ? null : await this.permalinks.get(queryHash(filters, id));
    const cited =
      record?.cited === undefined ? null : { hash: record.hash, url: `${this.prefix}/q/${record.hash}`, created_at: record.created_at, ...record.cited };
    const kept = this.available;
    const message =
      `Snapshot ${id} was answered from once and is no longer kept by this service${droppedAt ? ` (dropped ${droppedAt})` : ''}; ` +
      (cited
        ? `permalink ${cited.hash} recorded this cohort on it: ${cited.total.toLocaleString('en')} works (${cited.direct_labels_cover.toLocaleString('en')} with direct labels, ${cited.predictions_cover.toLocaleString('en')} with predictions). `
        : '') +
      `Snapshots kept: ${kept.join(', ')}.`;
    return [message, [{ parameter: 'snapshot', message: 'snapshot no longer kept', allowed: kept }], { snapshot: id, dropped_at: droppedAt, cited }];
  }
}
