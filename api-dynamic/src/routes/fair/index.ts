/**
 * FAIR Assessment Service routes (mounted at FAIR_PREFIX, default /fair; seed 000, DECISIONS.md §6):
 * `POST /api/v1/assess`, `GET /api/v1/health`, `GET /api/v1/openapi.json`.
 *
 * `POST /assess`, in this order (docs/api-fair.md):
 *   1. the caller: no Authorization header = anonymous (by client address), a valid Bearer key =
 *      authenticated, anything else 400 naming the header (services/fair/api-keys.ts);
 *   2. the request: no query parameters, Content-Type application/json, a JSON object body that
 *      contracts/fair/request.ts accepts, else 400; a body over 16 KiB is refused before (413);
 *   3. what costs no work is answered without counting: an identifier the backend refuses without fetching
 *      (422) and a cached result (200);
 *   4. the rate limit: the request is counted (429 RATE_LIMITED with Retry-After once the window is full; 503
 *      UPSTREAM_UNAVAILABLE when the counter store cannot be reached);
 *   5. the assessment: shared with identical running requests, or fresh (assessment-service.ts); the count is
 *      taken back unless the answer cost the caller real work by their own choice (quota.ts: a 503 of ours,
 *      a 502, a 500 and a shared answer are free).
 * Every answer to POST /assess carries X-RateLimit-Limit/Remaining/Reset: the standing after step 5, or, for a
 * request answered before it, the caller's standing without counting (an invalid key: the anonymous standing
 * of its address, the tier it is served in without the header). Only a store outage leaves them out.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../../contracts/common/errors.ts';
import { noParams, parseStrictQuery } from '../../../../contracts/common/query.ts';
import { fairOpenApi } from '../../../../contracts/fair/openapi.ts';
import { parseAssessRequest } from '../../../../contracts/fair/request.ts';
import { FAIR_SERVICE_NAME, type HealthResponse } from '../../../../contracts/fair/responses.ts';
import { routeTable } from '../../plugins/preflight.ts';
import type { FairServices } from '../../services/fair/open.ts';
import { charged } from '../../services/fair/quota.ts';
import { rateLimitHeaders, type RateLimitSubject } from '../../services/fair/rate-limit.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
/** Headers a browser script may read from a cross-origin answer (CORS hides all others). */
const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id';

export interface FairRouteOptions {
  prefix: string;
  services: FairServices;
}

function contentTypeError(message: string): ApiError {
  return new ApiError('INVALID_PARAMETER', `Content-Type: ${message}`, [{ parameter: 'Content-Type', message, allowed: ['application/json'] }]);
}

/** The JSON value of an /assess body: Content-Type application/json (UTF-8), non-empty, well-formed. */
export function readJsonBody(contentType: string | undefined, body: unknown): unknown {
  if (contentType === undefined || contentType.trim() === '') throw contentTypeError('missing; send the body as JSON with "Content-Type: application/json"');
  const [media, ...params] = contentType.split(';').map((p) => p.trim());
  if (media!.toLowerCase() !== 'application/json')
    throw contentTypeError(`"${media!.slice(0, 60)}" is not accepted; send the body as JSON with "Content-Type: application/json"`);
  const charset = params.map((p) => /^charset\s*=\s*"?([^";]*)"?$/i.exec(p)?.[1]).find((c) => c !== undefined);
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) throw contentTypeError(`charset "${charset.slice(0, 30)}" is not accepted; JSON is UTF-8`);
  const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '')
    throw new ApiError(
      'MISSING_PARAMETER',
      'The request body is empty: send a JSON object with an "identifier", e.g. {"identifier": "10.1594/PANGAEA.902845"}.',
      [{ parameter: 'identifier', message: 'required' }],
    );
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('INVALID_PARAMETER', `The request body is not valid JSON: ${(err as Error).message.slice(0, 200)}.`, [
      { parameter: 'body', message: 'malformed JSON' },
    ]);
  }
}

export default async function fairRoutes(app: FastifyInstance, opts: FairRouteOptions) {
  const { keys, limiter, assessments, health, metricVersions } = opts.services;
  // Bodies are read as bytes whatever their type (within the app's 16 KiB bodyLimit, else 413) and checked by
  // the handler after the caller is known, so a wrong Content-Type is a 400 naming it (not Fastify's 415)
  // and still carries the rate-limit headers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // A Content-Type header Fastify cannot even parse ("", "json") is refused before any parser runs, as a
  // 415; here it is the same 400 as any other wrong type. Every other error goes on to the shared handler.
  app.setErrorHandler(async (error: Error & { code?: string }, request) => {
    if (error.code !== 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw error;
    const given = request.headers['content-type']?.trim();
    throw contentTypeError(
      given
        ? `"${given.slice(0, 60)}" is not a valid media type; send the body as JSON with "Content-Type: application/json"`
        : 'missing; send the body as JSON with "Content-Type: application/json"',
    );
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  });

  /** Who each /assess request is counted as, once known; requests whose counting failed (store down). */
  const subjects = new WeakMap<FastifyRequest, RateLimitSubject>();
  const storeDown = new WeakSet<FastifyRequest>();

  /** The caller's standing as rate-limit headers, without counting (on an error, or a cached answer, which costs nothing). */
  const standingHeaders = async (subject: RateLimitSubject, reply: FastifyReply) => {
    try {
      const standing = await limiter.peek(subject);
      for (const [name, value] of Object.entries(rateLimitHeaders({ ...standing, allowed: true }))) reply.header(name, value);
    } catch {
      // The counters are down: the answer goes out without the headers rather than not at all.
    }
  };

  const routes = routeTable(app);
  routes.declare({
    method: 'POST',
    url: '/api/v1/assess',
    acceptsBody: true,
    // Errors before or instead of counting still tell the caller where it stands (without counting).
    onError: async (request, reply) => {
      if (reply.hasHeader('x-ratelimit-limit') || storeDown.has(request)) return;
      await standingHeaders(subjects.get(request) ?? { tier: 'anonymous', ip: request.ip }, reply);
    },
    handler: async (request, reply) => {
      const caller = await keys.authenticate(request.headers.authorization);
      const subject: RateLimitSubject =
        caller.tier === 'anonymous' ? { tier: 'anonymous', ip: request.ip } : { tier: 'authenticated', keyName: caller.keyName };
      subjects.set(request, subject);
      parseStrictQuery(noParams, request.url);
      const parsed = parseAssessRequest(readJsonBody(request.headers['content-type'], request.body), metricVersions);
      // What costs no work costs the caller nothing (quota.ts): an identifier refused without fetching, a cached answer.
      assessments.precheck(parsed);
      const cached = assessments.cached(parsed);
      if (cached) {
        await standingHeaders(subject, reply);
        request.log.info({ fair: { identifier: parsed.identifier, source: 'cache', backend: assessments.backend.name } }, 'fair assessment');
        return reply.header('Cache-Control', 'no-store').type(JSON_TYPE).send(JSON.stringify(cached));
      }

      let decision;
      try {
        decision = await limiter.consume(subject);
      } catch (err) {
        storeDown.add(request);
        request.log.error({ err }, `fair: rate-limit store ${limiter.description} failed`);
        throw new ApiError('UPSTREAM_UNAVAILABLE', 'The rate-limit counters cannot be reached, so no assessment is made; try again shortly.');
      }
      if (!decision.allowed) {
        for (const [name, value] of Object.entries(rateLimitHeaders(decision))) reply.header(name, value);
        const window = limiter.options.windowSeconds;
        throw new ApiError(
          'RATE_LIMITED',
          `Rate limit reached: ${decision.limit} assessments per ${window % 3600 === 0 ? `${window / 3600} h` : `${window} s`} in the ${decision.tier} tier. Try again in ${decision.resetSeconds} s${decision.tier === 'anonymous' ? ', or send an API key (Authorization: Bearer <key>) for a higher limit' : ''}.`,
        );
      }

      const outcome = await assessments.settle(parsed);
      if (!charged(outcome)) {
        try {
          decision = await limiter.refund(subject, decision);
        } catch (err) {
          // The hit stays counted: a lost refund costs the caller one request, never the service its limit.
          request.log.error({ err }, `fair: rate-limit store ${limiter.description} failed to take back a request`);
        }
      }
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) reply.header(name, value);
      request.log.info(
        { fair: { identifier: parsed.identifier, source: outcome.source, backend: assessments.backend.name, charged: charged(outcome) } },
        'fair assessment',
      );
      if ('error' in outcome) throw outcome.error;
      return reply.header('Cache-Control', 'no-store').type(JSON_TYPE).send(JSON.stringify(outcome.result));
    },
  });

  routes.declare({
    method: 'GET',
    url: '/api/v1/health',
    handler: async (request, reply) => {
      parseStrictQuery(noParams, request.url);
      const status = await health.status();
      const body: HealthResponse = {
        status: status.status,
        service: FAIR_SERVICE_NAME,
        assessmentBackend: status.reachable,
        reasons: status.reasons,
        timestamp: status.checkedAt.toISOString(),
      };
      // 200 while the API can answer (healthy or degraded); 503 when it cannot assess anything (services/fair/health.ts).
      return reply
        .code(status.status === 'unhealthy' ? 503 : 200)
        .header('Cache-Control', 'no-store')
        .type(JSON_TYPE)
        .send(JSON.stringify(body));
    },
  });

  routes.openApi(fairOpenApi(opts.prefix, '1', metricVersions.accepted), opts.prefix, '/api/fair');

  routes.preflight();
}
