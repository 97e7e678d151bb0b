/**
 * Per-process probes for an orchestrator or a load balancer:
 * - `GET /healthz`: the process is alive and its event loop answers (nothing else is asked).
 * - `GET /readyz`: it can serve: a build is loaded and the writable state store answers within a second.
 *   Not ready is a 503 with the shared error body, naming what failed. While the server is closing (SIGTERM),
 *   Fastify answers every new request, these included, with 503, so the balancer stops sending traffic.
 * Neither is cached, logged at info level, or rate-limited.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../contracts/common/errors.ts';
import type { BuildStore } from '../services/build-store.ts';
import { type StateStore, withTimeout } from '../services/state/store.ts';

const STATE_TIMEOUT_MS = 1_000;

export default async function probes(app: FastifyInstance, opts: { store: BuildStore; state: StateStore }) {
  const started = Date.now();
  app.get('/healthz', { logLevel: 'warn' }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'alive', pid: process.pid, uptime_s: Math.round((Date.now() - started) / 1000) };
  });

  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const failures: string[] = [];
    let snapshot: string | null = null;
    try {
      snapshot = opts.store.current.snapshotId;
    } catch (err) {
      failures.push(`build: ${(err as Error).message}`);
    }
    try {
      await withTimeout(opts.state.get('probe', 'readyz'), STATE_TIMEOUT_MS, `the state store did not answer within ${STATE_TIMEOUT_MS} ms`);
    } catch (err) {
      failures.push(`state store (${opts.state.description}): ${(err as Error).message}`);
    }
    if (failures.length > 0)
      throw new ApiError(
        'UPSTREAM_UNAVAILABLE',
        `Not ready: ${failures.join('; ')}.`,
        failures.map((message) => ({ message })),
      );
    return { status: 'ready', snapshot, state: opts.state.description };
  });
}
