/**
 * The frame's frozen documents as the statistics, findings and predictions pages read them (at build time),
 * and the links from a number to the cohort that has exactly that many works.
 *
 * Each document is parsed with the response schema the API's tests check (contracts/frame/responses.ts), so a
 * page cannot show a document the API would not serve. Links are built by the cohort parser's own canonical
 * writer (filtersToQuery) and offered only when the same parser accepts them: a bar never links to a query
 * that the cohort page would answer with a 400.
 */
import type { z } from 'zod';
import {
  byFieldResponse,
  byRouteResponse,
  byYearResponse,
  findingsResponse,
  labelsResponse,
  predictionsResponse,
  summaryResponse,
} from '../../../../contracts/frame/responses.ts';
import { type CohortFilters, filtersToQuery, parseCohortQuery } from '../../../../contracts/frame/cohort-query.ts';
import { ROUTE_LABEL, ROUTES, type Route } from '../../../../contracts/frame/vocab.ts';
import { frozen } from '../build-output.ts';
import { FRAME_API } from '../paths.ts';

/** The frozen documents, by the path the API serves them at (below FRAME_API). */
const DOCUMENTS = {
  'stats/summary': summaryResponse,
  'stats/by-route': byRouteResponse,
  'stats/by-year': byYearResponse,
  'stats/by-field': byFieldResponse,
  'stats/labels': labelsResponse,
  findings: findingsResponse,
  predictions: predictionsResponse,
} as const;
export type FrameDocumentPath = keyof typeof DOCUMENTS;

// The documents' types. They mirror the response schemas field for field; they are written out because the
// schemas are built by helpers (`meta(extra)`, `anyAll(key, …)`, `named(key)` in responses.ts) whose inferred
// types lose the extra keys. frameDocument() still parses every document with its schema first.
type Snapshot = z.infer<typeof summaryResponse>['meta']['snapshot'];
type Meta<T = object> = { snapshot: Snapshot } & T;
type AnyAll<K extends string> = Record<K, string> & { any_model: number; all_models: number };

export type Summary = z.infer<typeof summaryResponse>;
export interface ByRoute {
  meta: Meta<{ total: number; no_aff: number; note: string }>;
  marginals: { route: Route; label: string; works: number }[];
  combinations: { combo: string; n_routes: number; works: number }[];
}
export interface ByYear {
  meta: Meta<{ points: number; works_without_year: number }>;
  results: { year: number; works: number; no_aff: number; no_abstract: number }[];
}
export interface ByField {
  meta: Meta<{ note: string }>;
  fields: { field: string; works: number; no_abstract: number }[];
  languages: { lang: string; works: number; no_abstract: number }[];
  abstract_gap_by_type: { type: string; works: number; no_abstract: number; pct_no_abstract: number }[];
  top_venues: { venue: string; works: number }[];
  top_funders: { funder: string; works: number }[];
  retraction_states: { nature: string; works: number; openalex_flagged: number; openalex_missed: number }[];
}
export interface Labels {
  meta: Meta<{ status: string; note: string }>;
  coverage: { labeled_works: number; label_rows: number; frame_works: number; models: string[] };
  by_category: AnyAll<'category'>[];
  by_design: AnyAll<'design'>[];
  by_year: { year: number; labeled: number }[];
  by_lang: { lang: string; labeled: number }[];
}
export interface FindingsDocument {
  meta: Meta<{ count: number; source: string; evidence_status: string; human_validation: string; note: string }>;
  findings: Record<string, { headline: string; values: Record<string, unknown>; computed_at_utc: string } & Record<string, unknown>>;
}
export interface PredictionsDocument {
  meta: Meta<{ sources: Record<string, string>; evidence_level: 'machine_not_human_accuracy'; note: string }>;
  predictions: {
    prediction_status: string;
    n_predictions: number;
    limitations: string[];
    model_version: string;
    frame_category_counts: Record<string, { candidate: number; consensus: number }>;
  } & Record<string, unknown>;
  model: { model_version: string } & Record<string, unknown>;
}
interface Documents {
  'stats/summary': Summary;
  'stats/by-route': ByRoute;
  'stats/by-year': ByYear;
  'stats/by-field': ByField;
  'stats/labels': Labels;
  findings: FindingsDocument;
  predictions: PredictionsDocument;
}
export type FrameDocument<P extends FrameDocumentPath> = Documents[P];

/**
 * A frozen frame document of the build being rendered, checked against its response schema; null when the
 * build has none (the page then says so). A document that fails its schema fails the site build, loudly.
 */
export function frameDocument<P extends FrameDocumentPath>(path: P): FrameDocument<P> | null {
  const raw = frozen<unknown>(`frame/api/v1/${path}`);
  if (raw === null) return null;
  return DOCUMENTS[path].parse(raw) as unknown as FrameDocument<P>;
}

/** The API address of a frozen document, for "this page as JSON" links. */
export const apiPath = (path: FrameDocumentPath): string => `${FRAME_API}/${path}`;

/** The cohort builder's page (the page's URL takes the API's query string). */
export const COHORT_PAGE = '/frame/cohort';

/**
 * The cohort page of exactly these filters, or undefined when the cohort parser refuses them (e.g. a language
 * "unknown", which is not a language code). The query string is the canonical one the API writes itself.
 */
export function cohortHref(filters: CohortFilters): string | undefined {
  const query = filtersToQuery(filters);
  const href = query === '' ? COHORT_PAGE : `${COHORT_PAGE}?${query}`;
  try {
    parseCohortQuery(href, 'cohort');
    return href;
  } catch {
    return undefined;
  }
}

/**
 * How the stats step names a missing value in a breakdown (pipeline/steps/frame/stats.json.ts: `coalesce(field,
 * 'Unclassified')`, `coalesce(lang, 'unknown')`, `coalesce(nature, 'Unspecified')`, combination `none`). Such a
 * row counts works with no value, which no cohort filter selects, so it gets no link.
 */
export const MISSING = { field: 'Unclassified', lang: 'unknown', nature: 'Unspecified', combo: 'none' } as const;

/** The cohort of a value of a breakdown, unless the value stands for "missing". */
export function valueHref(key: 'field' | 'lang' | 'type' | 'venue', value: string, extra: CohortFilters = {}): string | undefined {
  if ((key === 'field' && value === MISSING.field) || (key === 'lang' && value === MISSING.lang)) return undefined;
  return cohortHref({ ...extra, [key]: value });
}

/** The routes of a combination string of the by-route document ("aff+fund"; "none" is no route). */
export function comboRoutes(combo: string): Route[] {
  if (combo === MISSING.combo) return [];
  return combo.split('+').filter((r): r is Route => (ROUTES as readonly string[]).includes(r));
}

/** The cohort of exactly one combination: its routes required, every other route excluded. */
export function comboHref(combo: string): string | undefined {
  const has = new Set(comboRoutes(combo));
  return cohortHref(Object.fromEntries(ROUTES.map((r) => [`route_${r}`, has.has(r)])) as CohortFilters);
}

/** "aff+fund" → "Canadian affiliation + Canadian funder". */
export function comboLabel(combo: string): string {
  const routes = comboRoutes(combo);
  return routes.length === 0 ? 'No route' : routes.map((r) => ROUTE_LABEL[r]).join(' + ');
}

/** The cohort of works a route admitted. */
export const routeHref = (route: Route): string | undefined => cohortHref({ [`route_${route}`]: true } as CohortFilters);

/** The cohort of one publication year. */
export const yearHref = (year: number, extra: CohortFilters = {}): string | undefined => cohortHref({ ...extra, year_from: year, year_to: year });

const EXACT = new Intl.NumberFormat('en-CA', { maximumFractionDigits: 20 });
/**
 * A number of a snapshot document as it is, with en-CA grouping: integers as fmt() prints them, fractions with
 * every digit the JSON has (fmt() keeps three, which would change a finding's 0.01594 into 0.016).
 */
export const exact = (n: number): string => EXACT.format(n);

/** A vocabulary slug for reading: "randomized_trial" → "randomized trial". */
export const words = (slug: string): string => slug.replaceAll('_', ' ');

/** The statistics pages, in the order the index and the sub-navigation list them. */
export const STATS_PAGES = [
  { href: '/frame/stats', name: 'Overview and years', about: 'The frame in numbers, works per publication year, the screening consensus.' },
  { href: '/frame/stats/routes', name: 'Routes', about: 'How works entered the frame: the four route marginals and every combination of routes.' },
  {
    href: '/frame/stats/fields',
    name: 'Fields, types, venues, funders',
    about: 'Works by primary field, the abstract gap by work type, the largest venues and funders.',
  },
  { href: '/frame/stats/languages', name: 'Languages', about: 'Works by language, with and without an abstract.' },
  {
    href: '/frame/stats/labels',
    name: 'Labels and predictions',
    about: 'Direct machine labels per category and study design, and the frame predictions per category.',
  },
  { href: '/frame/stats/retractions', name: 'Retraction states', about: 'The four Retraction Watch states and how many OpenAlex flags.' },
] as const;
