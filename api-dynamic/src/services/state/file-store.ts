/**
 * The embedded state store: one append-only JSON-lines file per namespace (`<dir>/<namespace>.jsonl`, each
 * line `{"k":…,"v":…}`), read into memory at open and appended, with fsync, on each new key. Writes are rare
 * (a permalink is created once and read many times), so durability per write costs little, and an append-only
 * file never needs rewriting. A process crash can leave only a torn last line, which open drops with a
 * warning: that write was never acknowledged, since putIfAbsent resolves only after fsync.
 *
 * A state directory belongs to one process: its writes are serialized in memory, not by file locks, and it
 * never rereads the files. Several replicas share state through Redis (open-store.ts), each with its own
 * directory.
 */
import { mkdir, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkNamespaceAndKey, checkValue, NAMESPACE_PATTERN, type StateLogger, type StateStore, TaskQueue } from './store.ts';

const SUFFIX = '.jsonl';
const NEWLINE = 0x0a;

export interface FileStateStoreOptions {
  /** Receives the warning about a torn last line or a stray file; default `console`. */
  logger?: StateLogger;
}

export class FileStateStore implements StateStore {
  readonly description: string;
  /** Writes run one at a time, so two calls for the same new key cannot both append it. */
  private readonly queue = new TaskQueue();
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly data: Map<string, Map<string, string>>,
  ) {
    this.description = `file ${dir}`;
  }

  /** Creates `dir` when missing and loads every `<namespace>.jsonl` in it. */
  static async open(dir: string, options: FileStateStoreOptions = {}): Promise<FileStateStore> {
    const logger = options.logger ?? console;
    await mkdir(dir, { recursive: true });
    const data = new Map<string, Map<string, string>>();
    for (const name of (await readdir(dir)).sort()) {
      if (!name.endsWith(SUFFIX)) continue;
      const namespace = name.slice(0, -SUFFIX.length);
      if (!NAMESPACE_PATTERN.test(namespace)) {
        logger.warn(`state: ignoring ${join(dir, name)}: ${JSON.stringify(namespace)} is not a valid namespace`);
        continue;
      }
      data.set(namespace, await loadNamespace(join(dir, name), logger));
    }
    return new FileStateStore(dir, data);
  }

  async get(namespace: string, key: string): Promise<string | null> {
    this.checkOpen();
    checkNamespaceAndKey(namespace, key);
    return this.data.get(namespace)?.get(key) ?? null;
  }

  async putIfAbsent(namespace: string, key: string, value: string): Promise<{ value: string; created: boolean }> {
    this.checkOpen();
    checkNamespaceAndKey(namespace, key);
    checkValue(namespace, value);
    return this.queue.run(async () => {
      // Checked again inside the queue: an earlier queued call may have created the key meanwhile.
      const existing = this.data.get(namespace)?.get(key);
      if (existing !== undefined) return { value: existing, created: false };
      await this.append(namespace, key, value);
      return { value, created: true };
    });
  }

  /**
   * Stores value whether or not the key exists (a later line wins at open). Not part of StateStore: only the
   * composite store uses it, to keep its local copy equal to Redis, the source of truth among replicas.
   */
  async put(namespace: string, key: string, value: string): Promise<void> {
    this.checkOpen();
    checkNamespaceAndKey(namespace, key);
    checkValue(namespace, value);
    await this.queue.run(async () => {
      if (this.data.get(namespace)?.get(key) === value) return;
      await this.append(namespace, key, value);
    });
  }

  /** Waits for pending writes; later calls reject. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue.idle;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error(`state store ${this.description} is closed`);
  }

  /** Appends one line and fsyncs it, then updates memory, so memory never holds what the disk lacks. */
  private async append(namespace: string, key: string, value: string): Promise<void> {
    const path = join(this.dir, `${namespace}${SUFFIX}`);
    const isNewFile = !this.data.has(namespace);
    const line = `${JSON.stringify({ k: key, v: value })}\n`;
    const file = await open(path, 'a');
    try {
      const { size } = await file.stat();
      try {
        await file.appendFile(line, 'utf8');
        await file.sync();
      } catch (err) {
        // Undo a partial line (e.g. disk full), so the next append does not start in the middle of it.
        await file.truncate(size).catch(() => undefined);
        throw new Error(`cannot write state to ${path}: ${(err as Error).message}`, { cause: err });
      }
    } finally {
      await file.close();
    }
    // A new file is durable only once its directory entry is: fsync the directory too (best effort, as
    // some file systems refuse to sync a directory).
    if (isNewFile) await syncDir(this.dir);
    let entries = this.data.get(namespace);
    if (!entries) this.data.set(namespace, (entries = new Map()));
    entries.set(key, value);
  }
}

/** Reads one namespace file; drops (and truncates away) a torn last line, rejects corruption elsewhere. */
async function loadNamespace(path: string, logger: StateLogger): Promise<Map<string, string>> {
  const bytes = await readFile(path);
  // Scan bytes, not text: a torn write may end inside a multi-byte character, and a newline byte never
  // occurs inside one in UTF-8.
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  if (end < bytes.length) {
    logger.warn(`state: ${path} ends with an incomplete line (${bytes.length - end} bytes, from an interrupted write): dropping it`);
    // Truncated so the next append starts on a fresh line instead of gluing onto the torn one.
    const file = await open(path, 'r+');
    try {
      await file.truncate(end);
      await file.sync();
    } finally {
      await file.close();
    }
  }
  const entries = new Map<string, string>();
  const lines = bytes.subarray(0, end).toString('utf8').split('\n');
  lines.pop(); // the empty string after the final newline
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      entry = undefined;
    }
    if (!isEntry(entry))
      throw new Error(`state file ${path} line ${i + 1} is not a {"k": string, "v": string} entry: the file is corrupt; repair or remove that line`);
    entries.set(entry.k, entry.v); // a later line for the same key wins (FileStateStore.put)
  });
  return entries;
}

function isEntry(x: unknown): x is { k: string; v: string } {
  if (typeof x !== 'object' || x === null) return false;
  const e = x as Record<string, unknown>;
  return typeof e.k === 'string' && typeof e.v === 'string';
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the directory entry is then up to the file system's own journal.
  }
}
