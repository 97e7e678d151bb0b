/**
 * API keys of the FAIR service's authenticated tier (DECISIONS.md §6): `Authorization: Bearer <key>`.
 *
 * A key is `fair_` followed by 32 random bytes in base64url (256 bits). Only its SHA-256 is stored, in a keys
 * file (`FAIR_KEYS_FILE`, default `<STATE_DIR>/fair/api-keys.json`, written by `npm run fair:keys`) or in
 * `FAIR_API_KEYS` (comma-separated `name:sha256` or bare `sha256`). A slow password hash (bcrypt, scrypt,
 * argon2) exists to make guessing a low-entropy secret from its leaked hash expensive; a 256-bit random key
 * cannot be guessed at any hashing speed, so one SHA-256 is as safe here and keeps verification cheap on
 * every request (a slow hash per request would itself be a denial-of-service lever).
 *
 * Verification hashes the presented key and compares it with every stored hash in constant time, without
 * stopping at a match, so the time taken says nothing about which or how many bytes matched.
 *
 * The server rereads the keys file when it changes (checked at most every `refreshMs`), so `fair:keys add`
 * and `revoke` take effect without a restart.
 *
 * Errors: a malformed Authorization header and a key that is not (or no longer) valid are both
 * 400 INVALID_PARAMETER naming the Authorization header. DECISIONS.md §3 has no UNAUTHORIZED code, and a
 * caller who sent a key must learn that it did not count rather than be served silently as anonymous.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ApiError } from '../../../../contracts/common/errors.ts';
import { pidIsAlive, writeFileAtomic } from '../../../../contracts/common/local-files.ts';
import { takeLockFile } from '../state/dir-lock.ts';
import type { StateLogger } from '../state/store.ts';

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs) and a typo is caught early. */
export const API_KEY_PREFIX = 'fair_';
/**
 * What verify accepts as a key: the CLI's keys (`fair_` + 43 characters), and keys an operator made some
 * other way for FAIR_API_KEYS, as long as they are long enough to be random secrets (the single SHA-256
 * relies on that).
 */
const KEY_PATTERN = /^[A-Za-z0-9._~+/-]{32,256}=*$/;
/** Key names: what `list` and `revoke` use and what the rate limiter counts by. */
export const KEY_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

export const keyRecordSchema = z
  .object({
    /** Who the key is for; unique in the file. */
    name: z.string().regex(KEY_NAME_PATTERN, 'a name of 1 to 64 characters A-Z, a-z, 0-9, ".", "_" or "-", starting with a letter or digit'),
    /** Lower-case hex SHA-256 of the whole key (prefix included). */
    sha256: z.string().regex(SHA256_HEX, '64 lower-case hex digits'),
    /** When the key was created (ISO 8601 UTC); `env` keys have none. */
    created: z.string().datetime().nullable(),
  })
  .strict();
export type KeyRecord = z.infer<typeof keyRecordSchema>;

export const keysFileSchema = z
  .object({ version: z.literal(1), keys: z.array(keyRecordSchema) })
  .strict()
  .superRefine((file, ctx) => {
    const names = new Set<string>();
    const hashes = new Set<string>();
    for (const key of file.keys) {
      if (names.has(key.name)) ctx.addIssue({ code: 'custom', message: `duplicate key name ${JSON.stringify(key.name)}` });
      if (hashes.has(key.sha256)) ctx.addIssue({ code: 'custom', message: `duplicate key hash ${key.sha256.slice(0, 12)}…` });
      names.add(key.name);
      hashes.add(key.sha256);
    }
  });
export type KeysFile = z.infer<typeof keysFileSchema>;

/** A new random key (256 bits). Shown to its owner once; only `hashApiKey(key)` is kept. */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Lower-case hex SHA-256 of a key, as stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

// ---- the keys file ----

/** Reads and validates a keys file; a missing file has no keys. */
export async function readKeysFile(path: string): Promise<KeyRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`cannot read the API keys file ${path}: ${(err as Error).message}`, { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`the API keys file ${path} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = keysFileSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`the API keys file ${path} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`);
  return parsed.data.keys;
}

/** Writes the keys file atomically: a temporary file (mode 600), fsync, rename, directory fsync. */
export async function writeKeysFile(path: string, keys: KeyRecord[]): Promise<void> {
  const body: KeysFile = keysFileSchema.parse({ version: 1, keys });
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(body, null, 2)}\n`, 0o600);
}

/**
 * Read-modify-write of the keys file under a lock file (`<path>.lock`, state/dir-lock.ts's protocol: a lock
 * left by a command that died is taken over), so two `fair:keys` commands at once cannot lose each other's
 * change. `change` returns the new list.
 */
export async function updateKeysFile(path: string, change: (keys: KeyRecord[]) => KeyRecord[], options: { waitMs?: number } = {}): Promise<KeyRecord[]> {
  await mkdir(dirname(path), { recursive: true });
  const lock = `${path}.lock`;
  const giveUp = Date.now() + (options.waitMs ?? 5000);
  const me = { pid: process.pid, host: hostname() };
  const live = (h: unknown) => {
    const { pid, host } = (h ?? {}) as Partial<typeof me>;
    return typeof pid === 'number' && (host !== me.host || pidIsAlive(pid));
  };
  while (!(await takeLockFile(lock, JSON.stringify(me), live, () => undefined)).taken) {
    if (Date.now() > giveUp) throw new Error(`${lock} exists: another fair:keys command is running (if none is, delete the lock file)`);
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    const next = change(await readKeysFile(path));
    await writeKeysFile(path, next);
    return next;
  } finally {
    await rm(lock, { force: true });
  }
}

/**
 * Parses `FAIR_API_KEYS`: comma-separated entries, each `name:sha256` or a bare `sha256` (named
 * `env-<first 8 hex digits>`). Throws on a malformed entry, naming it, so a typo stops the server at start.
 */
export function parseEnvKeyHashes(value: string | undefined): KeyRecord[] {
  if (value === undefined || value.trim() === '') return [];
  const records: KeyRecord[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const colon = entry.lastIndexOf(':');
    const sha256 = (colon === -1 ? entry : entry.slice(colon + 1)).toLowerCase();
    const name = colon === -1 ? `env-${sha256.slice(0, 8)}` : entry.slice(0, colon);
    const parsed = keyRecordSchema.safeParse({ name, sha256, created: null });
    if (!parsed.success)
      throw new Error(
        `FAIR_API_KEYS: entry ${JSON.stringify(entry.length > 80 ? `${entry.slice(0, 77)}...` : entry)} is not "name:sha256" or "sha256" (${parsed.error.issues[0]!.message})`,
      );
    if (records.some((r) => r.name === parsed.data.name)) throw new Error(`FAIR_API_KEYS: the name ${JSON.stringify(parsed.data.name)} appears twice`);
    records.push(parsed.data);
  }
  return records;
}

// ---- the Authorization header ----

const TOKEN68 = /^[A-Za-z0-9._~+/-]+=*$/;

function invalidAuthorization(message: string): ApiError {
  return new ApiError('INVALID_PARAMETER', `Authorization: ${message}`, [{ parameter: 'Authorization', message }]);
}

/**
 * The key in an `Authorization: Bearer <key>` header, or null when there is no header (anonymous).
 * Throws ApiError INVALID_PARAMETER (400) for anything else: another scheme, an empty or malformed token,
 * several Authorization headers.
 */
export function parseAuthorization(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header)) {
    if (header.length !== 1) throw invalidAuthorization('send one Authorization header, not several');
    header = header[0]!;
  }
  const match = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(header);
  if (!match) throw invalidAuthorization('the header is empty; send "Bearer <API key>" or omit it for the anonymous tier');
  if (match[1]!.toLowerCase() !== 'bearer')
    throw invalidAuthorization(`only the Bearer scheme is accepted ("Bearer <API key>"), not ${JSON.stringify(match[1]!.slice(0, 20))}`);
  const token = match[2] ?? '';
  if (token === '') throw invalidAuthorization('"Bearer" is not followed by an API key');
  if (!TOKEN68.test(token)) throw invalidAuthorization('the API key contains characters a key never has');
  return token;
}

// ---- verification ----

/** A set of stored key hashes and the constant-time check against them. */
export class ApiKeyRing {
  private readonly entries: ReadonlyArray<{ name: string; hash: Buffer }>;

  constructor(records: readonly KeyRecord[]) {
    this.entries = records.map((r) => ({ name: r.name, hash: Buffer.from(r.sha256, 'hex') }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The name of the key, or null when no stored hash matches. */
  verify(key: string): string | null {
    // A string that cannot be a key is refused before hashing; the shape is public, so this leaks nothing.
    if (!KEY_PATTERN.test(key)) return null;
    const presented = createHash('sha256').update(key, 'utf8').digest();
    let found: string | null = null;
    for (const entry of this.entries) {
      // No early exit: every stored hash is compared, whatever matched before.
      if (timingSafeEqual(presented, entry.hash) && found === null) found = entry.name;
    }
    return found;
  }
}

export interface OpenApiKeysOptions {
  /** The keys file (`FAIR_KEYS_FILE`); a missing file means no file keys. */
  file: string;
  /** `FAIR_API_KEYS`, parsed by parseEnvKeyHashes. */
  envHashes?: string | undefined;
  /** Milliseconds between checks of the keys file for changes; default 5000; 0 checks on every request. */
  refreshMs?: number;
  /** Receives an unreadable keys file on reload (the previous keys stay in force); default `console`. */
  logger?: StateLogger;
}

/** Who a request is, by its Authorization header. */
export type Caller = { tier: 'anonymous' } | { tier: 'authenticated'; keyName: string };

/** The keys the server accepts: the keys file (reread when it changes) plus FAIR_API_KEYS. */
export class ApiKeys {
  private ring: ApiKeyRing;
  private fileStamp: string;
  private checkedAt: number;
  private reloading: Promise<void> | null = null;

  private constructor(
    private readonly options: Required<Pick<OpenApiKeysOptions, 'file' | 'refreshMs'>> & { logger: StateLogger },
    private readonly envRecords: KeyRecord[],
    fileRecords: KeyRecord[],
    stamp: string,
  ) {
    this.ring = new ApiKeyRing([...envRecords, ...fileRecords]);
    this.fileStamp = stamp;
    this.checkedAt = Date.now();
  }

  /** Loads the env hashes and the keys file; rejects when either is malformed (a configuration error). */
  static async open(options: OpenApiKeysOptions): Promise<ApiKeys> {
    const envRecords = parseEnvKeyHashes(options.envHashes);
    const stamp = await fileStamp(options.file);
    const fileRecords = await readKeysFile(options.file);
    return new ApiKeys({ file: options.file, refreshMs: options.refreshMs ?? 5000, logger: options.logger ?? console }, envRecords, fileRecords, stamp);
  }

  /** Number of keys in force. */
  get size(): number {
    return this.ring.size;
  }

  /**
   * The caller of a request from its Authorization header: anonymous without one, authenticated with a
   * valid key; ApiError INVALID_PARAMETER (400) for a malformed header or a key that is not valid.
   */
  async authenticate(header: string | string[] | undefined): Promise<Caller> {
    const key = parseAuthorization(header);
    if (key === null) return { tier: 'anonymous' };
    await this.refresh();
    const name = this.ring.verify(key);
    if (name === null) throw invalidAuthorization('the API key is not valid (unknown or revoked); omit the header to be served in the anonymous tier');
    return { tier: 'authenticated', keyName: name };
  }

  /** Rereads the keys file if it changed since the last look (at most every refreshMs). */
  private async refresh(): Promise<void> {
    if (Date.now() - this.checkedAt < this.options.refreshMs) return;
    this.reloading ??= (async () => {
      try {
        const stamp = await fileStamp(this.options.file);
        if (stamp !== this.fileStamp) {
          this.ring = new ApiKeyRing([...this.envRecords, ...(await readKeysFile(this.options.file))]);
          this.fileStamp = stamp;
        }
      } catch (err) {
        // A half-edited or broken file must not lock everyone out: keep the keys in force, say why.
        this.options.logger.warn(`fair: keeping the previous API keys: ${(err as Error).message}`);
      } finally {
        this.checkedAt = Date.now();
        this.reloading = null;
      }
    })();
    await this.reloading;
  }
}

/** What changes when the keys file is replaced (rename gives a new inode) or edited; "absent" when missing. */
async function fileStamp(path: string): Promise<string> {
  try {
    const s = await stat(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw err;
  }
}
