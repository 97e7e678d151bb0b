/**
 * Research Cohort Query Service routes (mounted at FRAME_PREFIX, default /frame). This foundation serves the
 * frozen documents the pipeline precomputed and the work records; the cohort engine adds its routes here.
 */
import type { FastifyInstance } from 'fastify';
import { frameOpenApi } from '../../../../contracts/frame/openapi.ts';
import { networkQuerySchema, noParams, WORK_ID, workQuerySchema } from '../../../../contracts/frame/params.ts';
import { ApiError } from '../../../../contracts/common/errors.ts';
import { parseStrictQuery } from '../../../../contracts/common/query.ts';
import { routeTable } from '../../plugins/preflight.ts';
import type { BuildStore } from '../../services/build-store.ts';
import { workRecordText } from '../../services/frame/work-records.ts';
import { sampleSummary, screenedPage } from '../../services/frame/screened.ts';
import { egoGraph, networkBase } from '../../services/frame/network.ts';
import { parseScreenedQuery } from '../../../../contracts/frame/screened.ts';
import { cohortRoutes } from './cohort.ts';
import type { Permalinks } from '../../services/frame/permalinks.ts';
import type { Snapshots } from '../../services/frame/snapshots.ts';
import type { AbstractService } from '../../services/frame/abstracts.ts';
import type { RecentView } from '../../services/frame/recent/recent-view.ts';
import { recentRoutes } from './recent.ts';
import { FROZEN_CACHE, sendBuilt, sendJson } from '../send.ts';

export { FROZEN_CACHE };

/** Frozen documents: URL below the prefix → path below the build directory (without `.json`). */
export const FROZEN_ROUTES = ['stats/summary', 'stats/labels', 'stats/by-route', 'stats/by-year', 'stats/by-field', 'findings', 'predictions'] as const;

const workParams = workQuerySchema;
const networkParams = networkQuerySchema;

/** A live abstract may be cached a day by a CDN; an answer without one (upstream trouble) is not cached. */
const LIVE_ABSTRACT_CACHE = 'public, s-maxage=3600';

export interface FrameRouteOptions {
  store: BuildStore;
  prefix: string;
  /** Origin of permalink and export URLs (PUBLIC_ORIGIN); unset, the request's scheme and Host. */
  publicOrigin?: string | undefined;
  permalinks: Permalinks;
  snapshots: Snapshots;
  abstracts: AbstractService;
  recent: RecentView;
}

export default async function frameRoutes(app: FastifyInstance, opts: FrameRouteOptions) {
  const { store } = opts;
  const routes = routeTable(app);
  cohortRoutes(routes, { store, prefix: opts.prefix, publicOrigin: opts.publicOrigin, permalinks: opts.permalinks, snapshots: opts.snapshots, sendBuilt });
  recentRoutes(routes, opts.recent);

  for (const path of FROZEN_ROUTES) {
    routes.declare({
      method: 'GET',
      url: `/api/v1/${path}`,
      handler: async (request, reply) => {
        parseStrictQuery(noParams, request.url);
        const build = store.current;
        const doc = build.frozen.get(`frame/api/v1/${path}`);
        if (!doc) throw new ApiError('NOT_FOUND', `This build has no /${path} document.`);
        return sendJson(request, reply, doc.body, doc.etag, build.snapshotId);
      },
    });
  }

  routes.declare({
    method: 'GET',
    url: '/api/v1/works/:id',
    handler: async (request, reply) => {
      const { id } = request.params as { id: string };
      const { abstract, snapshot } = parseStrictQuery(workParams, request.url);
      if (!WORK_ID.test(id))
        throw new ApiError('INVALID_PARAMETER', `Work id "${id.slice(0, 40)}" is not valid: a work id is W followed by digits, e.g. W2000000000.`, [
          { parameter: 'id', message: 'must be W followed by digits' },
        ]);
      return opts.snapshots.use(snapshot ?? null, null, async (build) => {
        const text = workRecordText(build, id);
        if (text === null) {
          reply.header('X-Snapshot', build.snapshotId);
          throw new ApiError('NOT_FOUND', `No work ${id} in the frame (snapshot ${build.snapshotId}).`);
        }
        if (abstract !== true) return sendBuilt(request, reply, build, text);
        const live = await opts.abstracts.forWork(build, id);
        // The record's JSON ends with its closing brace: the abstract fields are appended inside it.
        const body = `${text.slice(0, -1)},${JSON.stringify(live).slice(1)}`;
        return sendBuilt(request, reply, build, body, live.abstract_unavailable ? 'no-store' : LIVE_ABSTRACT_CACHE);
      });
    },
  });

  routes.declare({
    method: 'GET',
    url: '/api/v1/screened',
    handler: async (request, reply) => {
      const q = parseScreenedQuery(request.url);
      return store.use(async (build) => {
        const [{ total, results }, summary] = await Promise.all([screenedPage(build, q), sampleSummary(build)]);
        const snapshot = build.snapshotRef;
        const body = JSON.stringify({
          meta: {
            snapshot,
            page: q.page,
            per_page: q.per_page,
            max_per_page: 100,
            total,
            filters: { contested_only: q.contested_only === true, n_in: q.n_in ?? null, stratum: q.stratum ?? null },
            summary,
          },
          results,
        });
        // The body names the filters and page, so its hash identifies the answer.
        return sendBuilt(request, reply, build, body);
      });
    },
  });

  routes.declare({
    method: 'GET',
    url: '/api/v1/network',
    handler: async (request, reply) => {
      const { author_id } = parseStrictQuery(networkParams, request.url);
      return store.use(async (build) => {
        const base = await networkBase(build);
        let body: string;
        if (author_id === undefined) body = JSON.stringify({ meta: base.meta, graph: base.meta.available ? base.overview : null });
        else {
          const graph = egoGraph(build, author_id);
          if (!graph) {
            // Not cached (errors are no-store): the author may simply be missing from this snapshot.
            reply.header('X-Snapshot', build.snapshotId);
            throw new ApiError('NOT_FOUND', `No researcher ${author_id} with Canadian-affiliated work in snapshot ${build.snapshotId}.`, [
              { parameter: 'author_id', message: 'unknown author_id' },
            ]);
          }
          body = JSON.stringify({ meta: base.meta, center: author_id, graph });
        }
        return sendBuilt(request, reply, build, body);
      });
    },
  });

  routes.openApi(frameOpenApi(opts.prefix, '1'), opts.prefix, '/api/frame');

  routes.preflight();
}
