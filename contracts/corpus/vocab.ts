/**
 * The closed vocabularies of the Hedged-Significance Corpus (DECISIONS.md §5), in one place so the pipeline,
 * the server, the site and the OpenAPI document agree. Pure constants; `z.enum(BANDS)` builds a schema.
 */

/** Bands of an occurrence's associated p-value, in display order (0.10 belongs to `0.08-0.10`). */
export const BANDS = ['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns', 'none'] as const;
export type Band = (typeof BANDS)[number];

/** The bands a verified occurrence can have: every band except `none`. */
export const VERIFIED_BANDS = ['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns'] as const satisfies readonly Band[];

/**
 * `verified`: the associated p is non-significant; `rejected`: it is below 0.05; `unverified`: the sentence has
 * no p-value (band `none`); `indeterminate`: a bound that says nothing either way ("p > 0.01").
 */
export const OCCURRENCE_STATUSES = ['verified', 'rejected', 'unverified', 'indeterminate'] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];

/** Where in an article a sentence was found (references, acknowledgements and peer review are never read). */
export const SECTIONS = ['abstract', 'body', 'caption', 'table-footnote'] as const;
export type Section = (typeof SECTIONS)[number];

/** Orders of the excerpt list; `relevance` needs `q`. */
export const EXCERPT_SORTS = ['relevance', 'p_asc', 'p_desc', 'year_desc', 'article'] as const;
export type ExcerptSort = (typeof EXCERPT_SORTS)[number];

/** Comparators of a p-value expression; `none` when the text lost it ("p 0.06") or for "n.s.". */
export const P_OPERATORS = ['=', '<', '>', '<=', '>=', '~', 'none'] as const;

/** Page size of the excerpt list, and its largest allowed value. */
export const EXCERPT_PAGE_SIZE = 25;
export const EXCERPT_MAX_PAGE_SIZE = 100;

/** How an article is identified: its PMCID, or (without one) an id derived from its DOI or bibliographic data. */
export const ARTICLE_ID_KINDS = ['pmcid', 'generated'] as const;
