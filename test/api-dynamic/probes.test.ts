/**
 * /healthz and /readyz (issue 9): alive is always 200; ready needs a loaded build and a state store that
 * answers within a second, else a 503 with the shared error body naming what failed. Also: the server's
 * timeouts come from the configuration.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api-dynamic/src/app.ts';
import { loadConfig } from '../../api-dynamic/src/config.ts';
import { BuildStore } from '../../api-dynamic/src/services/build-store.ts';
import type { StateStore } from '../../api-dynamic/src/services/state/store.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';

let out: string;
let store: BuildStore;
beforeAll(async () => {
  out = (await sharedFixture({ works: 300, articles: 0 })).out;
  store = await BuildStore.open(out);
});
afterAll(() => {
  store?.close();
});

const config = (env: Record<string, string> = {}) =>
  loadConfig({ BUILD_OUTPUT: out, SITE_DIR: '/nonexistent', LOG_LEVEL: 'silent', STATE_DIR: mkdtempSync(join(tmpdir(), 'probe-state-')), ...env });

/** A state store whose reads never answer (a Redis that accepted the connection and then went silent). */
const silentState: StateStore = {
  description: 'redis redis://10.255.255.1:6379 (silent)',
  get: () => new Promise(() => {}),
  putIfAbsent: () => new Promise(() => {}),
  close: async () => {},
};

describe('probes', () => {
  it('/healthz is 200 alive, not cached', async () => {
    const app = await buildApp({ config: config(), store, logger: false, site: false });
    const r = await app.inject('/healthz');
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json()).toMatchObject({ status: 'alive', pid: process.pid });
    await app.close();
  });

  it('/readyz is 200 with the snapshot when the build is loaded and the state store answers', async () => {
    const app = await buildApp({ config: config(), store, logger: false, site: false });
    const r = await app.inject('/readyz');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: 'ready', snapshot: store.current.snapshotId });
    await app.close();
  });

  it('/readyz is 503 UPSTREAM_UNAVAILABLE naming the state store when it does not answer within a second', async () => {
    const app = await buildApp({ config: config(), store, logger: false, site: false, state: silentState });
    const r = await app.inject('/readyz');
    expect(r.statusCode).toBe(503);
    const body = r.json();
    expect(body.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(body.message).toContain('state store (redis redis://10.255.255.1:6379 (silent))');
    expect(r.headers['cache-control']).toBe('no-store');
    // /healthz does not depend on the store.
    expect((await app.inject('/healthz')).statusCode).toBe(200);
    await app.close();
  });

  it('the HTTP server takes its timeouts from the configuration', async () => {
    const app = await buildApp({
      config: config({
        SERVER_HEADERS_TIMEOUT_MS: '4000',
        SERVER_REQUEST_TIMEOUT_MS: '9000',
        SERVER_IDLE_TIMEOUT_MS: '50000',
        SERVER_KEEPALIVE_TIMEOUT_MS: '61000',
      }),
      store,
      logger: false,
      site: false,
    });
    expect(app.server.headersTimeout).toBe(4000);
    expect(app.server.requestTimeout).toBe(9000);
    expect(app.server.keepAliveTimeout).toBe(61000);
    expect(app.server.timeout).toBe(50000);
    await app.close();
  });
});
