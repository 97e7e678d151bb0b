/**
 * `npm start`: builds what is missing or stale (pipeline on the sample snapshot, then the site), then serves
 * the three services on http://HOST:PORT (default 127.0.0.1:8080).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(`Usage: npm start

Builds build-output/ from snapshots/sample when it is missing or stale, builds the site when stale, then serves
everything on http://$HOST:$PORT (defaults 127.0.0.1 and 8080). Other settings: docs/configuration.md.
SIGHUP reloads build-output/current; SIGTERM finishes in-flight requests, then exits 0.
`);
  process.exit(0);
}
const r = spawnSync(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), resolve('scripts/build.ts'), '--if-stale'], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
await import('../api-dynamic/src/server.ts').then((m) => m.main());
