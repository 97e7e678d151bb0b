/**
 * The ground truth the synthetic corpus generator writes next to its articles (`ground-truth.json`), so an
 * integration test can measure the extraction pipeline's recall and precision. It states, per article, what
 * an ideal extractor reports: every sentence with a hedging phrase (with its associated p-value, outcome and
 * band under DECISIONS.md §5), sentences that must not be verified (traps), and text that exists in the XML
 * but must never be extracted (reference titles, peer review, table cells, supplementary captions).
 *
 * Sentence texts are given exactly as `parseArticle` + `splitSentences` produce them (whitespace normalised,
 * superscript exponents as "10^-2", entities decoded); the generator's test checks that each one is a split
 * sentence of its article.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** The bands of DECISIONS.md §5 (the same strings as pipeline/corpus/bands.ts). */
export const TRUTH_BANDS = ['0.05-0.06', '0.06-0.08', '0.08-0.10', '>0.10', 'ns', 'none'] as const;

/** An expected p-value expression, in the terms of pipeline/corpus/p-values.ts (operator, value, kind). */
export const pValueTruthSchema = z
  .object({
    /** The expression with its label as it appears in the sentence, e.g. "p = 0.07", "ps > 0.05", "n.s.". */
    text: z.string().min(1),
    /** Normalised comparator; `none` when the source has no operator ("p 0.06") and for "n.s.". */
    operator: z.enum(['=', '<', '>', '<=', '>=', 'none']),
    /** The stated value or bound; null for "n.s.". */
    value: z.number().min(0).max(1).nullable(),
    kind: z.enum(['value', 'ns']),
  })
  .strict();
export type PValueTruth = z.infer<typeof pValueTruthSchema>;

const sectionSchema = z.enum(['abstract', 'body', 'caption', 'table-footnote']);

/** A sentence with a hedging phrase and what the pipeline should conclude about it. */
export const hedgeTruthSchema = z
  .object({
    /** The whole sentence, exactly as extracted. */
    sentence: z.string().min(1),
    section: sectionSchema,
    /** Section title path of the block the sentence is in (parseArticle's `sectionPath`). */
    sectionPath: z.array(z.string()),
    /** The hedging phrase as written in the sentence. */
    phrase: z.string().min(1),
    /** `otte`: in Otte et al.'s 505-phrase list verbatim; `variant`: a spelling/hyphenation/tense/plural variant. */
    phraseSource: z.enum(['otte', 'variant']),
    /** The associated p-value: the first after the phrase, else the nearest before; null when there is none. */
    pValue: pValueTruthSchema.nullable(),
    /** The sentence's other p-values, in order. */
    otherPValues: z.array(pValueTruthSchema),
    /** `verified` (p non-significant), `rejected` (p < 0.05), `unverified` (no p-value). */
    outcome: z.enum(['verified', 'rejected', 'unverified']),
    /** Band of the associated p; `none` without one; null when rejected. */
    band: z.enum(TRUTH_BANDS).nullable(),
    /** The p-value is exactly 0.05 (verified by default, configurable in the pipeline). */
    atThreshold: z.boolean(),
    /** What the sentence exercises: "italic-p", "nbsp", "exponent", "abbrev-et-al", "repeated", … */
    tags: z.array(z.string()),
  })
  .strict();
export type HedgeTruth = z.infer<typeof hedgeTruthSchema>;

/** A sentence that is extracted but must not yield a verified occurrence. */
export const trapTruthSchema = z
  .object({
    sentence: z.string().min(1),
    section: sectionSchema,
    /** Why it must not be verified: "significant-no-hedge", "neutral-non-significant", "gene-p53", … */
    reason: z.string().min(1),
  })
  .strict();
export type TrapTruth = z.infer<typeof trapTruthSchema>;

/** Text that is in the XML but outside what the reader extracts. */
export const absentTruthSchema = z
  .object({
    /** A distinctive text that is in the XML and must appear in no extracted block. */
    text: z.string().min(1),
    where: z.enum(['ref-list', 'sub-article', 'table-cell', 'supplementary', 'ack']),
  })
  .strict();
export type AbsentTruth = z.infer<typeof absentTruthSchema>;

/** Everything expected of one generated file: its bytes, metadata, hedges, traps and absent text. */
export const articleTruthSchema = z
  .object({
    /** File name inside the corpus directory. */
    file: z.string().min(1),
    gzip: z.boolean(),
    bytes: z.number().int().positive(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /** How the PMCID is written: `pmc` "123", `pmcid-prefixed` "PMC123", `pmcid-bare` pmcid "123", `none`. */
    idVariant: z.enum(['pmc', 'pmcid-prefixed', 'pmcid-bare', 'none']),
    pmcid: z
      .string()
      .regex(/^PMC\d+$/)
      .nullable(),
    pmid: z.string().regex(/^\d+$/).nullable(),
    doi: z.string().min(1),
    title: z.string().min(1),
    journal: z.string().min(1),
    year: z.number().int(),
    /** Display names as parseArticle gives them ("Surname Given-Names", or the group name). */
    authors: z.array(z.string()),
    licenceUrl: z.string().nullable(),
    hedges: z.array(hedgeTruthSchema),
    traps: z.array(trapTruthSchema),
    absent: z.array(absentTruthSchema),
  })
  .strict();
export type ArticleTruth = z.infer<typeof articleTruthSchema>;

/** The whole `ground-truth.json`. */
export const groundTruthSchema = z
  .object({
    generator: z.literal('synthetic-jats-corpus'),
    version: z.string(),
    seed: z.number().int(),
    articles: z.number().int().nonnegative(),
    gzipShare: z.number().min(0).max(1),
    totals: z
      .object({
        files: z.number().int(),
        gzipped: z.number().int(),
        withPmcid: z.number().int(),
        hedges: z.number().int(),
        byOutcome: z.record(z.string(), z.number().int()),
        byBand: z.record(z.string(), z.number().int()),
        bySection: z.record(z.string(), z.number().int()),
        traps: z.number().int(),
        absent: z.number().int(),
      })
      .strict(),
    files: z.array(articleTruthSchema),
  })
  .strict();
export type GroundTruth = z.infer<typeof groundTruthSchema>;

/** Reads and validates a corpus directory's `ground-truth.json`. */
export function readGroundTruth(path: string): GroundTruth {
  return groundTruthSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
