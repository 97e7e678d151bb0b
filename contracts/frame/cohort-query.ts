/**
 * The one parser of the cohort vocabulary (seed 002; DECISIONS.md §3–4). `/cohort`, `/cohort/export`,
 * `/cohort/facets`, `/permalink`, `/works` and the site's pages all call parseCohortQuery(); each surface
 * allows a subset of the same schema, and every surface gets the same canonical filters, so no two surfaces
 * can answer different questions for the same query string.
 *
 * Canonical filters: defaults removed, synonyms folded (`route=aff` ≡ `route_aff=1`, `route=no_aff` ≡
 * `route_aff=0`, `no_abstract=1` ≡ `abstract=none`), strings trimmed, search text reduced to its sorted
 * distinct terms, no-op values dropped (`cited_min=0`; label options without a category or design), keys
 * sorted. The query hash covers the canonical filters and the snapshot id.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../common/errors.ts';
import { parseStrictQuery, queryFlag, queryOnlyTrue, wholeNumber } from '../common/query.ts';
import { stableStringify } from '../common/stable-json.ts';
import { titleTerms } from './title-terms.ts';
import { CATEGORIES, DESIGNS, ROUTES, type Route } from './vocab.ts';

export const SORTS = ['cited', 'year_desc', 'year_asc', 'relevance'] as const;
export type Sort = (typeof SORTS)[number];
export const ROUTE_VALUES = [...ROUTES, 'no_aff'] as const;
/**
 * Export formats: `csv` (plain UTF-8, for programs), `csv-excel` (the same rows for a spreadsheet: a UTF-8 byte
 * order mark so Excel reads accents right, and the export's provenance in its first lines), `json`.
 */
export const EXPORT_FORMATS = ['csv', 'csv-excel', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const COHORT_FACETS = ['type', 'lang', 'field', 'topic', 'venue', 'year', 'route'] as const;
export type CohortFacet = (typeof COHORT_FACETS)[number];

/** Offset paging reaches this many results; a cursor goes further. */
export const MAX_OFFSET_RESULTS = 10_000;
export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 25;
export const EXPORT_CAP = 100_000;
/** `/works` counts up to this many results (`total_is_capped` beyond). */
export const WORKS_TOTAL_CAP = 10_000;

// ---- value schemas (input: the raw query-string value) ----

export const whole = (min: number, max: number) => wholeNumber(min, max);
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` });
export const flag = queryFlag();
const onlyOne = queryOnlyTrue('takes only the value 1');
const text = (max: number) =>
  z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().max(max, `must contain at most ${max} characters`));
const searchText = (max: number) =>
  text(max).transform((s, ctx) => {
    const terms = titleTerms(s);
    if (terms.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'must contain at least one letter or digit' });
      return z.NEVER;
    }
    if (terms.length > 16) {
      ctx.addIssue({ code: 'custom', message: 'may contain at most 16 search terms' });
      return z.NEVER;
    }
    return terms.sort().join(' ');
  });
const entityId = (letter: 'A' | 'W') =>
  z.string().regex(new RegExp(`^${letter}[1-9][0-9]{0,14}$`), `must be ${letter} followed by digits, e.g. ${letter}5000000012`);

/** A snapshot id as the service names them (`<name>-<12 hex>`), for `snapshot=`. */
export const SNAPSHOT_ID = /^[A-Za-z0-9._-]{1,128}$/;
export const snapshotId = z.string().regex(SNAPSHOT_ID, 'must be a snapshot id such as sample-0123456789ab (GET /api/v1/snapshots lists them)');

/**
 * The whole vocabulary, one field per parameter. Values are strings on the way in; an empty value means the
 * parameter was left out (HTML forms send empty fields), so it is removed before parsing. The `.meta()` text
 * is the parameter's documentation: the OpenAPI documents and the rendered reference read it from here.
 */
export const cohortParamsSchema = z.object({
  q: searchText(200)
    .optional()
    .meta({
      description: 'Title search: every term must occur in the title (terms are runs of letters and digits, case-folded; at most 16 terms, 200 characters).',
      examples: ['peer review'],
    }),
  author: searchText(200)
    .optional()
    .meta({ description: 'Author-name search with the same term semantics as q; may match many author identities.', examples: ['smith'] }),
  author_id: entityId('A')
    .optional()
    .meta({ description: 'Exact author id: A followed by digits.', examples: ['A5000000012'] }),
  year_from: whole(1000, 9999)
    .optional()
    .meta({ description: 'Inclusive lower bound of the publication year; must not be after year_to.', examples: [2015] }),
  year_to: whole(1000, 9999)
    .optional()
    .meta({ description: 'Inclusive upper bound of the publication year; must not be before year_from.', examples: [2020] }),
  cited_min: whole(0, 10_000_000)
    .optional()
    .meta({ description: 'Minimum citation count (cited_by ≥ N); 0 changes nothing.', examples: [10] }),
  lang: text(16)
    .transform((s) => s.toLowerCase())
    .pipe(z.string().regex(/^[a-z]{2,3}(-[a-z0-9]{1,8})?$/, 'must be a language code such as en or fr'))
    .optional()
    .meta({ description: 'Language code, e.g. en, fr (case-folded).', examples: ['fr'] }),
  type: text(32)
    .pipe(z.string().regex(/^[a-z][a-z-]{0,31}$/, 'must be a lower-case work type such as article'))
    .optional()
    .meta({ description: 'Work type, e.g. article, preprint, dissertation.', examples: ['article'] }),
  field: text(300)
    .optional()
    .meta({ description: 'Primary field name, exact (values from /cohort/facets?facet=field).', examples: ['Medicine'] }),
  topic: text(300)
    .optional()
    .meta({ description: 'Primary topic, exact (values from /facets/topic).', examples: ['Peer review'] }),
  venue: text(300)
    .optional()
    .meta({ description: 'Venue, exact (values from /facets/venue).', examples: ['PLOS ONE'] }),
  route: oneOf(ROUTE_VALUES)
    .optional()
    .meta({
      description:
        'One route: aff, fund, venue, about, or no_aff (no Canadian affiliation). Same as route_<name>=1 (no_aff: route_aff=0); contradicting a route_* parameter is a 400.',
      examples: ['aff'],
    }),
  route_aff: flag.optional().meta({ description: 'true: works with a Canadian affiliation; false: works without one.', examples: [true] }),
  route_fund: flag.optional().meta({ description: 'true: works with a Canadian funder; false: works without one.', examples: [true] }),
  route_venue: flag.optional().meta({ description: 'true: works in a Canadian venue; false: works not in one.', examples: [true] }),
  route_about: flag.optional().meta({ description: 'true: works about Canada; false: works not about Canada.', examples: [true] }),
  retracted: flag.optional().meta({ description: 'true: only works flagged retracted; false: no retracted works.', examples: [false] }),
  no_abstract: onlyOne.optional().meta({ description: 'Only works without an abstract (same as abstract=none; contradicts abstract=has).', examples: [true] }),
  abstract: oneOf(['has', 'none'])
    .optional()
    .meta({ description: 'has: only works with an abstract; none: only works without one.', examples: ['has'] }),
  n_in: whole(0, 3)
    .optional()
    .meta({ description: 'Screening consensus: how many of the three models called the work metaresearch.', examples: [3] }),
  category: oneOf(CATEGORIES)
    .optional()
    .meta({ description: 'Metaresearch category label (direct, or predicted with label_source=predicted).', examples: [CATEGORIES[0]] }),
  design: oneOf(DESIGNS)
    .optional()
    .meta({ description: 'Study design label (direct, or predicted with label_source=predicted).', examples: [DESIGNS[0]] }),
  label_source: oneOf(['direct', 'predicted'])
    .optional()
    .meta({
      description: 'Evidence for category and design: direct (default) or predicted. Without category or design it changes nothing.',
      default: 'direct',
      examples: ['predicted'],
    }),
  prediction_mode: oneOf(['candidate', 'consensus'])
    .optional()
    .meta({
      description:
        'Predicted labels: candidate (default, union of the two teachers) or consensus (intersection). Needs label_source=predicted: consensus with direct labels is a 400.',
      default: 'candidate',
      examples: ['candidate'],
    }),
  agreement: oneOf(['any', 'all'])
    .optional()
    .meta({
      description:
        'Direct labels: any (default, one model suffices) or all (every model that labeled the work agrees). all with label_source=predicted is a 400.',
      default: 'any',
      examples: ['all'],
    }),
  labeled: flag.optional().meta({ description: 'true: the work has a direct label row; false: it has none.', examples: [true] }),
  sort: oneOf(SORTS)
    .optional()
    .meta({
      description: 'Order: cited (default, most cited first), year_desc, year_asc, or relevance (title-match rank; needs q, else a 400).',
      default: 'cited',
      examples: ['year_desc'],
    }),
  page: whole(1, MAX_OFFSET_RESULTS)
    .optional()
    .meta({
      description: `Page number (offset paging). page × per_page may reach at most result ${MAX_OFFSET_RESULTS}; beyond, follow meta.next_cursor with cursor. Not with cursor.`,
      default: 1,
      examples: [2],
    }),
  per_page: whole(1, MAX_PER_PAGE)
    .optional()
    .meta({ description: 'Results per page.', default: DEFAULT_PER_PAGE, examples: [50] }),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,400}$/, 'must be a meta.next_cursor value as returned')
    .optional()
    .meta({
      description:
        'Opaque keyset cursor: the meta.next_cursor of the previous page, as returned (with the same filters and sort; a cursor of another query or snapshot is a 400). Not with page. No example: a cursor is only valid for the query that issued it.',
    }),
  snapshot: snapshotId.optional().meta({
    description:
      'Answer from this snapshot (a retained older one, as GET /snapshots lists them) instead of the one served by default: 400 naming the kept ids for an unknown one, 410 with the cited numbers for one that was dropped. Not a filter: the hash already covers the snapshot the cohort is counted on.',
    examples: ['sample-0123456789ab'],
  }),
  format: oneOf(EXPORT_FORMATS)
    .optional()
    .meta({ description: 'Export format: csv (default) or json.', default: 'csv', examples: ['json'] }),
  facet: oneOf(COHORT_FACETS)
    .optional()
    .meta({ description: 'The facet to count within the cohort.', examples: ['year'] }),
});
/** Parameters a surface requires though the shared schema has them optional (the parser says which is missing). */
export const SURFACE_REQUIRED: Partial<Record<Surface, readonly ParamKey[]>> = { cohort_facets: ['facet'] };
type Params = z.infer<typeof cohortParamsSchema>;
type ParamKey = keyof Params;

/** The filter keys in canonical order (the order of query strings built from filters). */
export const FILTER_KEYS = [
  'q',
  'author',
  'author_id',
  'year_from',
  'year_to',
  'cited_min',
  'lang',
  'type',
  'field',
  'topic',
  'venue',
  'route',
  'route_aff',
  'route_fund',
  'route_venue',
  'route_about',
  'retracted',
  'no_abstract',
  'abstract',
  'n_in',
  'category',
  'design',
  'label_source',
  'prediction_mode',
  'agreement',
  'labeled',
] as const satisfies readonly ParamKey[];

/** The works parameters of the seed (GET /works). */
export const WORKS_FILTER_KEYS = [
  'q',
  'author',
  'author_id',
  'year_from',
  'year_to',
  'cited_min',
  'lang',
  'type',
  'field',
  'route',
  'retracted',
  'no_abstract',
  'n_in',
] as const satisfies readonly ParamKey[];

const PAGING = ['sort', 'page', 'per_page', 'cursor'] as const;

/** What each surface accepts. */
export const SURFACES = {
  cohort: [...FILTER_KEYS, ...PAGING, 'snapshot'],
  works: [...WORKS_FILTER_KEYS, ...PAGING],
  export: [...FILTER_KEYS, 'sort', 'format', 'snapshot'],
  permalink: [...FILTER_KEYS],
  cohort_facets: [...FILTER_KEYS, 'facet', 'snapshot'],
} as const satisfies Record<string, readonly ParamKey[]>;
export type Surface = keyof typeof SURFACES;

const surfaceSchemas = Object.fromEntries(
  Object.entries(SURFACES).map(([s, keys]) => [s, cohortParamsSchema.pick(Object.fromEntries(keys.map((k) => [k, true])) as Record<ParamKey, true>)]),
) as unknown as Record<Surface, z.ZodObject>;

/** The schema a surface validates with (for the OpenAPI document). */
export function surfaceSchema(surface: Surface): z.ZodObject {
  return surfaceSchemas[surface];
}

/** Canonical filters: only what changes the cohort. Booleans for route facets, `lang` as a string. */
export interface CohortFilters {
  q?: string;
  author?: string;
  author_id?: string;
  year_from?: number;
  year_to?: number;
  cited_min?: number;
  lang?: string;
  type?: string;
  field?: string;
  topic?: string;
  venue?: string;
  route_aff?: boolean;
  route_fund?: boolean;
  route_venue?: boolean;
  route_about?: boolean;
  retracted?: boolean;
  abstract?: 'has' | 'none';
  n_in?: number;
  category?: (typeof CATEGORIES)[number];
  design?: (typeof DESIGNS)[number];
  label_source?: 'predicted';
  prediction_mode?: 'consensus';
  agreement?: 'all';
  labeled?: boolean;
}

export interface CohortQuery {
  filters: CohortFilters;
  sort: Sort;
  page: number;
  per_page: number;
  cursor: string | null;
  format: ExportFormat;
  facet: CohortFacet | null;
  /** The snapshot asked for (`snapshot=`), null for the one served by default. */
  snapshot: string | null;
}

const ROUTE_KEY: Record<Route, 'route_aff' | 'route_fund' | 'route_venue' | 'route_about'> = {
  aff: 'route_aff',
  fund: 'route_fund',
  venue: 'route_venue',
  about: 'route_about',
};

export function invalid(parameter: string, message: string, allowed?: readonly string[]): never {
  throw new ApiError('INVALID_PARAMETER', `Invalid value for "${parameter}": ${message}`, [
    { parameter, message, ...(allowed ? { allowed: [...allowed] } : {}) },
  ]);
}

/** Folds synonyms, checks combinations, drops no-ops. Throws ApiError (400) naming the parameter. */
export function canonicalFilters(p: Params): CohortFilters {
  const f: CohortFilters = {};
  for (const k of [
    'q',
    'author',
    'author_id',
    'year_from',
    'year_to',
    'lang',
    'type',
    'field',
    'topic',
    'venue',
    'n_in',
    'category',
    'design',
    'labeled',
    'retracted',
  ] as const) {
    const v = p[k];
    if (v !== undefined && v !== '') (f as Record<string, unknown>)[k] = v;
  }
  if (f.year_from !== undefined && f.year_to !== undefined && f.year_from > f.year_to)
    invalid('year_from', `year_from (${f.year_from}) is after year_to (${f.year_to})`);
  if (p.cited_min !== undefined && p.cited_min > 0) f.cited_min = p.cited_min;

  // Routes: the tri-state facets, with `route` folded in.
  for (const r of ROUTES) if (p[ROUTE_KEY[r]] !== undefined) f[ROUTE_KEY[r]] = p[ROUTE_KEY[r]];
  if (p.route !== undefined) {
    const [key, want] = p.route === 'no_aff' ? (['route_aff', false] as const) : ([ROUTE_KEY[p.route], true] as const);
    if (f[key] !== undefined && f[key] !== want) invalid('route', `route=${p.route} contradicts ${key}=${f[key] ? 1 : 0}`);
    f[key] = want;
  }

  // Abstract: no_abstract=1 is abstract=none.
  if (p.no_abstract && p.abstract === 'has') invalid('no_abstract', 'no_abstract=1 contradicts abstract=has');
  if (p.no_abstract || p.abstract === 'none') f.abstract = 'none';
  else if (p.abstract === 'has') f.abstract = 'has';

  // Label options: they qualify category and design, so without either they change nothing.
  const source = p.label_source ?? 'direct';
  if (source === 'direct' && p.prediction_mode === 'consensus')
    invalid('prediction_mode', 'prediction_mode applies to label_source=predicted only', [
      'candidate (with label_source=predicted)',
      'consensus (with label_source=predicted)',
    ]);
  if (source === 'predicted' && p.agreement === 'all')
    invalid('agreement', 'agreement applies to direct labels only (label_source=direct); predictions have one candidate and one consensus set per work');
  if (f.category !== undefined || f.design !== undefined) {
    if (source === 'predicted') {
      f.label_source = 'predicted';
      if (p.prediction_mode === 'consensus') f.prediction_mode = 'consensus';
    } else if (p.agreement === 'all') f.agreement = 'all';
  }
  // Keys in the canonical order (the order of FILTER_KEYS and of canonical query strings).
  const ordered: Record<string, unknown> = {};
  for (const k of FILTER_KEYS) if ((f as Record<string, unknown>)[k] !== undefined) ordered[k] = (f as Record<string, unknown>)[k];
  return ordered as CohortFilters;
}

/** Parses a request URL for one surface: strict keys, valid values, canonical filters. */
export function parseCohortQuery(url: string, surface: Surface): CohortQuery {
  // Empty values mean "not given" (forms send every field); unknown or repeated names are still errors.
  const p = parseStrictQuery(surfaceSchemas[surface], url, { emptyIsAbsent: true }) as Params;
  const filters = canonicalFilters(p);
  const sort = p.sort ?? 'cited';
  if (sort === 'relevance' && filters.q === undefined) invalid('sort', 'sort=relevance ranks title matches, so it needs q', SORTS);
  const per_page = p.per_page ?? DEFAULT_PER_PAGE;
  const page = p.page ?? 1;
  if (p.cursor !== undefined && p.page !== undefined) invalid('page', 'give either page or cursor, not both (the cursor already says where the page starts)');
  if (page * per_page > MAX_OFFSET_RESULTS)
    invalid(
      'page',
      `page × per_page may reach at most result ${MAX_OFFSET_RESULTS.toLocaleString('en')} (page ${page} × ${per_page} = ${page * per_page}); to go further, follow meta.next_cursor with cursor=`,
    );
  return { filters, sort, page, per_page, cursor: p.cursor ?? null, format: p.format ?? 'csv', facet: p.facet ?? null, snapshot: p.snapshot ?? null };
}

/** `/cohort/facets` requires `facet`. */
export function requireFacet(query: CohortQuery): CohortFacet {
  if (query.facet === null)
    throw new ApiError('MISSING_PARAMETER', `Parameter "facet" is required: one of ${COHORT_FACETS.join(', ')}.`, [
      { parameter: 'facet', message: 'missing', allowed: [...COHORT_FACETS] },
    ]);
  return query.facet;
}

/** Canonical JSON of a cohort: the filters plus the snapshot they are counted on, keys sorted. */
export function canonicalJson(filters: CohortFilters, snapshotId: string): string {
  return stableStringify({ ...filters, snapshot: snapshotId });
}

/** Lowercase hex SHA-256 of the canonical JSON, first 16 characters. */
export function queryHash(filters: CohortFilters, snapshotId: string): string {
  return createHash('sha256').update(canonicalJson(filters, snapshotId)).digest('hex').slice(0, 16);
}

export const HASH_PATTERN = /^[0-9a-f]{16}$/;

/** The canonical query string of the filters (FILTER_KEYS order, booleans as 1/0); parses back to the same filters. */
export function filtersToQuery(filters: CohortFilters): string {
  const out = new URLSearchParams();
  for (const k of FILTER_KEYS) {
    const v = (filters as Record<string, unknown>)[k];
    if (v === undefined) continue;
    out.append(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return out.toString();
}
