/**
 * Rate-limit counters in Redis (`REDIS_URL`), shared by every replica: one integer per key under
 * `<prefix>:fair-rate:<key>`, whose expiry is the end of the window. A hit is one Lua script, so reading the
 * count, comparing it with the limit and incrementing it happen as one step inside Redis: replicas hitting
 * the same key at once can never count past the limit together. Time is Redis's own (PTTL), so replicas
 * with skewed clocks still agree on when a window ends.
 *
 * Failures reject (node-redis fails fast while disconnected, see state/redis-store.ts): the caller decides
 * what a request gets when the counters cannot be reached.
 */
import { connectRedis, RedisBacked, type RedisStateStoreOptions } from '../state/redis-store.ts';
import { checkLimitAndWindow, checkRateKey, type HitResult, type RateLimitStore } from './rate-limit-store.ts';

/** Redis's clock in epoch ms, as a Lua expression (windows are identified by their end in this clock). */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS[1] the counter; ARGV[1] the limit, ARGV[2] the window in ms. Returns {allowed 0|1, count, ms left, window
 * end}. A key without an expiry (PTTL -1, e.g. written by hand) is treated as an ended window, so it cannot
 * block a client forever.
 */
const HIT = `
${NOW}
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('SET', KEYS[1], 1, 'PX', window)
  return {1, 1, window, now + window}
end
local count = tonumber(redis.call('GET', KEYS[1]))
if count >= limit then
  return {0, count, ttl, now + ttl}
end
count = redis.call('INCR', KEYS[1])
return {1, count, ttl, now + ttl}
`;

/** KEYS[1] the counter; ARGV[1] the window in ms. Returns {count, ms left, window end}, without changing anything. */
const PEEK = `
${NOW}
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  return {0, tonumber(ARGV[1]), 0}
end
return {tonumber(redis.call('GET', KEYS[1])), ttl, now + ttl}
`;

/**
 * KEYS[1] the counter; ARGV[1] the end of the window the hit was counted in. Takes one hit back when that
 * window is still the open one: a later window ends at least its length (1 s or more) after, so 500 ms of
 * tolerance for the rounding of TIME and PTTL cannot mistake one for the other. Returns 1 when released.
 */
const RELEASE = `
${NOW}
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  return 0
end
if math.abs(now + ttl - tonumber(ARGV[1])) > 500 then
  return 0
end
local count = tonumber(redis.call('GET', KEYS[1]))
if count <= 1 then
  redis.call('DEL', KEYS[1])
else
  redis.call('DECR', KEYS[1])
end
return 1
`;

export class RedisRateLimitStore extends RedisBacked implements RateLimitStore {
  /** Connects, or rejects with a message naming the URL (password hidden) and the cause. */
  static async open(options: RedisStateStoreOptions): Promise<RedisRateLimitStore> {
    const { client, prefix, safeUrl } = await connectRedis(options, 'rate limit');
    return new RedisRateLimitStore(client, prefix, safeUrl);
  }

  async hit(key: string, limit: number, windowMs: number): Promise<HitResult> {
    checkRateKey(key);
    checkLimitAndWindow(limit, windowMs);
    const [allowed, count, resetMs, window] = await this.run(HIT, key, [String(limit), String(windowMs)]);
    return { allowed: allowed === 1, count: count!, resetMs: resetMs!, window: window! };
  }

  async release(key: string, window: number): Promise<void> {
    checkRateKey(key);
    await this.run(RELEASE, key, [String(window)]);
  }

  async peek(key: string, limit: number, windowMs: number): Promise<HitResult> {
    checkRateKey(key);
    checkLimitAndWindow(limit, windowMs);
    const [count, resetMs, window] = await this.run(PEEK, key, [String(windowMs)]);
    return { allowed: count! < limit, count: count!, resetMs: resetMs!, window: window! };
  }

  /** Runs one of the scripts on the key's counter; its integer replies as numbers. */
  private async run(script: string, key: string, args: string[]): Promise<number[]> {
    let reply: unknown;
    try {
      reply = await this.client.eval(script, { keys: [`${this.prefix}:fair-rate:${key}`], arguments: args });
    } catch (err) {
      throw new Error(`rate limit: Redis on ${this.safeUrl} failed: ${(err as Error).message}`, { cause: err });
    }
    return Array.isArray(reply) ? reply.map(Number) : [Number(reply)];
  }
}
