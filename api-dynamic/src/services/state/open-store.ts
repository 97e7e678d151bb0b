/**
 * Chooses the state store from the configuration: the file store alone, or, with a Redis URL, the file store
 * and Redis together (DECISIONS.md §2).
 */
import { FileStateStore } from './file-store.ts';
import { RedisStateStore } from './redis-store.ts';
import type { StateLogger, StateStore } from './store.ts';

export interface OpenStateStoreOptions {
  /** Directory of the file store (`STATE_DIR`); one per process, also when Redis is used. */
  stateDir: string;
  /** `REDIS_URL`: when set, Redis is shared by the replicas and the directory becomes a local copy. */
  redisUrl?: string | undefined;
  /** First segment of Redis keys; default `ori`. */
  redisPrefix?: string;
  /** Receives repairs and connection problems; default `console`. */
  logger?: StateLogger;
  /** Start even when Redis cannot be reached yet (the server; see RedisStateStoreOptions.patient). */
  patient?: boolean;
}

/** Opens the store the configuration asks for; rejects when the directory or Redis cannot be opened. */
export async function openStateStore(options: OpenStateStoreOptions): Promise<StateStore> {
  const logger = options.logger ?? console;
  const file = await FileStateStore.open(options.stateDir, { logger });
  if (!options.redisUrl) return file;
  let redis: RedisStateStore;
  try {
    redis = await RedisStateStore.open({ url: options.redisUrl, prefix: options.redisPrefix, logger, patient: options.patient ?? false });
  } catch (err) {
    await file.close();
    throw err;
  }
  return new WriteThroughStateStore(file, redis, logger);
}

/**
 * Redis plus a local file copy, for several replicas.
 *
 * Writes go to Redis first: SET NX there is the one place where racing replicas meet, so its answer (which
 * value won, whether this call created it) is the answer. The local file then records the winning value,
 * overwriting a stale local one, so the copy never disagrees with Redis.
 *
 * Reads try the local copy first, then Redis, and keep a Redis hit locally. This is safe without any
 * invalidation because values are write-once: once a key has a value in Redis it never changes. Local reads
 * keep the hot path (opening a permalink) off the network, and keys this replica has seen stay readable
 * while Redis is down or after Redis lost its data (a Redis without persistence, a failover). Only a key this
 * replica has never seen needs Redis: if Redis cannot answer, the read rejects rather than answering "absent",
 * which a caller would turn into a wrong 404.
 *
 * The local write after a successful Redis write is best effort: the value is already shared, so failing the
 * call would report a failure for something that happened; the problem is logged and the next read fetches
 * the value from Redis again.
 */
export class WriteThroughStateStore implements StateStore {
  readonly description: string;

  constructor(
    private readonly local: FileStateStore,
    private readonly shared: RedisStateStore,
    private readonly logger: StateLogger,
  ) {
    this.description = `${local.description} + ${shared.description}`;
  }

  async get(namespace: string, key: string): Promise<string | null> {
    const cached = await this.local.get(namespace, key);
    if (cached !== null) return cached;
    const value = await this.shared.get(namespace, key);
    if (value !== null) await this.keepLocally(namespace, key, value);
    return value;
  }

  async putIfAbsent(namespace: string, key: string, value: string): Promise<{ value: string; created: boolean }> {
    const result = await this.shared.putIfAbsent(namespace, key, value);
    await this.keepLocally(namespace, key, result.value);
    return result;
  }

  async close(): Promise<void> {
    await Promise.all([this.shared.close(), this.local.close()]);
  }

  private async keepLocally(namespace: string, key: string, value: string): Promise<void> {
    try {
      await this.local.put(namespace, key, value);
    } catch (err) {
      this.logger.warn(`state: could not keep ${namespace}/${key} in ${this.local.description}: ${(err as Error).message}`);
    }
  }
}
