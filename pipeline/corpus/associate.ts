/**
 * Ties each phrase occurrence of a sentence to one p-value and classifies it (research/hedged.md §2.1):
 * the associated p is the first p-value that starts after the phrase ends (the usual "phrase (p = …)",
 * and what Otte's 100-character window looked at); if there is none, the nearest p-value before the phrase
 * (journal.pone.0067227: "Age (r=-0.15, p=0.09), … (r=-0.13, p=0.07) tended to be …" takes p=0.07).
 * Expressions that state a threshold ("p < 0.05 was considered significant") are never associated.
 * Several phrases may share one p-value. The sentence's full list of p-values is returned as well, for
 * transparency (hedged.md §2.1 step 4).
 */
import { z } from 'zod';
import { classifyPValue, BANDS, OCCURRENCE_STATUSES, type BandOptions } from './bands.ts';
import { foldSentence, phraseMatchSchema, type LexiconMatcher, type PhraseMatch } from './lexicon.ts';
import { findPValues, pValueHitSchema, type PValueHit } from './p-values.ts';

/** One phrase occurrence with its verdict; the shape the corpus step stores. */
export const occurrenceSchema = phraseMatchSchema
  .extend({
    band: z.enum(BANDS).nullable(),
    status: z.enum(OCCURRENCE_STATUSES),
    atThreshold: z.boolean(),
    inequality: z.enum(['<', '<=', '>', '>=']).nullable(),
    /** The associated p-value, or null when the sentence has none (band `none`). */
    p: pValueHitSchema.nullable(),
  })
  .strict();
export type Occurrence = z.infer<typeof occurrenceSchema>;

/**
 * The p-value that belongs to a phrase: the first one starting at or after the phrase's end, else the last
 * one starting before the phrase. Threshold statements are skipped. `pValues` must be sorted by position,
 * as {@link findPValues} returns them.
 */
export function associatedPValue(phrase: Pick<PhraseMatch, 'start' | 'end'>, pValues: readonly PValueHit[]): PValueHit | null {
  let before: PValueHit | null = null;
  for (const p of pValues) {
    if (p.threshold) continue;
    if (p.start >= phrase.end) return p;
    if (p.start < phrase.start) before = p;
  }
  return before;
}

/** Associates each phrase with its p-value and classifies it (see {@link classifyPValue} for the options). */
export function associate(phrases: readonly PhraseMatch[], pValues: readonly PValueHit[], options: Partial<BandOptions> = {}): Occurrence[] {
  return phrases.map((m) => {
    const p = associatedPValue(m, pValues);
    return { phrase: m.phrase, start: m.start, end: m.end, ...classifyPValue(p, options), p };
  });
}

/** Everything the corpus step needs from one sentence. */
export interface SentenceAnalysis {
  /** Lexicon matches, in order of position. */
  phrases: PhraseMatch[];
  /** Every p-value of the sentence, thresholds included; left empty when no phrase matched. */
  pValues: PValueHit[];
  /** One per phrase match, in the same order. */
  occurrences: Occurrence[];
}

/**
 * Folds the sentence once, matches the lexicon, finds the p-values (only when a phrase matched: most
 * sentences have none, and this is the hot loop) and associates them.
 */
export function analyseSentence(sentence: string, matcher: LexiconMatcher, options: Partial<BandOptions> = {}): SentenceAnalysis {
  const folded = foldSentence(sentence);
  const phrases = matcher.match(folded);
  if (phrases.length === 0) return { phrases, pValues: [], occurrences: [] };
  const pValues = findPValues(folded);
  return { phrases, pValues, occurrences: associate(phrases, pValues, options) };
}
