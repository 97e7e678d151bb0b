/**
 * Closed vocabularies of the Research Cohort Query Service (seed 002; research/metacan.md §1).
 * One place for each list: snapshot validation, query parsing, the generator and the docs read them here.
 */

/** The four admission routes, in canonical order (aff, fund, venue, about). */
export const ROUTES = ['aff', 'fund', 'venue', 'about'] as const;
export type Route = (typeof ROUTES)[number];

/** Snapshot column that records each route. */
export const ROUTE_COLUMN = {
  aff: 'route_ca_aff',
  fund: 'route_ca_fund',
  venue: 'route_ca_venue',
  about: 'route_about_ca',
} as const satisfies Record<Route, string>;

export const ROUTE_LABEL: Record<Route, string> = {
  aff: 'Canadian affiliation',
  fund: 'Canadian funder',
  venue: 'Canadian venue',
  about: 'About Canada',
};

/** The eight category facet values. */
export const CATEGORIES = [
  'metaresearch',
  'metaepi_narrow',
  'metaepi_broad',
  'bibliometrics',
  'sts',
  'scholarly_communication',
  'open_science',
  'research_integrity',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Prediction heads in score-array order: the eight categories, then `insufficient_payload`. */
export const CATEGORY_ORDER = [...CATEGORIES, 'insufficient_payload'] as const;

export const DESIGNS = [
  'randomized_trial',
  'nonrandomized_trial',
  'observational',
  'systematic_review',
  'meta_analysis',
  'case_report',
  'qualitative',
  'simulation_or_modeling',
  'bench_or_experimental',
  'theoretical_or_conceptual',
  'not_applicable',
  'design_other',
] as const;
export type Design = (typeof DESIGNS)[number];

export const DOMAINS = ['not_metaresearch', 'methods', 'reporting', 'reproducibility', 'evaluation', 'incentives'] as const;

export const GENRES = ['empirical', 'review', 'methods', 'commentary', 'editorial', 'protocol', 'dataset', 'software', 'other'] as const;

export const CONFIDENCES = ['high', 'medium', 'low'] as const;

/** Models of the direct labels and the three-model screen (the seed's anonymised keys). */
export const SCREEN_MODELS = ['model_a', 'model_b', 'model_c'] as const;
export type ScreenModel = (typeof SCREEN_MODELS)[number];

/** Screen tiers; T1 and T2 count as "in scope" (n_in), T3 does not. */
export const TIERS = ['T1', 'T2', 'T3', 'OUT'] as const;
export const IN_SCOPE_TIERS: ReadonlySet<string> = new Set(['T1', 'T2']);

/** Sampling strata, a partition of the sampling frame, in drawing precedence. */
export const STRATA = ['french', 'about_only', 'venue_new', 'fund_new', 'aff_core', 'aff_about', 'residual'] as const;
export type Stratum = (typeof STRATA)[number];

/** The four-state retraction record (Retraction Watch `nature`). */
export const RETRACTION_STATES = ['Retraction', 'Expression of concern', 'Correction', 'Reinstatement'] as const;

export const PREDICTION_STATUS = 'machine_predicted_unvalidated';
export const LEGACY_VALIDATION_STATUS = 'score_only:v0-immature-baseline';
