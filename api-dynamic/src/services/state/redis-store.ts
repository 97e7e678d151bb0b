/**
 * The state store shared by several replicas: one Redis string per entry, under `<prefix>:<namespace>:<key>`.
 * `putIfAbsent` is `SET NX` (atomic in Redis, so racing replicas get one winner), then `GET` when the key
 * already existed, to return the winner's value. Values are write-once, so nothing can change between the
 * two commands (apart from an operator deleting keys, which is retried once).
 *
 * Failures reject: a Redis that cannot be reached at open rejects `open()` with the URL and the cause; once
 * open, commands fail fast while the client reconnects in the background (no offline queue, so a request
 * never waits on a Redis that is down) and time out after `commandTimeoutMs`. node-redis reports socket
 * problems as 'error' events, which crash the process when nobody listens: this store always listens.
 */
import { createClient } from 'redis';
import { checkNamespaceAndKey, checkValue, type StateLogger, StateUnavailableError, type StateStore } from './store.ts';

export interface RedisStateStoreOptions {
  /** `redis://` or `rediss://` URL, with credentials and database number if any. */
  url: string;
  /** First segment of every key, so several applications can share one Redis. Default `ori`. */
  prefix?: string;
  /** Receives connection problems after open (rate-limited to one line per outage); default `console`. */
  logger?: StateLogger;
  /** Milliseconds a command may take before it rejects. Default 5000. */
  commandTimeoutMs?: number;
  /**
   * What a Redis that cannot be reached at open means. false (default; commands such as `recent:sync`): open
   * rejects, naming the URL and the cause. true (the server): open resolves anyway, logs the outage, and the
   * client keeps reconnecting; until it connects, commands fail fast (requests that need Redis answer 503) and
   * /readyz says not ready. A server that refused to start would turn a Redis outage into a full outage.
   */
  patient?: boolean;
}

/** Attempts at open before giving up: a short retry absorbs a Redis that is still starting. */
const OPEN_ATTEMPTS = 3;
/** How long a patient open waits for the first connection before going on without it (milliseconds). */
const PATIENT_WAIT_MS = 2000;
/** Reconnect delays after a lost connection grow to this cap (milliseconds). */
const MAX_RECONNECT_DELAY_MS = 5000;

/**
 * The node-redis client with this store's settings. A function of its own so its exact generic type can be
 * named (`Client`): the type `createClient` returns depends on the options passed.
 */
function newClient(url: string, options: RedisStateStoreOptions, isOpened: () => boolean) {
  return createClient({
    url,
    // Fail fast while disconnected instead of queueing commands until Redis comes back.
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? 5000 },
    socket: {
      connectTimeout: 5000, // at open and on each reconnect
      reconnectStrategy: (retries, cause) => {
        // At open, give up after a few quick tries so a wrong URL is reported instead of retried forever
        // (unless patient: then keep trying, the server runs meanwhile).
        if (!isOpened() && !options.patient) return retries + 1 >= OPEN_ATTEMPTS ? cause : 100 * (retries + 1);
        return Math.min(100 * 2 ** retries, MAX_RECONNECT_DELAY_MS);
      },
    },
  });
}
export type Client = ReturnType<typeof newClient>;

/**
 * Connects a node-redis client with the settings above, or rejects with a message naming the URL (password
 * hidden) and the cause. `what` names the user in log lines (state, recent layer).
 */
export async function connectRedis(options: RedisStateStoreOptions, what: string): Promise<{ client: Client; prefix: string; safeUrl: string }> {
  const { url, prefix = 'ori', logger = console } = options;
  const safeUrl = redactUrl(url);
  if (!/^rediss?:\/\//.test(url)) throw new Error(`invalid Redis URL ${safeUrl}: use redis:// or rediss://`);
  if (!/^[A-Za-z0-9_-]+$/.test(prefix)) throw new Error(`invalid Redis key prefix ${JSON.stringify(prefix)}`);

  let opened = false;
  let lastError = '';
  let client: Client;
  try {
    client = newClient(url, options, () => opened);
  } catch (err) {
    throw new Error(`invalid Redis URL ${safeUrl}: ${(err as Error).message}`, { cause: err });
  }
  // Without this listener a lost connection would be an uncaught 'error' event and end the process.
  client.on('error', (err: Error) => {
    // While opening, the rejection of connect() carries the cause; afterwards log each outage once.
    if (!opened || err.message === lastError) return;
    lastError = err.message;
    logger.warn(`${what}: Redis ${safeUrl}: ${err.message} (reconnecting; requests that need it fail meanwhile)`);
  });
  client.on('ready', () => {
    if (opened && lastError) logger.warn(`${what}: Redis ${safeUrl}: reconnected`);
    lastError = '';
  });
  if (options.patient) {
    // Give the first connection two seconds (a Redis that is up answers in milliseconds), then go on without it.
    const connecting = client.connect().then(
      () => true,
      () => false,
    );
    const waited = await Promise.race([connecting, new Promise<false>((r) => setTimeout(() => r(false), PATIENT_WAIT_MS).unref())]);
    opened = true;
    if (!waited) {
      lastError = 'unreachable at start';
      logger.warn(`${what}: Redis ${safeUrl} cannot be reached at start; serving without it and reconnecting (requests that need it answer 503 meanwhile)`);
    }
    return { client, prefix, safeUrl };
  }
  try {
    await client.connect();
  } catch (err) {
    client.destroy();
    throw new Error(`cannot connect to Redis at ${safeUrl}: ${(err as Error).message}`, { cause: err });
  }
  opened = true;
  return { client, prefix, safeUrl };
}

/** A store on one Redis connection made by connectRedis: its description and its close. */
export abstract class RedisBacked {
  readonly description: string;

  protected constructor(
    protected readonly client: Client,
    protected readonly prefix: string,
    protected readonly safeUrl: string,
  ) {
    this.description = `redis ${safeUrl}`;
  }

  async close(): Promise<void> {
    await closeRedis(this.client);
  }
}

export class RedisStateStore extends RedisBacked implements StateStore {
  /** Connects, or rejects with a message naming the URL (password hidden) and the cause. */
  static async open(options: RedisStateStoreOptions): Promise<RedisStateStore> {
    const { client, prefix, safeUrl } = await connectRedis(options, 'state');
    return new RedisStateStore(client, prefix, safeUrl);
  }

  async get(namespace: string, key: string): Promise<string | null> {
    checkNamespaceAndKey(namespace, key);
    return this.command('GET', () => this.client.get(this.redisKey(namespace, key)));
  }

  async putIfAbsent(namespace: string, key: string, value: string): Promise<{ value: string; created: boolean }> {
    checkNamespaceAndKey(namespace, key);
    checkValue(namespace, value);
    const redisKey = this.redisKey(namespace, key);
    // Twice at most: GET finds nothing only if the key was deleted right after SET NX refused it.
    for (let attempt = 0; attempt < 2; attempt++) {
      const set = await this.command('SET', () => this.client.set(redisKey, value, { condition: 'NX' }));
      if (set === 'OK') return { value, created: true };
      const existing = await this.command('GET', () => this.client.get(redisKey));
      if (existing !== null) return { value: existing, created: false };
    }
    throw new Error(`state: Redis key ${redisKey} exists and vanishes again: is something deleting keys?`);
  }

  private redisKey(namespace: string, key: string): string {
    return `${this.prefix}:${namespace}:${key}`;
  }

  /** Runs one command; its failure becomes a StateUnavailableError (a 503 for the request) naming this store. */
  private async command<T>(name: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw new StateUnavailableError(`state: Redis ${name} on ${this.safeUrl} failed: ${(err as Error).message}`, err);
    }
  }
}

/** Closes a client: pending commands finish; if they cannot (connection already gone), the socket is dropped. */
export async function closeRedis(client: Client): Promise<void> {
  if (!client.isOpen) return;
  try {
    await client.close();
  } catch {
    client.destroy();
  }
}

/** The URL with its password replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}
