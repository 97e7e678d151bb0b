/** An app over a build directory for `inject` tests (no listening socket, no logs, no site). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../api-dynamic/src/app.ts';
import { loadConfig } from '../../api-dynamic/src/config.ts';
import { BuildStore } from '../../api-dynamic/src/services/build-store.ts';
import { retentionOf } from '../../api-dynamic/src/server.ts';

export async function appFor(buildOutput: string, env: Record<string, string> = {}) {
  // Each app gets its own state directory unless the test shares one (replicas, restarts).
  const stateDir = env.STATE_DIR ?? mkdtempSync(join(tmpdir(), 'state-'));
  const config = loadConfig({ BUILD_OUTPUT: buildOutput, SITE_DIR: '/nonexistent', LOG_LEVEL: 'silent', ...env, STATE_DIR: stateDir });
  const store = await BuildStore.open(buildOutput, retentionOf(config));
  const app = await buildApp({ config, store, logger: false, site: false });
  const close = async () => {
    await app.close();
    store.close();
  };
  return { app, store, close };
}
