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

export const excerptsResponseSchema = z
  .object({
    /** Exact number of sentences matching, over all pages. */
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    per_page: z.number().int().min(1),
    pages: z.number().int().min(0),
    query: excerptQueryEchoSchema,
    items: z.array(excerptItemSchema),
    meta: corpusMetaSchema,
  })
  .strict();
export type ExcerptsResponse = z.infer<typeof excerptsResponseSchema>;

export const CORPUS_RESPONSES = {
  '/api/v1/stats': statsDocSchema,
  '/api/v1/phrases': phrasesDocSchema,
  '/api/v1/phrases/{phrase}': phraseDocSchema,
  '/api/v1/excerpts': excerptsResponseSchema,
  '/api/v1/articles/{pmcid}': articleDocSchema,
} as const;
