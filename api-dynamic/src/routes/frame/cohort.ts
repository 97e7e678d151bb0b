/**
 * The cohort routes: `/cohort`, `/cohort/facets`, `/cohort/export`, `/works`, the typeahead facets and the
 * permalinks. Every one parses with parseCohortQuery (contracts/frame/cohort-query.ts), so they all answer
 * the same question for the same query string.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../../contracts/common/errors.ts';
import { parseStrictQuery } from '../../../../contracts/common/query.ts';
import {
  type CohortQuery,
  filtersToQuery,
  HASH_PATTERN,
  parseCohortQuery,
  queryHash,
  requireFacet,
  type Surface,
} from '../../../../contracts/frame/cohort-query.ts';
import { facetQuerySchema, noParams } from '../../../../contracts/frame/params.ts';
import type { routeTable } from '../../plugins/preflight.ts';
import type { Build, BuildStore } from '../../services/build-store.ts';
import {
  authorTypeahead,
  cohortBody,
  cohortCounts,
  cohortFacetBody,
  cohortMatch,
  valueTypeahead,
  worksBody,
} from '../../services/frame/cohort/answers.ts';
import { exportChunks, exportPlan } from '../../services/frame/cohort/export.ts';
import { type Permalinks } from '../../services/frame/permalinks.ts';

type Routes = ReturnType<typeof routeTable>;
type Send = (request: FastifyRequest, reply: FastifyReply, build: Build, body: string) => FastifyReply;

/** Absolute URL of a path on this server, as the client addressed it. */
function absolute(request: FastifyRequest, path: string): string {
  return `${request.protocol}://${request.host}${path}`;
}

export function cohortRoutes(routes: Routes, o: { store: BuildStore; prefix: string; permalinks: Permalinks; sendBuilt: Send }) {
  const { store, prefix, permalinks, sendBuilt } = o;

  // The pages and counts: parse with the surface's vocabulary, answer from the build being served.
  const answers: [url: string, surface: Surface, body: (build: Build, q: CohortQuery) => string][] = [
    ['/api/v1/cohort', 'cohort', cohortBody],
    ['/api/v1/works', 'works', worksBody],
    ['/api/v1/cohort/facets', 'cohort_facets', (build, q) => cohortFacetBody(build, q, requireFacet(q))],
  ];
  for (const [url, surface, body] of answers)
    routes.declare({
      method: 'GET',
      url,
      handler: async (request, reply) => {
        const q = parseCohortQuery(request.url, surface);
        return store.use(async (build) => sendBuilt(request, reply, build, body(build, q)));
      },
    });

  for (const which of ['venue', 'topic', 'author'] as const) {
    routes.declare({
      method: 'GET',
      url: `/api/v1/facets/${which}`,
      handler: async (request, reply) => {
        const { q } = parseStrictQuery(facetQuerySchema, request.url);
        return store.use(async (build) => {
          const results = which === 'author' ? authorTypeahead(build, q) : valueTypeahead(build, which, q);
          return sendBuilt(request, reply, build, JSON.stringify({ meta: { snapshot: build.snapshotRef, q, limit: 12 }, results }));
        });
      },
    });
  }

  routes.declare({
    method: 'GET',
    url: '/api/v1/cohort/export',
    handler: async (request, reply) => {
      const q = parseCohortQuery(request.url, 'export');
      // The export names its permalink, so the permalink must resolve: mint it (idempotent) first.
      await permalinks.mint(q.filters, store.current.snapshotId);
      // The build stays held until the stream ends, even if a reload swaps it out meanwhile.
      const build = store.current.acquire();
      let released = false;
      const release = () => {
        if (!released) {
          released = true;
          build.release();
        }
      };
      try {
        const hash = queryHash(q.filters, build.snapshotId);
        const m = cohortMatch(build, q.filters);
        const plan = exportPlan(m);
        const query = filtersToQuery(q.filters);
        const links = {
          permalink: absolute(request, `${prefix}/q/${hash}`),
          api: absolute(request, `${prefix}/api/v1/cohort${query ? `?${query}` : ''}`),
        };
        reply
          .header('X-Snapshot', build.snapshotId)
          .header('Cache-Control', 'no-store')
          .header('Content-Type', q.format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="frame-cohort-${hash}${q.format === 'csv-excel' ? '-excel.csv' : `.${q.format}`}"`)
          .header('X-Cohort-Total', String(plan.total))
          .header('X-Export-Rows', String(plan.exported))
          .header('X-Export-Truncated', String(plan.truncated));
        // HEAD: the headers say it all; producing the rows only to drop them would cost a full export.
        if (request.method === 'HEAD') {
          release();
          return reply.send();
        }
        const stream = Readable.from(exportChunks(build, q, m, hash, links), { objectMode: false, highWaterMark: 1 << 16 });
        stream.once('close', release);
        stream.once('error', release);
        return reply.send(stream);
      } catch (err) {
        release();
        throw err;
      }
    },
  });

  routes.declare({
    method: 'POST',
    url: '/api/v1/permalink',
    handler: async (request, reply) => {
      const q = parseCohortQuery(request.url, 'permalink');
      return store.use(async (build) => {
        const { record, created } = await permalinks.mint(q.filters, build.snapshotId);
        const counts = cohortCounts(build, q.filters);
        return reply
          .code(created ? 201 : 200)
          .header('X-Snapshot', build.snapshotId)
          .header('Cache-Control', 'no-store')
          .header('Location', `${prefix}/api/v1/permalink/${record.hash}`)
          .type('application/json; charset=utf-8')
          .send(JSON.stringify(permalinks.view(record, counts, build, (path) => absolute(request, `${prefix}${path}`))));
      });
    },
  });

  routes.declare({
    method: 'GET',
    url: '/api/v1/permalink/:hash',
    handler: async (request, reply) => {
      parseStrictQuery(noParams, request.url);
      const { hash } = request.params as { hash: string };
      if (!HASH_PATTERN.test(hash))
        throw new ApiError('INVALID_PARAMETER', `"${hash.slice(0, 40)}" is not a permalink hash: 16 lower-case hex characters, as POST /api/v1/permalink returns.`, [
          { parameter: 'hash', message: 'must be 16 lower-case hex characters' },
        ]);
      return store.use(async (build) => {
        const view = await permalinks.resolve(hash, build, (path) => absolute(request, `${prefix}${path}`));
        if (!view) throw new ApiError('NOT_FOUND', `No permalink ${hash}: mint one with POST ${prefix}/api/v1/permalink?<filters>.`);
        return sendBuilt(request, reply, build, JSON.stringify(view));
      });
    },
  });
}
