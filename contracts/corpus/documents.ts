/**
 * Shapes of the corpus documents the pipeline precomputes and the server sends (`/corpus/api/v1/stats`,
 * `/phrases`, `/articles/{pmcid}`) and of one excerpt, which `/excerpts` lists. The response schemas and the
 * OpenAPI document are built from these, and the pipeline validates what it writes against them, so a
 * document cannot drift from its description. Field names are snake_case like the other services.
 *
 * Offsets are UTF-16 code units into the excerpt's `text`, `end` exclusive (JavaScript's `slice`), so a
 * client in any language can recover the phrase with the same arithmetic the site uses to highlight it.
 */
import { z } from 'zod';
import { ARTICLE_ID_KINDS, BANDS, OCCURRENCE_STATUSES, P_OPERATORS, SECTIONS, VERIFIED_BANDS } from './vocab.ts';

const offset = z.number().int().min(0);

/** A p-value expression of a sentence, as the parser read it. */
export const pValueSchema = z
  .object({
    /** The expression as written, `text.slice(start, end)` of the excerpt: "p = 0.07", "P=.07", "n.s.". */
    text: z.string(),
    start: offset,
    end: offset,
    operator: z.enum(P_OPERATORS),
    /** The stated value (the upper bound of a range); null for "n.s."/"NS". */
    value: z.number().min(0).max(1).nullable(),
    /** A point value stated with "=" (or a lost operator): the only values medians are taken over. */
    exact: z.boolean(),
  })
  .strict();
export type PValue = z.infer<typeof pValueSchema>;

/** One hedging phrase in a sentence, tied to its p-value (the first after it, else the nearest before). */
export const occurrenceSchema = z
  .object({
    /** The lexicon's canonical phrase (what `/phrases` counts and `phrase=` filters by). */
    phrase: z.string(),
    /** Where the phrase is written in the excerpt's text (the words as written, which may be a variant). */
    start: offset,
    end: offset,
    status: z.enum(OCCURRENCE_STATUSES),
    /** null for rejected and indeterminate occurrences; `none` when the sentence has no p-value. */
    band: z.enum(BANDS).nullable(),
    /** The p-value is exactly 0.05, or a bound that admits 0.05 ("p ≥ 0.05"). */
    at_threshold: z.boolean(),
    /** The comparator when the p-value is a bound or range rather than a point. */
    inequality: z.enum(['<', '<=', '>', '>=']).nullable(),
    p: pValueSchema.nullable(),
  })
  .strict();
export type OccurrenceDoc = z.infer<typeof occurrenceSchema>;

/** A sentence with at least one hedging phrase. */
export const excerptSchema = z
  .object({
    /** Stable within a snapshot: `<article id>/<paragraph>.<sentence>`. */
    id: z.string(),
    section: z.enum(SECTIONS),
    /** Enclosing section titles joined with " > " ("Results > Subgroups"); "" at top level. */
    section_title: z.string(),
    /** Figure or table label of a caption or table footnote ("Figure 2"), else null. */
    label: z.string().nullable(),
    /** 0-based paragraph (text block) of the article, and sentence within it. */
    paragraph: z.number().int().min(0),
    sentence: z.number().int().min(0),
    text: z.string(),
    /**
     * Other places the same sentence appears in the article (an abstract repeating a result of the body): the
     * sentence is listed once, at its first place, and counted once.
     */
    also_in: z.array(z.enum(SECTIONS)),
    occurrences: z.array(occurrenceSchema).min(1),
  })
  .strict();
export type ExcerptDoc = z.infer<typeof excerptSchema>;

/** Per-status occurrence counts, used by articles, phrases and stats alike. */
export const statusCountsSchema = z.object(
  Object.fromEntries(OCCURRENCE_STATUSES.map((s) => [s, z.number().int().min(0)])) as Record<
    (typeof OCCURRENCE_STATUSES)[number],
    z.ZodNumber
  >,
).strict();

/** Counts per band: `none` counts unverified occurrences, the others verified ones. */
export const bandCountsSchema = z.object(
  Object.fromEntries(BANDS.map((b) => [b, z.number().int().min(0)])) as Record<(typeof BANDS)[number], z.ZodNumber>,
).strict();

/** The corpus build an answer comes from. */
export const corpusMetaSchema = z
  .object({
    /** The snapshot id of the build (also in the X-Snapshot header). */
    snapshot: z.string(),
    /** The lexicon that found the phrases, e.g. `hedging-v1`. */
    lexicon_version: z.string(),
    /** The snapshot manifest's `synthetic` flag: true when the articles were generated (no PMCID in it is real). */
    synthetic: z.boolean(),
  })
  .strict();

const articleSummaryFields = {
  /** "PMC" + digits, or for an article without a PMCID the generated id ("nopmc-" + 12 hex digits). */
  pmcid: z.string(),
  id_kind: z.enum(ARTICLE_ID_KINDS),
  pmid: z.string().nullable(),
  doi: z.string().nullable(),
  title: z.string().nullable(),
  journal: z.string().nullable(),
  year: z.number().int().nullable(),
};

/** `/articles/{pmcid}`: one paper and all its hedged sentences, in document order. */
export const articleDocSchema = z
  .object({
    ...articleSummaryFields,
    /** Display names, "Surname Given-Names" or a group's name. */
    authors: z.array(z.string()),
    article_type: z.string().nullable(),
    licence: z.object({ url: z.string().nullable(), type: z.string().nullable() }).strict().nullable(),
    links: z.object({ pmc: z.string().nullable(), doi: z.string().nullable() }).strict(),
    /** Sentences read (abstract, body, captions, table footnotes), and hedged sentences found among them. */
    sentences_scanned: z.number().int().min(0),
    excerpt_count: z.number().int().min(0),
    occurrences: statusCountsSchema,
    excerpts: z.array(excerptSchema),
    meta: corpusMetaSchema,
  })
  .strict();
export type ArticleDoc = z.infer<typeof articleDocSchema>;

/** The fields of an article an excerpt list item carries, so a list can be shown without more requests. */
export const articleRefSchema = z.object(articleSummaryFields).strict();
export type ArticleRef = z.infer<typeof articleRefSchema>;

/**
 * One publication year of `/stats` `by_year` (the year from the article's earliest epub/ppub/collection date).
 * `excerpts` and `bands` count sentences as `/excerpts?year_from=Y&year_to=Y` (and `&band=B`) lists them.
 */
export const yearStatsSchema = z
  .object({
    /** null: articles whose JATS gives no publication year. */
    year: z.number().int().nullable(),
    articles_scanned: z.number().int().min(0),
    /** Prevalence: articles with at least one verified occurrence, as a count and as a share of `articles_scanned`. */
    articles_with_verified: z.number().int().min(0),
    share_with_verified: z.number().min(0).max(1),
    /** Sentences with at least one verified occurrence. */
    excerpts: z.number().int().min(0),
    /** Per band, sentences with at least one occurrence in it (verified ones; unverified for `none`). */
    bands: bandCountsSchema,
  })
  .strict();
export type YearStats = z.infer<typeof yearStatsSchema>;

/** `/stats`: corpus totals, the band split and the median p-value. */
export const statsDocSchema = z
  .object({
    /** Articles read (files that parsed, duplicates removed). */
    articles_scanned: z.number().int().min(0),
    /** Articles with at least one verified occurrence. */
    articles_with_verified: z.number().int().min(0),
    /** Articles without a PMCID (listed under generated ids). */
    articles_without_pmcid: z.number().int().min(0),
    sentences_scanned: z.number().int().min(0),
    /** Sentences with at least one verified occurrence: the total of `/excerpts` without parameters. */
    excerpts: z.number().int().min(0),
    /** Sentences with any phrase occurrence, whatever its status. */
    excerpts_any_status: z.number().int().min(0),
    occurrences: statusCountsSchema,
    /**
     * The band split: per band, occurrences (verified ones; unverified for `none`) and sentences with at least
     * one such occurrence (the total of `/excerpts?band=<band>`).
     */
    bands: z.array(
      z.object({ band: z.enum(BANDS), occurrences: z.number().int().min(0), excerpts: z.number().int().min(0) }).strict(),
    ),
    /** Median over the exact p-values (`p = v`) of verified occurrences; null when there are none. */
    median_p: z.number().nullable(),
    median_p_values: z.number().int().min(0),
    /** Prevalence by publication year, years ascending, articles without a year last (`year: null`). */
    by_year: z.array(yearStatsSchema),
    lexicon: z
      .object({ version: z.string(), source: z.string(), phrases: z.number().int().min(0) })
      .strict(),
    meta: corpusMetaSchema,
  })
  .strict();
export type StatsDoc = z.infer<typeof statsDocSchema>;

/** One verified phrase of `/phrases`. */
export const phraseRowSchema = z
  .object({
    phrase: z.string(),
    /** Verified occurrences, and articles with at least one. */
    verified: z.number().int().min(1),
    articles: z.number().int().min(1),
    /** Verified occurrences per band (`none` is never a verified band). */
    bands: z.object(
      Object.fromEntries(VERIFIED_BANDS.map((b) => [b, z.number().int().min(0)])) as Record<
        (typeof VERIFIED_BANDS)[number],
        z.ZodNumber
      >,
    ).strict(),
    /** Median over the exact p-values of its verified occurrences; null when all were bounds or "n.s.". */
    median_p: z.number().nullable(),
    rejected: z.number().int().min(0),
    unverified: z.number().int().min(0),
  })
  .strict();
export type PhraseRow = z.infer<typeof phraseRowSchema>;

/** A phrase's occurrence counts: verified per band (`none` is never verified), rejected, unverified. */
const phraseCountFields = {
  /** Verified occurrences, and articles with at least one. */
  verified: z.number().int().min(0),
  articles: z.number().int().min(0),
  bands: z.object(
    Object.fromEntries(VERIFIED_BANDS.map((b) => [b, z.number().int().min(0)])) as Record<(typeof VERIFIED_BANDS)[number], z.ZodNumber>,
  ).strict(),
  rejected: z.number().int().min(0),
  unverified: z.number().int().min(0),
};

/**
 * `/phrases/{phrase}`: one phrase of the lexicon, its counts over the corpus and per publication year (the
 * years in which it occurs at all, ascending; articles without a year last as `year: null`). A phrase of the
 * lexicon that never occurs has zero counts and no years.
 */
export const phraseDocSchema = z
  .object({
    phrase: z.string(),
    ...phraseCountFields,
    by_year: z.array(z.object({ year: z.number().int().nullable(), ...phraseCountFields }).strict()),
    meta: corpusMetaSchema,
  })
  .strict();
export type PhraseDoc = z.infer<typeof phraseDocSchema>;

/** `/phrases`: every verified phrase, most verified occurrences first (ties: phrase). */
export const phrasesDocSchema = z
  .object({ total: z.number().int().min(0), phrases: z.array(phraseRowSchema), meta: corpusMetaSchema })
  .strict();
export type PhrasesDoc = z.infer<typeof phrasesDocSchema>;
