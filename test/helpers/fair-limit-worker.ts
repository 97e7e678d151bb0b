/**
 * A separate process hitting one Redis rate-limit key (rate-limit.test.ts spawns two at once, as two
 * replicas would): `tsx fair-limit-worker.ts REDIS_URL KEY LIMIT HITS` waits for "go" on stdin, fires HITS
 * hits in parallel and prints how many were allowed as JSON.
 */
import { RedisRateLimitStore } from '../../api-dynamic/src/services/fair/rate-limit-redis-store.ts';

const [url, key, limit, hits] = process.argv.slice(2);
const store = await RedisRateLimitStore.open({ url: url!, logger: { warn: () => {} } });
process.stdout.write('ready\n');
// Both workers connect first, then start together, so their hits really interleave.
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const results = await Promise.all(Array.from({ length: Number(hits) }, () => store.hit(key!, Number(limit), 60_000)));
process.stdout.write(`${JSON.stringify({ allowed: results.filter((r) => r.allowed).length })}\n`);
await store.close();
