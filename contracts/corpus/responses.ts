/**
 * Response schemas of the corpus API, by path below the service prefix: the contract test checks real
 * responses against them and the OpenAPI document is generated from them.
 */
import { z } from 'zod';
import { described } from '../common/describe.ts';
import { articleDocSchema, articleRefSchema, corpusMetaSchema, excerptSchema, phraseDocSchema, phrasesDocSchema, statsDocSchema } from './documents.ts';
import { BANDS, EXCERPT_SORTS, OCCURRENCE_STATUSES } from './vocab.ts';

/** A stretch of the excerpt's text that matched `q` (UTF-16 offsets, `end` exclusive). */
export const highlightSchema = z
  .object(
    described(
      { start: z.number().int().min(0), end: z.number().int().min(0) },
      { start: "Where the match starts in the excerpt's text (UTF-16 code units).", end: 'Where it ends (exclusive).' },
    ),
  )
  .strict();

/** One item of `/excerpts`: the excerpt, its article, and where `q` matched (empty without q). */
export const excerptItemSchema = excerptSchema
  .extend(
    described(
      { article: articleRefSchema, highlights: z.array(highlightSchema) },
      { article: 'The article the sentence is from, enough to cite and list it.', highlights: 'Where q matched in text, in order; empty without q.' },
    ),
  )
  .strict();
export type ExcerptItem = z.infer<typeof excerptItemSchema>;

/** The canonical question, echoed so a client sees how its parameters were read. */
export const excerptQueryEchoSchema = z
  .object(
    described(
      {
        phrase: z.string().nullable(),
        band: z.array(z.enum(BANDS)),
        status: z.array(z.enum(OCCURRENCE_STATUSES)),
        q: z.string().nullable(),
        year_from: z.number().int().nullable(),
        year_to: z.number().int().nullable(),
        p_min: z.number().min(0).max(1).nullable(),
        p_max: z.number().min(0).max(1).nullable(),
        sort: z.enum(EXCERPT_SORTS),
      },
      {
        phrase: 'The canonical phrase asked for (spelling and case as the lexicon has it); null when not given.',
        band: 'The bands asked for, each once, in band order; empty when not given.',
        status: 'The statuses the listing uses: the ones asked for, or verified when neither band nor status was given.',
        q: 'The search as read; null when not given.',
        year_from: 'Earliest publication year asked for; null when not given.',
        year_to: 'Latest publication year asked for; null when not given.',
        p_min: 'Lower bound on the exact p-value; null when not given.',
        p_max: 'Upper bound on the exact p-value; null when not given.',
        sort: 'The order used (the default when none was given: relevance with q, else article).',
      },
    ),
  )
  .strict();

/** The page's facts, as in the frame's `{ meta, results }` envelope: exact total, paging, the query as read. */
export const excerptsMetaSchema = corpusMetaSchema
  .extend({
    total: z.number().int().min(0).meta({ description: 'Exact number of sentences matching, over all pages.' }),
    page: z.number().int().min(1).meta({ description: 'This page (1-based).' }),
    per_page: z.number().int().min(1).meta({ description: 'Sentences per page.' }),
    pages: z.number().int().min(0).meta({ description: 'Number of pages (0 when nothing matches).' }),
    query: excerptQueryEchoSchema.meta({ description: 'The canonical question the parameters were read as.' }),
  })
  .strict();
export type ExcerptsMeta = z.infer<typeof excerptsMetaSchema>;

export const excerptsResponseSchema = z
  .object({
    meta: excerptsMetaSchema.meta({ description: 'The build, the exact total, paging and the question as read.' }),
    results: z.array(excerptItemSchema).meta({ description: 'The sentences of this page, in the requested order.' }),
  })
  .strict();
export type ExcerptsResponse = z.infer<typeof excerptsResponseSchema>;

/** What the corpus computes for one query; the route adds the build's snapshot and lexicon to meta. */
export type ExcerptPage = { meta: Omit<ExcerptsMeta, 'snapshot' | 'lexicon_version' | 'synthetic'>; results: ExcerptItem[] };

export const CORPUS_RESPONSES = {
  '/api/v1/stats': statsDocSchema,
  '/api/v1/phrases': phrasesDocSchema,
  '/api/v1/phrases/{phrase}': phraseDocSchema,
  '/api/v1/excerpts': excerptsResponseSchema,
  '/api/v1/articles/{pmcid}': articleDocSchema,
} as const;
