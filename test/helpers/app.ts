/** An app over a build directory for `inject` tests (no listening socket, no logs, no site). */
import { buildApp } from '../../api-dynamic/src/app.ts';
import { loadConfig } from '../../api-dynamic/src/config.ts';
import { BuildStore } from '../../api-dynamic/src/services/build-store.ts';

export async function appFor(buildOutput: string) {
  const config = loadConfig({ BUILD_OUTPUT: buildOutput, SITE_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
  const store = await BuildStore.open(buildOutput);
  const app = await buildApp({ config, store, logger: false, site: false });
  const close = async () => {
    await app.close();
    store.close();
  };
  return { app, store, close };
}
