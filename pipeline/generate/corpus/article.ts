/**
 * One synthetic JATS article and its ground truth. Every article is drawn from its own PRNG stream
 * (seed, CORPUS_STREAM, index), so article i is the same whatever the corpus size, and the XML never depends
 * on the gzip share (drawn from a separate stream).
 *
 * Text is assembled from fragments that carry both the XML and the text an ideal reader extracts from it,
 * so the ground truth states sentences exactly as `parseArticle` + `splitSentences` yield them.
 */
import { Rng } from '../prng.ts';
import type { AbsentTruth, ArticleTruth, HedgeTruth, PValueTruth, TrapTruth } from './ground-truth.ts';
import * as V from './vocab.ts';

/** PRNG stream of article content; CORPUS_STREAM + 1 is the file-format stream (gzip, extension). */
export const CORPUS_STREAM = 7101;

/** An article before it is written: the file name, its XML, whether to gzip it, and its truth. */
export interface GeneratedArticle {
  file: string;
  xml: string;
  gzip: boolean;
  truth: Omit<ArticleTruth, 'bytes' | 'sha256'>;
}

// ---------------------------------------------------------------- fragments

/** A piece of running text: its XML and the text a reader extracts from it. */
interface Frag {
  xml: string;
  text: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const x = (xml: string, text: string): Frag => ({ xml, text });

/** Concatenates fragments; plain strings are text (escaped for XML). */
function cat(...parts: (Frag | string)[]): Frag {
  let xml = '';
  let text = '';
  for (const p of parts) {
    if (typeof p === 'string') {
      xml += esc(p);
      text += p;
    } else {
      xml += p.xml;
      text += p.text;
    }
  }
  return { xml, text };
}

/** Upper-cases the first letter unless the first word already has a capital ("HbA1c", "eGFR decline"). */
function cap(s: string): string {
  const first = s.split(' ')[0]!;
  return /[A-Z]/.test(first) ? s : s[0]!.toUpperCase() + s.slice(1);
}

// ---------------------------------------------------------------- p-values

interface PForm {
  frag: Frag;
  truth: PValueTruth;
  tags: string[];
}

function pForm(xml: string, text: string, operator: PValueTruth['operator'], value: number | null, tags: string[] = []): PForm {
  return { frag: x(xml, text), truth: { text, operator, value, kind: value === null ? 'ns' : 'value' }, tags };
}

/** A non-significant value as written, spread over the four numeric bands. */
function nonSigValue(rng: Rng): string {
  const u = rng.float();
  if (u < 0.25) return `0.0${51 + rng.int(9)}`; // 0.051–0.059
  if (u < 0.6) {
    if (rng.chance(0.4)) return rng.pick(['0.06', '0.07']);
    let k = 61 + rng.int(19); // 0.061–0.079, no trailing zero
    if (k === 70) k = 71;
    return `0.0${k}`;
  }
  if (u < 0.9) {
    const r = rng.float();
    if (r < 0.12) return '0.10';
    if (r < 0.45) return rng.pick(['0.08', '0.09']);
    let k = 81 + rng.int(19);
    if (k === 90) k = 91;
    return `0.0${k}`;
  }
  return `0.${11 + rng.int(35)}`.replace(/0$/, '1'); // 0.11–0.45
}

/** "p = 0.07" in one of the label/spacing styles real papers use. */
function equalsForm(rng: Rng, value: string): PForm {
  const v = Number(value);
  switch (rng.int(6)) {
    case 0:
      return pForm(`p = ${value}`, `p = ${value}`, '=', v);
    case 1:
      return pForm(`P = ${value}`, `P = ${value}`, '=', v);
    case 2:
      return pForm(`p=${value}`, `p=${value}`, '=', v);
    case 3:
      return pForm(`<italic>p</italic> = ${value}`, `p = ${value}`, '=', v, ['italic-p']);
    case 4:
      return pForm(`<italic>P</italic>&#160;=&#160;${value}`, `P = ${value}`, '=', v, ['italic-p', 'nbsp']);
    default: {
      const bare = value.replace(/^0/, '');
      return pForm(`P = ${bare}`, `P = ${bare}`, '=', v, ['no-leading-zero']);
    }
  }
}

/** A non-significant p-value expression, in the forms of research/hedged.md §1–2. */
function nonSigP(rng: Rng, mathId: () => string): PForm {
  const u = rng.int(100);
  if (u < 55) return equalsForm(rng, nonSigValue(rng));
  if (u < 61)
    return rng.chance(0.5)
      ? pForm('p &lt; 0.10', 'p < 0.10', '<', 0.1, ['upper-bound'])
      : pForm('<italic>p</italic> &lt; 0.1', 'p < 0.1', '<', 0.1, ['upper-bound', 'italic-p']);
  if (u < 63) return pForm('p &#x2264; 0.10', 'p ≤ 0.10', '<=', 0.1, ['upper-bound', 'unicode-operator']);
  if (u < 68) return pForm('<italic>p</italic>s &gt; 0.05', 'ps > 0.05', '>', 0.05, ['plural-ps']);
  if (u < 72) return pForm('p &gt; 0.05', 'p > 0.05', '>', 0.05, ['lower-bound']);
  if (u < 74) return pForm('P &gt; 0.10', 'P > 0.10', '>', 0.1, ['lower-bound']);
  if (u < 79) {
    const m = `${5 + rng.int(5)}.${1 + rng.int(9)}`;
    const times = rng.chance(0.5) ? '&#xD7;' : '×';
    return pForm(`<italic>p</italic> = ${m} ${times} 10<sup>&#x2212;2</sup>`, `p = ${m} × 10^-2`, '=', Number((Number(m) / 100).toFixed(4)), ['exponent']);
  }
  if (u < 83) return pForm('n.s.', 'n.s.', 'none', null, ['ns']);
  if (u < 87) {
    const v = nonSigValue(rng);
    return pForm(
      `<inline-formula><mml:math id="${mathId()}"><mml:mi>p</mml:mi><mml:mo>=</mml:mo><mml:mn>${v}</mml:mn></mml:math></inline-formula>`,
      `p=${v}`,
      '=',
      Number(v),
      ['mathml'],
    );
  }
  if (u < 89) return pForm('p = 0.05', 'p = 0.05', '=', 0.05, ['at-threshold']);
  if (u < 92) {
    const v = nonSigValue(rng);
    return pForm(`<italic>p</italic><sub>trend</sub> = ${v}`, `ptrend = ${v}`, '=', Number(v), ['subscript-label']);
  }
  if (u < 95) return pForm('P = 0.10', 'P = 0.10', '=', 0.1, ['edge-0.10']);
  return equalsForm(rng, nonSigValue(rng));
}

/** A significant p-value expression (p < 0.05). */
function sigP(rng: Rng): PForm {
  switch (rng.int(8)) {
    case 0:
      return pForm('<italic>P</italic> = 0.0167', 'P = 0.0167', '=', 0.0167, ['italic-p']);
    case 1:
      return pForm('p = 0.03', 'p = 0.03', '=', 0.03);
    case 2:
      return pForm('p = 0.004', 'p = 0.004', '=', 0.004);
    case 3:
      return pForm('P &lt; 0.05', 'P < 0.05', '<', 0.05);
    case 4:
      return pForm('p &lt; 0.01', 'p < 0.01', '<', 0.01);
    case 5:
      return pForm('<italic>P</italic> &lt; 0.001', 'P < 0.001', '<', 0.001, ['italic-p']);
    case 6:
      return pForm('p = 0.044', 'p = 0.044', '=', 0.044);
    default:
      return pForm('<italic>p</italic> = 2.1 × 10<sup>−3</sup>', 'p = 2.1 × 10^-3', '=', 0.0021, ['exponent']);
  }
}

/** Outcome and band of an associated p-value under DECISIONS.md §5 (exactly 0.05 counted as verified). */
function judge(p: PValueTruth | null): Pick<HedgeTruth, 'outcome' | 'band' | 'atThreshold'> {
  if (!p) return { outcome: 'unverified', band: 'none', atThreshold: false };
  if (p.kind === 'ns') return { outcome: 'verified', band: 'ns', atThreshold: false };
  const v = p.value!;
  const bandOf = (b: number) => (b < 0.06 ? '0.05-0.06' : b < 0.08 ? '0.06-0.08' : b <= 0.1 ? '0.08-0.10' : '>0.10');
  if (p.operator === '>' || p.operator === '>=')
    return { outcome: 'verified', band: v >= 0.1 ? '>0.10' : 'ns', atThreshold: p.operator === '>=' && v === 0.05 };
  if (p.operator === '<' || p.operator === '<=') {
    if (v <= 0.05) return { outcome: 'rejected', band: null, atThreshold: false };
    return { outcome: 'verified', band: bandOf(v), atThreshold: false };
  }
  if (v < 0.05) return { outcome: 'rejected', band: null, atThreshold: false };
  return { outcome: 'verified', band: bandOf(v), atThreshold: v === 0.05 };
}

// ---------------------------------------------------------------- sentences

interface HedgeCore {
  phrase: string;
  phraseSource: 'otte' | 'variant';
  pValue: PValueTruth | null;
  otherPValues: PValueTruth[];
  tags: string[];
}

/** A sentence, optionally a recorded hedge or trap. */
interface Sent {
  frag: Frag;
  hedge?: HedgeCore;
  trap?: string;
}

/** Per-article state shared by the sentence builders. */
interface Ctx {
  rng: Rng;
  condition: string;
  arm: string;
  refs: number;
  math: () => string;
}

const pickPhrase = (rng: Rng, list: readonly (readonly [string, 'otte' | 'variant'])[]) => rng.pick(list);
const outcome = (c: Ctx) => c.rng.pick(V.OUTCOMES);
const covariate = (c: Ctx) => c.rng.pick(V.COVARIATES);

function hedge(frag: Frag, [phrase, source]: readonly [string, 'otte' | 'variant'], p: PForm | null, tags: string[], others: PValueTruth[] = []): Sent {
  return {
    frag,
    hedge: { phrase, phraseSource: source, pValue: p?.truth ?? null, otherPValues: others, tags: [...tags, ...(p?.tags ?? [])] },
  };
}

/** Hedges whose associated p-value is non-significant (outcome `verified`). */
const VERIFIED_BUILDERS: ((c: Ctx) => Sent)[] = [
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const p = nonSigP(c.rng, c.math);
    return hedge(cat(`The difference in ${outcome(c)} between the ${c.arm} and control groups was ${ph[0]} (`, p.frag, ').'), ph, p, []);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const p = nonSigP(c.rng, c.math);
    const fig = `${1 + c.rng.int(4)}${c.rng.pick(['A', 'B', 'C'])}`;
    return hedge(cat(`After adjustment for ${covariate(c)}, the association with ${outcome(c)} remained ${ph[0]} (`, p.frag, `; Fig. ${fig}).`), ph, p, [
      'abbrev-fig',
    ]);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const p = nonSigP(c.rng, c.math);
    const who = c.rng.pick(V.SURNAMES);
    return hedge(cat(`As in the cohort of ${who} et al. (${2005 + c.rng.int(15)}), the reduction in ${outcome(c)} was ${ph[0]} (`, p.frag, ').'), ph, p, [
      'abbrev-et-al',
    ]);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const v = nonSigValue(c.rng);
    const label = c.rng.pick(['p-value', 'p value', 'P value']);
    const p = pForm(`${label} of ${v}`, `${label} of ${v}`, '=', Number(v), ['value-of']);
    return hedge(cat(`The effect of ${c.arm} on ${outcome(c)} was ${ph[0]}, with a `, p.frag, '.'), ph, p, []);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.TREND_HEDGES);
    const p = nonSigP(c.rng, c.math);
    const toward = c.rng.chance(0.5) ? 'toward' : 'towards';
    return hedge(cat(`There was ${ph[0]} ${toward} ${c.rng.pick(['higher', 'lower'])} ${outcome(c)} in the ${c.arm} group (`, p.frag, ').'), ph, p, []);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.SIGNIFICANCE_HEDGES);
    const p = nonSigP(c.rng, c.math);
    return hedge(
      cat(
        `${cap(outcome(c))} showed ${ph[0]} in patients given ${c.arm} (i.e. Cohort ${c.rng.pick(['A', 'B', 'C'])}) compared with usual care (`,
        p.frag,
        ').',
      ),
      ph,
      p,
      ['abbrev-ie'],
    );
  },
  (c) => {
    // p-values before the phrase (journal.pone.0067227): the nearest one before is the associated one.
    const ph = pickPhrase(c.rng, V.TREND_HEDGES);
    const first = equalsForm(c.rng, nonSigValue(c.rng));
    const second = equalsForm(c.rng, nonSigValue(c.rng));
    const a = covariate(c);
    const b = c.rng.pick(V.COVARIATES.filter((v) => v !== a));
    const r = () => `-0.${10 + c.rng.int(20)}`;
    return hedge(
      cat(
        `${cap(a)} (r = ${r()}, `,
        first.frag,
        `) and ${b} (r = ${r()}, `,
        second.frag,
        `) showed ${ph[0]} toward an inverse correlation with ${outcome(c)}.`,
      ),
      ph,
      second,
      ['p-before-phrase'],
      [first.truth],
    );
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.VERB_HEDGES);
    const p = nonSigP(c.rng, c.math);
    return hedge(cat(`The reduction in ${outcome(c)} ${ph[0]} (`, p.frag, ').'), [V.verbPhraseCore(ph[0]), ph[1]], p, []);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.VERB_HEDGES);
    const p = nonSigP(c.rng, c.math);
    const s = sigP(c.rng);
    return hedge(
      cat(`Although the overall effect on ${outcome(c)} ${ph[0]} (`, p.frag, '), the per-protocol analysis showed a benefit (', s.frag, ').'),
      [V.verbPhraseCore(ph[0]), ph[1]],
      p,
      ['second-p-significant'],
      [s.truth],
    );
  },
  (c) => {
    const p = nonSigP(c.rng, c.math);
    return hedge(
      cat(
        `${cap(outcome(c))} tended to be ${c.rng.pick(['higher', 'lower'])} in the ${c.arm} group (`,
        p.frag,
        `; approx. ${20 + c.rng.int(60)}% of participants responded).`,
      ),
      ['tended to', 'variant'],
      p,
      ['abbrev-approx'],
    );
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.SIGNIFICANCE_HEDGES);
    const p = nonSigP(c.rng, c.math);
    const g = c.rng.pick(V.GENERA);
    const g2 = c.rng.pick(V.GENERA);
    const sp = c.rng.pick(V.SPECIES);
    return hedge(
      cat(
        x(`Taxa such as <italic>${g}</italic> spp. (e.g. <italic>${g2} ${sp}</italic>) showed `, `Taxa such as ${g} spp. (e.g. ${g2} ${sp}) showed `),
        `${ph[0]} after ${c.arm} (`,
        p.frag,
        ').',
      ),
      ph,
      p,
      ['abbrev-spp', 'abbrev-eg'],
    );
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.TREND_HEDGES);
    const p = nonSigP(c.rng, c.math);
    return hedge(cat(`Expression of p53 showed ${ph[0]} toward reduction in the ${c.arm} group (`, p.frag, ').'), ph, p, ['gene-p53']);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const p = nonSigP(c.rng, c.math);
    return hedge(cat(`The change in CYP P450 2E1 activity was ${ph[0]} (`, p.frag, ').'), ph, p, ['gene-p450']);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const p = nonSigP(c.rng, c.math);
    return hedge(cat(`Blinded re-assessment by Dr. ${c.rng.pick(V.SURNAMES)} confirmed that the change in ${outcome(c)} was ${ph[0]} (`, p.frag, ').'), ph, p, [
      'abbrev-dr',
    ]);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const p = nonSigP(c.rng, c.math);
    return hedge(cat(`At ca. ${4 + c.rng.int(48)} weeks, the difference in ${outcome(c)} was ${ph[0]} (`, p.frag, ').'), ph, p, ['abbrev-ca']);
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.VERB_HEDGES);
    const p = nonSigP(c.rng, c.math);
    const d = () => `${1 + c.rng.int(8)}.${c.rng.int(10)}`;
    return hedge(
      cat(`The mean change was ${d()} in the ${c.arm} group vs. ${d()} in the control group, a difference that ${ph[0]} (`, p.frag, ').'),
      [V.verbPhraseCore(ph[0]), ph[1]],
      p,
      ['abbrev-vs'],
    );
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const p = nonSigP(c.rng, c.math);
    const k = 1 + c.rng.int(c.refs);
    return hedge(
      cat(
        x(`In line with earlier work [<xref ref-type="bibr" rid="B${k}">${k}</xref>], `, `In line with earlier work [${k}], `),
        `the effect on ${outcome(c)} was ${ph[0]} (`,
        p.frag,
        ').',
      ),
      ph,
      p,
      ['citation'],
    );
  },
  (c) => {
    const ph = pickPhrase(c.rng, V.ADJ_HEDGES);
    const p = nonSigP(c.rng, c.math);
    const k = 1 + c.rng.int(c.refs);
    return hedge(
      cat(
        `The effect on ${outcome(c)} was ${ph[0]} (`,
        p.frag,
        '), as in earlier cohorts',
        x(`<sup><xref ref-type="bibr" rid="B${k}">${k}</xref></sup>`, ` [${k}]`),
        '.',
      ),
      ph,
      p,
      ['superscript-citation'],
    );
  },
];

/** Hedges on a significant p-value (outcome `rejected`). */
const REJECTED_BUILDERS: ((c: Ctx) => Sent)[] = [
  (c) => {
    const p = sigP(c.rng);
    return hedge(cat(`The association with ${outcome(c)} was only marginally significant (`, p.frag, ').'), ['only marginally significant', 'otte'], p, [
      'hedge-significant',
    ]);
  },
  (c) => {
    const p = sigP(c.rng);
    return hedge(cat(`There was a strong trend toward lower ${outcome(c)} in the ${c.arm} group (`, p.frag, ').'), ['a strong trend', 'otte'], p, [
      'hedge-significant',
    ]);
  },
  (c) => {
    const p = sigP(c.rng);
    return hedge(
      cat(`${cap(outcome(c))} was nearly significant in the adjusted model (`, p.frag, `; cf. Table ${1 + c.rng.int(3)}).`),
      ['nearly significant', 'otte'],
      p,
      ['hedge-significant', 'abbrev-cf'],
    );
  },
  (c) => {
    const p = pForm('p = 0.044', 'p = 0.044', '=', 0.044);
    return hedge(cat(`There were trends toward higher ${outcome(c)} with ${c.arm} (uncorrected `, p.frag, ').'), ['trends toward', 'variant'], p, [
      'hedge-significant',
      'qualified-label',
    ]);
  },
];

/** Hedges without any p-value in the sentence (outcome `unverified`). */
const UNVERIFIED_BUILDERS: ((c: Ctx) => Sent)[] = [
  (c) =>
    hedge(cat(`For ${outcome(c)}, the increase was significant for the first outcome and a strong trend for the second.`), ['a strong trend', 'otte'], null, [
      'no-p',
    ]),
  (c) =>
    hedge(
      cat(`Thereafter, a non-significant trend towards increasing ${outcome(c)} was observed (Table S${1 + c.rng.int(4)}).`),
      ['a non-significant trend', 'variant'],
      null,
      ['no-p'],
    ),
  (c) =>
    hedge(cat(`The difference in ${outcome(c)} was marginally significant in the per-protocol population.`), ['marginally significant', 'otte'], null, [
      'no-p',
    ]),
];

/** Sentences in Results that must not be verified. */
const RESULT_TRAPS: ((c: Ctx) => Sent)[] = [
  (c) => ({ frag: cat(`There was no difference in ${outcome(c)} between groups (p = 0.${21 + c.rng.int(68)}).`), trap: 'neutral-non-significant' }),
  (c) => {
    const cov = covariate(c);
    return {
      frag: x(
        `The observed relationship with ${esc(cov)} was not significant (<italic>F</italic><sub>[1,2]</sub> = 6.44, <italic>p </italic>= 0.1265).`,
        `The observed relationship with ${cov} was not significant (F[1,2] = 6.44, p = 0.1265).`,
      ),
      trap: 'neutral-non-significant',
    };
  },
  () => ({
    frag: x('p53 expression was higher in tumour tissue (<italic>P</italic> &lt; 0.001).', 'p53 expression was higher in tumour tissue (P < 0.001).'),
    trap: 'gene-p53',
  }),
  (c) => {
    const p = sigP(c.rng);
    return { frag: cat(`We observed a small but significant increase in ${outcome(c)} (`, p.frag, ').'), trap: 'small-but-significant' };
  },
];

function significantResult(c: Ctx): Sent {
  const p = sigP(c.rng);
  return { frag: cat(`${cap(outcome(c))} differed significantly between the ${c.arm} and control groups (`, p.frag, ').'), trap: 'significant-no-hedge' };
}

// ---------------------------------------------------------------- filler text

function dash(c: Ctx, style: Style): Frag {
  const r = c.rng.int(3);
  return x(r === 0 ? '–' : r === 1 || style === 'pmc' ? '&#x2013;' : '&ndash;', '–');
}

function introFiller(c: Ctx): Frag {
  const k = 1 + c.rng.int(c.refs);
  switch (c.rng.int(5)) {
    case 0:
      return cat(`${cap(c.condition)} affects millions of adults worldwide `, x(`[<xref ref-type="bibr" rid="B${k}">${k}</xref>]`, `[${k}]`), '.');
    case 1:
      return cat(
        `Previous trials of ${c.arm} have reported conflicting results`,
        x(`<sup><xref ref-type="bibr" rid="B${k}">${k}</xref></sup>`, ` [${k}]`),
        '.',
      );
    case 2:
      return cat(`The mechanisms linking ${covariate(c)} and ${outcome(c)} remain unclear.`);
    case 3:
      return cat(`Few studies have examined ${outcome(c)} as an outcome in ${c.condition}.`);
    default:
      return cat(`We therefore conducted a randomised trial in ${2 + c.rng.int(20)} centres.`);
  }
}

function methodsFiller(c: Ctx, style: Style): Frag {
  switch (c.rng.int(6)) {
    case 0: {
      const y = 1995 + c.rng.int(25);
      return cat(
        `Participants aged ${18 + c.rng.int(30)}`,
        dash(c, style),
        `${60 + c.rng.int(30)} years were recruited between ${y} and ${y + 1 + c.rng.int(4)}.`,
      );
    }
    case 1:
      return cat(`Eligible patients were randomly assigned to ${c.arm} or usual care in a 1:1 ratio.`);
    case 2:
      return cat(`Analyses were performed with ${c.rng.pick(V.SOFTWARE)} version ${1 + c.rng.int(15)}.${c.rng.int(10)}.`);
    case 3:
      return x(`Continuous variables are presented as mean ${style === 'pmc' ? '±' : '&#xB1;'} SD.`, 'Continuous variables are presented as mean ± SD.');
    case 4:
      return cat(`The protocol was approved by the ${c.rng.pick(V.INSTITUTIONS)} ethics committee.`);
    default:
      return cat(`Outcomes were assessed at baseline and after ${4 + c.rng.int(48)} weeks.`);
  }
}

function resultsFiller(c: Ctx): Frag {
  switch (c.rng.int(3)) {
    case 0: {
      const n = 60 + c.rng.int(900);
      return cat(`A total of ${n} participants were randomised and ${n - c.rng.int(50)} completed follow-up.`);
    }
    case 1:
      return x(
        'Baseline characteristics were similar between groups (<xref ref-type="table" rid="T1">Table 1</xref>).',
        'Baseline characteristics were similar between groups (Table 1).',
      );
    default:
      return cat(`Adherence to the allocated intervention was ${60 + c.rng.int(39)}%.`);
  }
}

function discussionFiller(c: Ctx): Frag {
  const k = 1 + c.rng.int(c.refs);
  switch (c.rng.int(4)) {
    case 0:
      return cat('These findings should be interpreted in light of several limitations.');
    case 1:
      return cat('Larger trials are needed to confirm these observations.');
    case 2:
      return cat('Our results are consistent with a previous meta-analysis ', x(`[<xref ref-type="bibr" rid="B${k}">${k}</xref>]`, `[${k}]`), '.');
    default:
      return cat('The sample size was calculated for the primary outcome only.');
  }
}

const filler = (frag: Frag): Sent => ({ frag });

// ---------------------------------------------------------------- article assembly

type Style = 'pmc' | 'publisher';
type Section = HedgeTruth['section'];

/** Collects ground truth while the XML is written. */
class Truth {
  hedges: HedgeTruth[] = [];
  traps: TrapTruth[] = [];
  absent: AbsentTruth[] = [];

  record(s: Sent, section: Section, sectionPath: string[], extraTags: string[] = []): void {
    if (s.hedge) {
      const h = s.hedge;
      this.hedges.push({
        sentence: s.frag.text,
        section,
        sectionPath,
        phrase: h.phrase,
        phraseSource: h.phraseSource,
        pValue: h.pValue,
        otherPValues: h.otherPValues,
        ...judge(h.pValue),
        tags: [...h.tags, ...extraTags],
      });
    } else if (s.trap) {
      this.traps.push({ sentence: s.frag.text, section, reason: s.trap });
    }
  }
}

interface Writer {
  style: Style;
  truth: Truth;
  /** Separator between sentences inside a paragraph: a space, or a line break and tabs (publisher files). */
  sep: string;
}

function para(w: Writer, sents: Sent[], section: Section, path: string[], extra = ''): string {
  for (const s of sents) w.truth.record(s, section, path);
  return `<p>${sents.map((s) => s.frag.xml).join(w.sep)}${extra}</p>`;
}

function sec(title: string, inner: string, type?: string): string {
  return `<sec${type ? ` sec-type="${type}"` : ''}><title>${esc(title)}</title>${inner}</sec>`;
}

function figure(c: Ctx, w: Writer, n: number, path: string[], captionSents: Sent[]): string {
  const title = c.rng.pick(V.FIGURE_TITLES);
  const capP = captionSents.length ? para(w, captionSents, 'caption', path) : '';
  return `<fig id="F${n}" position="float"><label>Figure ${n}</label><caption><title>${title}</title>${capP}</caption><graphic xlink:href="fig${n}.tif"/></fig>`;
}

function table(c: Ctx, w: Writer, n: number, path: string[], code: string, footnote: Sent | null): string {
  const cell = `Borderline effect in subgroup ${code}-${n} (p = 0.08)`;
  w.truth.absent.push({ text: cell, where: 'table-cell' });
  const o = outcome(c);
  const rows =
    `<thead><tr><th>Variable</th><th>${esc(cap(c.arm))}</th><th>Control</th><th><italic>p</italic></th></tr></thead>` +
    `<tbody><tr><td>${esc(cap(o))}</td><td>${(10 + c.rng.float() * 5).toFixed(1)}</td><td>${(10 + c.rng.float() * 5).toFixed(1)}</td><td>0.07</td></tr>` +
    `<tr><td>${esc(cell)}</td><td>4.1</td><td>3.9</td><td>0.08</td></tr></tbody>`;
  const notes = [
    filler(x(`Values are mean ${w.style === 'pmc' ? '±' : '&#xB1;'} SD unless stated otherwise.`, 'Values are mean ± SD unless stated otherwise.')),
  ];
  const fns = notes.map((s) => `<fn id="T${n}fn1">${para(w, [s], 'table-footnote', path)}</fn>`);
  if (footnote) fns.push(`<fn id="T${n}fn2"><label>*</label>${para(w, [footnote], 'table-footnote', path)}</fn>`);
  return (
    `<table-wrap id="T${n}" position="float"><label>Table ${n}</label><caption><title>${c.rng.pick(V.TABLE_TITLES)}</title></caption>` +
    `<table frame="hsides" rules="groups">${rows}</table><table-wrap-foot>${fns.join('')}</table-wrap-foot></table-wrap>`
  );
}

/** A hedged table footnote, sometimes with the operator lost as in journal.pone.0068090. */
function footnoteHedge(c: Ctx): Sent {
  if (c.rng.chance(0.5)) {
    const v = c.rng.pick(['0.06', '0.07', '0.08']);
    const p = pForm(`p ${v}`, `p ${v}`, 'none', Number(v), ['operator-missing']);
    return hedge(
      cat(
        x(
          `There was a marginally significant difference in sex distribution between patients and controls, &#x3A7;<sup>2</sup> <sub>(1)</sub> = 5.37, `,
          'There was a marginally significant difference in sex distribution between patients and controls, Χ2 (1) = 5.37, ',
        ),
        p.frag,
        '.',
      ),
      ['marginally significant', 'otte'],
      p,
      ['table-footnote'],
    );
  }
  const b = VERIFIED_BUILDERS[0]!(c);
  b.hedge!.tags.push('table-footnote');
  return b;
}

function refList(c: Ctx, w: Writer, code: string): string {
  const out: string[] = [];
  const hedgedAt = 1 + c.rng.int(c.refs);
  for (let k = 1; k <= c.refs; k++) {
    const authors = `${c.rng.pick(V.SURNAMES)} ${c.rng.pick(['A', 'B', 'C', 'JM', 'K'])}, ${c.rng.pick(V.SURNAMES)} ${c.rng.pick(['D', 'E', 'RT'])}`;
    let title = `${cap(c.rng.pick(V.OUTCOMES))} after ${c.rng.pick(V.ARMS)} in ${c.rng.pick(V.CONDITIONS)}`;
    if (k === hedgedAt) {
      title = `A nearly significant trend toward lower mortality (p = 0.06) in cohort ${code}`;
      w.truth.absent.push({ text: title, where: 'ref-list' });
    }
    const journal = c.rng.pick(V.REF_JOURNALS);
    const year = 1990 + c.rng.int(30);
    out.push(
      c.rng.chance(0.5)
        ? `<ref id="B${k}"><mixed-citation publication-type="journal">${esc(authors)} (${year}) ${esc(title)}. ${journal} ${1 + c.rng.int(90)}: ${100 + c.rng.int(800)}.</mixed-citation></ref>`
        : `<ref id="B${k}"><label>${k}</label><element-citation publication-type="journal"><person-group person-group-type="author"><name><surname>${esc(authors.split(' ')[0]!)}</surname><given-names>A</given-names></name><etal/></person-group><article-title>${esc(title)}</article-title><source>${journal}</source><year>${year}</year><volume>${1 + c.rng.int(90)}</volume><fpage>${1 + c.rng.int(900)}</fpage></element-citation></ref>`,
    );
  }
  return `<ref-list><title>References</title>${out.join('')}</ref-list>`;
}

const DOCTYPES = [
  '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.0 20120330//EN" "JATS-archivearticle1.dtd">',
  '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">',
  '<!DOCTYPE article\n  PUBLIC "-//NLM//DTD Journal Publishing DTD v3.0 20080202//EN" "http://dtd.nlm.nih.gov/publishing/3.0/journalpublishing3.dtd">',
] as const;

const shuffle = <T>(rng: Rng, items: T[]): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
};

/** Builds article `index` of the corpus drawn with `seed`. */
export function generateArticle(seed: number, index: number, gzipShare: number): GeneratedArticle {
  const rng = new Rng(seed, CORPUS_STREAM, index);
  const fmt = new Rng(seed, CORPUS_STREAM + 1, index);
  let mathCount = 0;
  const c: Ctx = {
    rng,
    condition: rng.pick(V.CONDITIONS),
    arm: rng.pick(V.ARMS),
    refs: 15 + rng.int(30),
    math: () => `m${++mathCount}`,
  };
  const code = `Q${index.toString(36).toUpperCase()}Z${rng.int(1296).toString(36).toUpperCase()}`;

  // Identity and format.
  const idRoll = rng.float();
  const idVariant: ArticleTruth['idVariant'] = idRoll < 0.55 ? 'pmc' : idRoll < 0.7 ? 'pmcid-prefixed' : idRoll < 0.75 ? 'pmcid-bare' : 'none';
  const style: Style = idVariant === 'none' || rng.chance(0.2) ? 'publisher' : 'pmc';
  const w: Writer = { style, truth: new Truth(), sep: style === 'pmc' ? ' ' : '\n\t\t\t\t' };
  const pmcNumber = 2_000_000 + index * 10 + rng.int(10);
  const pmcid = idVariant === 'none' ? null : `PMC${pmcNumber}`;
  const pmid = idVariant !== 'none' && rng.chance(0.85) ? String(30_000_000 + index * 10 + rng.int(10)) : null;
  const [journal, nlmTa, jcode] = rng.pick(V.JOURNALS);
  const year = 1998 + rng.int(28);
  const doi = `10.5555/${jcode}.${year}.${String(index).padStart(7, '0')}`;
  const nAuthors = 1 + rng.int(8);
  const authors: { surname: string; given: string }[] = Array.from({ length: nAuthors }, () => ({
    surname: rng.pick(V.SURNAMES),
    given: rng.pick(V.GIVEN_NAMES),
  }));
  const collab = rng.chance(0.05) ? `The ${cap(c.condition)} Trial Group` : null;
  const licenceRoll = rng.float();
  const licenceUrl =
    licenceRoll < 0.7 ? 'https://creativecommons.org/licenses/by/4.0/' : licenceRoll < 0.8 ? 'https://creativecommons.org/publicdomain/zero/1.0/' : null;
  const withGenusTitle = rng.chance(0.15);
  const genus = rng.pick(V.GENERA);
  const o1 = outcome(c);
  const titleFrag = withGenusTitle
    ? cat(x(`<italic>${genus}</italic>`, genus), ` abundance and ${o1} in ${c.condition}`)
    : cat(`${cap(c.arm)} and ${o1} in ${c.condition}: a randomised controlled trial`);

  // What goes where: hedges, traps and their positions.
  const nVerified = rng.chance(0.15) ? 0 : 1 + rng.int(5);
  const verified = Array.from({ length: nVerified }, () => rng.pick(VERIFIED_BUILDERS)(c));
  const rejected = rng.chance(0.4) ? [rng.pick(REJECTED_BUILDERS)(c)] : [];
  const unverified = rng.chance(0.4) ? [rng.pick(UNVERIFIED_BUILDERS)(c)] : [];
  const traps = Array.from({ length: 2 + rng.int(3) }, () => rng.pick(RESULT_TRAPS)(c));
  const repeatInAbstract = verified.length > 0 && rng.chance(0.6) ? verified[0]! : null;
  const repeatInLegend = verified.length > 0 && rng.chance(0.15) ? verified[verified.length - 1]! : null;
  // Both places of a repeated sentence carry the tag (the hedge's tag list is shared by its records).
  for (const r of [repeatInAbstract, repeatInLegend]) if (r && !r.hedge!.tags.includes('repeated')) r.hedge!.tags.push('repeated');
  const captionHedge = rng.chance(0.25) ? rng.pick(VERIFIED_BUILDERS)(c) : null;
  const footHedge = rng.chance(0.2) ? footnoteHedge(c) : null;
  const appendixHedge = rng.chance(0.1) ? rng.pick(VERIFIED_BUILDERS)(c) : null;
  const useFloatsGroup = rng.chance(0.1);
  const withSummary = rng.chance(0.2);
  const structured = rng.chance(0.5);
  const subsections = rng.chance(0.7);
  const withSupplement = rng.chance(0.2);
  const withSubArticle = style === 'publisher' && rng.chance(0.5);
  const nTables = rng.int(3);

  // Abstract.
  const absSig = significantResult(c);
  const absResults: Sent[] = [absSig, ...(repeatInAbstract ? [repeatInAbstract] : [])];
  let abstract: string;
  if (structured) {
    abstract =
      '<abstract>' +
      sec('Background', para(w, [filler(introFiller(c)), filler(introFiller(c))], 'abstract', ['Background'])) +
      sec('Methods', para(w, [filler(methodsFiller(c, style)), filler(methodsFiller(c, style))], 'abstract', ['Methods'])) +
      sec('Results', para(w, absResults, 'abstract', ['Results'])) +
      sec('Conclusions', para(w, [filler(cat(`${cap(c.arm)} may be a useful option for people with ${c.condition}.`))], 'abstract', ['Conclusions'])) +
      '</abstract>';
  } else {
    abstract = `<abstract>${para(w, [filler(introFiller(c)), filler(methodsFiller(c, style)), ...absResults], 'abstract', [])}</abstract>`;
  }
  if (withSummary)
    abstract += `<abstract abstract-type="summary"><title>Author Summary</title>${para(w, [filler(introFiller(c)), filler(introFiller(c))], 'abstract', ['Author Summary'])}</abstract>`;

  // Introduction and Methods.
  /** `paragraphs` paragraphs of 2–5 filler sentences each. */
  const fillerParas = (make: () => Frag, paragraphs: number, path: string[]) =>
    Array.from({ length: paragraphs }, () =>
      para(
        w,
        Array.from({ length: 2 + rng.int(4) }, () => filler(make())),
        'body',
        path,
      ),
    ).join('');
  const intro = sec(
    'Introduction',
    fillerParas(() => introFiller(c), 2 + rng.int(3), ['Introduction']),
    'intro',
  );
  const methodsTitle = rng.chance(0.3) ? 'Materials and methods' : 'Methods';
  const statSents: Sent[] = [
    filler(methodsFiller(c, style)),
    {
      frag: x(
        'A two-sided p value &lt; 0.05 was considered statistically significant.',
        'A two-sided p value < 0.05 was considered statistically significant.',
      ),
      trap: 'threshold-definition',
    },
  ];
  if (rng.chance(0.4)) statSents.push({ frag: cat(`Our approach follows the protocol described by Dr. ${rng.pick(V.SURNAMES)}.`), trap: 'approach-methods' });
  const methods = sec(
    methodsTitle,
    sec(
      'Participants',
      fillerParas(() => methodsFiller(c, style), 1 + rng.int(2), [methodsTitle, 'Participants']),
    ) +
      sec(
        'Outcomes',
        fillerParas(() => methodsFiller(c, style), 1 + rng.int(2), [methodsTitle, 'Outcomes']),
      ) +
      sec('Statistical analysis', para(w, statSents, 'body', [methodsTitle, 'Statistical analysis'])),
    'methods',
  );

  // Results: hedges, traps and significant findings spread over paragraphs.
  const items = shuffle(rng, [...verified.slice(repeatInAbstract ? 1 : 0), ...rejected, ...traps, significantResult(c)]);
  const first = repeatInAbstract ? [repeatInAbstract] : [];
  const resultItems = [...first, ...items];
  const subTitles = ['Primary outcome', 'Secondary outcomes', 'Subgroup analyses'];
  const groups: Sent[][] = subsections ? [[], [], []] : [[]];
  resultItems.forEach((s, i) => groups[Math.min(groups.length - 1, Math.floor((i * groups.length) / resultItems.length))]!.push(s));
  let figN = 0;
  let tableN = 0;
  const floats: string[] = [];
  const resultsXml = groups
    .map((group, g) => {
      const path = subsections ? ['Results', subTitles[g]!] : ['Results'];
      let xml = '';
      for (let i = 0; i < group.length || i === 0; i += 2) {
        const chunk = group.slice(i, i + 2);
        const sents = [filler(resultsFiller(c)), ...chunk];
        // A figure per paragraph pair, nested in the paragraph (eLife style), at section level, or in floats-group.
        let nested = '';
        let after = '';
        if (figN === 0 || (figN < 3 && rng.chance(0.5))) {
          figN++;
          const capSents: Sent[] = [filler(cat(rng.pick(V.FIGURE_NOTES)))];
          if (figN === 1 && captionHedge) capSents.push(captionHedge);
          if (figN === 1 && repeatInLegend) capSents.push(repeatInLegend);
          const figPath = useFloatsGroup ? [] : path;
          const fig = figure(c, w, figN, figPath, capSents);
          if (useFloatsGroup) floats.push(fig);
          else if (rng.chance(0.4)) nested = ` ${fig}`;
          else after = fig;
        }
        xml += para(w, sents, 'body', path, nested) + after;
      }
      if (tableN < nTables) {
        tableN++;
        xml += table(c, w, tableN, path, code, tableN === 1 ? footHedge : null);
      }
      if (g === 0 && withSupplement) {
        const text = `Sensitivity analysis in cohort ${code}: the effect approached significance (p = 0.06).`;
        w.truth.absent.push({ text, where: 'supplementary' });
        xml += `<supplementary-material id="S1" content-type="local-data"><label>Table S1</label><caption><p>${esc(text)}</p></caption><media xlink:href="s1.docx"/></supplementary-material>`;
      }
      return subsections ? sec(subTitles[g]!, xml) : xml;
    })
    .join('');
  const results = sec('Results', resultsXml, 'results');

  // Discussion.
  const discSents: Sent[] = [filler(discussionFiller(c)), ...unverified, filler(discussionFiller(c))];
  if (rng.chance(0.3)) discSents.push({ frag: cat('Adherence tends to decline over the first year of any programme.'), trap: 'generic-tend' });
  const discussion = sec(
    'Discussion',
    para(w, discSents, 'body', ['Discussion']) + fillerParas(() => discussionFiller(c), 2 + rng.int(3), ['Discussion']),
    'discussion',
  );

  // Back matter: acknowledgements, funding, appendix, references.
  const ackText = `We thank the staff of unit ${code} for their help with data collection.`;
  w.truth.absent.push({ text: ackText, where: 'ack' });
  let back = `<ack><p>${esc(ackText)}</p></ack><fn-group><fn fn-type="financial-disclosure"><p>This work was funded by grant ${code}-F.</p></fn></fn-group>`;
  if (appendixHedge)
    back += `<app-group><app id="app1"><title>Appendix 1</title>${para(w, [filler(methodsFiller(c, style)), appendixHedge], 'body', ['Appendix 1'])}</app></app-group>`;
  back += refList(c, w, code);

  let subArticle = '';
  if (withSubArticle) {
    const text = `The authors describe the effect on ${o1} in cohort ${code} as marginally significant (p = 0.07); please revise.`;
    w.truth.absent.push({ text, where: 'sub-article' });
    subArticle = `<sub-article article-type="decision-letter" id="SA1"><front-stub><article-id pub-id-type="doi">${doi}.sa1</article-id><title-group><article-title>Decision letter</article-title></title-group></front-stub><body><p>${esc(text)}</p></body></sub-article>`;
  }

  // Front matter.
  const ids: string[] = [];
  if (pmid) ids.push(`<article-id pub-id-type="pmid">${pmid}</article-id>`);
  if (idVariant === 'pmc') ids.push(`<article-id pub-id-type="pmc">${pmcNumber}</article-id>`);
  if (idVariant === 'pmcid-prefixed') ids.push(`<article-id pub-id-type="pmcid">PMC${pmcNumber}</article-id>`);
  if (idVariant === 'pmcid-bare') ids.push(`<article-id pub-id-type="pmcid">${pmcNumber}</article-id>`);
  ids.push(`<article-id pub-id-type="publisher-id">${jcode}-${String(index).padStart(7, '0')}</article-id>`);
  ids.push(`<article-id pub-id-type="doi">${doi}</article-id>`);
  if (rng.chance(0.5)) ids.reverse();
  const contribs = authors
    .map((a) => `<contrib contrib-type="author"><name><surname>${esc(a.surname)}</surname><given-names>${esc(a.given)}</given-names></name></contrib>`)
    .concat(collab ? [`<contrib contrib-type="author"><collab>${esc(collab)}</collab></contrib>`] : [])
    .join('');
  const day = () => String(1 + rng.int(28)).padStart(2, '0');
  const month = () => String(1 + rng.int(12)).padStart(2, '0');
  const dateRoll = rng.int(4);
  const dates =
    dateRoll === 0
      ? `<pub-date pub-type="epub"><day>${day()}</day><month>${month()}</month><year>${year}</year></pub-date><pub-date pub-type="collection"><year>${year + rng.int(2)}</year></pub-date>`
      : dateRoll === 1
        ? `<pub-date pub-type="ppub"><month>${month()}</month><year>${year + 1}</year></pub-date><pub-date pub-type="epub"><day>${day()}</day><month>${month()}</month><year>${year}</year></pub-date>`
        : dateRoll === 2
          ? `<pub-date date-type="pub" publication-format="electronic"><day>${day()}</day><month>${month()}</month><year>${year}</year></pub-date>`
          : `<pub-date pub-type="ppub"><month>${month()}</month><year>${year}</year></pub-date>`;
  const permissions = licenceUrl
    ? `<permissions><copyright-year>${year}</copyright-year><license license-type="open-access" xlink:href="${licenceUrl}"><license-p>This is an open access article distributed under the terms of the licence at ${licenceUrl}.</license-p></license></permissions>`
    : `<permissions><copyright-statement>© ${year} The Authors.</copyright-statement></permissions>`;
  const front =
    `<front><journal-meta><journal-id journal-id-type="nlm-ta">${nlmTa}</journal-id><journal-title-group><journal-title>${journal}</journal-title></journal-title-group><issn pub-type="epub">${1000 + rng.int(8999)}-${1000 + rng.int(8999)}</issn></journal-meta>` +
    `<article-meta>${ids.join('')}<article-categories><subj-group subj-group-type="heading"><subject>Research Article</subject></subj-group></article-categories>` +
    `<title-group><article-title>${titleFrag.xml}</article-title></title-group><contrib-group>${contribs}</contrib-group>${dates}<volume>${1 + rng.int(40)}</volume><elocation-id>e${index}</elocation-id>${permissions}${abstract}` +
    `<kwd-group><kwd>${esc(c.condition)}</kwd><kwd>${esc(c.arm)}</kwd></kwd-group></article-meta></front>`;

  const body = `<body>${intro}${methods}${results}${discussion}</body>`;
  const floatsGroup = floats.length ? `<floats-group>${floats.join('')}</floats-group>` : '';
  const decl = style === 'publisher' || rng.chance(0.3) ? '<?xml version="1.0" encoding="UTF-8"?>\n' : '';
  const xml =
    `${decl}${rng.pick(DOCTYPES)}\n<article xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:mml="http://www.w3.org/1998/Math/MathML" article-type="research-article">` +
    (style === 'pmc' ? '<?properties open_access?>' : '\n') +
    `${front}${body}<back>${back}</back>${floatsGroup}${subArticle}</article>\n`;

  // File name and compression come from their own stream, so they never change the XML.
  const gzip = fmt.chance(gzipShare);
  const ext = pmcid ? (fmt.chance(0.85) ? '.nxml' : '.xml') : '.xml';
  const base = pmcid ? `PMC${pmcNumber}` : `${jcode}.${String(index).padStart(7, '0')}`;
  const file = `${base}${ext}${gzip ? '.gz' : ''}`;

  return {
    file,
    xml,
    gzip,
    truth: {
      file,
      gzip,
      idVariant,
      pmcid,
      pmid,
      doi,
      title: titleFrag.text,
      journal,
      year,
      authors: [...authors.map((a) => `${a.surname} ${a.given}`), ...(collab ? [collab] : [])],
      licenceUrl,
      hedges: w.truth.hedges,
      traps: w.truth.traps,
      absent: w.truth.absent,
    },
  };
}
