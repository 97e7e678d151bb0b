/**
 * CORS preflight and 405s: answers OPTIONS on each route URL with the methods that URL really has (the original
 * listed only GET even where POST existed). Routes are declared through `declare` so the list cannot drift.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ApiError } from '../../../contracts/common/errors.ts';
import { noParams, parseStrictQuery } from '../../../contracts/common/query.ts';
import { FROZEN_CACHE } from '../routes/send.ts';

const OTHER_METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const;

export function routeTable(app: FastifyInstance) {
  const methods = new Map<string, Set<string>>();
  return {
    declare(route: RouteOptions) {
      app.route(route);
      const set = methods.get(route.url) ?? new Set<string>(['OPTIONS']);
      for (const m of [route.method].flat()) set.add(m);
      if (set.has('GET')) set.add('HEAD');
      methods.set(route.url, set);
    },
    /** `GET /api/v1/openapi.json`: the service's OpenAPI document, built once, no parameters (DECISIONS.md §3). */
    openApi(document: unknown) {
      const body = JSON.stringify(document);
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
              throw new ApiError(
                'METHOD_NOT_ALLOWED',
                `${request.method} is not allowed here; allowed methods: ${allow}.`,
              );
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
