/**
 * The recent layer in a directory (`<STATE_DIR>/recent/`), for a single machine:
 *   lock.json                 the run lock (state/dir-lock.ts's protocol): stale when its process is gone (same
 *                             host) or its lease expired
 *   runs.jsonl                run records, appended; a later line for the same id wins
 *   checkpoint-<run>.json     written to a temporary file and renamed, after each page
 *   staging-<run>.jsonl       staged candidates, one JSON array per page, appended and fsynced
 *   works.jsonl               the served layer: a header line {version, count, committed_at}, then one work per
 *                             line; replaced by rename, so a reader sees the old or the new layer, never a mix
 * The permalink store of the same STATE_DIR only reads `*.jsonl` at its top level, so this subdirectory is its own.
 */
import { hostname } from 'node:os';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { pidIsAlive, writeFileAtomic } from '../../../../../contracts/common/local-files.ts';
import { takeLockFile } from '../../state/dir-lock.ts';
import { type RecentWork, recentWorkSchema, type SyncRun, syncRunSchema } from '../../../../../contracts/frame/recent.ts';
import { type Checkpoint, checkpointSchema, type LayerSnapshot, type LockOwner, type RecentLayerStore, type Staged, stagedSchema } from './layer-store.ts';

const lockSchema = z.object({ id: z.string(), pid: z.number().int(), host: z.string(), acquired_at: z.string(), expires_at: z.number() }).strict();
const headerSchema = z.object({ version: z.string(), count: z.number().int().min(0), committed_at: z.string() }).strict();

function isEnoent(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}

export class FileLayerStore implements RecentLayerStore {
  readonly description: string;
  private constructor(readonly dir: string) {
    this.description = `file ${dir}`;
  }

  /** Opens the store; its directory is created by the first write, so a server that only reads leaves no trace. */
  static async open(stateDir: string): Promise<FileLayerStore> {
    return new FileLayerStore(join(stateDir, 'recent'));
  }

  private made: Promise<unknown> | null = null;
  private ensureDir(): Promise<unknown> {
    this.made ??= mkdir(this.dir, { recursive: true });
    return this.made;
  }

  private path(name: string): string {
    return join(this.dir, name);
  }

  // ---- lock ----

  private async readLock(): Promise<z.infer<typeof lockSchema> | null> {
    try {
      const parsed = lockSchema.safeParse(JSON.parse(await readFile(this.path('lock.json'), 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch (err) {
      if (isEnoent(err)) return null;
      return null; // unreadable (torn) lock: treated as stale below
    }
  }

  async acquireLock(owner: LockOwner, ttlMs: number): Promise<{ acquired: true } | { acquired: false; holder: LockOwner | null }> {
    await this.ensureDir();
    const body = JSON.stringify({ ...owner, expires_at: Date.now() + ttlMs });
    const got = await takeLockFile(
      this.path('lock.json'),
      body,
      (h) => {
        const held = lockSchema.safeParse(h).data;
        return held !== undefined && held.expires_at >= Date.now() && (held.host !== hostname() || pidIsAlive(held.pid));
      },
      () => undefined,
    );
    if (got.taken) return { acquired: true };
    const { expires_at: _, ...holder } = lockSchema.parse(got.holder);
    return { acquired: false, holder };
  }

  async renewLock(owner: LockOwner, ttlMs: number): Promise<boolean> {
    const held = await this.readLock();
    if (held?.id !== owner.id) return false;
    await writeFileAtomic(this.path('lock.json'), JSON.stringify({ ...owner, expires_at: Date.now() + ttlMs }));
    return true;
  }

  async releaseLock(owner: LockOwner): Promise<void> {
    const held = await this.readLock();
    if (held?.id === owner.id) await rm(this.path('lock.json'), { force: true });
  }

  // ---- runs ----

  async nextRunId(): Promise<number> {
    const runs = await this.runs();
    return (runs[0]?.id ?? 0) + 1;
  }

  async putRun(run: SyncRun): Promise<void> {
    await this.ensureDir();
    const file = await open(this.path('runs.jsonl'), 'a');
    try {
      await file.appendFile(`${JSON.stringify(syncRunSchema.parse(run))}\n`, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
  }

  async runs(): Promise<SyncRun[]> {
    let text: string;
    try {
      text = await readFile(this.path('runs.jsonl'), 'utf8');
    } catch (err) {
      if (isEnoent(err)) return [];
      throw err;
    }
    const byId = new Map<number, SyncRun>();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let parsed;
      try {
        parsed = syncRunSchema.safeParse(JSON.parse(line));
      } catch {
        continue; // a torn last line from a crash: that record was never acknowledged
      }
      if (parsed.success) byId.set(parsed.data.id, parsed.data);
    }
    return [...byId.values()].sort((a, b) => b.id - a.id);
  }

  // ---- checkpoints and staging ----

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    await this.ensureDir();
    await writeFileAtomic(this.path(`checkpoint-${checkpoint.run_id}.json`), JSON.stringify(checkpointSchema.parse(checkpoint)));
  }

  async checkpoint(runId: number): Promise<Checkpoint | null> {
    try {
      const parsed = checkpointSchema.safeParse(JSON.parse(await readFile(this.path(`checkpoint-${runId}.json`), 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async stage(runId: number, entries: Staged[]): Promise<void> {
    await this.ensureDir();
    const file = await open(this.path(`staging-${runId}.jsonl`), 'a');
    try {
      await file.appendFile(`${JSON.stringify(entries)}\n`, 'utf8');
      await file.datasync();
    } finally {
      await file.close();
    }
  }

  async staged(runId: number): Promise<Staged[]> {
    let text: string;
    try {
      text = await readFile(this.path(`staging-${runId}.jsonl`), 'utf8');
    } catch (err) {
      if (isEnoent(err)) return [];
      throw err;
    }
    const out: Staged[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let page: unknown;
      try {
        page = JSON.parse(line);
      } catch {
        continue; // torn last line: its checkpoint was never written, so the page is read again
      }
      out.push(...z.array(stagedSchema).parse(page));
    }
    return out;
  }

  async dropRunData(runId: number): Promise<void> {
    await rm(this.path(`checkpoint-${runId}.json`), { force: true });
    await rm(this.path(`staging-${runId}.jsonl`), { force: true });
  }

  // ---- the served layer ----

  async replaceLayer(works: RecentWork[], version: string): Promise<void> {
    await this.ensureDir();
    const header = { version, count: works.length, committed_at: new Date().toISOString() };
    const lines = [JSON.stringify(header), ...works.map((w) => JSON.stringify(w))];
    await writeFileAtomic(this.path('works.jsonl'), `${lines.join('\n')}\n`);
  }

  async layerVersion(): Promise<string | null> {
    let file;
    try {
      file = await open(this.path('works.jsonl'), 'r');
    } catch (err) {
      if (isEnoent(err)) return null;
      throw err;
    }
    try {
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await file.read(buf, 0, buf.length, 0);
      const first = buf.subarray(0, bytesRead).toString('utf8').split('\n')[0]!;
      return headerSchema.parse(JSON.parse(first)).version;
    } finally {
      await file.close();
    }
  }

  async layer(): Promise<LayerSnapshot> {
    let text: string;
    try {
      text = await readFile(this.path('works.jsonl'), 'utf8');
    } catch (err) {
      if (isEnoent(err)) return { version: null, works: [] };
      throw err;
    }
    const lines = text.split('\n').filter((l) => l !== '');
    const header = headerSchema.parse(JSON.parse(lines[0]!));
    const works = lines.slice(1).map((l) => recentWorkSchema.parse(JSON.parse(l)));
    if (works.length !== header.count)
      throw new Error(`${this.path('works.jsonl')} holds ${works.length} works but its header says ${header.count}: the file is damaged`);
    return { version: header.version, works };
  }

  async close(): Promise<void> {}
}
