/**
 * Where rate-limit counters live (DECISIONS.md §2, §6): a file under STATE_DIR for one process
 * (rate-limit-file-store.ts), Redis for several replicas (rate-limit-redis-store.ts). Both count the same
 * way, so the limiter above them (rate-limit.ts) and its tests do not care which one runs:
 *
 * A fixed window per key that opens at the key's first counted hit and lasts `windowMs`. A hit inside an
 * open window is counted while the count is below the limit; at the limit it is refused and NOT counted,
 * so a client hammering a closed window does not push its own reset further away or grow the store. When
 * the window ends the key is forgotten and the next hit opens a new window. A released hit (`release`) is
 * taken back from its own window only.
 *
 * Counters are not write-once values, so they do not use the StateStore interface (store.ts), whose
 * composite store relies on values never changing.
 */

/** The outcome of one hit. */
export interface HitResult {
  /** Whether the hit was counted (the window had room). */
  allowed: boolean;
  /** Hits counted in the window, this one included when allowed. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetMs: number;
  /**
   * Which window the hit fell in: its end, in the store's own clock (epoch ms). `release` takes it back, so a
   * refund never lands in a later window. 0 from `peek` when no window is open.
   */
  window: number;
}

export interface RateLimitStore {
  /** Human description for logs, e.g. "file state/fair/rate-limit.jsonl". */
  readonly description: string;
  /**
   * Counts one hit for `key` unless its window already holds `limit` hits; atomic per key (parallel hits,
   * also from other replicas for the shared store, never count past the limit together).
   */
  hit(key: string, limit: number, windowMs: number): Promise<HitResult>;
  /**
   * The state of `key` without counting: `allowed` says whether a hit now would be counted, and `resetMs` is
   * `windowMs` when no window is open. For answers that should carry the headers but not cost a request.
   */
  peek(key: string, limit: number, windowMs: number): Promise<HitResult>;
  /**
   * Takes back one counted hit of `window` (from `hit`), for a request that ended up costing the caller nothing
   * (docs/api-fair.md "What counts"). Does nothing when that window has ended or holds no hit; when it held
   * only this hit the window closes, as if the hit had never been.
   */
  release(key: string, window: number): Promise<void>;
  /** Waits for pending writes and releases files or connections; later hits reject. */
  close(): Promise<void>;
}

/** Keys become Redis key segments and file lines: bounded, printable, no newlines. */
export const MAX_RATE_KEY_LENGTH = 256;

/** Throws unless key is a usable counter key (a programming error in the caller, not a client error). */
export function checkRateKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_RATE_KEY_LENGTH || /[\s\0]/.test(key))
    throw new Error(`invalid rate-limit key ${JSON.stringify(key)}: 1 to ${MAX_RATE_KEY_LENGTH} characters, no white space`);
}

/** Throws unless limit and window are positive whole numbers. */
export function checkLimitAndWindow(limit: number, windowMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`invalid rate limit ${limit}: a whole number of at least 1`);
  if (!Number.isInteger(windowMs) || windowMs < 1) throw new Error(`invalid rate-limit window ${windowMs} ms: a whole number of at least 1`);
}
