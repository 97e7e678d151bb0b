/**
 * The recent layer in Redis, shared by every replica and the sync command (`REDIS_URL`). Keys below
 * `<prefix>:recent:`:
 *   lock                    the run lock: SET NX PX (a lease; a crashed sync's lock expires by itself)
 *   run-seq                 INCR gives run ids
 *   runs                    hash run id → run record (JSON)
 *   checkpoint:<run>        the run's checkpoint (JSON)
 *   staging:<run>           list of staged pages (JSON arrays), RPUSH per page
 *   works, version          the served layer (hash id → work JSON) and its version, replaced together in one
 *                           MULTI/EXEC, so a reader sees the old or the new layer, never a mix
 */
import { z } from 'zod';
import { type RecentWork, recentWorkSchema, type SyncRun, syncRunSchema } from '../../../../../contracts/frame/recent.ts';
import { type Client, closeRedis, connectRedis, type RedisStateStoreOptions } from '../../state/redis-store.ts';
import { type Checkpoint, checkpointSchema, type LayerSnapshot, type LockOwner, type RecentLayerStore, type Staged, stagedSchema } from './layer-store.ts';

const ownerSchema = z.object({ id: z.string(), pid: z.number().int(), host: z.string(), acquired_at: z.string() }).strict();

/** Compare-and-act on the lock, so a sync whose lease ran out cannot extend or delete a successor's lock. */
const RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

export class RedisLayerStore implements RecentLayerStore {
  readonly description: string;
  private constructor(
    private readonly client: Client,
    private readonly prefix: string,
    safeUrl: string,
  ) {
    this.description = `redis ${safeUrl}`;
  }

  static async open(options: RedisStateStoreOptions): Promise<RedisLayerStore> {
    const { client, prefix, safeUrl } = await connectRedis(options, 'recent layer');
    return new RedisLayerStore(client, prefix, safeUrl);
  }

  private key(name: string): string {
    return `${this.prefix}:recent:${name}`;
  }

  async acquireLock(owner: LockOwner, ttlMs: number): Promise<{ acquired: true } | { acquired: false; holder: LockOwner | null }> {
    const set = await this.client.set(this.key('lock'), JSON.stringify(owner), { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    if (set === 'OK') return { acquired: true };
    const held = await this.client.get(this.key('lock'));
    let holder: LockOwner | null = null;
    try {
      const parsed = ownerSchema.safeParse(JSON.parse(held ?? 'null'));
      if (parsed.success) holder = parsed.data;
    } catch {
      holder = null;
    }
    return { acquired: false, holder };
  }

  async renewLock(owner: LockOwner, ttlMs: number): Promise<boolean> {
    const r = await this.client.eval(RENEW, { keys: [this.key('lock')], arguments: [JSON.stringify(owner), String(ttlMs)] });
    return Number(r) === 1;
  }

  async releaseLock(owner: LockOwner): Promise<void> {
    await this.client.eval(RELEASE, { keys: [this.key('lock')], arguments: [JSON.stringify(owner)] });
  }

  async nextRunId(): Promise<number> {
    return Number(await this.client.incr(this.key('run-seq')));
  }

  async putRun(run: SyncRun): Promise<void> {
    await this.client.hSet(this.key('runs'), String(run.id), JSON.stringify(syncRunSchema.parse(run)));
  }

  async runs(): Promise<SyncRun[]> {
    const all = await this.client.hVals(this.key('runs'));
    const out: SyncRun[] = [];
    for (const text of all) {
      const parsed = syncRunSchema.safeParse(JSON.parse(text));
      if (parsed.success) out.push(parsed.data);
    }
    return out.sort((a, b) => b.id - a.id);
  }

  async putCheckpoint(checkpoint: Checkpoint): Promise<void> {
    await this.client.set(this.key(`checkpoint:${checkpoint.run_id}`), JSON.stringify(checkpointSchema.parse(checkpoint)));
  }

  async checkpoint(runId: number): Promise<Checkpoint | null> {
    const text = await this.client.get(this.key(`checkpoint:${runId}`));
    if (text === null) return null;
    const parsed = checkpointSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  }

  async stage(runId: number, entries: Staged[]): Promise<void> {
    await this.client.rPush(this.key(`staging:${runId}`), JSON.stringify(entries));
  }

  async staged(runId: number): Promise<Staged[]> {
    const pages = await this.client.lRange(this.key(`staging:${runId}`), 0, -1);
    return pages.flatMap((p) => z.array(stagedSchema).parse(JSON.parse(p)));
  }

  async dropRunData(runId: number): Promise<void> {
    await this.client.del([this.key(`checkpoint:${runId}`), this.key(`staging:${runId}`)]);
  }

  async replaceLayer(works: RecentWork[], version: string): Promise<void> {
    const multi = this.client.multi().del(this.key('works'));
    if (works.length > 0) multi.hSet(this.key('works'), Object.fromEntries(works.map((w) => [w.id, JSON.stringify(w)])));
    await multi.set(this.key('version'), version).exec();
  }

  async layerVersion(): Promise<string | null> {
    return this.client.get(this.key('version'));
  }

  async layer(): Promise<LayerSnapshot> {
    // One transaction reads both, so the works belong to the version returned.
    const [version, works] = (await this.client.multi().get(this.key('version')).hVals(this.key('works')).exec()) as unknown as [string | null, string[]];
    return { version, works: works.map((w) => recentWorkSchema.parse(JSON.parse(w))) };
  }

  async close(): Promise<void> {
    await closeRedis(this.client);
  }
}
