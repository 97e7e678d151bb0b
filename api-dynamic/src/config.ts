/**
 * Server configuration: the only module that reads `process.env`. Validated at start with zod, so a typo
 * in a setting stops the server with a message instead of being ignored. Every key is documented in
 * docs/configuration.md and .env.example.
 */
import { resolve } from 'node:path';
import { z } from 'zod';

export const SERVICES = ['frame', 'corpus', 'fair'] as const;

const prefix = z.string().regex(/^\/[a-z0-9/_-]*[a-z0-9]$/, 'a path such as /frame');

export const configSchema = z.object({
  /** TCP port to listen on. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  /** Interface to listen on; 127.0.0.1 keeps the server local, 0.0.0.0 exposes it. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Directory the pipeline writes (its `current` link is served). */
  BUILD_OUTPUT: z.string().min(1).default('build-output'),
  /** Directory of the Astro build (client files and server entry). */
  SITE_DIR: z.string().min(1).default('build-output/site'),
  /** Comma-separated services to serve: frame, corpus, fair. */
  SERVICES: z
    .string()
    .default(SERVICES.join(','))
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(SERVICES)).min(1)),
  FRAME_PREFIX: prefix.default('/frame'),
  CORPUS_PREFIX: prefix.default('/corpus'),
  FAIR_PREFIX: prefix.default('/fair'),
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Reload automatically when the pipeline publishes a new build (`current` changes); SIGHUP always reloads. */
  WATCH_BUILD: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * Cohort count cache: `on` keeps the count passes of the last 64 cohorts per build (answers are frozen, so a
   * cached count is never stale); `off` recounts every request (benchmarks measure the engine with it off).
   */
  COHORT_CACHE: z.enum(['on', 'off']).default('on'),
  /** Milliseconds in-flight requests get to finish after SIGTERM before the process exits anyway. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Directory of the writable state (permalinks): one JSON-lines file per namespace. One per process. */
  STATE_DIR: z.string().min(1).default('state'),
  /** Redis shared by several replicas (`redis://` or `rediss://`); unset: the state directory alone. */
  REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'a URL starting with redis:// or rediss://').optional(),
  /** The upstream catalogue's API (OpenAlex works API): live abstracts and the recent layer's sync. */
  CATALOGUE_URL: z.string().regex(/^https?:\/\/\S+$/, 'an http(s) URL such as https://api.openalex.org').default('https://api.openalex.org'),
  /** Contact address sent as `mailto` (the catalogue's polite pool); unset: none. */
  CATALOGUE_MAILTO: z.string().email('an e-mail address').optional(),
  /** Catalogue API key sent as `api_key`, if you have one. */
  CATALOGUE_API_KEY: z.string().min(1).optional(),
  /** Milliseconds one catalogue request may take (live abstracts and each sync page). */
  CATALOGUE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
  /** Live abstracts kept in memory (LRU; 24 h for answers, 1 min for failures). */
  ABSTRACT_CACHE_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** How often (milliseconds, at most) the server checks the state store for a newer recent layer. */
  RECENT_REFRESH_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
});
export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.keys(configSchema.shape);
  const picked = Object.fromEntries(
    known.filter((k) => env[k] !== undefined && env[k] !== '').map((k) => [k, env[k]]),
  );
  const parsed = configSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  return {
    ...parsed.data,
    BUILD_OUTPUT: resolve(parsed.data.BUILD_OUTPUT),
    SITE_DIR: resolve(parsed.data.SITE_DIR),
    STATE_DIR: resolve(parsed.data.STATE_DIR),
  };
}
