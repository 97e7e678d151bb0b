/**
 * The fuzzing property: whatever the request, the answer is a 2xx, a 3xx or a 4xx carrying the shared error
 * body, never a 5xx, and it comes (no hang). Runs through Fastify's inject, so a case costs no socket.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import { bodyFor, pathFor, queryFor, type RouteSpec } from './requests.ts';

export interface FuzzReport {
  cases: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Answers by route (templated path). */
  routes: Record<string, number>;
  /** The slowest answer, ms. */
  slowestMs: number;
}

export interface FuzzOptions {
  runs: number;
  seed?: number;
  /** A case that takes longer is a hang (default 15 s). */
  hangMs?: number;
  /** Identifiers for JSON bodies (FAIR). */
  identifiers?: fc.Arbitrary<string>;
  /** Called before each case (e.g. to clear a cache). */
  onCase?: () => void;
}

const WRONG_METHODS = ['PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

const ip = fc.oneof(fc.ipV4(), fc.ipV6());

/** One generated request: method, URL, headers, body. */
function requestFor(route: RouteSpec, identifiers: fc.Arbitrary<string>) {
  return fc.record({
    route: fc.constant(route),
    path: pathFor(route),
    query: queryFor(route),
    method: fc.oneof({ weight: 19, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...WRONG_METHODS) }),
    body: route.hasBody ? bodyFor(identifiers).map((b) => b as { payload: string; contentType: string | null } | null) : fc.constant(null),
    ip,
  });
}

/** Why an answer breaks the property, or null. */
export function violation(status: number, contentType: string, body: string, method = 'GET'): string | null {
  if (status >= 500) return `status ${status}`;
  if (status < 400) return null;
  if (!contentType.startsWith('application/json')) return `error with Content-Type ${contentType}`;
  if (method === 'HEAD') return null; // a HEAD answer has the headers of the GET one and no body
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'error body is not JSON';
  }
  const r = errorBodySchema.safeParse(parsed);
  return r.success ? null : `error body is not the shared one: ${r.error.message.slice(0, 200)}`;
}

export async function fuzzRoutes(app: FastifyInstance, routes: readonly RouteSpec[], o: FuzzOptions): Promise<FuzzReport> {
  const report: FuzzReport = { cases: 0, statuses: {}, routes: {}, slowestMs: 0 };
  const identifiers = o.identifiers ?? fc.string();
  const hangMs = o.hangMs ?? 15_000;
  // Routes with more parameters get more cases (a route without any has little to fuzz but its path).
  const arbitrary = fc.oneof(...routes.map((r) => ({ weight: 1 + Math.min(8, r.params.length + (r.hasBody ? 8 : 0)), arbitrary: requestFor(r, identifiers) })));
  await fc.assert(
    fc.asyncProperty(arbitrary, async (req) => {
      o.onCase?.();
      const url = req.query === '' ? req.path : `${req.path}?${req.query}`;
      const headers: Record<string, string> = {};
      if (req.body?.contentType) headers['content-type'] = req.body.contentType;
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const res = await Promise.race([
        app.inject({ method: req.method, url, headers, remoteAddress: req.ip, ...(req.body ? { payload: req.body.payload } : {}) }),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${hangMs} ms: ${req.method} ${url}`)), hangMs))),
      ]).finally(() => clearTimeout(timer));
      const ms = performance.now() - started;
      report.cases++;
      report.statuses[res.statusCode] = (report.statuses[res.statusCode] ?? 0) + 1;
      report.routes[req.route.path] = (report.routes[req.route.path] ?? 0) + 1;
      report.slowestMs = Math.max(report.slowestMs, ms);
      const why = violation(res.statusCode, String(res.headers['content-type'] ?? ''), res.body, req.method);
      if (why) throw new Error(`${why}: ${req.method} ${url}${req.body ? ` body ${req.body.payload.slice(0, 300)}` : ''}\n${res.body.slice(0, 500)}`);
    }),
    { numRuns: o.runs, ...(o.seed !== undefined ? { seed: o.seed } : {}), endOnFailure: true },
  );
  return report;
}
