/**
 * The two request tiers of the FAIR service (seed "Limits", DECISIONS.md §6): anonymous callers are counted
 * by client address, 10 assessments an hour; callers with an API key (api-keys.ts) by key, 100 an hour. The
 * route calls `consume` once per POST /assess that reaches the engine (never for /health), `refund` when the
 * request turned out to cost the caller nothing (quota.ts), and turns the decision into the `X-RateLimit-*`
 * headers, plus 429 `RATE_LIMITED` with `Retry-After` when it is refused.
 *
 * Why not rate-limiter-flexible (not installed): it has Redis and memory limiters, but nothing that survives a
 * restart without a database driver this project does not ship (its file-free durable options are SQL,
 * Mongo, etc.; RateLimiterMemory forgets everything at a restart). We would still have needed our own file
 * backend, and then the two backends would count differently (its windows, its `consumedPoints` past the
 * limit, its key layout) while the tests must hold both to one contract. What it would have given us for
 * Redis is one atomic script, which rate-limit-redis-store.ts has in fifteen lines. So both backends are
 * ours and share one definition of a window (rate-limit-store.ts).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { StateLogger } from '../state/store.ts';
import { FileRateLimitStore } from './rate-limit-file-store.ts';
import { RedisRateLimitStore } from './rate-limit-redis-store.ts';
import type { HitResult, RateLimitStore } from './rate-limit-store.ts';

export const rateLimitOptionsSchema = z
  .object({
    /** Assessments per window for a caller without a key (`FAIR_ANON_LIMIT`). */
    anonymousLimit: z.number().int().min(1).default(10),
    /** Assessments per window for a caller with a valid key (`FAIR_AUTH_LIMIT`). */
    authenticatedLimit: z.number().int().min(1).default(100),
    /** Window length in seconds (`FAIR_WINDOW_SECONDS`); a window opens at a caller's first counted request. */
    windowSeconds: z.number().int().min(1).default(3600),
  })
  .strict();
export type RateLimitOptions = z.infer<typeof rateLimitOptionsSchema>;

/** Who is asking: an anonymous client address, or the name of a verified API key. */
export type RateLimitSubject = { tier: 'anonymous'; ip: string } | { tier: 'authenticated'; keyName: string };

/** What the route needs for its headers and its answer. */
export interface RateLimitDecision {
  allowed: boolean;
  tier: RateLimitSubject['tier'];
  /** `X-RateLimit-Limit`: requests per window in this tier. */
  limit: number;
  /** `X-RateLimit-Remaining`: requests left in the current window after this one. */
  remaining: number;
  /** `X-RateLimit-Reset` (and `Retry-After` when refused): whole seconds until the window ends, at least 1. */
  resetSeconds: number;
  /** The counted hit's window, for `refund` (HitResult.window). */
  window: number;
}

export class RateLimiter {
  readonly options: RateLimitOptions;

  constructor(
    private readonly store: RateLimitStore,
    options: Partial<RateLimitOptions> = {},
  ) {
    this.options = rateLimitOptionsSchema.parse(options);
  }

  /** Counts one request of the subject (unless its window is full) and says whether it may proceed. */
  async consume(subject: RateLimitSubject): Promise<RateLimitDecision> {
    const limit = this.limitOf(subject);
    return decision(subject, limit, await this.store.hit(subjectKey(subject), limit, this.options.windowSeconds * 1000));
  }

  /**
   * The subject's standing without counting a request, for responses that should carry the headers but not
   * cost the caller anything (e.g. a 400 for a malformed body, if the route validates before it counts).
   */
  async peek(subject: RateLimitSubject): Promise<RateLimitDecision> {
    const limit = this.limitOf(subject);
    return decision(subject, limit, await this.store.peek(subjectKey(subject), limit, this.options.windowSeconds * 1000));
  }

  /**
   * Takes back the hit `consume` counted for a request that cost the caller nothing after all (quota.ts), and
   * returns the standing to report: one more request left in the same window.
   */
  async refund(subject: RateLimitSubject, counted: RateLimitDecision): Promise<RateLimitDecision> {
    if (!counted.allowed) return counted;
    await this.store.release(subjectKey(subject), counted.window);
    return { ...counted, remaining: Math.min(counted.limit, counted.remaining + 1) };
  }

  private limitOf(subject: RateLimitSubject): number {
    return subject.tier === 'anonymous' ? this.options.anonymousLimit : this.options.authenticatedLimit;
  }

  get description(): string {
    return this.store.description;
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

function decision(subject: RateLimitSubject, limit: number, hit: HitResult): RateLimitDecision {
  return {
    allowed: hit.allowed,
    tier: subject.tier,
    limit,
    remaining: Math.max(0, limit - hit.count),
    resetSeconds: Math.max(1, Math.ceil(hit.resetMs / 1000)),
    window: hit.window,
  };
}

/** The response headers for a decision: the three `X-RateLimit-*` always, `Retry-After` on a refusal. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.resetSeconds);
  return headers;
}

/**
 * The counter key of a subject. Keys are counted by key name. Addresses are normalised so that one client
 * gets one counter: an IPv4-mapped IPv6 address counts as its IPv4 address, and an IPv6 address as its /64,
 * since a single host or home network usually holds a whole /64 and could otherwise take a new address
 * (and a new allowance) per request.
 */
export function subjectKey(subject: RateLimitSubject): string {
  if (subject.tier === 'authenticated') return `key:${subject.keyName}`;
  return `ip:${clientAddressKey(subject.ip)}`;
}

/** The per-client part of an anonymous key (see subjectKey). */
export function clientAddressKey(ip: string): string {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIP(bare.split('%')[0]!) === 0) return bare.slice(0, 200) || 'unknown';
  let addr = ipaddr.parse(bare);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

export interface OpenRateLimiterOptions extends Partial<RateLimitOptions> {
  /** `STATE_DIR`: the counters go to `<stateDir>/fair/rate-limit.jsonl` when there is no Redis. */
  stateDir: string;
  /** `REDIS_URL`: counters shared by every replica. */
  redisUrl?: string | undefined;
  /** First segment of Redis keys; default `ori`. */
  redisPrefix?: string;
  logger?: StateLogger;
  /** Start even when Redis cannot be reached yet (the server; see RedisStateStoreOptions.patient). */
  patient?: boolean;
}

/** Opens the limiter the configuration asks for: Redis when `redisUrl` is set, otherwise the file store. */
export async function openRateLimiter(options: OpenRateLimiterOptions): Promise<RateLimiter> {
  const { stateDir, redisUrl, redisPrefix, logger, patient, ...limits } = options;
  const store: RateLimitStore = redisUrl
    ? await RedisRateLimitStore.open({
        url: redisUrl,
        patient: patient ?? false,
        ...(redisPrefix ? { prefix: redisPrefix } : {}),
        ...(logger ? { logger } : {}),
      })
    : await FileRateLimitStore.open(stateDir, logger ? { logger } : {});
  return new RateLimiter(store, limits);
}
