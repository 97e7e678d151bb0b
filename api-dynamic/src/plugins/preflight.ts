/**
 * CORS preflight and 405s: answers OPTIONS on each route URL with the methods that URL really has (the original
 * listed only GET even where POST existed). Routes are declared through `declare` so the list cannot drift.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from '../../../contracts/common/errors.ts';
import { noParams, parseStrictQuery } from '../../../contracts/common/query.ts';
import { FROZEN_CACHE } from '../routes/send.ts';

/** The parts of an OpenAPI document the API index reads. */
export interface OpenApiDocument {
  info: { title: string; version: string };
  paths: Record<string, unknown>;
}
type Operation = { summary?: string; description?: string };

/**
 * `GET <prefix>/api/v1`: what the API offers, so its root is not a 404: every operation (method and path, as in
 * the OpenAPI document), the document's address and the human reference page.
 */
export function apiIndex(document: OpenApiDocument, prefix: string, page: string) {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation | undefined>).flatMap(([method, op]) =>
      op ? [{ method: method.toUpperCase(), path, ...(op.summary || op.description ? { summary: op.summary ?? op.description } : {}) }] : [],
    ),
  );
  return { service: document.info.title, version: document.info.version, openapi: `${prefix}/api/v1/openapi.json`, documentation: page, operations };
}

const OTHER_METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const;

/** Whether a request carries a body (a Content-Length above 0, or a chunked one). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length.trim() !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * A body sent to a route that reads none is refused (400), not ignored: `POST /permalink` with the filters as
 * JSON used to mint the permalink of the whole frame. Checked on request, before any body parser can answer 415.
 */
function rejectBody(request: FastifyRequest, route: string) {
  if (!hasBody(request)) return;
  const filters = route.endsWith('/permalink')
    ? ` The filters go in the query string, e.g. POST ${request.url.split('?')[0]}?route=aff&lang=fr.`
    : ' Parameters go in the query string.';
  throw new ApiError('INVALID_PARAMETER', `${request.method} ${route} takes no request body.${filters}`, [
    { parameter: 'body', message: 'no request body is accepted; parameters go in the query string' },
  ]);
}

export function routeTable(app: FastifyInstance) {
  const methods = new Map<string, Set<string>>();
  return {
    /** Declares a route; unless `acceptsBody`, a request with a body is a 400 that says parameters go in the query string. */
    declare(route: RouteOptions & { acceptsBody?: boolean }) {
      const { acceptsBody, ...options } = route;
      app.route(
        acceptsBody ? options : { ...options, onRequest: async (request: FastifyRequest) => rejectBody(request, `${request.routeOptions.url ?? route.url}`) },
      );
      const set = methods.get(route.url) ?? new Set<string>(['OPTIONS']);
      for (const m of [route.method].flat()) set.add(m);
      if (set.has('GET')) set.add('HEAD');
      methods.set(route.url, set);
    },
    /**
     * `GET /api/v1/openapi.json`: the service's OpenAPI document, built once, no parameters (DECISIONS.md §3);
     * and `GET /api/v1`, the API's index (apiIndex), JSON whatever Accept says (every API path answers JSON); its
     * `documentation` names the rendered reference page (`page`).
     */
    openApi(document: OpenApiDocument, prefix: string, page: string) {
      const body = JSON.stringify(document);
      const index = JSON.stringify(apiIndex(document, prefix, page));
      this.declare({
        method: 'GET',
        url: '/api/v1',
        handler: async (request, reply) => {
          parseStrictQuery(noParams, request.url);
          return reply.header('Cache-Control', FROZEN_CACHE).type('application/json; charset=utf-8').send(index);
        },
      });
      this.declare({
        method: 'GET',
        url: '/api/v1/openapi.json',
        handler: async (request, reply) => {
          parseStrictQuery(noParams, request.url);
          return reply.header('Cache-Control', FROZEN_CACHE).type('application/json; charset=utf-8').send(body);
        },
      });
    },
    /** Registers the OPTIONS handlers; call once after the routes. */
    preflight() {
      for (const [url, set] of methods) {
        const allow = [...set].sort().join(', ');
        // A method the route does not have is a 405 that says which it has, not a 404.
        const missing = OTHER_METHODS.filter((m) => !set.has(m));
        if (missing.length > 0)
          app.route({
            method: missing,
            url,
            handler: async (request, reply) => {
              reply.header('Allow', allow);
              throw new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; allowed methods: ${allow}.`);
            },
          });
        app.options(url, async (_request, reply) => {
          reply
            .code(204)
            .header('Allow', allow)
            .header('Access-Control-Allow-Origin', '*')
            .header('Access-Control-Allow-Methods', allow)
            .header('Access-Control-Allow-Headers', 'Content-Type, Authorization, If-None-Match')
            .header('Access-Control-Max-Age', '86400')
            .send();
        });
      }
    },
  };
}
