import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../pipeline/corpus/sentences.ts';

const texts = (p: string) => splitSentences(p).map((s) => s.text);

/** Two-sentence passages in the style of research/hedged.md §5.2 test A: [first, second]. */
const PASSAGES: [string, string][] = [
  ['Geocoris spp. tended to predate more larvae from GLV-supplemented plants (p=0.066).', 'Predation was lower in 2010.'],
  ['Yield rose with density (Fig. 2B).', 'The effect was strongest in July.'],
  ['As reported by Smith et al. (2010), the effect was marginally significant (p = 0.07).', 'We replicated this.'],
  ['The difference did not reach significance (cf. Table 2).', 'Table 3 gives the subgroups.'],
  ['Several taxa, e.g. Bacteroides spp. and Prevotella spp., were enriched.', 'Others were depleted.'],
  ['Mice received 5 mg/kg i.v. and were observed for 2 h.', 'No adverse events occurred.'],
  ['Values are mean ± S.D. of three replicates.', 'Error bars show the range.'],
  ['The interaction was n.s. (p = 0.31).', 'Main effects were significant.'],
  ['The constant was approx. 3.4 × 10−5 M (Eq. 3).', 'It agrees with earlier estimates.'],
  ['Samples were analysed by Dr. Jones at the central laboratory.', 'All assays were blinded.'],
  ['Participants were recruited in the U.S. and Canada.', 'Recruitment closed in 2019.'],
  ['There was a trend toward lower mortality (p = .06).', 'Secondary outcomes were similar.'],
  ['The mean was 0.55 in the treated vs. 0.43 in the control group.', 'Variances were equal.'],
  ['Cores were taken at ca. 1.5 m depth.', 'Temperature was logged hourly.'],
  ['A nearly significant effect was seen (P < 0.10).', 'mRNA levels did not change.'],
];

describe('splitSentences', () => {
  it.each(PASSAGES)('splits "%s" | "%s" into exactly those two sentences', (a, b) => {
    expect(texts(`${a} ${b}`)).toEqual([a, b]);
  });

  it('never splits inside p-values, decimals or exponent forms', () => {
    for (const s of [
      'The effect approached significance, p = .07, in women.',
      'It was marginally significant (P < 0.05. versus P = 0.051 after correction).',
      'Significance was borderline (p = 7.2 × 10^-2; ps > 0.05 for both).',
      'The p-value of 0.09 suggests a trend.',
    ]) {
      expect(texts(s), s).toEqual([s]);
    }
    expect(texts('The result was significant (P < 0.05). The trend was not (P = 0.08).')).toEqual([
      'The result was significant (P < 0.05).',
      'The trend was not (P = 0.08).',
    ]);
  });

  it('joins after abbreviations and before continuations, but not after a lone capital or "spp." before a capital', () => {
    expect(texts('Compare Figs. 2 and 3 (No. 4, St. Louis site).')).toHaveLength(1);
    expect(texts('This holds (see Refs. 3, 4; pp. 12–14).')).toHaveLength(1);
    expect(texts('Rats were dosed i.p. Twice daily dosing followed.')).toHaveLength(1);
    expect(texts('Levels of vitamin D. The next cohort differed.')).toEqual(['Levels of vitamin D.', 'The next cohort differed.']);
    expect(texts('No predation by Geocoris spp. In 2011, predation rose.')).toEqual(['No predation by Geocoris spp.', 'In 2011, predation rose.']);
  });

  it('splits before lower-case sentence starters that ICU keeps attached', () => {
    expect(texts('The effect was weak (p = 0.07). mRNA levels rose. p-values were adjusted.')).toEqual([
      'The effect was weak (p = 0.07).',
      'mRNA levels rose.',
      'p-values were adjusted.',
    ]);
    expect(texts('Genes (e.g. mRNA targets) were tested.')).toHaveLength(1);
    expect(texts('Tumours were larger (P = 0.01). p53 expression was higher (P < 0.001).')).toEqual([
      'Tumours were larger (P = 0.01).',
      'p53 expression was higher (P < 0.001).',
    ]);
  });

  it('returns offsets into the paragraph, excluding surrounding whitespace, and never changes the text', () => {
    const p = '  First one (Fig. 1).   Second\u00a0one?  Third!  ';
    const out = splitSentences(p);
    expect(out.map((s) => s.text)).toEqual(['First one (Fig. 1).', 'Second\u00a0one?', 'Third!']);
    for (const s of out) expect(p.slice(s.start, s.end)).toBe(s.text);
    expect(out[0]!.start).toBe(2);
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('   ')).toEqual([]);
    expect(texts('No final stop')).toEqual(['No final stop']);
  });

  it('gives the same sentences for long paragraphs, which are segmented in pieces', () => {
    const unit = ['As Smith et al. (2010) found, it held.', 'Dr. Jones agreed (Fig. 2).', 'The end was near (p = 0.07).'];
    const long = Array.from({ length: 150 }, () => unit.join(' ')).join(' ');
    expect(long.length).toBeGreaterThan(3 * 4096);
    expect(texts(long)).toEqual(Array.from({ length: 150 }, () => unit).flat());
  });

  it('handles a long paragraph without keeping ICU segment objects', () => {
    const sentence = 'The intervention showed a marginally significant benefit (p = 0.07; Fig. 2). ';
    const long = sentence.repeat(5000);
    const out = splitSentences(long);
    expect(out).toHaveLength(5000);
  });
});
