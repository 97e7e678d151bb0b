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
import { changesQuerySchema, facetQuerySchema, noParams } from '../../../../contracts/frame/params.ts';
import type { routeTable } from '../../plugins/preflight.ts';
import type { Build, BuildStore } from '../../services/build-store.ts';
import { authorTypeahead, cohortBody, cohortCounts, cohortFacetBody, cohortMatch, valueTypeahead, worksBody } from '../../services/frame/cohort/answers.ts';
import { exportChunks, exportFileName, exportPlan } from '../../services/frame/cohort/export.ts';
import { type Permalinks } from '../../services/frame/permalinks.ts';
import type { Snapshots } from '../../services/frame/snapshots.ts';
import { cohortChanges } from '../../services/frame/cohort/changes.ts';

type Routes = ReturnType<typeof routeTable>;
type Send = (request: FastifyRequest, reply: FastifyReply, build: Build, body: string) => FastifyReply;

export function cohortRoutes(
  routes: Routes,
  o: { store: BuildStore; prefix: string; publicOrigin?: string | undefined; permalinks: Permalinks; snapshots: Snapshots; sendBuilt: Send },
) {
  const { store, prefix, permalinks, snapshots, sendBuilt } = o;
  /** Absolute URL of a path on this server: on the configured public origin, else as the client addressed it. */
  const absolute = (request: FastifyRequest, path: string): string => `${o.publicOrigin ?? `${request.protocol}://${request.host}`}${path}`;

  // The pages and counts: parse with the surface's vocabulary, answer from the build being served (or the
  // retained one `snapshot=` names).
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
        return snapshots.use(q.snapshot, q.filters, async (build) => sendBuilt(request, reply, build, body(build, q)));
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
      // The build stays held until the stream ends, even if a reload swaps it out (or retention unloads it) meanwhile.
      const build = await snapshots.acquire(q.snapshot, q.filters);
      let released = false;
      const release = () => {
        if (!released) {
          released = true;
          build.release();
        }
      };
      try {
        // The export names its permalink, so the permalink must resolve: mint it (idempotent) first.
        await permalinks.mint(q.filters, build);
        const hash = queryHash(q.filters, build.snapshotId);
        const m = cohortMatch(build, q.filters);
        const plan = exportPlan(m);
        const query = filtersToQuery(q.filters);
        const links = {
          permalink: absolute(request, `${prefix}/q/${hash}`),
          api: absolute(request, `${prefix}/api/v1/cohort${withSnapshot(q.snapshot, query)}`),
        };
        reply
          .header('X-Snapshot', build.snapshotId)
          .header('Cache-Control', 'no-store')
          .header('Content-Type', q.format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8')
          .header(
            'Content-Disposition',
            `attachment; filename="${exportFileName(hash, { id: build.snapshotId, synthetic: build.manifest.snapshot.synthetic }, q.format)}"`,
          )
          .header('X-Cohort-Total', String(plan.total))
          .header('X-Export-Rows', String(plan.exported))
          .header('X-Export-Truncated', String(plan.truncated));
        // HEAD: the headers say it all; producing the rows only to drop them would cost a full export.
        if (request.method === 'HEAD') {
          release();
          return reply.send();
        }
        const stream = Readable.from(exportChunks(build, q, m, hash, links, store.streamsCut), { objectMode: false, highWaterMark: 1 << 16 });
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
        const { record, created } = await permalinks.mint(q.filters, build);
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
      checkHash(hash);
      return store.use(async (build) => {
        const view = await permalinks.resolve(hash, build, snapshots, (path) => absolute(request, `${prefix}${path}`));
        if (!view) throw new ApiError('NOT_FOUND', `No permalink ${hash}: mint one with POST ${prefix}/api/v1/permalink?<filters>.`);
        return sendBuilt(request, reply, build, JSON.stringify(view));
      });
    },
  });

  routes.declare({
    method: 'GET',
    url: '/api/v1/permalink/:hash/changes',
    handler: async (request, reply) => {
      const { per_page } = parseStrictQuery(changesQuerySchema, request.url);
      const { hash } = request.params as { hash: string };
      checkHash(hash);
      const record = await permalinks.get(hash);
      if (!record) throw new ApiError('NOT_FOUND', `No permalink ${hash}: mint one with POST ${prefix}/api/v1/permalink?<filters>.`);
      const filters = permalinks.filtersOf(record);
      const perPage = per_page ?? 25;
      return store.use(async (current) => {
        const from = record.snapshot;
        if (from !== current.snapshotId && !snapshots.isRetained(from)) {
          const [message, details, gone] = await snapshots.gone(from, filters);
          throw new ApiError('GONE', `What changed cannot be computed: ${message}`, details, { gone });
        }
        const diff =
          from === current.snapshotId
            ? cohortChanges(current, current, filters, perPage)
            : await snapshots.useRetained(from, (old) => cohortChanges(old, current, filters, perPage));
        const list = (l: ReturnType<typeof cohortChanges>['entered'], other: 'in_previous_frame' | 'in_current_frame', outside: string) => ({
          count: l.count,
          [outside]: l.outside_other_frame,
          shown: l.results.length,
          results: l.results.map(({ in_other_frame, ...w }) => ({ ...w, [other]: in_other_frame })),
        });
        const body = {
          meta: {
            snapshot: current.snapshotRef,
            hash,
            filters: record.filters,
            query: record.query,
            from: from,
            to: current.snapshotId,
            per_page: perPage,
            order: 'work id ascending',
            note:
              from === current.snapshotId
                ? 'The permalink was minted on the snapshot being served: nothing changed.'
                : `Works of the cohort on ${current.snapshotId} (served) and not on ${from} (minted) entered; the reverse left. Computed exactly over both snapshots.`,
          },
          from: { snapshot: from, total: diff.from_total, cited: record.cited ?? null },
          to: { snapshot: current.snapshotId, total: diff.to_total },
          entered: list(diff.entered, 'in_previous_frame', 'new_to_frame'),
          left: list(diff.left, 'in_current_frame', 'removed_from_frame'),
        };
        return sendBuilt(request, reply, current, JSON.stringify(body));
      });
    },
  });

  routes.declare({
    method: 'GET',
    url: '/api/v1/snapshots',
    handler: async (request, reply) => {
      parseStrictQuery(noParams, request.url);
      return store.use(async (build) => {
        const body = {
          meta: {
            snapshot: build.snapshotRef,
            note: 'Ask any cohort route, /cohort/export, /cohort/facets or /works/{id} with snapshot=<id> to answer from a retained snapshot.',
          },
          served: build.snapshotRef,
          retained: store.retained.info().map((r) => ({ ...r.ref, loaded: r.loaded })),
        };
        return reply
          .header('X-Snapshot', build.snapshotId)
          .header('Cache-Control', 'no-store')
          .type('application/json; charset=utf-8')
          .send(JSON.stringify(body));
      });
    },
  });
}

/** The query string of a cohort link, with `snapshot=` first when a retained snapshot answered. */
function withSnapshot(snapshot: string | null, query: string): string {
  const q = [snapshot === null ? '' : `snapshot=${encodeURIComponent(snapshot)}`, query].filter(Boolean).join('&');
  return q ? `?${q}` : '';
}

function checkHash(hash: string): void {
  if (!HASH_PATTERN.test(hash))
    throw new ApiError(
      'INVALID_PARAMETER',
      `"${hash.slice(0, 40)}" is not a permalink hash: 16 lower-case hex characters, as POST /api/v1/permalink returns.`,
      [{ parameter: 'hash', message: 'must be 16 lower-case hex characters' }],
    );
}
