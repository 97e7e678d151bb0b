import { describe, expect, it } from 'vitest';
import { analyseSentence, associate, associatedPValue, occurrenceSchema } from '../../../pipeline/corpus/associate.ts';
import { compileLexicon, loadLexicon } from '../../../pipeline/corpus/lexicon.ts';
import { findPValues } from '../../../pipeline/corpus/p-values.ts';

const matcher = compileLexicon(loadLexicon());

/** phrase, band or status, and the associated p text of every occurrence. */
function verdicts(sentence: string, options = {}): [string, string, string | null][] {
  const a = analyseSentence(sentence, matcher, options);
  for (const o of a.occurrences) {
    occurrenceSchema.parse(o);
    if (o.p !== null) expect(sentence.slice(o.p.start, o.p.end)).toBe(o.p.text);
  }
  return a.occurrences.map((o) => [o.phrase, o.band ?? o.status, o.p?.text ?? null]);
}

describe('associatedPValue: first after the phrase, else nearest before (hedged.md §2.1)', () => {
  const s = 'p = 0.01, then p = 0.02 before PHRASE and p = 0.07 after, p = 0.09 later';
  const hits = findPValues(s);
  const phrase = { start: s.indexOf('PHRASE'), end: s.indexOf('PHRASE') + 6 };

  it('takes the first p-value after the phrase', () => {
    expect(associatedPValue(phrase, hits)?.text).toBe('p = 0.07');
  });

  it('takes the nearest p-value before when none follows', () => {
    const before = hits.filter((h) => h.start < phrase.start);
    expect(associatedPValue(phrase, before)?.text).toBe('p = 0.02');
    expect(associatedPValue(phrase, [])).toBeNull();
  });

  it('skips threshold statements', () => {
    const t = 'The effect was marginally significant, where p < 0.10 was considered a trend.';
    expect(verdicts(t)).toEqual([['marginally significant', 'none', null]]);
    const u = 'Significance was set at p < 0.05; the effect was marginally significant.';
    expect(verdicts(u)).toEqual([['marginally significant', 'none', null]]);
  });
});

describe('associate', () => {
  it('lets two phrases share one p-value and passes the band options on', () => {
    const s = 'a trend toward significance and marginally significant (p = 0.05)';
    const a = analyseSentence(s, matcher);
    expect(a.occurrences.map((o) => [o.phrase, o.band, o.status, o.atThreshold, o.p?.text])).toEqual([
      ['a trend toward significance', '0.05-0.06', 'verified', true, 'p = 0.05'],
      ['marginally significant', '0.05-0.06', 'verified', true, 'p = 0.05'],
    ]);
    expect(associate(a.phrases, a.pValues, { exactlyAlpha: 'rejected' }).map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });

  it('returns the sentence p-values too, and none at all when no phrase matches', () => {
    const a = analyseSentence('The groups differed (p = 0.03; p = 0.2).', matcher);
    expect(a).toEqual({ phrases: [], pValues: [], occurrences: [] });
    const b = analyseSentence('It tended to rise (p = 0.03; p = 0.2).', matcher);
    expect(b.pValues.map((p) => p.text)).toEqual(['p = 0.03', 'p = 0.2']);
    expect(b.occurrences).toHaveLength(1);
  });
});

describe('sentences from the reference JATS files (SOURCES.md "expected")', () => {
  it.each([
    [
      'elife-46472-v3: a variant of "a strong trend", p after the phrase',
      'There was a strong statistical trend for an increase in the chromosome 10 logarithm of the odds (LOD) score for MA intake (from 8.2 to 8.8; p=0.07), and a significant increase for the chromosome 10 LOD score for temperature response (from 3.7 to 4.2; p=0.01), when results were compared for interval mapping and composite interval mapping.',
      [['a strong trend', '0.06-0.08', 'p=0.07']],
    ],
    [
      'elife-46472-v3: exact Otte phrase, no p-value',
      'Interestingly, the Taar1 locus was significant for the thermal trait and a strong trend for the MA consumption traits.',
      [['a strong trend', 'none', null]],
    ],
    [
      'elife00007: first p after the phrase, not the corrected significant one',
      "Geocoris spp. tended to predate more larvae from GLV-supplemented plants (Fisher's exact tests, 35–37% vs 22–27% May 5–6, N=59–60 larvae, p=0.066; 17–21% vs 12% May 13–15, N=92–100 larvae, p=0.069; combined trials, Bonferroni-corrected p=0.0063) (Figure 5).",
      [['tended to', '0.06-0.08', 'p=0.066']],
    ],
    [
      'journal.pone.0067227: p-values before the phrase, the nearest one',
      'Age (r=-0.15, p=0.09), waist circumference (r=-0.16, p=0.07), and serum ferritin level (r=-0.13, p=0.07) tended to be inversely correlated with leukocyte mtDNA copy number.',
      [['tended to', '0.06-0.08', 'p=0.07']],
    ],
    [
      'journal.pone.0068090: operator lost in the source',
      'There was a marginally significant difference in gender distribution between patients and healthy controls following Yates’s and Bonferroni corrections, Χ2 (1) = 5.37, p 0.06.',
      [['marginally significant', '0.06-0.08', 'p 0.06']],
    ],
    [
      'journal.pone.0068090: exactly 0.05, no operator',
      'There was a marginally significant difference between the Estimated IQ scores for patients and healthy controls, Tukey’s HSD, p 0.05.',
      [['marginally significant', '0.05-0.06', 'p 0.05']],
    ],
    [
      'journal.pone.0068090: a hedge on p < 0.05 is rejected',
      'There were trends toward higher Orthogonal indices among patients versus controls (uncorrected p = 0.044, Cohen’s d = 0.47), and for higher indices among patients versus relatives in both conditions (uncorrected p values < 0.02, Cohen’s d values > 0.70).',
      [['trend toward', 'rejected', 'p = 0.044']],
    ],
    [
      'journal.pgen.1000052: an Otte phrase on p < 0.05 is rejected',
      'There was a suggestion of genetic divergence of the nomads in the second axis but it only explained a small fraction of the genotypic variation and was only marginally significant (P\u200a=\u200a0.0167).',
      [['only marginally significant', 'rejected', 'P\u200a=\u200a0.0167']],
    ],
    [
      'journal.pgen.1000052: the same as a bound',
      'The second eigenvector suggests a separation of the nomads and villagers, but it is only marginally significant (P<0.0167) and explains only a very small proportion of the genotypic variance.',
      [['only marginally significant', 'rejected', 'P<0.0167']],
    ],
    [
      'journal.pone.0080518: hyphenated variant, no p-value',
      'Repeating the analysis suggested that cotton’s sensitive period may extend very weakly into the first half of July; thereafter, a non-significant trend towards increasing yield with increasing L. hesperus densities was observed (Table S1, Figure S1).',
      [['a non-significant trend', 'none', null]],
    ],
    [
      'journal.pmed.0030520: subscripted label, significant',
      'Similarly, stratifying by ethnicity indicated that studies conducted in Asian populations tended to have a larger ORs (χ52 = 14.4, pHet = 0.007).',
      [['tended to', 'rejected', 'pHet = 0.007']],
    ],
  ])('%s', (_name, sentence, expected) => {
    expect(verdicts(sentence)).toEqual(expected);
  });

  it('finds no hedge in the neutral and purely significant sentences', () => {
    for (const s of [
      'However, the observed negative relationship was not significant (F[1,2] = 6.44, p = 0.1265).',
      'Seroprevalence in sheep was higher in Mopeia (22.8%) than in Nicoadala (4.3%) (p = 0.05).',
      'Cell viability decreased in a dose-dependent manner (p = 0.0447).',
    ])
      expect(verdicts(s), s).toEqual([]);
  });
});
