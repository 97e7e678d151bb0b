/**
 * Words for the corpus vocabulary (contracts/corpus/vocab.ts) on the pages. The codes themselves stay visible
 * next to the words where a reader would type them into a query.
 */
import type { Band, OccurrenceStatus, Section } from '../../../../contracts/corpus/vocab.ts';

/** What each band of the tied p-value means (docs/api-corpus.md "Terms"). */
export const BAND_WORDS: Record<Band, string> = {
  '0.05-0.06': '0.05 ≤ p < 0.06',
  '0.06-0.08': '0.06 ≤ p < 0.08',
  '0.08-0.10': '0.08 ≤ p ≤ 0.10',
  '>0.10': 'p > 0.10',
  ns: 'a bound such as "p > 0.05" or "n.s.", no value',
  none: 'no p-value in the sentence',
};

export const STATUS_WORDS: Record<OccurrenceStatus, string> = {
  verified: 'verified (p ≥ 0.05)',
  rejected: 'rejected (p < 0.05)',
  unverified: 'unverified (no p-value)',
  indeterminate: 'indeterminate (a bound that settles nothing)',
};

const SECTION_WORDS: Record<Section, string> = {
  abstract: 'Abstract',
  body: 'Body',
  caption: 'Caption',
  'table-footnote': 'Table footnote',
};

/** Where an excerpt was found: "Abstract › Results", "Caption › Figure 2 › Results › Subgroups". */
export function placeOf(e: { section: Section; section_title: string; label: string | null }): string {
  const titles = e.section_title === '' ? [] : e.section_title.split(' > ');
  return [SECTION_WORDS[e.section], e.label, ...titles].filter((s): s is string => !!s).join(' › ');
}

/** The sections a repeated sentence also appears in: "also in the body". */
export const alsoIn = (sections: readonly Section[]): string =>
  sections.length === 0 ? '' : `also in ${sections.map((s) => SECTION_WORDS[s].toLowerCase()).join(', ')}`;
