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
import { described } from '../common/describe.ts';
import { ARTICLE_ID_KINDS, BANDS, OCCURRENCE_STATUSES, P_OPERATORS, SECTIONS, VERIFIED_BANDS } from './vocab.ts';

const offset = z.number().int().min(0);

/** A p-value expression of a sentence, as the parser read it. */
export const pValueSchema = z
  .object(
    described(
      {
        text: z.string(),
        start: offset,
        end: offset,
        operator: z.enum(P_OPERATORS),
        value: z.number().min(0).max(1).nullable(),
        exact: z.boolean(),
      },
      {
        text: 'The expression as written, text.slice(start, end) of the excerpt: "p = 0.07", "P=.07", "n.s.".',
        start: "Where the expression starts in the excerpt's text (UTF-16 code units, from 0).",
        end: 'Where it ends (exclusive).',
        operator: 'Its comparator: =, <, >, <=, >=, ~, or none when the text lost it ("p 0.06") or for "n.s.".',
        value: 'The stated value, 0 … 1 (the upper bound of a range); null for "n.s." and "NS".',
        exact: 'True for a point value stated with "=" (or a lost operator): the only values medians and p_min/p_max use.',
      },
    ),
  )
  .strict();
export type PValue = z.infer<typeof pValueSchema>;

/** One hedging phrase in a sentence, tied to its p-value (the first after it, else the nearest before). */
export const occurrenceSchema = z
  .object(
    described(
      {
        phrase: z.string(),
        start: offset,
        end: offset,
        status: z.enum(OCCURRENCE_STATUSES),
        band: z.enum(BANDS).nullable(),
        at_threshold: z.boolean(),
        inequality: z.enum(['<', '<=', '>', '>=']).nullable(),
        p: pValueSchema.nullable(),
      },
      {
        phrase: "The lexicon's canonical phrase (what /phrases counts and phrase= filters by).",
        start: "Where the phrase is written in the excerpt's text (UTF-16 code units; the words as written, which may be a variant of the canonical phrase).",
        end: 'Where it ends (exclusive).',
        status:
          'verified: the associated p is non-significant (the hedge is about a non-significant result); rejected: it is below 0.05; unverified: the sentence has no p-value; indeterminate: a bound that says nothing either way ("p > 0.01").',
        band: 'Band of the associated p-value (0.05-0.06, 0.06-0.08, 0.08-0.10, >0.10, ns); none when the sentence has no p-value; null for rejected and indeterminate occurrences.',
        at_threshold: 'True when the p-value is exactly 0.05, or a bound that admits 0.05 ("p ≥ 0.05").',
        inequality: 'The comparator when the p-value is a bound or range rather than a point; null for a point value.',
        p: 'The p-value expression tied to the phrase (the first after it in the sentence, else the nearest before); null when the sentence has none.',
      },
    ),
  )
  .strict();
export type OccurrenceDoc = z.infer<typeof occurrenceSchema>;

/** A sentence with at least one hedging phrase. */
export const excerptSchema = z
  .object(
    described(
      {
        id: z.string(),
        section: z.enum(SECTIONS),
        section_title: z.string(),
        label: z.string().nullable(),
        paragraph: z.number().int().min(0),
        sentence: z.number().int().min(0),
        text: z.string(),
        also_in: z.array(z.enum(SECTIONS)),
        occurrences: z.array(occurrenceSchema).min(1),
      },
      {
        id: 'Sentence id, stable within a snapshot: <article id>/<paragraph>.<sentence>.',
        section: 'Where in the article the sentence is: abstract, body, caption (of a figure or table) or table-footnote.',
        section_title: 'Enclosing section titles joined with " > " ("Results > Subgroups"); empty at top level.',
        label: 'Figure or table label of a caption or table footnote ("Figure 2"); null elsewhere.',
        paragraph: 'Paragraph (text block) of the article, from 0.',
        sentence: 'Sentence within the paragraph, from 0.',
        text: 'The sentence as written; every offset points into it.',
        also_in:
          'Other sections where the same sentence appears (an abstract repeating a result of the body): it is listed and counted once, at its first place.',
        occurrences: 'The hedging phrases of the sentence, each with its p-value and status; at least one.',
      },
    ),
  )
  .strict();
export type ExcerptDoc = z.infer<typeof excerptSchema>;

/** Per-status occurrence counts, used by articles, phrases and stats alike. */
const STATUS_TEXT: Record<(typeof OCCURRENCE_STATUSES)[number], string> = {
  verified: 'Verified occurrences (the associated p is non-significant).',
  rejected: 'Rejected occurrences (the associated p is below 0.05).',
  unverified: 'Unverified occurrences (the sentence has no p-value).',
  indeterminate: 'Indeterminate occurrences (a bound that says nothing either way).',
};
export const statusCountsSchema = z
  .object(
    described(
      Object.fromEntries(OCCURRENCE_STATUSES.map((s) => [s, z.number().int().min(0)])) as Record<(typeof OCCURRENCE_STATUSES)[number], z.ZodNumber>,
      STATUS_TEXT,
    ),
  )
  .strict();

const bandText = (b: string, what: string) => (b === 'none' ? `${what} without a p-value (unverified).` : `${what} in band ${b} (verified).`);
/** Counts per band: `none` counts unverified occurrences, the others verified ones. */
export const bandCountsSchema = z
  .object(
    described(
      Object.fromEntries(BANDS.map((b) => [b, z.number().int().min(0)])) as Record<(typeof BANDS)[number], z.ZodNumber>,
      Object.fromEntries(BANDS.map((b) => [b, bandText(b, 'Sentences with an occurrence')])) as Record<(typeof BANDS)[number], string>,
    ),
  )
  .strict();
/** Verified occurrences per band (`none` is never a verified band). */
const verifiedBands = () =>
  z
    .object(
      described(
        Object.fromEntries(VERIFIED_BANDS.map((b) => [b, z.number().int().min(0)])) as Record<(typeof VERIFIED_BANDS)[number], z.ZodNumber>,
        Object.fromEntries(VERIFIED_BANDS.map((b) => [b, `Verified occurrences in band ${b}.`])) as Record<(typeof VERIFIED_BANDS)[number], string>,
      ),
    )
    .strict();

/** The corpus build an answer comes from. */
export const corpusMetaSchema = z
  .object(
    described(
      { snapshot: z.string(), lexicon_version: z.string(), synthetic: z.boolean() },
      {
        snapshot: 'Id of the snapshot of the build (also in the X-Snapshot header).',
        lexicon_version: 'The lexicon that found the phrases, e.g. hedging-v2.',
        synthetic: 'True when the articles were generated (the committed sample): no PMCID in it is real.',
      },
    ),
  )
  .strict()
  .meta({ description: 'The build the answer comes from: snapshot, lexicon, and whether the data are synthetic.' });

const articleSummaryFields = described(
  {
    pmcid: z.string(),
    id_kind: z.enum(ARTICLE_ID_KINDS),
    pmid: z.string().nullable(),
    doi: z.string().nullable(),
    title: z.string().nullable(),
    journal: z.string().nullable(),
    year: z.number().int().nullable(),
  },
  {
    pmcid: 'Article id: "PMC" and digits, or for an article without a PMCID a generated id ("nopmc-" and 12 hex digits); /articles/{pmcid} takes it.',
    id_kind: "pmcid when the id is the article's PMCID, generated when it was derived from its DOI or bibliographic data.",
    pmid: 'PubMed id; null when the article has none.',
    doi: 'DOI (without https://doi.org/); null when none.',
    title: 'Article title; null when the JATS gives none.',
    journal: 'Journal title; null when the JATS gives none.',
    year: 'Publication year (the earliest epub, ppub or collection date); null when the JATS gives none.',
  },
);

/** `/articles/{pmcid}`: one paper and all its hedged sentences, in document order. */
export const articleDocSchema = z
  .object({
    ...articleSummaryFields,
    ...described(
      {
        authors: z.array(z.string()),
        article_type: z.string().nullable(),
        licence: z
          .object(
            described(
              { url: z.string().nullable(), type: z.string().nullable() },
              {
                url: 'URL of the licence (e.g. a Creative Commons deed); null when not given.',
                type: 'Licence type as the JATS states it (e.g. open-access); null when not given.',
              },
            ),
          )
          .strict()
          .nullable(),
        links: z
          .object(
            described(
              { pmc: z.string().nullable(), doi: z.string().nullable() },
              {
                pmc: 'The article on PubMed Central; null without a PMCID or for synthetic data.',
                doi: 'The DOI resolver URL; null without a DOI or for synthetic data.',
              },
            ),
          )
          .strict(),
        sentences_scanned: z.number().int().min(0),
        excerpt_count: z.number().int().min(0),
        occurrences: statusCountsSchema,
        excerpts: z.array(excerptSchema),
        meta: corpusMetaSchema,
      },
      {
        authors: 'Author display names, "Surname Given-Names" or a group\'s name, in byline order.',
        article_type: 'JATS article-type (research-article, review-article…); null when not given.',
        licence: "The article's licence as its JATS states it; null when it states none.",
        links: 'Where to read the article.',
        sentences_scanned: 'Sentences read (abstract, body, captions, table footnotes).',
        excerpt_count: 'Hedged sentences found among them (the length of excerpts).',
        occurrences: 'Phrase occurrences in the article, per status.',
        excerpts: 'Every hedged sentence of the article, in document order.',
        meta: 'The build the answer comes from.',
      },
    ),
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
  .object(
    described(
      {
        year: z.number().int().nullable(),
        articles_scanned: z.number().int().min(0),
        articles_with_verified: z.number().int().min(0),
        share_with_verified: z.number().min(0).max(1),
        excerpts: z.number().int().min(0),
        bands: bandCountsSchema,
      },
      {
        year: 'Publication year; null for articles whose JATS gives none.',
        articles_scanned: 'Articles of that year read.',
        articles_with_verified: 'Of those, articles with at least one verified occurrence (prevalence, as a count).',
        share_with_verified: 'articles_with_verified / articles_scanned (0 … 1).',
        excerpts: 'Sentences of that year with at least one verified occurrence (as /excerpts?year_from=Y&year_to=Y lists them).',
        bands: 'Per band, sentences of that year with at least one occurrence in it (verified ones; unverified for none).',
      },
    ),
  )
  .strict();
export type YearStats = z.infer<typeof yearStatsSchema>;

/** `/stats`: corpus totals, the band split and the median p-value. */
export const statsDocSchema = z
  .object(
    described(
      {
        articles_scanned: z.number().int().min(0),
        articles_with_verified: z.number().int().min(0),
        articles_without_pmcid: z.number().int().min(0),
        sentences_scanned: z.number().int().min(0),
        excerpts: z.number().int().min(0),
        excerpts_any_status: z.number().int().min(0),
        occurrences: statusCountsSchema,
        bands: z.array(
          z
            .object(
              described(
                { band: z.enum(BANDS), occurrences: z.number().int().min(0), excerpts: z.number().int().min(0) },
                {
                  band: 'The band.',
                  occurrences: 'Occurrences in it (verified ones; unverified for none).',
                  excerpts: 'Sentences with at least one such occurrence (the total of /excerpts?band=<band>).',
                },
              ),
            )
            .strict(),
        ),
        median_p: z.number().nullable(),
        median_p_values: z.number().int().min(0),
        by_year: z.array(yearStatsSchema),
        lexicon: z
          .object(
            described(
              { version: z.string(), source: z.string(), phrases: z.number().int().min(0) },
              {
                version: 'Lexicon version (e.g. hedging-v2).',
                source: 'Where its phrases come from (the published lists it follows).',
                phrases: 'Canonical phrases in it.',
              },
            ),
          )
          .strict(),
        meta: corpusMetaSchema,
      },
      {
        articles_scanned: 'Articles read (files that parsed, duplicates removed).',
        articles_with_verified: 'Articles with at least one verified occurrence.',
        articles_without_pmcid: 'Articles without a PMCID (listed under generated ids).',
        sentences_scanned: 'Sentences read (abstracts, bodies, captions, table footnotes).',
        excerpts: 'Sentences with at least one verified occurrence: the total of /excerpts without parameters.',
        excerpts_any_status: 'Sentences with any phrase occurrence, whatever its status.',
        occurrences: 'Phrase occurrences per status.',
        bands: 'The band split: per band, occurrences and the sentences that have them.',
        median_p: 'Median over the exact p-values (p = v) of verified occurrences; null when there are none.',
        median_p_values: 'How many exact p-values the median is taken over.',
        by_year: 'Prevalence by publication year, years ascending, articles without a year last (year: null).',
        lexicon: 'The lexicon of hedging phrases used.',
        meta: 'The build the answer comes from.',
      },
    ),
  )
  .strict();
export type StatsDoc = z.infer<typeof statsDocSchema>;

/** One verified phrase of `/phrases`. */
const PHRASE_COUNT_TEXTS = {
  verified: 'Verified occurrences of the phrase.',
  articles: 'Articles with at least one verified occurrence of it.',
  bands: 'Verified occurrences per band (none is never a verified band).',
  rejected: 'Rejected occurrences (p below 0.05).',
  unverified: 'Unverified occurrences (no p-value in the sentence).',
};
export const phraseRowSchema = z
  .object(
    described(
      {
        phrase: z.string(),
        verified: z.number().int().min(1),
        articles: z.number().int().min(1),
        bands: verifiedBands(),
        median_p: z.number().nullable(),
        rejected: z.number().int().min(0),
        unverified: z.number().int().min(0),
      },
      {
        phrase: 'The canonical phrase, as phrase= and /phrases/{phrase} take it.',
        ...PHRASE_COUNT_TEXTS,
        median_p: 'Median over the exact p-values of its verified occurrences; null when all were bounds or "n.s.".',
      },
    ),
  )
  .strict();
export type PhraseRow = z.infer<typeof phraseRowSchema>;

/** A phrase's occurrence counts: verified per band (`none` is never verified), rejected, unverified. */
const phraseCountFields = described(
  {
    verified: z.number().int().min(0),
    articles: z.number().int().min(0),
    bands: verifiedBands(),
    rejected: z.number().int().min(0),
    unverified: z.number().int().min(0),
  },
  PHRASE_COUNT_TEXTS,
);

/**
 * `/phrases/{phrase}`: one phrase of the lexicon, its counts over the corpus and per publication year (the
 * years in which it occurs at all, ascending; articles without a year last as `year: null`). A phrase of the
 * lexicon that never occurs has zero counts and no years.
 */
export const phraseDocSchema = z
  .object({
    phrase: z.string().meta({ description: 'The canonical phrase.' }),
    ...phraseCountFields,
    ...described(
      {
        by_year: z.array(
          z
            .object({ year: z.number().int().nullable().meta({ description: 'Publication year; null for articles without one.' }), ...phraseCountFields })
            .strict(),
        ),
        meta: corpusMetaSchema,
      },
      {
        by_year: 'Its counts per publication year, for the years in which it occurs, ascending; articles without a year last.',
        meta: 'The build the answer comes from.',
      },
    ),
  })
  .strict();
export type PhraseDoc = z.infer<typeof phraseDocSchema>;

/** `/phrases`: every verified phrase, most verified occurrences first (ties: phrase). */
export const phrasesDocSchema = z
  .object(
    described(
      { total: z.number().int().min(0), phrases: z.array(phraseRowSchema), meta: corpusMetaSchema },
      {
        total: 'Verified phrases listed.',
        phrases: 'Every phrase with at least one verified occurrence, most verified occurrences first (ties: by phrase).',
        meta: 'The build the answer comes from.',
      },
    ),
  )
  .strict();
export type PhrasesDoc = z.infer<typeof phrasesDocSchema>;
