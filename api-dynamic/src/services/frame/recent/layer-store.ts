/**
 * Where the recent layer lives: the writable state (DECISIONS.md §2), as a directory below STATE_DIR or, with
 * REDIS_URL, in Redis shared by every replica. Unlike permalinks (write-once values), the layer changes daily,
 * is written by another process (the sync command) and read by every server, so it has its own small store:
 *   - a run lock (one sync at a time, with a lease that a crashed process cannot hold forever),
 *   - the run records (status running|succeeded|failed|interrupted, counts, error),
 *   - per run, a checkpoint (each candidate query's cursor) and the staged works of the pages already read,
 *     so a run that died resumes where it stopped,
 *   - the served layer itself, replaced as a whole when a run succeeds (readers never see half a sync),
 *     with a version string that readers poll to know when to reload.
 */
import { z } from 'zod';
import { recentWorkSchema, type RecentWork, type SyncRun } from '../../../../../contracts/frame/recent.ts';

export interface LockOwner {
  /** Random per process run. */
  id: string;
  pid: number;
  host: string;
  acquired_at: string;
}

export const checkpointSchema = z
  .object({
    run_id: z.number().int().min(1),
    window_start: z.string(),
    window_end: z.string(),
    requested_days: z.number().int(),
    route_version: z.string(),
    queries: z.array(
      z.object({ filter: z.string(), cursor: z.string(), done: z.boolean(), pages: z.number().int().min(0), count: z.number().int().nullable() }).strict(),
    ),
    api_requests: z.number().int().min(0),
    returned_rows: z.number().int().min(0),
  })
  .strict();
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** A staged candidate: its id, and the classified work when it matched a route. */
export const stagedSchema = z.object({ id: z.string(), work: recentWorkSchema.nullable() }).strict();
export type Staged = z.infer<typeof stagedSchema>;

export interface LayerSnapshot {
  version: string | null;
  works: RecentWork[];
}

export interface RecentLayerStore {
  readonly description: string;
  /** Takes the run lock unless a live holder has it; a lock whose lease expired (or whose process is gone) is taken over. */
  acquireLock(owner: LockOwner, ttlMs: number): Promise<{ acquired: true } | { acquired: false; holder: LockOwner | null }>;
  /** Extends the lease; false when the lock is no longer ours. */
  renewLock(owner: LockOwner, ttlMs: number): Promise<boolean>;
  releaseLock(owner: LockOwner): Promise<void>;

  nextRunId(): Promise<number>;
  putRun(run: SyncRun): Promise<void>;
  /** Every recorded run, newest first. */
  runs(): Promise<SyncRun[]>;

  putCheckpoint(checkpoint: Checkpoint): Promise<void>;
  checkpoint(runId: number): Promise<Checkpoint | null>;
  /** Appends staged candidates of one page (durable before the checkpoint that follows it). */
  stage(runId: number, entries: Staged[]): Promise<void>;
  staged(runId: number): Promise<Staged[]>;
  /** Forgets a run's checkpoint and staged candidates. */
  dropRunData(runId: number): Promise<void>;

  /** Replaces the served layer in one step. */
  replaceLayer(works: RecentWork[], version: string): Promise<void>;
  /** The served layer's version (cheap: polled by readers). */
  layerVersion(): Promise<string | null>;
  layer(): Promise<LayerSnapshot>;
  close(): Promise<void>;
}

export class SyncBusyError extends Error {
  override name = 'SyncBusyError';
}
