/**
 * The rolling recent layer: `GET /recent` (filters, exact total, pages) and `GET /recent/{id}`. Answers come
 * from the state store's layer (RecentView), never from the frozen frame; they change when a sync succeeds,
 * so CDNs keep them five minutes (DECISIONS.md §3).
 */
import { ApiError } from '../../../../contracts/common/errors.ts';
import { parseStrictQuery } from '../../../../contracts/common/query.ts';
import { noParams, WORK_ID } from '../../../../contracts/frame/params.ts';
import { MAX_PER_PAGE } from '../../../../contracts/frame/cohort-query.ts';
import { echoRecentFilters, parseRecentQuery, RECENT_CACHE, RECENT_NOTE, utcDay, windowStart } from '../../../../contracts/frame/recent.ts';
import type { routeTable } from '../../plugins/preflight.ts';
import { recentPage, type RecentView } from '../../services/frame/recent/recent-view.ts';

type Routes = ReturnType<typeof routeTable>;

export function recentRoutes(routes: Routes, recent: RecentView) {
  routes.declare({
    method: 'GET',
    url: '/api/v1/recent',
    handler: async (request, reply) => {
      const q = parseRecentQuery(request.url);
      const state = await recent.current();
      const today = utcDay();
      const { total, results } = recentPage(state, q, today);
      reply.header('Cache-Control', RECENT_CACHE).type('application/json; charset=utf-8');
      return JSON.stringify({
        meta: {
          layer: 'live',
          note: RECENT_NOTE,
          days: q.days,
          window_start: windowStart(today, q.days),
          window_end: today,
          page: q.page,
          per_page: q.per_page,
          max_per_page: MAX_PER_PAGE,
          total,
          filters: echoRecentFilters(q.filters),
          latest_sync: state.latest,
          last_successful_sync: state.lastSuccessful,
          frozen_frame_unchanged: true,
        },
        results,
      });
    },
  });

  routes.declare({
    method: 'GET',
    url: '/api/v1/recent/:id',
    handler: async (request, reply) => {
      const { id } = request.params as { id: string };
      parseStrictQuery(noParams, request.url);
      if (!WORK_ID.test(id))
        throw new ApiError('INVALID_PARAMETER', `Work id "${id.slice(0, 40)}" is not valid: a work id is W followed by digits, e.g. W4100000016.`, [
          { parameter: 'id', message: 'must be W followed by digits' },
        ]);
      const state = await recent.current();
      const work = state.byId.get(id);
      if (!work) throw new ApiError('NOT_FOUND', `No work ${id} in the recent layer (it holds works published in the last 30 days that match a route).`);
      reply.header('Cache-Control', RECENT_CACHE).type('application/json; charset=utf-8');
      return JSON.stringify({
        meta: { layer: 'live', note: RECENT_NOTE, latest_sync: state.latest, last_successful_sync: state.lastSuccessful },
        ...work,
      });
    },
  });
}
