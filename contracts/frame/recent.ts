/**
 * The rolling recent layer (`/frame/api/v1/recent`): works published in the last 15–30 days, pulled daily from
 * the upstream catalogue by `npm run recent:sync`, classified with the frame's four routes and kept in the
 * writable state store, apart from the frozen frame. This module holds its one query parser, the stored
 * record, the sync-run record and the response schema; the server, the sync command and the site share them.
 */
import { z } from 'zod';
import { described } from '../common/describe.ts';
import { ABOUT_CANADA_TIERS } from './about-canada.ts';
import { cohortParamsSchema, flag, invalid, MAX_OFFSET_RESULTS, MAX_PER_PAGE, DEFAULT_PER_PAGE, oneOf, ROUTE_VALUES, whole } from './cohort-query.ts';
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
  route: oneOf(ROUTE_VALUES)
    .optional()
    .meta({ description: 'One route, as in /cohort: aff, fund, venue, about, or no_aff.', examples: ['fund'] }),
  year: whole(1000, 9999)
    .optional()
    .meta({ description: 'Publication year.', examples: [2026] }),
  has_abstract: flag
    .optional()
    .meta({ description: 'true (or 1): only works with an abstract in the catalogue; false (or 0): only without.', examples: [true] }),
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

const institution = z
  .object(
    described(
      { id: z.string().nullable(), name: z.string(), ror: z.string().nullable(), country_code: z.string().nullable() },
      {
        id: 'Catalogue id of the institution (I followed by digits); null when unknown.',
        name: 'Institution name.',
        ror: 'ROR id (URL); null when unknown.',
        country_code: 'ISO 3166-1 alpha-2 country code (CA for Canada); null when unknown.',
      },
    ),
  )
  .strict();

/** A recent work as stored and served: the frame's item vocabulary plus the evidence and provenance of the layer. */
export const recentWorkSchema = z
  .object(
    described(
      {
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
        route_flags: z
          .object(
            described(
              { aff: z.boolean(), fund: z.boolean(), venue: z.boolean(), about: z.boolean(), invisible_to_affiliation: z.boolean() },
              {
                aff: 'Matched by a Canadian affiliation of an author.',
                fund: 'Matched by a Canadian funder of the pinned list.',
                venue: 'Matched by a Canadian venue of the pinned list.',
                about: 'Matched by the about-Canada lexicon in title or abstract.',
                invisible_to_affiliation: 'True when no author has a Canadian affiliation: a search by affiliation alone misses the work.',
              },
            ),
          )
          .strict(),
        /** Why each route matched: Canadian institutions, Canadian funder ids, the about-Canada terms with their tier. */
        route_evidence: z
          .object(
            described(
              {
                ca_institutions: z.array(z.string()),
                ca_funder_ids: z.array(z.string()),
                about_terms: z.array(
                  z
                    .object(
                      described(
                        { term: z.string(), tier: z.enum(ABOUT_CANADA_TIERS) },
                        { term: 'The term as the lexicon has it.', tier: 'Its tier in the about-Canada lexicon (how strongly it points to Canada).' },
                      ),
                    )
                    .strict(),
                ),
              },
              {
                ca_institutions: 'Canadian institutions that made route aff match.',
                ca_funder_ids: 'Catalogue ids of the pinned Canadian funders that made route fund match.',
                about_terms: 'The about-Canada terms found, with their tier (route about).',
              },
            ),
          )
          .strict(),
        ca_institutions: z.array(z.string()),
        funders: z.array(z.string()),
        keywords: z.array(z.string()),
        authors: z.array(
          z
            .object(
              described(
                {
                  id: z.string().nullable(),
                  name: z.string(),
                  orcid: z.string().nullable(),
                  position: z.number().int().min(1),
                  is_ca: z.boolean(),
                  institutions: z.array(institution),
                },
                {
                  id: 'Author id (A followed by digits); null when the catalogue has none.',
                  name: 'Display name.',
                  orcid: 'ORCID iD; null when unknown.',
                  position: 'Place in the byline, from 1.',
                  is_ca: 'Whether the author has a Canadian affiliation on this work.',
                  institutions: "The author's affiliations on this work.",
                },
              ),
            )
            .strict(),
        ),
        provenance: z
          .object(
            described(
              {
                route_version: z.string(),
                catalogue_updated_date: z.string().nullable(),
                source_window_start: isoDate,
                source_window_end: isoDate,
                first_seen_at: isoTime,
                last_seen_at: isoTime,
                synced_at: isoTime,
                sync_run: z.number().int().min(1),
              },
              {
                route_version: 'The rules that classified it: the pinned lists of the build and the about-Canada lexicon version.',
                catalogue_updated_date: 'When the catalogue last updated the record; null when it does not say.',
                source_window_start: 'First publication day of the sync window that fetched it (ISO 8601 date).',
                source_window_end: 'Last publication day of that window.',
                first_seen_at: 'When a sync first stored the work (ISO 8601, UTC).',
                last_seen_at: 'When a sync last found it.',
                synced_at: 'When the stored record was written.',
                sync_run: 'Id of the sync run that wrote it.',
              },
            ),
          )
          .strict(),
      },
      {
        id: 'Work id (W followed by digits).',
        doi: 'DOI without the https://doi.org/ prefix; null when none.',
        title: 'Title as the catalogue has it.',
        publication_date: 'Publication date (ISO 8601 date).',
        year: 'Publication year.',
        lang: 'Language code (ISO 639-1); null when unknown.',
        type: 'Work type (article, preprint…).',
        venue: 'Venue name; null when unknown.',
        venue_id: 'Catalogue id of the venue (S followed by digits), the evidence of route venue; null when unknown.',
        topic: 'Primary topic; null when none.',
        field: 'Field of the primary topic; null when none.',
        cited_by: 'Citing works in the catalogue when synced.',
        is_retracted: 'Whether the catalogue flags the work as retracted.',
        has_abstract: 'Whether the catalogue holds an abstract.',
        pmid: 'PubMed id; null when none.',
        pmcid: 'PubMed Central id (PMC…); null when none.',
        routes: 'The routes that matched, in canonical order (aff, fund, venue, about); at least one.',
        route_flags: 'The same routes as booleans.',
        route_evidence: 'Why each route matched: Canadian institutions, Canadian funder ids, the about-Canada terms with their tier.',
        ca_institutions: 'Canadian institutions of its authors, by name.',
        funders: 'Funders it names, by name.',
        keywords: 'Keywords the catalogue assigns.',
        authors: 'Authors in byline order, with their affiliations.',
        provenance: 'Where and when the layer got the record, and the rules that classified it.',
      },
    ),
  )
  .strict();
export type RecentWork = z.infer<typeof recentWorkSchema>;

export const SYNC_STATUSES = ['running', 'succeeded', 'failed', 'interrupted'] as const;

/** One run of the sync command, as recorded in the state store. */
export const syncRunSchema = z
  .object(
    described(
      {
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
      },
      {
        id: 'Run id, increasing.',
        status: 'running, succeeded, failed or interrupted.',
        started_at: 'When the run started (ISO 8601, UTC).',
        completed_at: 'When it ended; null while running.',
        requested_days: 'Days of publication the run was asked to cover (--days).',
        window_start: 'First publication day of its window (ISO 8601 date).',
        window_end: 'Last publication day of its window.',
        route_version: 'The rules it classified with (pinned lists and lexicon version).',
        snapshot_id: 'Snapshot whose pinned lists the run used.',
        resumed_from: 'The run whose checkpoint this one continued, after a crash or an interruption; null for a fresh run.',
        api_requests: 'Requests made to the catalogue.',
        returned_rows: 'Rows the catalogue returned, duplicates across candidate queries included.',
        candidate_rows: 'Distinct works among them.',
        matched_rows: 'Candidates with at least one route.',
        stored_rows: 'Works in the layer after the run (0 until it succeeds).',
        removed_rows: 'Works dropped from the layer: published before its oldest day, or no longer matching.',
        error: 'Why the run failed; null unless it did.',
      },
    ),
  )
  .strict();
export type SyncRun = z.infer<typeof syncRunSchema>;

// ---- response ----

export const recentFiltersEcho = z
  .object(
    described(
      {
        route: z.enum(ROUTE_VALUES).nullable(),
        year: z.number().int().nullable(),
        has_abstract: z.boolean().nullable(),
        q: z.string().nullable(),
        type: z.string().nullable(),
        lang: z.string().nullable(),
        venue: z.string().nullable(),
        topic: z.string().nullable(),
        field: z.string().nullable(),
      },
      {
        route: 'The route asked for; null when not given.',
        year: 'The publication year asked for; null when not given.',
        has_abstract: 'Whether works with (true) or without (false) an abstract were asked for; null when not given.',
        q: 'The title search as read; null when not given.',
        type: 'The work type asked for; null when not given.',
        lang: 'The language asked for; null when not given.',
        venue: 'The venue asked for; null when not given.',
        topic: 'The topic asked for; null when not given.',
        field: 'The field asked for; null when not given.',
      },
    ),
  )
  .strict();

const LAYER_TEXTS = {
  layer: 'Always live: the rolling recent layer, apart from the frozen frame.',
  note: 'How to read the layer, in plain words.',
  latest_sync: 'The last sync run, whatever its outcome; null before the first.',
  last_successful_sync: 'The last run that succeeded (the one the layer is from); null before the first success.',
};

export const recentResponse = z
  .object({
    meta: z
      .object(
        described(
          {
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
          },
          {
            ...LAYER_TEXTS,
            days: 'The window asked for, in days back from window_end.',
            window_start: 'First publication day listed (ISO 8601 date).',
            window_end: 'Last publication day listed.',
            page: 'This page (1-based).',
            per_page: 'Works per page.',
            max_per_page: 'Largest per_page accepted.',
            total: 'Works matching, over all pages (exact).',
            filters: 'The filters as read; every key, null when not given.',
            frozen_frame_unchanged: 'Always true: the recent layer never changes the frozen frame or its counts.',
          },
        ),
      )
      .strict()
      .meta({ description: 'The layer, the window, paging, the filters as read, and the state of its sync runs.' }),
    results: z.array(recentWorkSchema).meta({ description: 'The works of this page, most recently published first.' }),
  })
  .strict();

/** `/recent/{id}`: the stored work with the layer's meta block in front, like the frame's `/works/{id}`. */
export const recentWorkResponse = z
  .object({
    meta: z
      .object(
        described(
          { layer: z.literal('live'), note: z.string(), latest_sync: syncRunSchema.nullable(), last_successful_sync: syncRunSchema.nullable() },
          LAYER_TEXTS,
        ),
      )
      .strict()
      .meta({ description: 'The layer and the state of its sync runs.' }),
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
