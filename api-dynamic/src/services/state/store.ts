/**
 * The small writable state the server keeps besides the read-only builds: permalinks now, rate-limit
 * counters and the assessment cache later (DECISIONS.md §2). Values are write-once: a key, once stored,
 * keeps its value, which is what lets replicas agree through `putIfAbsent` and lets the composite store
 * cache Redis values locally without ever invalidating them (open-store.ts).
 */

import { ApiError } from '../../../../contracts/common/errors.ts';

export interface StateStore {
  /** The value stored under namespace/key, or null. */
  get(namespace: string, key: string): Promise<string | null>;
  /** Stores value unless the key exists; returns the stored value and whether this call created it. Atomic per key (two replicas racing get the same winner). */
  putIfAbsent(namespace: string, key: string, value: string): Promise<{ value: string; created: boolean }>;
  /** Human description for logs, e.g. "file state/ + redis redis://127.0.0.1:6379". */
  readonly description: string;
  close(): Promise<void>;
}

/** Where stores report what they repaired or could not do; pino's logger and `console` both fit. */
export interface StateLogger {
  warn(message: string): void;
}

/** Runs tasks one at a time, in call order (a failed task does not stop the next); `idle` settles after the last. */
export class TaskQueue {
  idle: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.idle.then(task);
    this.idle = result.catch(() => undefined);
    return result;
  }
}

/** `work`'s answer, or a rejection with `message` when it has not answered within `ms`. */
export async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Namespaces become file names and Redis key segments, so they are kept to a safe, short alphabet. */
export const NAMESPACE_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * Keys are free text (a permalink hash, a client address), but bounded: every key of the file store is held
 * in memory and written on one line.
 */
export const MAX_KEY_LENGTH = 512;

/**
 * The shared store cannot answer (Redis down or unreachable). It is an ApiError, so a request that needs the
 * store answers 503 UPSTREAM_UNAVAILABLE with a public message; the internal one (which store, which command,
 * the cause) is in `internal` and goes to the log, not to the client.
 */
export class StateUnavailableError extends ApiError {
  override name = 'StateUnavailableError';
  constructor(
    readonly internal: string,
    cause?: unknown,
  ) {
    super('UPSTREAM_UNAVAILABLE', 'The shared state store cannot be reached right now, so this request cannot be answered; try again shortly.');
    this.cause = cause;
  }
}

/** A namespace or key the stores refuse: a programming error in the caller, not a state problem. */
export class InvalidStateKeyError extends Error {
  override name = 'InvalidStateKeyError';
}

/** Throws InvalidStateKeyError unless namespace and key are acceptable to every store implementation. */
export function checkNamespaceAndKey(namespace: string, key: string): void {
  if (typeof namespace !== 'string' || !NAMESPACE_PATTERN.test(namespace))
    throw new InvalidStateKeyError(`invalid state namespace ${JSON.stringify(namespace)}: use 1 to 32 characters a-z, 0-9, _ or -, starting with a letter`);
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH)
    throw new InvalidStateKeyError(`invalid state key in namespace ${namespace}: a key is a non-empty string of at most ${MAX_KEY_LENGTH} characters`);
}

/** Throws InvalidStateKeyError unless value is a string (values are stored as text by every store). */
export function checkValue(namespace: string, value: string): void {
  if (typeof value !== 'string') throw new InvalidStateKeyError(`invalid state value in namespace ${namespace}: values are strings`);
}
