/**
 * Response schemas of the frame service: what each endpoint promises. Tests parse real responses with them,
 * and the OpenAPI document (./openapi.ts) is generated from them. Objects are strict where the shape is ours,
 * loose where the content comes from a snapshot document (findings, prediction report).
 */
import { z } from 'zod';
import { CATEGORIES, DESIGNS, ROUTES, SCREEN_MODELS, STRATA, TIERS } from './vocab.ts';
import { snapshotRefSchema } from './snapshot-ref.ts';
import { recentResponse, recentWorkResponse } from './recent.ts';

const count = z.number().int().min(0);

/** Where a live abstract came from (`/works/{id}?abstract=1`). */
export const ABSTRACT_SOURCES = ['screening_record', 'openalex_live'] as const;
/** Why a work record came without its abstract. */
export const ABSTRACT_UNAVAILABLE = ['no_abstract_upstream', 'not_in_catalogue', 'upstream_timeout', 'upstream_error', 'upstream_invalid', 'synthetic_snapshot'] as const;
// Generic over the extra fields, so the inferred response types keep them (pages read meta.total, meta.note).
const meta = <E extends z.ZodRawShape = Record<never, never>>(extra: E = {} as E) => z.object({ snapshot: snapshotRefSchema, ...extra }).strict();

export const summaryResponse = z
  .object({
    meta: meta(),
    works: count,
    no_aff: count,
    no_abstract: count,
    retracted_openalex: count,
    screened: count,
    retraction_notices: count,
    routes: z.object(Object.fromEntries(ROUTES.map((r) => [r, count]))).strict(),
    screen_consensus: z.object({ n_in_0: count, n_in_1: count, n_in_2: count, n_in_3: count }).strict(),
    coverage: z.object({ has_venue: count, has_abstract: count, french: count, no_funder: count }).strict(),
  })
  .strict();

const anyAll = <K extends string>(key: K, values: readonly [string, ...string[]]) =>
  z.array(z.object({ [key]: z.enum(values), any_model: count, all_models: count } as { [k in K]: z.ZodEnum } & { any_model: typeof count; all_models: typeof count }).strict());
export const labelsResponse = z
  .object({
    meta: meta({ status: z.string(), note: z.string() }),
    coverage: z.object({ labeled_works: count, label_rows: count, frame_works: count, models: z.array(z.enum(SCREEN_MODELS)) }).strict(),
    by_category: anyAll('category', CATEGORIES),
    by_design: anyAll('design', DESIGNS),
    by_year: z.array(z.object({ year: z.number().int(), labeled: count }).strict()),
    by_lang: z.array(z.object({ lang: z.string(), labeled: count }).strict()),
  })
  .strict();

export const byRouteResponse = z
  .object({
    meta: meta({ total: count, no_aff: count, note: z.string() }),
    marginals: z.array(z.object({ route: z.enum(ROUTES), label: z.string(), works: count }).strict()).length(4),
    combinations: z.array(z.object({ combo: z.string(), n_routes: z.number().int().min(0).max(4), works: count }).strict()),
  })
  .strict();

export const byYearResponse = z
  .object({
    meta: meta({ points: count, works_without_year: count }),
    results: z.array(z.object({ year: z.number().int(), works: count, no_aff: count, no_abstract: count }).strict()),
  })
  .strict();

const named = <K extends string>(key: K) => z.object({ [key]: z.string(), works: count } as { [k in K]: z.ZodString } & { works: typeof count }).strict();
export const byFieldResponse = z
  .object({
    meta: meta({ note: z.string() }),
    fields: z.array(z.object({ field: z.string(), works: count, no_abstract: count }).strict()),
    languages: z.array(z.object({ lang: z.string(), works: count, no_abstract: count }).strict()),
    abstract_gap_by_type: z.array(z.object({ type: z.string(), works: count, no_abstract: count, pct_no_abstract: z.number() }).strict()),
    top_venues: z.array(named('venue')),
    top_funders: z.array(named('funder')),
    retraction_states: z.array(z.object({ nature: z.string(), works: count, openalex_flagged: count, openalex_missed: count }).strict()),
  })
  .strict();

export const findingsResponse = z
  .object({
    meta: meta({ count, source: z.string(), evidence_status: z.string(), human_validation: z.string(), note: z.string() }),
    findings: z.record(z.string(), z.object({ headline: z.string(), values: z.record(z.string(), z.unknown()), computed_at_utc: z.string() }).loose()),
  })
  .strict();

export const predictionsResponse = z
  .object({
    meta: meta({ sources: z.record(z.string(), z.string()), evidence_level: z.literal('machine_not_human_accuracy'), note: z.string() }),
    predictions: z
      .object({ prediction_status: z.string(), n_predictions: count, limitations: z.array(z.string()), model_version: z.string(), frame_category_counts: z.record(z.string(), z.object({ candidate: count, consensus: count })) })
      .loose(),
    model: z.object({ model_version: z.string() }).loose(),
  })
  .strict();

const screenModel = z.object({ tier: z.enum(TIERS), genre: z.string().nullable(), about_ca: z.boolean(), confidence: z.string(), reasons: z.string().nullable() }).strict();

export const workResponse = z
  .object({
    meta: meta({ direct_label_status: z.string(), prediction_status: z.string() }),
    id: z.string().regex(/^W\d+$/),
    doi: z.string().nullable(),
    title: z.string(),
    year: z.number().int().nullable(),
    lang: z.string().nullable(),
    type: z.string(),
    venue: z.string().nullable(),
    topic: z.string().nullable(),
    field: z.string().nullable(),
    cited_by: count,
    is_retracted: z.boolean(),
    has_abstract: z.boolean(),
    routes: z.array(z.enum(ROUTES)).min(1),
    route_flags: z.object({ aff: z.boolean(), fund: z.boolean(), venue: z.boolean(), about: z.boolean(), invisible_to_affiliation: z.boolean() }).strict(),
    ca_institutions: z.array(z.string()),
    funders: z.array(z.string()),
    keywords: z.array(z.string()),
    authors: z.array(z.object({ id: z.string(), name: z.string(), orcid: z.string().nullable(), position: z.number().int().min(1), is_ca: z.boolean() }).strict()),
    retraction: z.object({ nature: z.string().nullable(), reason: z.string().nullable(), date: z.string().nullable(), openalex_flagged: z.boolean() }).strict().nullable(),
    screen: z
      .object({ n_in: z.number().int().min(0).max(3), stratum: z.enum(STRATA), stratum_n: count, weight: z.number(), ...Object.fromEntries(SCREEN_MODELS.map((m) => [m, screenModel])) })
      .strict()
      .nullable(),
    labels: z.array(
      z.object({ model: z.enum(SCREEN_MODELS), categories: z.array(z.string()), domain: z.string().nullable(), study_design: z.string().nullable(), genre: z.string().nullable(), about_ca_system: z.boolean(), about_ca_topic: z.boolean(), confidence: z.string(), status: z.string() }).strict(),
    ),
    label_agreement: z.enum(['single', 'agree', 'split']).nullable(),
    prediction: z.record(z.string(), z.unknown()).nullable(),
    machine_scores: z
      .object({ provisional: z.literal(true), score_model_a: z.number(), score_model_b: z.number(), score_spread: z.number(), validation_status: z.string(), note: z.string() })
      .strict()
      .nullable(),
    /** With `abstract=1`: the abstract, or null when none came back. */
    abstract: z.string().nullable().optional(),
    /** With `abstract=1`: where the abstract came from (`screening_record`, `openalex_live`), null when there is none. */
    abstract_source: z.enum(ABSTRACT_SOURCES).nullable().optional(),
    /** With `abstract=1` and no abstract: why (the catalogue has none, does not know the work, failed, timed out, answered garbage). */
    abstract_unavailable: z
      .object({ reason: z.enum(ABSTRACT_UNAVAILABLE), message: z.string() })
      .strict()
      .optional(),
  })
  .strict();

export const screenedResponse = z
  .object({
    meta: meta({ page: z.number().int(), per_page: z.number().int(), max_per_page: z.literal(100), total: count, filters: z.object({ contested_only: z.boolean(), n_in: z.number().int().nullable(), stratum: z.string().nullable() }).strict(), summary: z.record(z.string(), z.unknown()) }),
    results: z.array(
      z
        .object({ id: z.string(), title: z.string(), year: z.number().int().nullable(), lang: z.string().nullable(), type: z.string(), venue: z.string().nullable(), topic: z.string().nullable(), field: z.string().nullable(), stratum: z.enum(STRATA), stratum_n: count, weight: z.number(), n_in: z.number().int(), ...Object.fromEntries(SCREEN_MODELS.map((m) => [m, screenModel])) })
        .strict(),
    ),
  })
  .strict();

const graph = z
  .object({
    nodes: z.array(z.object({ id: z.string(), name: z.string(), ca_works: count }).strict()),
    edges: z.array(z.object({ a: z.string(), b: z.string(), shared_works: count, weight: z.number() }).strict()),
  })
  .strict();
export const networkResponse = z
  .object({ meta: z.object({ snapshot: snapshotRefSchema }).loose(), center: z.string().optional(), graph: graph.nullable() })
  .strict();

/** A work as cohort pages, /works and exports carry it: the work record without its meta block. */
export const workItem = workResponse.omit({ meta: true });

const filters = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const paging = {
  filters,
  query: z.string(),
  sort: z.enum(['cited', 'year_desc', 'year_asc', 'relevance']),
  page: z.number().int().min(1).nullable(),
  per_page: z.number().int().min(1).max(100),
  max_per_page: z.literal(100),
  total: count,
  total_is_capped: z.boolean(),
  next_cursor: z.string().nullable(),
};
export const cohortResponse = z
  .object({
    meta: meta({
      query_hash: z.string().regex(/^[0-9a-f]{16}$/),
      ...paging,
      direct_labels_cover: count,
      predictions_cover: count,
      direct_label_status: z.string(),
      prediction_status: z.string(),
      note: z.string(),
    }),
    results: z.array(workItem),
  })
  .strict();
export const worksListResponse = z.object({ meta: meta({ query_hash: z.string().regex(/^[0-9a-f]{16}$/), ...paging }), results: z.array(workItem) }).strict();
export const cohortFacetsResponse = z
  .object({
    meta: meta({ query_hash: z.string(), filters, facet: z.string(), total: count, distinct_values: count, shown: count, note: z.string() }),
    results: z.array(z.object({ value: z.union([z.string(), z.number(), z.null()]), works: count }).strict()),
  })
  .strict();
const typeaheadMeta = meta({ q: z.string(), limit: z.literal(12) });
export const valueFacetResponse = z
  .object({ meta: typeaheadMeta, results: z.array(z.object({ value: z.string(), works: count }).strict()).max(12) })
  .strict();
export const authorFacetResponse = z
  .object({ meta: typeaheadMeta, results: z.array(z.object({ id: z.string().regex(/^A\d+$/), name: z.string(), ca_works: count }).strict()).max(12) })
  .strict();
/** How the numbers counted now compare with the cited ones. */
export const PERMALINK_COMPARISONS = ['same', 'differs', 'not_recorded'] as const;
/** Where the snapshot a permalink was minted on stands: served by default, retained, or gone. */
export const MINTED_SNAPSHOT_STATUS = ['served', 'retained', 'gone'] as const;

const citedNumbers = z
  .object({
    snapshot: z.string(),
    recorded: z.boolean(),
    total: count.nullable(),
    direct_labels_cover: count.nullable(),
    predictions_cover: count.nullable(),
  })
  .strict();

const mintedSnapshot = z
  .object({
    id: z.string(),
    status: z.enum(MINTED_SNAPSHOT_STATUS),
    message: z.string(),
    /** The cohort on that snapshot (`/cohort?snapshot=…`); null when it is gone. */
    cohort: z.string().nullable(),
    /** What changed since (`/permalink/{hash}/changes`); null unless the snapshot is retained. */
    changes: z.string().nullable(),
    /** Counts on that snapshot, counted now (retained or served); null when it is gone. */
    total: count.nullable(),
    direct_labels_cover: count.nullable(),
    predictions_cover: count.nullable(),
  })
  .strict();

export const permalinkResponse = z
  .object({
    hash: z.string().regex(/^[0-9a-f]{16}$/),
    url: z.string(),
    api: z.string(),
    cohort: z.string(),
    filters,
    query: z.string(),
    snapshot: z.string(),
    created_at: z.string(),
    /** The snapshot being served, on which `total` and the covers below were counted now. */
    counted_on: z.string(),
    total: count,
    direct_labels_cover: count,
    predictions_cover: count,
    /** The numbers recorded when the permalink was minted (`recorded: false` for permalinks minted before they were kept). */
    cited: citedNumbers,
    /** Whether the numbers counted now are the cited ones, and why not. */
    comparison: z.object({ status: z.enum(PERMALINK_COMPARISONS), message: z.string() }).strict(),
    /** The snapshot the permalink was minted on: still served, retained (answerable with `snapshot=`), or gone. */
    minted_snapshot: mintedSnapshot,
  })
  .strict();

export type PermalinkView = z.infer<typeof permalinkResponse>;

const changedWork = <K extends string>(flag: K) => z.object({ id: z.string(), title: z.string().nullable(), [flag]: z.boolean() } as { id: z.ZodString; title: z.ZodNullable<z.ZodString> } & { [k in K]: z.ZodBoolean }).strict();

/** GET /permalink/{hash}/changes: works that entered and left the cohort between the minted and the served snapshot. */
export const permalinkChangesResponse = z
  .object({
    meta: meta({
      hash: z.string(),
      filters,
      query: z.string(),
      from: z.string(),
      to: z.string(),
      per_page: count,
      order: z.string(),
      note: z.string(),
    }),
    from: z.object({ snapshot: z.string(), total: count, cited: z.object({ total: count, direct_labels_cover: count, predictions_cover: count }).strict().nullable() }).strict(),
    to: z.object({ snapshot: z.string(), total: count }).strict(),
    entered: z.object({ count, new_to_frame: count, shown: count, results: z.array(changedWork('in_previous_frame')) }).strict(),
    left: z.object({ count, removed_from_frame: count, shown: count, results: z.array(changedWork('in_current_frame')) }).strict(),
  })
  .strict();

/** GET /snapshots: the snapshot served by default and the retained ones `snapshot=` may name. */
export const snapshotsResponse = z
  .object({
    meta: meta({ note: z.string() }),
    served: snapshotRefSchema,
    retained: z.array(snapshotRefSchema.extend({ loaded: z.boolean() }).strict()),
  })
  .strict();

/** Each GET route below the service prefix, with its response schema (path parameters in OpenAPI braces). */
export const FRAME_RESPONSES = {
  '/api/v1/stats/summary': summaryResponse,
  '/api/v1/stats/labels': labelsResponse,
  '/api/v1/stats/by-route': byRouteResponse,
  '/api/v1/stats/by-year': byYearResponse,
  '/api/v1/stats/by-field': byFieldResponse,
  '/api/v1/findings': findingsResponse,
  '/api/v1/predictions': predictionsResponse,
  '/api/v1/works/{id}': workResponse,
  '/api/v1/screened': screenedResponse,
  '/api/v1/network': networkResponse,
  '/api/v1/cohort': cohortResponse,
  '/api/v1/cohort/facets': cohortFacetsResponse,
  '/api/v1/works': worksListResponse,
  '/api/v1/facets/venue': valueFacetResponse,
  '/api/v1/facets/topic': valueFacetResponse,
  '/api/v1/facets/author': authorFacetResponse,
  '/api/v1/permalink/{hash}': permalinkResponse,
  '/api/v1/permalink/{hash}/changes': permalinkChangesResponse,
  '/api/v1/snapshots': snapshotsResponse,
  '/api/v1/recent': recentResponse,
  '/api/v1/recent/{id}': recentWorkResponse,
} as const;
