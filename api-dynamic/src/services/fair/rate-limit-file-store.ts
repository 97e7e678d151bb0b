/**
 * Rate-limit counters for one process, kept in memory and in `<STATE_DIR>/fair/rate-limit.jsonl`, so a
 * restart does not hand every client a fresh allowance. Each counted hit appends one line
 * `{"k": key, "e": window end (ms since the epoch), "n": count}`; the last line of a key wins (a release writes
 * the lowered count, `n` 0 when the window closed). Only counted hits and releases are written, so the file grows by at most `limit` lines per key and window; at open, and whenever the
 * file holds many more lines than live keys, it is rewritten with the live windows only (temporary file,
 * fsync, rename), and expired keys leave memory at the same time.
 *
 * Hits are serialized in memory, which is what makes "50 parallel hits on a limit of 10 → exactly 10" hold;
 * the file is a journal for the next start, never reread while running. So one STATE_DIR belongs to one
 * process, as for the other state stores: replicas share counters through Redis (REDIS_URL).
 *
 * The directory lives below STATE_DIR (not a `*.jsonl` at its top level) because the permalink store reads
 * every top-level `*.jsonl` as one of its namespaces.
 *
 * A failed append (disk full, read-only file system) is logged and the hit still counts in memory: the limit
 * keeps holding in this process, and only the survival of that count across a restart is lost. Refusing
 * every assessment because the journal is unwritable would be the worse failure.
 */
import { type FileHandle, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { type StateLogger, TaskQueue } from '../state/store.ts';
import { checkLimitAndWindow, checkRateKey, type HitResult, type RateLimitStore } from './rate-limit-store.ts';
import { writeFileAtomic } from '../../../../contracts/common/local-files.ts';

/** `n` 0 is a window closed by a release (its only hit taken back): the key is forgotten. */
const lineSchema = z.object({ k: z.string().min(1), e: z.number().int(), n: z.number().int().min(0) }).strict();

interface Window {
  /** Epoch milliseconds at which the window ends. */
  end: number;
  count: number;
}

export interface FileRateLimitStoreOptions {
  /** Receives unreadable lines and failed writes; default `console`. */
  logger?: StateLogger;
  /** The clock (epoch ms); tests move it instead of waiting an hour. */
  now?: () => number;
  /** Lines appended before a rewrite is considered (also needs twice as many lines as live keys). Default 10 000. */
  compactAfterLines?: number;
}

export class FileRateLimitStore implements RateLimitStore {
  readonly description: string;
  readonly path: string;
  private readonly windows = new Map<string, Window>();
  private readonly logger: StateLogger;
  private readonly now: () => number;
  private readonly compactAfterLines: number;
  private handle: FileHandle | null = null;
  private linesInFile = 0;
  /** Line count at which the journal is next looked at for a rewrite (amortizes the sweep of expired keys). */
  private reviewAtLines: number;
  /** Hits run one at a time (see the module comment). */
  private readonly queue = new TaskQueue();
  private closed = false;
  private writeFailing = false;

  private constructor(
    private readonly dir: string,
    options: FileRateLimitStoreOptions,
  ) {
    this.path = join(dir, 'rate-limit.jsonl');
    this.description = `file ${this.path}`;
    this.logger = options.logger ?? console;
    this.now = options.now ?? Date.now;
    this.compactAfterLines = options.compactAfterLines ?? 10_000;
    this.reviewAtLines = this.compactAfterLines;
  }

  /**
   * Loads the live windows of `<stateDir>/fair/rate-limit.jsonl`. The directory is created by the first
   * write, so a server that never counts a hit leaves the state directory untouched.
   */
  static async open(stateDir: string, options: FileRateLimitStoreOptions = {}): Promise<FileRateLimitStore> {
    const store = new FileRateLimitStore(join(stateDir, 'fair'), options);
    await store.load();
    return store;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<HitResult> {
    if (this.closed) throw new Error(`rate-limit store ${this.description} is closed`);
    checkRateKey(key);
    checkLimitAndWindow(limit, windowMs);
    return this.queue.run(async () => {
      const now = this.now();
      let window = this.windows.get(key);
      if (window === undefined || window.end <= now) window = { end: now + windowMs, count: 0 };
      if (window.count >= limit) return { allowed: false, count: window.count, resetMs: window.end - now, window: window.end };
      const next = { end: window.end, count: window.count + 1 };
      this.windows.set(key, next);
      await this.journal(key, next);
      return { allowed: true, count: next.count, resetMs: next.end - now, window: next.end };
    });
  }

  async release(key: string, window: number): Promise<void> {
    if (this.closed) throw new Error(`rate-limit store ${this.description} is closed`);
    checkRateKey(key);
    await this.queue.run(async () => {
      const current = this.windows.get(key);
      if (current === undefined || current.end !== window || current.end <= this.now() || current.count === 0) return;
      const next = { end: current.end, count: current.count - 1 };
      if (next.count === 0) this.windows.delete(key);
      else this.windows.set(key, next);
      await this.journal(key, next);
    });
  }

  async peek(key: string, limit: number, windowMs: number): Promise<HitResult> {
    if (this.closed) throw new Error(`rate-limit store ${this.description} is closed`);
    checkRateKey(key);
    checkLimitAndWindow(limit, windowMs);
    // Behind pending hits, so a peek after a hit sees it.
    return this.queue.run(async () => {
      const now = this.now();
      const window = this.windows.get(key);
      if (window === undefined || window.end <= now) return { allowed: true, count: 0, resetMs: windowMs, window: 0 };
      return { allowed: window.count < limit, count: window.count, resetMs: window.end - now, window: window.end };
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.idle;
    await this.handle?.close();
    this.handle = null;
  }

  /** Reads the journal; drops expired windows and unreadable lines, rewriting the file when it dropped any. */
  private async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      // ENOTDIR: something else sits where the directory should be; the first write reports it.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw new Error(`cannot read rate-limit counters ${this.path}: ${(err as Error).message}`, { cause: err });
    }
    const now = this.now();
    let lines = 0;
    let unreadable = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      lines++;
      let parsed;
      try {
        parsed = lineSchema.safeParse(JSON.parse(line));
      } catch {
        parsed = null;
      }
      if (!parsed?.success) {
        unreadable++; // a torn last line from a crash, most likely: one count is lost, nothing else
        continue;
      }
      if (parsed.data.n === 0) this.windows.delete(parsed.data.k);
      else this.windows.set(parsed.data.k, { end: parsed.data.e, count: parsed.data.n });
    }
    if (unreadable > 0) this.logger.warn(`rate limit: ${this.path}: skipped ${unreadable} unreadable line(s)`);
    this.sweep(now);
    this.linesInFile = lines;
    if (this.windows.size < lines) await this.compact();
  }

  /** Forgets windows that have ended. */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.end <= now) this.windows.delete(key);
  }

  /** Appends the window's new count (fdatasync'd), compacting first when the file is mostly history. */
  private async journal(key: string, window: Window): Promise<void> {
    try {
      if (this.linesInFile >= this.reviewAtLines) {
        this.sweep(this.now());
        if (this.linesInFile >= 2 * this.windows.size) await this.compact();
        // Mostly live lines: look again only after as many new lines again, so sweeps stay amortized O(1).
        this.reviewAtLines = this.linesInFile + Math.max(this.compactAfterLines, this.windows.size);
      }
      if (this.handle === null) {
        await mkdir(this.dir, { recursive: true });
        this.handle = await open(this.path, 'a');
      }
      await this.handle.appendFile(`${JSON.stringify({ k: key, e: window.end, n: window.count })}\n`, 'utf8');
      await this.handle.datasync();
      this.linesInFile++;
      if (this.writeFailing) this.logger.warn(`rate limit: writing ${this.path} works again`);
      this.writeFailing = false;
    } catch (err) {
      // Logged once per outage; the count stands in memory (module comment).
      if (!this.writeFailing)
        this.logger.warn(`rate limit: cannot write ${this.path} (${(err as Error).message}); counts are kept in memory only until it works again`);
      this.writeFailing = true;
    }
  }

  /** Rewrites the journal with one line per live window: temporary file, fsync, rename. */
  private async compact(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const lines = [...this.windows].map(([k, w]) => `${JSON.stringify({ k, e: w.end, n: w.count })}\n`).join('');
    await this.handle?.close();
    this.handle = null;
    await writeFileAtomic(this.path, lines);
    this.linesInFile = this.windows.size;
  }
}
