/**
 * Response schemas of the corpus API, by path below the service prefix: the contract test checks real
 * responses against them and the OpenAPI document is generated from them.
 */
import { z } from 'zod';
import {
  articleDocSchema,
  articleRefSchema,
  corpusMetaSchema,
  excerptSchema,
  phraseDocSchema,
  phrasesDocSchema,
  statsDocSchema,
} from './documents.ts';
import { BANDS, EXCERPT_SORTS, OCCURRENCE_STATUSES } from './vocab.ts';

/** A stretch of the excerpt's text that matched `q` (UTF-16 offsets, `end` exclusive). */
export const highlightSchema = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }).strict();

/** One item of `/excerpts`: the excerpt, its article, and where `q` matched (empty without q). */
export const excerptItemSchema = excerptSchema
  .extend({ article: articleRefSchema, highlights: z.array(highlightSchema) })
  .strict();
export type ExcerptItem = z.infer<typeof excerptItemSchema>;

/** The canonical question, echoed so a client sees how its parameters were read. */
export const excerptQueryEchoSchema = z
  .object({
    phrase: z.string().nullable(),
    band: z.array(z.enum(BANDS)),
    status: z.array(z.enum(OCCURRENCE_STATUSES)),
    q: z.string().nullable(),
    year_from: z.number().int().nullable(),
    year_to: z.number().int().nullable(),
    p_min: z.number().min(0).max(1).nullable(),
    p_max: z.number().min(0).max(1).nullable(),
    sort: z.enum(EXCERPT_SORTS),
  })
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
    meta: excerptsMetaSchema,
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
