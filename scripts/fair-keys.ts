/**
 * `npm run fair:keys -- add NAME | list | revoke NAME`: manages the API keys of the FAIR service's
 * authenticated tier (api-dynamic/src/services/fair/api-keys.ts). `add` prints the new key once on stdout
 * (so `KEY=$(npm run -s fair:keys -- add lab)` works) and stores only its SHA-256, name and creation date;
 * every change rewrites the keys file atomically under a lock. A running server picks changes up within
 * seconds. Exit codes: 0 done, 1 refused (name exists, unknown name, unreadable file), 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../api-dynamic/src/config.ts';
import { generateApiKey, hashApiKey, KEY_NAME_PATTERN, type KeyRecord, readKeysFile, updateKeysFile } from '../api-dynamic/src/services/fair/api-keys.ts';

const HELP = `Usage: npm run fair:keys -- <command> [options]

Manages the API keys of the FAIR Assessment Service. A caller sending "Authorization: Bearer <key>" is
served in the authenticated tier (100 assessments an hour by default instead of 10). Only a SHA-256 of each
key is stored, so a lost key cannot be shown again: revoke it and add a new one.

Commands:
  add NAME        create a key for NAME and print it, once, on stdout
  list            the stored keys: name, creation date, start of the SHA-256
  revoke NAME     delete NAME's key; requests with it are refused within seconds

Options:
  --file PATH     the keys file (default: FAIR_KEYS_FILE, else STATE_DIR/fair/api-keys.json)
  -h, --help      this text

NAME: 1 to 64 characters A-Z, a-z, 0-9, ".", "_" or "-", starting with a letter or digit.
Keys given to the server in FAIR_API_KEYS (hashes) are not in the file and not listed here.
Exit codes: 0 done, 1 refused (name exists, unknown name, unreadable file), 2 bad usage.
`;

function fail(message: string, code: 1 | 2): never {
  process.stderr.write(`fair:keys: ${message}\n`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    options: { file: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: true,
  });
} catch (err) {
  fail(`${(err as Error).message}\n\n${HELP}`, 2);
}
if (parsed.values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const [command, ...rest] = parsed.positionals;
const expected: Record<string, number> = { add: 1, list: 0, revoke: 1 };
if (command === undefined) fail(`a command is needed: add NAME, list or revoke NAME\n\n${HELP}`, 2);
if (!(command in expected)) fail(`unknown command ${JSON.stringify(command)}: use add NAME, list or revoke NAME`, 2);
if (rest.length !== expected[command]) fail(expected[command] === 1 ? `${command} takes one NAME` : `${command} takes no arguments`, 2);
const name = rest[0];
if (name !== undefined && !KEY_NAME_PATTERN.test(name))
  fail(`invalid NAME ${JSON.stringify(name)}: 1 to 64 characters A-Z, a-z, 0-9, ".", "_" or "-", starting with a letter or digit`, 2);

let file = parsed.values.file;
if (file === undefined) {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    fail((err as Error).message, 2);
  }
  // config.ts fills the default (STATE_DIR/fair/api-keys.json) when FAIR_KEYS_FILE is not set.
  file = config.FAIR_KEYS_FILE;
}
const keysFile = file;

try {
  if (command === 'list') {
    const keys = await readKeysFile(keysFile);
    if (keys.length === 0) process.stderr.write(`no keys in ${keysFile}\n`);
    else {
      const width = Math.max(4, ...keys.map((k) => k.name.length));
      process.stdout.write(`${'NAME'.padEnd(width)}  CREATED                   SHA256\n`);
      for (const k of keys) process.stdout.write(`${k.name.padEnd(width)}  ${(k.created ?? '-').padEnd(24)}  ${k.sha256.slice(0, 12)}…\n`);
    }
  } else if (command === 'add') {
    const key = generateApiKey();
    const record: KeyRecord = { name: name!, sha256: hashApiKey(key), created: new Date().toISOString() };
    await updateKeysFile(keysFile, (keys) => {
      if (keys.some((k) => k.name === name))
        throw new Error(`a key named ${JSON.stringify(name)} exists already in ${keysFile}; revoke it first to replace it`);
      return [...keys, record];
    });
    process.stderr.write(
      `added key ${JSON.stringify(name)} (sha256 ${record.sha256.slice(0, 12)}…) to ${keysFile}\nThe key is shown this once; give it to its owner now:\n`,
    );
    process.stdout.write(`${key}\n`);
  } else {
    await updateKeysFile(keysFile, (keys) => {
      if (!keys.some((k) => k.name === name)) throw new Error(`no key named ${JSON.stringify(name)} in ${keysFile}`);
      return keys.filter((k) => k.name !== name);
    });
    process.stderr.write(`revoked key ${JSON.stringify(name)} in ${keysFile}\n`);
  }
} catch (err) {
  fail((err as Error).message, 1);
}
