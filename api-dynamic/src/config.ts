/**
 * Server configuration: the only module that reads `process.env`. Validated at start with zod, so a typo
 * in a setting stops the server with a message instead of being ignored. Every key is documented in
 * docs/configuration.md and .env.example.
 */
import { join, resolve } from 'node:path';
import { z } from 'zod';

export const SERVICES = ['frame', 'corpus', 'fair'] as const;

/** An http(s) URL without a trailing slash. */
const httpUrl = z
  .string()
  .regex(/^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/, 'an http(s) URL such as https://doi.org')
  .transform((u) => u.replace(/\/+$/, ''));

/** `true` or `false`. */
const bool = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((v) => v === 'true');

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
  /**
   * The origin the public reaches this server at (`https://research.example.org`): permalink and export URLs are
   * built on it. Unset, they are built on the request's own scheme and Host header.
   */
  PUBLIC_ORIGIN: z
    .string()
    .regex(
      /^https?:\/\/[A-Za-z0-9.-]+(?::[0-9]{1,5})?$/,
      'an origin such as https://research.example.org (scheme, host and optional port; no path, no trailing slash)',
    )
    .optional(),
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: readable lines when standard output is a terminal, else JSON; `json` or `text` always. */
  LOG_FORMAT: z.enum(['auto', 'json', 'text']).default('auto'),
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
  /**
   * Older published builds kept answerable with `snapshot=` (docs/operations.md, snapshot lifecycle): a number N
   * (the N newest published builds besides the served one; 0 keeps none) or comma-separated snapshot ids.
   */
  RETAIN_SNAPSHOTS: z
    .string()
    .regex(/^(?:[0-9]{1,2}|[A-Za-z0-9._-]{1,128}(?:\s*,\s*[A-Za-z0-9._-]{1,128})*)$/, 'a number of builds (0-99) or comma-separated snapshot ids')
    .default('1')
    .transform((v): { count: number } | { ids: string[] } => (/^[0-9]+$/.test(v) ? { count: Number(v) } : { ids: v.split(',').map((x) => x.trim()) })),
  /** A loaded retained build unused this long is unloaded, ms. */
  RETAINED_IDLE_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  /** Memory the loaded retained builds may hold together, MiB; the least recently used is unloaded beyond it. */
  RETAINED_MEMORY_MIB: z.coerce.number().int().min(1).max(1_048_576).default(2048),
  /** Longest a client may take to send a request's headers, ms (slow-loris defence; Node's headersTimeout). */
  SERVER_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(10_000),
  /** Longest a client may take to send a whole request, headers and body, ms (Node's requestTimeout). */
  SERVER_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** A connection with no traffic in either direction for this long is closed, ms (Fastify's connectionTimeout). */
  SERVER_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  /** How long an idle keep-alive connection is kept open between requests, ms; above a load balancer's own idle timeout. */
  SERVER_KEEPALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(72_000),
  /**
   * Milliseconds in-flight requests get to finish after SIGTERM; then exports still streaming are cut (CSV with its
   * truncation line) and the process exits. The default covers a 100,000-row export with a margin (docs/benchmarks.md).
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /** Directory of the writable state (permalinks): one JSON-lines file per namespace. One per process. */
  STATE_DIR: z.string().min(1).default('state'),
  /** Redis shared by several replicas (`redis://` or `rediss://`); unset: the state directory alone. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'a URL starting with redis:// or rediss://')
    .optional(),
  /** The upstream catalogue's API (OpenAlex works API): live abstracts and the recent layer's sync. */
  CATALOGUE_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'an http(s) URL such as https://api.openalex.org')
    .default('https://api.openalex.org'),
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
  /**
   * Client addresses from `X-Forwarded-For` (Fastify's trustProxy): `false` (default: the socket's address),
   * `true` (trust every hop: only behind a proxy that overwrites the header), or comma-separated addresses,
   * CIDRs or `loopback`, `linklocal`, `uniquelocal` of the proxies to trust. Decides who the FAIR anonymous tier
   * counts.
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^(?:true|false|(?:loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(?:\/[0-9]{1,3})?)(?:\s*,\s*(?:loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(?:\/[0-9]{1,3})?))*)$/,
      'true, false, or comma-separated proxy addresses/CIDRs (or loopback, linklocal, uniquelocal)',
    )
    .default('false')
    .transform((v): boolean | string[] => (v === 'true' ? true : v === 'false' ? false : v.split(',').map((x) => x.trim()))),

  // ---- FAIR Assessment Service (docs/api-fair.md, docs/fair-security.md) ----
  /** Which engine assesses: the embedded TypeScript engine, or an external F-UJI server (FUJI_URL). */
  FAIR_BACKEND: z.enum(['embedded', 'fuji']).default('embedded'),
  /** Let the outbound fetcher reach loopback and private ranges (tests, intranets); metadata stays refused. */
  FAIR_ALLOW_PRIVATE_ADDRESSES: bool('false'),
  /** Wall-clock limit of one outbound fetch, redirects and body included. */
  FAIR_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Body bytes kept per outbound response (decoded). */
  FAIR_FETCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  /** Redirects followed per outbound fetch. */
  FAIR_FETCH_MAX_REDIRECTS: z.coerce.number().int().min(0).max(30).default(10),
  /** PEM file of extra certificate authorities for outbound https (added to Node's bundled ones). */
  FAIR_FETCH_CA: z.string().min(1).optional(),
  /** Whole-assessment deadline (embedded engine); every fetch of the assessment shares it. */
  FAIR_ASSESSMENT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /** Seconds a successful assessment is reused for the same identifier and options; 0 turns the cache off. */
  FAIR_CACHE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(3600),
  /** Memory the assessment cache may take, in bytes of serialized results (least recently used out first). */
  FAIR_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31)
    .default(64 * 1024 * 1024),
  /** Assessments per rate-limit window without an API key. */
  FAIR_ANON_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10),
  /** Assessments per rate-limit window with a valid API key. */
  FAIR_AUTH_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Length of a rate-limit window in seconds. */
  FAIR_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 86_400)
    .default(3600),
  /** The API keys file written by `npm run fair:keys`; default `STATE_DIR/fair/api-keys.json`. */
  FAIR_KEYS_FILE: z.string().min(1).optional(),
  /** Key hashes from the environment: comma-separated `name:sha256` or bare `sha256`. */
  FAIR_API_KEYS: z.string().min(1).optional(),
  /** How often (ms, at most) the server looks for a changed keys file; 0 on every request. */
  FAIR_KEYS_REFRESH_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  /** DOI resolver the embedded engine fetches every DOI through (and /health probes). */
  FAIR_DOI_RESOLVER_URL: httpUrl.default('https://doi.org'),
  /** Handle resolver. */
  FAIR_HANDLE_RESOLVER_URL: httpUrl.default('https://hdl.handle.net'),
  /** ARK resolver (Name-to-Thing). */
  FAIR_ARK_RESOLVER_URL: httpUrl.default('https://n2t.net'),
  /** URN:NBN resolver. */
  FAIR_NBN_RESOLVER_URL: httpUrl.default('https://nbn-resolving.org'),
  /** identifiers.org resolver for compact identifiers. */
  FAIR_IDENTIFIERS_ORG_URL: httpUrl.default('https://identifiers.org'),
  /** DataCite REST API (`options.use_registry`). */
  FAIR_DATACITE_API_URL: httpUrl.default('https://api.datacite.org'),
  /** re3data API, read for the repository behind a DataCite DOI (`options.use_registry`). */
  FAIR_RE3DATA_URL: httpUrl.default('https://re3data.org'),
  /** GitHub REST API (`options.use_code_host`). */
  FAIR_GITHUB_API_URL: httpUrl.default('https://api.github.com'),
  /** GitHub's web address: a URL under it names a repository (`<url>/<owner>/<repo>`); tests point it at a mock. */
  FAIR_GITHUB_URL: httpUrl.default('https://github.com'),
  /** GitHub token for the code host's API (higher rate limit); anonymous calls when unset. */
  FAIR_GITHUB_TOKEN: z.string().min(1).optional(),
  /** Base URL of an external F-UJI server (FAIR_BACKEND=fuji), e.g. http://fuji:1071; `/fuji/api/v1` is appended. */
  FUJI_URL: httpUrl.optional(),
  /** F-UJI basic-auth user. */
  FUJI_USERNAME: z.string().min(1).optional(),
  /** F-UJI basic-auth password. */
  FUJI_PASSWORD: z.string().min(1).optional(),
  /** Milliseconds one F-UJI evaluation may take (F-UJI makes dozens of sequential requests). */
  FUJI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
});
type ParsedConfig = z.infer<typeof configSchema>;
/** The validated settings; FAIR_KEYS_FILE always holds a path (its default depends on STATE_DIR). */
export type Config = Omit<ParsedConfig, 'FAIR_KEYS_FILE'> & { FAIR_KEYS_FILE: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.keys(configSchema.shape);
  const picked = Object.fromEntries(known.filter((k) => env[k] !== undefined && env[k] !== '').map((k) => [k, env[k]]));
  const parsed = configSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  if (parsed.data.FAIR_BACKEND === 'fuji' && parsed.data.FUJI_URL === undefined)
    throw new Error('invalid configuration:\n  FUJI_URL: required when FAIR_BACKEND=fuji (the F-UJI server, e.g. http://127.0.0.1:1071)');
  const stateDir = resolve(parsed.data.STATE_DIR);
  return {
    ...parsed.data,
    BUILD_OUTPUT: resolve(parsed.data.BUILD_OUTPUT),
    SITE_DIR: resolve(parsed.data.SITE_DIR),
    STATE_DIR: stateDir,
    FAIR_KEYS_FILE: resolve(parsed.data.FAIR_KEYS_FILE ?? join(stateDir, 'fair', 'api-keys.json')),
  };
}
