/**
 * API keys of the FAIR authenticated tier: key generation and hashing, the Authorization header parser and
 * its 400s, constant-time verification against the keys file and FAIR_API_KEYS, the server picking up file
 * changes, and the `fair:keys` command for real (scripts/fair-keys.ts spawned through tsx against a
 * temporary directory): add prints the key once and stores only its hash, list, revoke, usage errors, and
 * parallel adds under the lock.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../contracts/common/errors.ts';
import {
  ApiKeyRing,
  ApiKeys,
  generateApiKey,
  hashApiKey,
  parseAuthorization,
  parseEnvKeyHashes,
  readKeysFile,
  updateKeysFile,
  writeKeysFile,
} from '../../../api-dynamic/src/services/fair/api-keys.ts';
import { tempDir } from '../../helpers/fixture-build.ts';

const ROOT = join(import.meta.dirname, '../../..');
const SCRIPT = join(ROOT, 'scripts/fair-keys.ts');
const tmp = tempDir('fair-keys');
let dirs = 0;
const newDir = () => {
  const dir = join(tmp.path, `d-${++dirs}`);
  mkdirSync(dir);
  return dir;
};
const silent = { warn: () => {} };

afterAll(() => tmp.remove());

/** Expects an ApiError 400 INVALID_PARAMETER about the Authorization header. */
function expectInvalidAuthorization(run: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    run();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ApiError);
  const err = thrown as ApiError;
  expect(err.status).toBe(400);
  expect(err.toBody()).toMatchObject({ code: 'INVALID_PARAMETER', details: [{ parameter: 'Authorization' }] });
  expect(err.message).toMatch(/^Authorization: /);
  expect(err.message).toMatch(message);
}

describe('keys and hashes', () => {
  it('generates 256-bit keys with the fair_ prefix, all different', () => {
    const keys = new Set(Array.from({ length: 100 }, generateApiKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^fair_[A-Za-z0-9_-]{43}$/);
  });

  it('hashes with SHA-256 in lower-case hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('Authorization header', () => {
  it('has no key without a header, and takes the token of a Bearer header (scheme case-insensitive)', () => {
    const key = generateApiKey();
    expect(parseAuthorization(undefined)).toBeNull();
    expect(parseAuthorization(`Bearer ${key}`)).toBe(key);
    expect(parseAuthorization(`bearer ${key}`)).toBe(key);
    expect(parseAuthorization(`  BEARER   ${key}  `)).toBe(key);
    expect(parseAuthorization([`Bearer ${key}`])).toBe(key);
  });

  it('refuses malformed headers with 400 INVALID_PARAMETER naming Authorization', () => {
    expectInvalidAuthorization(() => parseAuthorization(''), /empty/);
    expectInvalidAuthorization(() => parseAuthorization('   '), /empty/);
    expectInvalidAuthorization(() => parseAuthorization('Basic dXNlcjpwYXNz'), /only the Bearer scheme/);
    expectInvalidAuthorization(() => parseAuthorization('fair_abc'), /only the Bearer scheme/);
    expectInvalidAuthorization(() => parseAuthorization('Bearer'), /not followed by an API key/);
    expectInvalidAuthorization(() => parseAuthorization('Bearer   '), /not followed by an API key/);
    expectInvalidAuthorization(() => parseAuthorization('Bearer a b'), /characters/);
    expectInvalidAuthorization(() => parseAuthorization('Bearer "quoted"'), /characters/);
    expectInvalidAuthorization(() => parseAuthorization(['Bearer a', 'Bearer b']), /one Authorization header/);
  });
});

describe('verification', () => {
  const key = generateApiKey();
  const other = generateApiKey();
  const ring = new ApiKeyRing([
    { name: 'lab', sha256: hashApiKey(key), created: '2026-01-01T00:00:00.000Z' },
    { name: 'other', sha256: hashApiKey(other), created: null },
  ]);

  it('finds the key by its hash and names it', () => {
    expect(ring.verify(key)).toBe('lab');
    expect(ring.verify(other)).toBe('other');
  });

  it('refuses unknown keys, near misses, the hash itself and junk', () => {
    expect(ring.verify(generateApiKey())).toBeNull();
    expect(ring.verify(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(ring.verify(key.slice(0, -1))).toBeNull();
    expect(ring.verify(hashApiKey(key))).toBeNull();
    expect(ring.verify('')).toBeNull();
    expect(ring.verify('short')).toBeNull();
  });

  it('reads FAIR_API_KEYS as name:sha256 or bare sha256, and stops at a malformed entry', () => {
    const h1 = hashApiKey(key);
    const h2 = hashApiKey(other);
    expect(parseEnvKeyHashes(`ci:${h1}, ${h2.toUpperCase()} ,`)).toEqual([
      { name: 'ci', sha256: h1, created: null },
      { name: `env-${h2.slice(0, 8)}`, sha256: h2, created: null },
    ]);
    expect(parseEnvKeyHashes(undefined)).toEqual([]);
    expect(parseEnvKeyHashes('  ')).toEqual([]);
    expect(() => parseEnvKeyHashes('ci:abc')).toThrow(/FAIR_API_KEYS: entry "ci:abc"/);
    expect(() => parseEnvKeyHashes(key)).toThrow(/FAIR_API_KEYS/); // a key instead of its hash
    expect(() => parseEnvKeyHashes(`a:${h1},a:${h2}`)).toThrow(/appears twice/);
  });

  it('authenticates from the keys file and the environment, anonymous without a header, 400 for an unknown key', async () => {
    const dir = newDir();
    const file = join(dir, 'fair', 'api-keys.json');
    await writeKeysFile(file, [{ name: 'lab', sha256: hashApiKey(key), created: new Date().toISOString() }]);
    const keys = await ApiKeys.open({ file, envHashes: `ci:${hashApiKey(other)}`, logger: silent });
    expect(keys.size).toBe(2);
    expect(await keys.authenticate(undefined)).toEqual({ tier: 'anonymous' });
    expect(await keys.authenticate(`Bearer ${key}`)).toEqual({ tier: 'authenticated', keyName: 'lab' });
    expect(await keys.authenticate(`Bearer ${other}`)).toEqual({ tier: 'authenticated', keyName: 'ci' });
    const err = await keys.authenticate(`Bearer ${generateApiKey()}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).toBody()).toMatchObject({ code: 'INVALID_PARAMETER', message: expect.stringMatching(/^Authorization: the API key is not valid/) });
    await expect(keys.authenticate('Basic x')).rejects.toThrow(/Bearer scheme/);
  });

  it('picks up added and revoked keys from the file, and keeps the old keys when the file breaks', async () => {
    const dir = newDir();
    const file = join(dir, 'keys.json');
    const keys = await ApiKeys.open({ file, refreshMs: 0, logger: silent });
    expect(keys.size).toBe(0);
    await expect(keys.authenticate(`Bearer ${key}`)).rejects.toThrow(/not valid/);
    await updateKeysFile(file, (list) => [...list, { name: 'lab', sha256: hashApiKey(key), created: null }]);
    expect(await keys.authenticate(`Bearer ${key}`)).toEqual({ tier: 'authenticated', keyName: 'lab' });
    const warnings: string[] = [];
    const watched = await ApiKeys.open({ file, refreshMs: 0, logger: { warn: (m) => warnings.push(m) } });
    writeFileSync(file, '{"version": 1, "keys": [');
    expect(await watched.authenticate(`Bearer ${key}`)).toMatchObject({ keyName: 'lab' });
    expect(warnings.join()).toMatch(/keeping the previous API keys: the API keys file .* is not JSON/);
    await writeKeysFile(file, []);
    await expect(watched.authenticate(`Bearer ${key}`)).rejects.toThrow(/not valid/);
  });

  it('refuses to open an invalid keys file, naming the problem', async () => {
    const dir = newDir();
    const file = join(dir, 'keys.json');
    writeFileSync(file, JSON.stringify({ version: 1, keys: [{ name: 'a', sha256: 'xyz', created: null }] }));
    await expect(ApiKeys.open({ file })).rejects.toThrow(/keys\.0\.sha256: 64 lower-case hex digits/);
    const h = hashApiKey(key);
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        keys: [
          { name: 'a', sha256: h, created: null },
          { name: 'a', sha256: hashApiKey(other), created: null },
        ],
      }),
    );
    await expect(readKeysFile(file)).rejects.toThrow(/duplicate key name "a"/);
    expect(await readKeysFile(join(dir, 'missing.json'))).toEqual([]);
  });
});

// ---- the command ----

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STATE_DIR|FAIR_|REDIS_URL)/.test(k)));
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), SCRIPT, ...args], {
    cwd: ROOT,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('fair:keys command', () => {
  it('prints help', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run fair:keys -- <command>');
    for (const word of ['add NAME', 'list', 'revoke NAME', '--file PATH']) expect(run.stdout).toContain(word);
  });

  it('adds a key (printed once, stored as a hash under STATE_DIR/fair), lists it, and revokes it', async () => {
    const dir = newDir();
    const added = await cli(['add', 'lab-1'], { STATE_DIR: dir });
    expect(added.code, added.stderr).toBe(0);
    const key = added.stdout.trim();
    expect(key).toMatch(/^fair_[A-Za-z0-9_-]{43}$/);
    expect(added.stderr).toContain('shown this once');
    const file = join(dir, 'fair', 'api-keys.json');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(5));
    const stored = await readKeysFile(file);
    expect(stored).toEqual([{ name: 'lab-1', sha256: hashApiKey(key), created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    expect(Date.now() - Date.parse(stored[0]!.created!)).toBeLessThan(60_000);

    // The server accepts the printed key.
    const keys = await ApiKeys.open({ file, refreshMs: 0, logger: silent });
    expect(await keys.authenticate(`Bearer ${key}`)).toEqual({ tier: 'authenticated', keyName: 'lab-1' });

    await cli(['add', 'lab-2'], { STATE_DIR: dir });
    const list = await cli(['list'], { STATE_DIR: dir });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+CREATED\s+SHA256\n/);
    expect(list.stdout).toContain(`lab-1  ${stored[0]!.created}  ${stored[0]!.sha256.slice(0, 12)}…`);
    expect(list.stdout).toContain('lab-2');
    expect(list.stdout).not.toContain(stored[0]!.sha256); // only a prefix

    const revoked = await cli(['revoke', 'lab-1'], { STATE_DIR: dir });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await readKeysFile(file)).map((k) => k.name)).toEqual(['lab-2']);
    await expect(keys.authenticate(`Bearer ${key}`)).rejects.toThrow(/not valid/);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes --file, refuses a duplicate name and an unknown one with exit 1', async () => {
    const file = join(newDir(), 'elsewhere', 'keys.json');
    expect((await cli(['add', 'x', '--file', file])).code).toBe(0);
    const again = await cli(['add', 'x', '--file', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');
    expect(again.stdout).toBe('');
    const missing = await cli(['revoke', 'nobody', '--file', file]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no key named "nobody"');
    expect((await cli(['list', '--file', join(newDir(), 'none.json')])).stderr).toContain('no keys in');
  });

  it('exits 2 on bad usage', async () => {
    const cases = [[], ['frobnicate'], ['add'], ['add', 'a', 'b'], ['list', 'x'], ['add', 'bad name'], ['add', '-x'], ['add', 'a', '--nope']];
    const runs = await Promise.all(cases.map((args) => cli(args, { STATE_DIR: newDir() })));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]!.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^fair:keys: /);
      expect(run.stdout).toBe('');
    });
  });

  it('keeps every key when several adds run at once (the lock)', async () => {
    const file = join(newDir(), 'keys.json');
    const runs = await Promise.all(['a', 'b', 'c', 'd'].map((n) => cli(['add', n, '--file', file])));
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect((await readKeysFile(file)).map((k) => k.name).sort()).toEqual(['a', 'b', 'c', 'd']);
  });
});
