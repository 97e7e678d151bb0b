import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { foldSentence } from '../../../pipeline/corpus/lexicon.ts';
import { findPValues, parsePNumber, pValueHitSchema, type PValueHit } from '../../../pipeline/corpus/p-values.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const HANKINS = sharedPath('reference/hedged/otte2022/doc/still_not_significant.txt');
const haveHankins = needShared('reference/hedged/otte2022/doc/still_not_significant.txt', 'the Hankins-list tests');

/** The one hit of a sentence, checked against the schema and against its own offsets. */
function only(sentence: string): PValueHit {
  const hits = findPValues(sentence);
  expect(hits, sentence).toHaveLength(1);
  const h = pValueHitSchema.parse(hits[0]);
  expect(sentence.slice(h.start, h.end)).toBe(h.text);
  return h;
}

describe('findPValues: formats (research/hedged.md §1.5, §2.1, §7.3)', () => {
  // [sentence, expected text, operator, value, exact]
  const cases: [string, string, PValueHit['operator'], number | null, boolean][] = [
    // labels
    ['differed (p = 0.07).', 'p = 0.07', '=', 0.07, true],
    ['differed (P = 0.07).', 'P = 0.07', '=', 0.07, true],
    ['all ps > .10 in both groups', 'ps > .10', '>', 0.1, false],
    ["all p's < .05 here", "p's < .05", '<', 0.05, false],
    ['with a p value = 0.07', 'p value = 0.07', '=', 0.07, true],
    ['with a p-value = 0.07', 'p-value = 0.07', '=', 0.07, true],
    ['two p-values < 0.035 were seen', 'p-values < 0.035', '<', 0.035, false],
    ['(uncorrected p values < 0.02, d > 0.70)', 'p values < 0.02', '<', 0.02, false],
    ['a pvalue = 0.07', 'pvalue = 0.07', '=', 0.07, true],
    ['with a p-value of 0.07 in the trial', 'p-value of 0.07', '=', 0.07, true],
    ['the p value was 0.07 overall', 'p value was 0.07', '=', 0.07, true],
    ['the p-value was less than 0.1', 'p-value was less than 0.1', '<', 0.1, false],
    ['(χ52 = 14.4, pHet = 0.007)', 'pHet = 0.007', '=', 0.007, true],
    ['(Ptrend = 0.08)', 'Ptrend = 0.08', '=', 0.08, true],
    ['(P-trend = 0.08)', 'P-trend = 0.08', '=', 0.08, true],
    ['(p_adj = 0.08)', 'p_adj = 0.08', '=', 0.08, true],
    ['(Pinteraction = 0.2)', 'Pinteraction = 0.2', '=', 0.2, true],
    ['(p for trend = 0.06)', 'p for trend = 0.06', '=', 0.06, true],
    ['(P for linear trend = 0.06)', 'P for linear trend = 0.06', '=', 0.06, true],
    ['(p (two-sided) = 0.06)', 'p (two-sided) = 0.06', '=', 0.06, true],
    ["(P (Fisher's exact test) = 0.06)", "P (Fisher's exact test) = 0.06", '=', 0.06, true],
    ['combined trials, Bonferroni-corrected p=0.0063)', 'p=0.0063', '=', 0.0063, true],
    // operators
    ['(p < 0.10)', 'p < 0.10', '<', 0.1, false],
    ['(p > 0.05)', 'p > 0.05', '>', 0.05, false],
    ['(p ≤ 0.062)', 'p ≤ 0.062', '<=', 0.062, false],
    ['(p ≥ 0.05)', 'p ≥ 0.05', '>=', 0.05, false],
    ['(p <= 0.062)', 'p <= 0.062', '<=', 0.062, false],
    ['(p >= 0.05)', 'p >= 0.05', '>=', 0.05, false],
    ['(p =<0.0001)', 'p =<0.0001', '<=', 0.0001, false],
    ['(P < or = 0.05)', 'P < or = 0.05', '<=', 0.05, false],
    ['(p ≈ 0.05)', 'p ≈ 0.05', '~', 0.05, false],
    ['(p ~ 0.06)', 'p ~ 0.06', '~', 0.06, false],
    ['(p ∼ 0.06)', 'p ∼ 0.06', '~', 0.06, false],
    ['(P ≪ 0.001)', 'P ≪ 0.001', '<', 0.001, false],
    ['(p: 0.07)', 'p: 0.07', '=', 0.07, true],
    ['(p less than 0.05)', 'p less than 0.05', '<', 0.05, false],
    ['(p greater than or equal to 0.05)', 'p greater than or equal to 0.05', '>=', 0.05, false],
    ['(p-value approximately 0.05)', 'p-value approximately 0.05', '~', 0.05, false],
    // operator lost in the source (journal.pone.0068090) and in Hankins' list
    ['Χ2 (1) = 5.37, p 0.06.', 'p 0.06', 'none', 0.06, true],
    ['Tukey’s HSD, p 0.05.', 'p 0.05', 'none', 0.05, true],
    ['approached trend levels of significance (p0.05)', 'p0.05', 'none', 0.05, true],
    ['(p .07)', 'p .07', 'none', 0.07, true],
    // values
    ['(p = .07)', 'p = .07', '=', 0.07, true],
    ['(p<.001)', 'p<.001', '<', 0.001, false],
    ['(p=0·0556)', 'p=0·0556', '=', 0.0556, true],
    ['(p = 0,07)', 'p = 0,07', '=', 0.07, true],
    ['(p = 1.00)', 'p = 1.00', '=', 1, true],
    ['(p = 3.2 × 10⁻⁴)', 'p = 3.2 × 10⁻⁴', '=', 0.00032, true],
    ['(p = 3.2 × 10−4)', 'p = 3.2 × 10−4', '=', 0.00032, true],
    ['(p = 3.2 x 10-4)', 'p = 3.2 x 10-4', '=', 0.00032, true],
    ['(p = 3.2*10^-4)', 'p = 3.2*10^-4', '=', 0.00032, true],
    ['(p = 3.2 × 10^(−4))', 'p = 3.2 × 10^(−4)', '=', 0.00032, true],
    ['(p = 5·10−3)', 'p = 5·10−3', '=', 0.005, true],
    ['(p = 3.2e-4)', 'p = 3.2e-4', '=', 0.00032, true],
    ['(p = 3.2E-4)', 'p = 3.2E-4', '=', 0.00032, true],
    ['(p = 3.2E−04)', 'p = 3.2E−04', '=', 0.00032, true],
    ['(p = 1e-04)', 'p = 1e-04', '=', 0.0001, true],
    ['the top two axes having P<10−12, supporting', 'P<10−12', '<', 1e-12, false],
    ['(P < 10⁻⁵)', 'P < 10⁻⁵', '<', 1e-5, false],
    ['(P < 10^-5)', 'P < 10^-5', '<', 1e-5, false],
    // spaces from the XML: no-break, thin, hair, narrow no-break
    ['only marginally significant (P\u200a=\u200a0.0167).', 'P\u200a=\u200a0.0167', '=', 0.0167, true],
    ['(p\u00a0=\u00a00.06)', 'p\u00a0=\u00a00.06', '=', 0.06, true],
    ['(p\u2009<\u20090.1)', 'p\u2009<\u20090.1', '<', 0.1, false],
    ['(p\u202f=\u202f0.06)', 'p\u202f=\u202f0.06', '=', 0.06, true],
    // full-width characters and a mathematical italic p (an astral character)
    ['（ｐ＝０.０７）', 'ｐ＝０.０７', '=', 0.07, true],
    ['(𝑝 = 0.07)', '𝑝 = 0.07', '=', 0.07, true],
  ];
  it.each(cases)('%s', (sentence, text, operator, value, exact) => {
    const h = only(sentence);
    expect({ text: h.text, operator: h.operator, value: h.value, exact: h.exact }).toEqual({ text, operator, value, exact });
    expect(h.threshold).toBe(false);
  });

  it('reads ranges and double or reversed inequalities as bounds', () => {
    expect(only('on the very borderline of significance (0.05<p<0.06)')).toMatchObject({
      text: '0.05<p<0.06',
      operator: '<',
      value: 0.06,
      lower: { value: 0.05, inclusive: false },
      exact: false,
    });
    expect(only('slight evidence of significance (0.1>p>0.05)')).toMatchObject({
      text: '0.1>p>0.05',
      operator: '<',
      value: 0.1,
      lower: { value: 0.05, inclusive: false },
    });
    expect(only('(0.05 ≤ p < 0.10)')).toMatchObject({ operator: '<', value: 0.1, lower: { value: 0.05, inclusive: true } });
    expect(only('(0.05 < p)')).toMatchObject({ text: '0.05 < p', operator: '>', value: 0.05, lower: null });
    expect(only('(ps = 0.05–0.08)')).toMatchObject({ operator: '<=', value: 0.08, lower: { value: 0.05, inclusive: true } });
    expect(only('(ps = 0.05 – 0.08)')).toMatchObject({ operator: '<=', value: 0.08, lower: { value: 0.05, inclusive: true } });
    expect(only('(p = 0.03 – 12 of 20 patients)')).toMatchObject({ text: 'p = 0.03', value: 0.03, lower: null });
  });

  it('reads "n.s." and "NS" as a no-value marker where they stand for a result', () => {
    for (const [s, text, operator] of [
      ['the difference was small (n.s.)', 'n.s.', 'none'],
      ['the difference was small (N.S.)', 'N.S.', 'none'],
      ['the difference was small (n. s.)', 'n. s.', 'none'],
      ['a trend in men (NS)', 'NS', 'none'],
      ['a trend in men (OR 1.2; NS)', 'NS', 'none'],
      ['a trend in men (p = NS)', 'p = NS', '='],
      ['a trend in men (P = n.s.)', 'P = n.s.', '='],
    ] as const) {
      const h = only(s);
      expect({ text: h.text, operator: h.operator, value: h.value, kind: h.kind, exact: h.exact }, s).toEqual({
        text,
        operator,
        value: null,
        kind: 'ns',
        exact: false,
      });
    }
  });

  it('finds every p-value of a sentence, in order, with their offsets', () => {
    const s =
      "Geocoris spp. tended to predate more larvae (Fisher's exact tests, p=0.066; 17–21% vs 12%, p=0.069; combined trials, Bonferroni-corrected p=0.0063) (Figure 5).";
    const hits = findPValues(s);
    expect(hits.map((h) => [h.text, h.value])).toEqual([
      ['p=0.066', 0.066],
      ['p=0.069', 0.069],
      ['p=0.0063', 0.0063],
    ]);
    for (const h of hits) expect(s.slice(h.start, h.end)).toBe(h.text);
  });

  it('keeps offsets in the original string when folding changes lengths', () => {
    // "ﬁ" (1 unit → 2), full-width (1 → 1), an astral emoji and math letters (2 → 1 or 2), soft hyphen (1 → 0).
    const s = 'The signiﬁcance 😀 of 𝐭𝐡𝐢𝐬 ｅｆｆｅｃｔ was mar\u00adginal (𝑝\u00a0=\u00a0０.０６; P < 10⁻³).';
    const hits = findPValues(s);
    expect(hits.map((h) => h.text)).toEqual(['𝑝\u00a0=\u00a0０.０６', 'P < 10⁻³']);
    for (const h of hits) expect(s.slice(h.start, h.end)).toBe(h.text);
    expect(hits[1]!.value).toBe(0.001);
    // The same result from a pre-folded sentence.
    expect(findPValues(foldSentence(s))).toEqual(hits);
  });
});

describe('findPValues: traps (research/hedged.md §1.5, SOURCES.md)', () => {
  const none: string[] = [
    'p53 and P450 expression were measured',
    'mutant p53 0.5 mM', // "p53" is a gene even with a number after it
    'see p. 12 and pp. 12–15 of the manual',
    'as reported (p. 0.5 of the appendix)',
    'the complement 1-p = 0.95 of the error rate',
    'a step = 0.5 and Cp = 0.3 and top < 0.1',
    'a correlation p = −0.22 was not allowed', // negative values (metacheck PR #357)
    'a value p = 1.5 is not a p-value', // above 1 is dropped, as statcheck does
    'total P = 0.3 mg/L in the water', // phosphorus, with a unit
    'total P was 0.05 in the lake', // "P was" needs a p-value label
    'p < 5% of cells',
    'mean PS = 0.3 in both arms', // propensity score
    'patients received normal saline (NS) before surgery',
    'the non-smokers (NS) group',
    'NS, not significant', // a legend key
    'n.s., not significant',
    'Time (ns) on the x axis',
    'almost achieved significance (p=0-065)', // a typo: not a p-value
    'significant to some degree (0<p>1)', // two lower bounds: meaning unknown
    'possibly significant (0.05<p>0.10)',
    'tendency toward significance (p approaching 0.1)',
    'a probability of 0.05 without a label',
    'a P value of', // no value
    'the p value', // no value
  ];
  it.each(none)('no p-value in %j', (s) => {
    expect(findPValues(s)).toEqual([]);
  });

  it('tells a legend key "NS, not significant" from a result', () => {
    expect(findPValues('*P < 0.05; NS, not significant.').map((h) => h.text)).toEqual(['P < 0.05']);
  });
});

describe('findPValues: thresholds are flagged, not taken for results', () => {
  const thresholds: [string, string][] = [
    ['P < 0.05 was considered significant.', 'P < 0.05'],
    ['P values < 0.05 were considered statistically significant.', 'P values < 0.05'],
    ['A p-value of less than 0.05 was considered significant.', 'p-value of less than 0.05'],
    ['Effects were considered statistically significant at p<0.05.', 'p<0.05'],
    ['Statistical significance was set at p < 0.05.', 'p < 0.05'],
    ['Significance was defined as p ≤ 0.05 (two-sided).', 'p ≤ 0.05'],
    ['Differences were considered significant if p < 0.05.', 'p < 0.05'],
    ['We used a threshold of p < 0.10 for marginal effects.', 'p < 0.10'],
    ['the significance level of p = 0.05 was used', 'p = 0.05'],
    ['a p < 0.05 threshold was applied', 'p < 0.05'],
    ['p < 0.05 (two-tailed) was taken as significant', 'p < 0.05'],
    ['Results with 0.05 < p < 0.10 were considered marginally significant.', '0.05 < p < 0.10'],
    ['p < 0.05 indicates statistical significance', 'p < 0.05'],
  ];
  it.each(thresholds)('%s', (s, text) => {
    const h = only(s);
    expect(h.text).toBe(text);
    expect(h.threshold).toBe(true);
  });

  it('does not flag results that mention significance nearby', () => {
    for (const s of [
      'The effect approached significance (p = 0.07).',
      'It was close to the level of significance (p = 0.06).',
      'It approached the significance level (p=0.06), indicating a trend.',
      'The difference was marginally significant at p < 0.10.',
      'the LOD score increase did not meet the significance threshold (p = 0.07)',
    ])
      expect(only(s).threshold, s).toBe(false);
  });
});

describe('parsePNumber', () => {
  it('reads the number forms on their own', () => {
    expect(parsePNumber('.07')).toBe(0.07);
    expect(parsePNumber('0·07')).toBe(0.07);
    expect(parsePNumber('0,07')).toBe(0.07);
    expect(parsePNumber('6 × 10−2')).toBe(0.06);
    expect(parsePNumber('10^-3')).toBe(0.001);
    expect(parsePNumber('2.1e-05')).toBe(2.1e-5);
    expect(parsePNumber('abc')).toBeNull();
  });
});

describe.skipIf(!haveHankins)("Hankins' list: every entry's quoted p-value (otte2022/doc)", () => {
  const lines = haveHankins
    ? readFileSync(HANKINS, 'utf8')
        .split('\n')
        .slice(15)
        .map((l) => l.trim())
        .filter((l) => l !== '')
    : [];

  it('has the 509 entries hedged.md counts', () => {
    expect(lines).toHaveLength(509);
  });

  it('parses every "(p OP value)" entry to the same operator and value as a plain reading', () => {
    // An independent, deliberately simple reading of the regular entries.
    const SIMPLE = /\((p|P)\s*(=|<|>|>=)\s*(0?\.\d+|0\.\d+|1)\)$/;
    let regular = 0;
    for (const l of lines) {
      const m = SIMPLE.exec(l);
      if (!m) continue;
      regular++;
      const hits = findPValues(l).filter((h) => !h.threshold);
      expect(hits, l).toHaveLength(1);
      expect([hits[0]!.operator, hits[0]!.value], l).toEqual([m[2], Number(m[3])]);
    }
    expect(regular).toBeGreaterThanOrEqual(480);
  });

  it('reads the odd entries as documented', () => {
    const expected: Record<string, { text: string; operator: string; value: number | null } | null> = {
      'almost achieved significance (p=0-065)': null,
      'approached trend levels of significance (p0.05)': { text: 'p0.05', operator: 'none', value: 0.05 },
      'approaching marginal levels of significance p<0.107)': { text: 'p<0.107', operator: '<', value: 0.107 },
      'barely escapes being statistically significant at the 5% risk level (0.1>p>0.05)': {
        text: '0.1>p>0.05',
        operator: '<',
        value: 0.1,
      },
      'non-significant in the statistical sense (p>0.05': { text: 'p>0.05', operator: '>', value: 0.05 },
      'only slightly missed the significance level (p=0·0556)': { text: 'p=0·0556', operator: '=', value: 0.0556 },
      'possibly significant (0.05<p>0.10)': null,
      'significant to some degree (0<p>1)': null,
      'significant at the .07 level': null,
      'tendency toward significance (p approaching 0.1)': null,
      'marginally significant (p>=0.1)': { text: 'p>=0.1', operator: '>=', value: 0.1 },
      'a slight tendency toward significance(p<0.08)': { text: 'p<0.08', operator: '<', value: 0.08 },
    };
    for (const [line, want] of Object.entries(expected)) {
      expect(lines, line).toContain(line);
      const hits = findPValues(line);
      if (want === null) expect(hits, line).toEqual([]);
      else
        expect(
          hits.map((h) => ({ text: h.text, operator: h.operator, value: h.value })),
          line,
        ).toEqual([want]);
    }
    // 509 entries: 497 with a p-value; the other 12 have none or an unreadable one (listed above or with no "p").
    expect(lines.filter((l) => findPValues(l).length > 0)).toHaveLength(497);
  });
});
