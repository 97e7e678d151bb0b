/**
 * The rolling recent layer (`/frame/api/v1/recent`): works published in the last 15–30 days, pulled daily from
 * the upstream catalogue by `npm run recent:sync`, classified with the frame's four routes and kept in the
 * writable state store, apart from the frozen frame. This module holds its one query parser, the stored
 * record, the sync-run record and the response schema; the server, the sync command and the site share them.
 */
import { z } from 'zod';
import { ABOUT_CANADA_TIERS } from './about-canada.ts';
import {
  cohortParamsSchema,
  flag,
  invalid,
  MAX_OFFSET_RESULTS,
  MAX_PER_PAGE,
  DEFAULT_PER_PAGE,
  oneOf,
  ROUTE_VALUES,
  whole,
} from './cohort-query.ts';
import { parseStrictQuery } from '../common/query.ts';
import { ROUTES, type Route } from './vocab.ts';

/** The layer covers at most this many days (and the sync pulls 15 to 30). */
export const RECENT_MIN_DAYS = 15;
export const RECENT_MAX_DAYS = 30;
export const RECENT_CACHE = 'public, s-maxage=300';
export const RECENT_NOTE =
  'Rolling live layer, separate from the frozen frame: works published in the last days, classified into the four routes by the same rules; no screening, labels or predictions.';

// ---- query ----

const shape = cohortParamsSchema.shape;

/** Every /recent parameter; the value rules are the frame's (cohort-query.ts), so one spelling means one thing. */
export const recentParamsSchema = z.object({
  days: whole(RECENT_MIN_DAYS, RECENT_MAX_DAYS)
    .optional()
    .meta({ description: 'Window: works published on or after UTC today − (days − 1), up to today.', default: RECENT_MAX_DAYS, examples: [15] }),
  route: oneOf(ROUTE_VALUES).optional().meta({ description: 'One route, as in /cohort: aff, fund, venue, about, or no_aff.', examples: ['fund'] }),
  year: whole(1000, 9999).optional().meta({ description: 'Publication year.', examples: [2026] }),
  has_abstract: flag.optional().meta({ description: 'true (or 1): only works with an abstract in the catalogue; false (or 0): only without.', examples: [true] }),
  q: shape.q,
  type: shape.type,
  lang: shape.lang,
  venue: shape.venue,
  topic: shape.topic,
  field: shape.field,
  page: whole(1, MAX_OFFSET_RESULTS)
    .optional()
    .meta({ description: `Page number; page × per_page may reach at most result ${MAX_OFFSET_RESULTS}.`, default: 1, examples: [2] }),
  per_page: shape.per_page,
});

export interface RecentFilters {
  route?: (typeof ROUTE_VALUES)[number];
  year?: number;
  has_abstract?: boolean;
  /** Sorted distinct title terms. */
  q?: string;
  type?: string;
  lang?: string;
  venue?: string;
  topic?: string;
  field?: string;
}

export interface RecentQuery {
  days: number;
  filters: RecentFilters;
  page: number;
  per_page: number;
}

const FILTERS = ['route', 'year', 'has_abstract', 'q', 'type', 'lang', 'venue', 'topic', 'field'] as const satisfies readonly (keyof RecentFilters)[];

/** Parses a /recent URL strictly (DECISIONS.md §3): unknown, repeated or invalid parameters are 400s. */
export function parseRecentQuery(url: string): RecentQuery {
  const p = parseStrictQuery(recentParamsSchema, url, { emptyIsAbsent: true });
  const filters: RecentFilters = {};
  for (const k of FILTERS) if (p[k] !== undefined) (filters as Record<string, unknown>)[k] = p[k];
  const page = p.page ?? 1;
  const per_page = p.per_page ?? DEFAULT_PER_PAGE;
  if (page * per_page > MAX_OFFSET_RESULTS)
    invalid('page', `page × per_page may reach at most result ${MAX_OFFSET_RESULTS.toLocaleString('en')} (page ${page} × ${per_page} = ${page * per_page})`);
  return { days: p.days ?? RECENT_MAX_DAYS, filters, page, per_page };
}

/** First day of a window of `days` days ending today (UTC), as YYYY-MM-DD. */
export function windowStart(today: string, days: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}

/** Today in UTC, as YYYY-MM-DD. */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

// ---- stored records ----

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
const count = z.number().int().min(0);

const institution = z.object({ id: z.string().nullable(), name: z.string(), ror: z.string().nullable(), country_code: z.string().nullable() }).strict();

/** A recent work as stored and served: the frame's item vocabulary plus the evidence and provenance of the layer. */
export const recentWorkSchema = z
  .object({
    id: z.string().regex(/^W[1-9][0-9]{0,14}$/),
    doi: z.string().nullable(),
    title: z.string(),
    publication_date: isoDate,
    year: z.number().int(),
    lang: z.string().nullable(),
    type: z.string(),
    venue: z.string().nullable(),
    /** Catalogue id of the venue (`S…`), the evidence of route venue. */
    venue_id: z.string().nullable(),
    topic: z.string().nullable(),
    field: z.string().nullable(),
    cited_by: count,
    is_retracted: z.boolean(),
    has_abstract: z.boolean(),
    pmid: z.string().nullable(),
    pmcid: z.string().nullable(),
    routes: z.array(z.enum(ROUTES)).min(1),
    route_flags: z.object({ aff: z.boolean(), fund: z.boolean(), venue: z.boolean(), about: z.boolean(), invisible_to_affiliation: z.boolean() }).strict(),
    /** Why each route matched: Canadian institutions, Canadian funder ids, the about-Canada terms with their tier. */
    route_evidence: z
      .object({
        ca_institutions: z.array(z.string()),
        ca_funder_ids: z.array(z.string()),
        about_terms: z.array(z.object({ term: z.string(), tier: z.enum(ABOUT_CANADA_TIERS) }).strict()),
      })
      .strict(),
    ca_institutions: z.array(z.string()),
    funders: z.array(z.string()),
    keywords: z.array(z.string()),
    authors: z.array(
      z
        .object({ id: z.string().nullable(), name: z.string(), orcid: z.string().nullable(), position: z.number().int().min(1), is_ca: z.boolean(), institutions: z.array(institution) })
        .strict(),
    ),
    provenance: z
      .object({
        /** The rules that classified it: pinned lists of the build + about-Canada lexicon version. */
        route_version: z.string(),
        catalogue_updated_date: z.string().nullable(),
        source_window_start: isoDate,
        source_window_end: isoDate,
        first_seen_at: isoTime,
        last_seen_at: isoTime,
        synced_at: isoTime,
        sync_run: z.number().int().min(1),
      })
      .strict(),
  })
  .strict();
export type RecentWork = z.infer<typeof recentWorkSchema>;

export const SYNC_STATUSES = ['running', 'succeeded', 'failed', 'interrupted'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** One run of the sync command, as recorded in the state store. */
export const syncRunSchema = z
  .object({
    id: z.number().int().min(1),
    status: z.enum(SYNC_STATUSES),
    started_at: isoTime,
    completed_at: isoTime.nullable(),
    requested_days: z.number().int().min(RECENT_MIN_DAYS).max(RECENT_MAX_DAYS),
    window_start: isoDate,
    window_end: isoDate,
    route_version: z.string(),
    /** Snapshot whose pinned lists the run used. */
    snapshot_id: z.string(),
    /** The run whose checkpoint this one continued, after a crash or an interruption. */
    resumed_from: z.number().int().min(1).nullable(),
    api_requests: count,
    /** Rows the catalogue returned, duplicates across candidate queries included. */
    returned_rows: count,
    /** Distinct works among them. */
    candidate_rows: count,
    /** Candidates with at least one route. */
    matched_rows: count,
    /** Works in the layer after the run (0 until it succeeds). */
    stored_rows: count,
    /** Works dropped from the layer: published before the layer's oldest day, or no longer matching. */
    removed_rows: count,
    error: z.string().nullable(),
  })
  .strict();
export type SyncRun = z.infer<typeof syncRunSchema>;

// ---- response ----

export const recentFiltersEcho = z
  .object({
    route: z.enum(ROUTE_VALUES).nullable(),
    year: z.number().int().nullable(),
    has_abstract: z.boolean().nullable(),
    q: z.string().nullable(),
    type: z.string().nullable(),
    lang: z.string().nullable(),
    venue: z.string().nullable(),
    topic: z.string().nullable(),
    field: z.string().nullable(),
  })
  .strict();

export const recentResponse = z
  .object({
    meta: z
      .object({
        layer: z.literal('live'),
        note: z.string(),
        days: z.number().int().min(RECENT_MIN_DAYS).max(RECENT_MAX_DAYS),
        window_start: isoDate,
        window_end: isoDate,
        page: z.number().int().min(1),
        per_page: z.number().int().min(1).max(MAX_PER_PAGE),
        max_per_page: z.literal(MAX_PER_PAGE),
        total: count,
        filters: recentFiltersEcho,
        latest_sync: syncRunSchema.nullable(),
        last_successful_sync: syncRunSchema.nullable(),
        frozen_frame_unchanged: z.literal(true),
      })
      .strict(),
    results: z.array(recentWorkSchema),
  })
  .strict();

/** `/recent/{id}`: the stored work with the layer's meta block in front, like the frame's `/works/{id}`. */
export const recentWorkResponse = z
  .object({
    meta: z.object({ layer: z.literal('live'), note: z.string(), latest_sync: syncRunSchema.nullable(), last_successful_sync: syncRunSchema.nullable() }).strict(),
    ...recentWorkSchema.shape,
  })
  .strict();

/** The echo of the filters in `meta.filters`: every key, null when absent. */
export function echoRecentFilters(f: RecentFilters): z.infer<typeof recentFiltersEcho> {
  return {
    route: f.route ?? null,
    year: f.year ?? null,
    has_abstract: f.has_abstract ?? null,
    q: f.q ?? null,
    type: f.type ?? null,
    lang: f.lang ?? null,
    venue: f.venue ?? null,
    topic: f.topic ?? null,
    field: f.field ?? null,
  };
}

/** Whether a work is on a route value of the query (`no_aff`: no Canadian affiliation). */
export function onRoute(w: Pick<RecentWork, 'route_flags'>, route: (typeof ROUTE_VALUES)[number]): boolean {
  return route === 'no_aff' ? !w.route_flags.aff : w.route_flags[route as Route];
}
