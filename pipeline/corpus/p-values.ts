/**
 * Finds and parses every p-value expression in one sentence of plain text (the JATS step hands over
 * `textContent`, so `<italic>p</italic>` is just "p" and a subscript label is glued on: "pHet", "Ptrend").
 *
 * What is accepted, and why (research/hedged.md §1.5, §2.1, §4, §7.3):
 * - Labels: `p`, `P`, `ps`, `p's`, `p value(s)`, `p-value(s)`, `pvalue`, `p-val`; p with a qualifier, glued,
 *   hyphenated or spaced (`pHet`, `p-trend`, `p_adj`, `Pinteraction`, `p for trend`, `P for linear trend`),
 *   or followed by a short parenthesised test name (`p (two-sided) = …`, `P (Fisher's exact) = …`).
 *   Qualifiers before the label ("Bonferroni-corrected p", "uncorrected p") need no special handling.
 * - Operators: `= < > ≤ ≥ <= >= =< => ≈ ~ ∼ ≃ ≅ ≪ ≫ :`, `< or =`, a few words ("less than", "greater than or
 *   equal to", "below", "above", "at most", "approximately"), "of"/"was"/"is" after a `p value` label only
 *   ("a p-value of 0.07"), and no operator at all ("p 0.06", operator lost in the source, journal.pone.0068090;
 *   "p0.05" in Hankins' list), which needs a decimal point and is reported with operator `none`.
 * - Values: leading zero optional (".07"), decimal point `.` or the Lancet middle dot `·` ("0·07"), decimal
 *   comma after a zero ("0,07"), scientific forms `3 × 10⁻⁴`, `3 x 10-4`, `3*10^-4`, `3·10−4`, `10⁻⁴`,
 *   `10^-4`, `3e-4`, `3E−4` with any Unicode minus or superscript digits, a range "p = 0.05–0.10", and a
 *   double or reversed inequality "0.05 < p < 0.10", "(0.1>p>0.05)".
 * - No-value markers: "n.s." / "N.S." anywhere, "NS" or "ns" right after a label ("p = NS"), and an upper-case
 *   "NS" standing alone in brackets or a list ("(NS)", "; NS)"), as hedged.md §2.2 and §7.3 list them. The
 *   words "not significant" are NOT a marker: they occur inside lexicon phrases ("probably not significant")
 *   and would make such a phrase verify itself.
 *
 * Traps that yield no hit: "p53", "P450" (no operator and no decimal point), page references "p. 12", "pp.
 * 12–15", "1-p", "step = 0.5" (a letter before the p), negative values ("p = −0.22"), values above 1 (dropped,
 * as statcheck does), a number followed by a unit ("P = 0.3 mg/L" is phosphorus), a typo range whose second
 * number is not a p-value ("p=0-065"), an upper-case "PS" (propensity score, performance status), "NS" that
 * defines an abbreviation ("normal saline (NS)") or a legend key ("NS, not significant").
 * Significance thresholds ("p < 0.05 was considered significant", "significance was set at p < 0.05",
 * "considered significant if p < 0.05", "considered statistically significant at p<0.05", "a p < 0.05
 * threshold") are returned with `threshold: true`, because
 * they state a rule, not a result; the association step skips them.
 */
import { z } from 'zod';
import { asFolded, toOriginalRange, type FoldedText } from './lexicon.ts';
import { P_OPERATORS } from '../../contracts/corpus/vocab.ts';

export { P_OPERATORS };
export type PValueOperator = (typeof P_OPERATORS)[number];

/** One p-value expression in a sentence. Offsets are UTF-16 units in the original sentence, `end` exclusive. */
export const pValueHitSchema = z
  .object({
    /** The expression as written, `sentence.slice(start, end)`. */
    text: z.string(),
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    /** Normalised comparator; `none` when the source lost it ("p 0.06") or for a bare "n.s.". */
    operator: z.enum(P_OPERATORS),
    /** The stated value (the upper bound for a range), 0 ≤ value ≤ 1; null for "n.s."/"NS". */
    value: z.number().min(0).max(1).nullable(),
    /** True for a point value stated with "=" or with a lost operator; false for bounds, ranges, "≈", "n.s.". */
    exact: z.boolean(),
    /** `ns` for the no-value markers, `value` otherwise. */
    kind: z.enum(['value', 'ns']),
    /** Lower bound of a range ("0.05 < p < 0.10", "p = 0.05–0.10"); `value` is then the upper bound. */
    lower: z
      .object({ value: z.number().min(0).max(1), inclusive: z.boolean() })
      .strict()
      .nullable(),
    /** The expression states a significance threshold ("p < 0.05 was considered significant"), not a result. */
    threshold: z.boolean(),
  })
  .strict();
export type PValueHit = z.infer<typeof pValueHitSchema>;

// ---------------------------------------------------------------------------------------------------------
// Patterns, compiled once. They run on the folded text (NFKC, lower case): NFKC turns superscript digits
// and "⁻" into ASCII digits and "−", no-break and thin spaces into spaces, and full-width signs into ASCII.
// ---------------------------------------------------------------------------------------------------------

const MINUS = String.raw`[-−‐‑–]`;
const MANT = String.raw`(?:\d*[.·]\d+|0,\d+|\d+)`;
/** A negative exponent, bare or in balanced brackets: "−4", "(−4)", "{-4}". */
const NEG_EXP = String.raw`(?:\(\s*${MINUS}\s*\d+\s*\)|\{\s*${MINUS}\s*\d+\s*\}|${MINUS}\s*\d+)`;
const EXP_MUL = String.raw`\s*[x×*·∙⋅]\s*10\s*\^?\s*${NEG_EXP}`;
const EXP_E = String.raw`e[-−+]?\d+`;
const POW10 = String.raw`10\s*\^\s*${NEG_EXP}|10${MINUS}\d+`;
/** Ordered so that "5·10−3" is read as 5 × 10⁻³, not as 5.10 followed by junk. */
const NUMBER = String.raw`(?:${POW10}|${MANT}${EXP_MUL}|${MANT}${EXP_E}|${MANT})`;

const QUAL = [
  'het(?:erogeneity)?',
  'trend',
  'interaction',
  'int(?:er)?',
  'adj(?:usted)?',
  'corr(?:ected)?',
  'uncorr(?:ected)?',
  'fdr',
  'bonf(?:erroni)?',
  'perm(?:utation)?',
  'mantel',
  'diff(?:erence)?',
  'global',
  'overall',
  'lin(?:ear)?',
  'non-?linearity',
  'exact',
  'holm',
  'sidak',
  'tukey',
  'mc',
  '(?:one|two)-?(?:tailed|sided)',
].join('|');
const FOR_QUAL = String.raw`[-\s]+for[-\s]+(?:linear\s+)?(?:trend|interaction|heterogeneity|difference|non-?linearity)`;
const PAREN_QUAL = [
  String.raw`(?:one|two)[-\s]?(?:sided|tailed)`,
  'trend',
  'interaction',
  '(?:un)?adjusted',
  '(?:un)?corrected',
  String.raw`bonferroni(?:[-\s]corrected)?`,
  String.raw`fdr(?:[-\s]corrected)?`,
  'exact',
  'permutation',
  String.raw`log[-\s]?rank(?:\s+test)?`,
  String.raw`fisher['’]?s?(?:\s+exact)?(?:\s+test)?`,
  String.raw`chi[-\s]?squared?(?:\s+test)?`,
  'wilcoxon',
  String.raw`mann[-\s]whitney`,
  String.raw`t[-\s]test`,
  'anova',
  'het(?:erogeneity)?',
  'overall',
  'global',
].join('|');

const OPSYM = String.raw`<\s*or\s*=|>\s*or\s*=|<=|=<|>=|=>|≤|⩽|≦|≥|⩾|≧|<<|>>|≪|≫|<|>|==|=|≈|≅|≃|∼|~|:|1⁄4`;
const VERBAL = [
  String.raw`(?:less|lower|smaller)\s+than\s+or\s+equal\s+to`,
  String.raw`(?:greater|higher|larger|more)\s+than\s+or\s+equal\s+to`,
  String.raw`(?:less|lower|smaller)\s+than`,
  String.raw`(?:greater|higher|larger|more)\s+than`,
  'below',
  'above',
  String.raw`not\s+exceeding`,
  'exceeding',
  String.raw`at\s+most`,
  String.raw`at\s+least`,
  String.raw`equal\s+to`,
  'equals',
  'approximately',
  'around',
  'about',
  'roughly',
].join('|');

const LABEL = [
  String.raw`p[-\s]?val(?:ue)?s?(?![\p{L}])`,
  String.raw`p['’]s(?![\p{L}\p{N}])`,
  String.raw`ps(?![\p{L}\p{N}])`,
  String.raw`p(?:[-_\s]?(?:${QUAL})(?![\p{L}]))?(?:${FOR_QUAL})?`,
].join('|');

/** label, optional test name in brackets, optional copula, operator, value, trailing dash (range or typo). */
const FORWARD = new RegExp(
  String.raw`(?<![\p{L}\p{N}_]|\d\s?[-−])` +
    String.raw`(?<label>${LABEL})` +
    String.raw`(?<paren>\s*\(\s*(?:${PAREN_QUAL})\s*\))?` +
    String.raw`(?<gap>\s*)` +
    String.raw`(?:(?<cop>was|were|is|are|being|of)(?=\s)\s*)?` +
    String.raw`(?<op>${OPSYM}|(?:${VERBAL})(?=\s))?` +
    String.raw`\s*` +
    String.raw`(?<val>${NUMBER}|n\.\s?s\.?|ns(?![\p{L}\p{N}]))` +
    // A dash glued to digits ("0.05-0.10", the typo "0-065") or a spaced range of decimals ("0.05 – 0.10");
    // a spaced dash before an integer ("p = 0.03 – 12 of 20") is left alone.
    String.raw`(?<tail>[-−–]\d[\d.·]*|\s?[-−–]\s?\d*[.·]\d+)?` +
    String.raw`(?![\d])`,
  'gu',
);

const INEQ = String.raw`<=|=<|>=|=>|≤|⩽|≦|≥|⩾|≧|<|>`;
/** "0.05 < p", "0.05 < p < 0.10", "0.1>p>0.05". */
const REVERSED = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.,·])(?<lo>${NUMBER})\s*(?<op1>${INEQ})\s*p(?:[-\s]?values?)?(?![\p{L}\p{N}'’])` +
    String.raw`(?:\s*(?<op2>${INEQ})\s*(?<hi>${NUMBER}))?(?![\d])`,
  'gu',
);
const MAYBE_REVERSED = /[<>≤≥⩽⩾≦≧]\s*p/;

const NS_MARK = /(?<![\p{L}\p{N}.])(?:n\.\s?s\.?|ns)(?![\p{L}\p{N}])/gu;
const NS_DEFINITION_AFTER = /^[\s.,:=)\]-]*(?:not|non)[-\s]?(?:statistically\s+)?significan/u;

const UNIT_AFTER =
  /^\s?(?:%|‰|mg|µg|μg|ng|kg|g|ml|dl|l|mm|cm|nm|µm|μm|m|mmol|µmol|μmol|nmol|mol|mmhg|kpa|pa|mpa|ms|s|sec|min|h|hr|hrs|ppm|ppb|iu|kb|bp|kda)(?![\p{L}\p{N}])/u;

/** Text just before the expression that makes it a stated rule (see the file comment). */
const THRESHOLD_BEFORE = [
  /\b(?:if|when|whenever|unless)\s+(?:the\s+|a\s+|its\s+|their\s+)?(?:(?:two|one)[-\s]?(?:sided|tailed)\s+)?$/u,
  /\b(?:significance|alpha|α|threshold|cut-?off|criteri(?:on|a))(?:\s+(?:level|threshold))?\s+(?:was|were|is|are)\s+(?:set|fixed|defined|established|considered|accepted|determined|chosen|taken|assumed)\s+(?:at|to|as)\s+(?:an?\s+|the\s+)?$/u,
  /\b(?:threshold|cut-?off|criteri(?:on|a)|(?:significance|alpha|α)\s+(?:level|threshold)|level\s+of\s+(?:statistical\s+)?significance)\s*(?:of|at|:|was|=)\s*(?:an?\s+|the\s+)?$/u,
  /\b(?:defined|considered|accepted|regarded|taken)\s+(?:as|at)\s+(?:an?\s+|the\s+)?$/u,
  /\b(?:considered|deemed|regarded|accepted|defined|taken|judged|set)\s+(?:as\s+|to\s+be\s+)?(?:statistically\s+)?significan\w*\s+(?:at|if|when|with|for)\s+(?:an?\s+|the\s+)?(?:level\s+of\s+|value\s+of\s+)?$/u,
];
/** Text just after the expression that makes it a stated rule. */
const THRESHOLD_AFTER = [
  /^\s*(?:\([^()]{0,40}\)\s*)?(?:was|were|is|are|being|will\s+be)\s+(?:considered|regarded|deemed|accepted|taken|defined|set|used|chosen|interpreted|assumed|judged)\b/u,
  /^\s*(?:\([^()]{0,40}\)\s*)?(?:indicates|indicated|denotes|denoted|defines|defined|represents)\s+(?:statistical\s+)?significan/u,
  /^\s*(?:threshold|cut-?off|criterion|significance\s+(?:level|threshold)|level\s+of\s+significance|for\s+(?:statistical\s+)?significance)\b/u,
];

// ---------------------------------------------------------------------------------------------------------

/** Parses one number as matched by NUMBER; null if it is not a number after all. */
export function parsePNumber(raw: string): number | null {
  const s = raw
    .replace(/\s+/g, '')
    .replace(/[−‐‑–]/g, '-')
    .replace(/[{}()]/g, '');
  let m = /^10\^?(-\d+)$/.exec(s);
  if (m) return Number(`1e${m[1]}`);
  m = /^(\d*[.·,]?\d+)(?:[x×*·∙⋅]10\^?(-\d+)|e([-+]?\d+))?$/.exec(s);
  if (!m) return null;
  const mant = m[1]!.replace(/[·,]/, '.');
  const exp = m[2] ?? m[3];
  const v = Number(exp === undefined ? mant : `${mant}e${exp}`);
  return Number.isFinite(v) ? v : null;
}

function operatorOf(op: string): PValueOperator {
  const o = op.replace(/\s+/g, ' ').trim();
  switch (o) {
    case '=':
    case '==':
    case ':':
    case '1⁄4':
    case 'equal to':
    case 'equals':
      return '=';
    case '<':
    case '<<':
    case '≪':
    case 'below':
    case 'less than':
    case 'lower than':
    case 'smaller than':
      return '<';
    case '>':
    case '>>':
    case '≫':
    case 'above':
    case 'exceeding':
    case 'greater than':
    case 'higher than':
    case 'larger than':
    case 'more than':
      return '>';
    case '<=':
    case '=<':
    case '≤':
    case '⩽':
    case '≦':
    case '< or =':
    case '<or=':
    case 'at most':
    case 'not exceeding':
      return '<=';
    case '>=':
    case '=>':
    case '≥':
    case '⩾':
    case '≧':
    case '> or =':
    case '>or=':
    case 'at least':
      return '>=';
    default:
      if (/^[<>]\s*or\s*=$/.test(o)) return o.startsWith('<') ? '<=' : '>=';
      if (/than or equal to$/.test(o)) return /^(less|lower|smaller)/.test(o) ? '<=' : '>=';
      return '~';
  }
}

/** The comparator seen from p when the number stands on its left ("0.05 < p" means p > 0.05). */
function flip(op: PValueOperator): PValueOperator {
  return op === '<' ? '>' : op === '>' ? '<' : op === '<=' ? '>=' : op === '>=' ? '<=' : op;
}

function isThreshold(t: string, start: number, end: number): boolean {
  const before = t.slice(Math.max(0, start - 80), start);
  const after = t.slice(end, end + 80);
  return THRESHOLD_BEFORE.some((r) => r.test(before)) || THRESHOLD_AFTER.some((r) => r.test(after));
}

function makeHit(f: FoldedText, s: number, e: number, fields: Pick<PValueHit, 'operator' | 'value' | 'kind' | 'lower'>): PValueHit {
  const { start, end } = toOriginalRange(f, s, e);
  const exact = fields.value !== null && fields.lower === null && (fields.operator === '=' || fields.operator === 'none');
  return { text: f.original.slice(start, end), start, end, ...fields, exact, threshold: isThreshold(f.text, s, e) };
}

/** Range of the ORIGINAL sentence for a folded range, to look at letter case. */
function originalSlice(f: FoldedText, s: number, e: number): string {
  const r = toOriginalRange(f, s, e);
  return f.original.slice(r.start, r.end);
}

/** "normal saline (NS)", "non-smokers (NS)": the initials of the two words before spell the abbreviation. */
function definesAbbreviation(t: string, markStart: number): boolean {
  const words = t
    .slice(Math.max(0, markStart - 60), markStart)
    .split(/[^\p{L}]+/u)
    .filter((w) => w !== '');
  return (
    words
      .slice(-2)
      .map((w) => w[0])
      .join('') === 'ns'
  );
}

/**
 * Every p-value expression in the sentence, in order of position, non-overlapping. Accepts a raw sentence
 * or the {@link FoldedText} of it (fold once when the lexicon matcher needs it too).
 */
export function findPValues(sentence: string | FoldedText): PValueHit[] {
  const f = asFolded(sentence);
  const t = f.text;
  if (!/[pn]/.test(t)) return [];
  const hits: PValueHit[] = [];
  const taken: [number, number][] = [];
  const overlaps = (s: number, e: number) => taken.some(([a, b]) => s < b && e > a);

  // Double and reversed inequalities first: "0.05 < p < 0.10" must not also yield "p < 0.10".
  if (MAYBE_REVERSED.test(t)) {
    for (const m of t.matchAll(REVERSED)) {
      const g = m.groups!;
      const s = m.index;
      const e = s + m[0].length;
      taken.push([s, e]);
      const a = parsePNumber(g.lo!);
      const first = flip(operatorOf(g.op1!));
      const b = g.hi === undefined ? null : parsePNumber(g.hi);
      if (a === null || a > 1 || (g.hi !== undefined && (b === null || b > 1))) continue;
      if (g.op2 === undefined) {
        hits.push(makeHit(f, s, e, { operator: first, value: a, kind: 'value', lower: null }));
        continue;
      }
      const second = operatorOf(g.op2);
      const firstIsLower = first === '>' || first === '>=';
      const secondIsLower = second === '>' || second === '>=';
      // "0<p>1", "0.05<p>0.10": both bounds from below; what was meant cannot be told, so no value.
      if (firstIsLower === secondIsLower) continue;
      const [lo, loOp, hi, hiOp] = firstIsLower ? [a, first, b!, second] : [b!, second, a, first];
      if (lo > hi) continue;
      hits.push(makeHit(f, s, e, { operator: hiOp, value: hi, kind: 'value', lower: { value: lo, inclusive: loOp === '>=' } }));
    }
  }

  FORWARD.lastIndex = 0;
  for (let m = FORWARD.exec(t); m !== null; m = FORWARD.exec(t)) {
    const g = m.groups!;
    const s = m.index;
    const e = s + m[0].length;
    const reject = () => {
      FORWARD.lastIndex = s + 1;
    };
    if (overlaps(s, e)) continue;
    const label = g.label!;
    const valueLabel = /^p[-\s]?val/.test(label);
    const plural = /^p['’]?s$/.test(label);
    const bare = label === 'p';
    const isNs = /^n/.test(g.val!);
    // An upper-case "PS" is a propensity score or a performance status, not plural p.
    if (plural && /^PS$/.test(originalSlice(f, s, s + label.length))) {
      reject();
      continue;
    }
    let operator: PValueOperator;
    if (g.op !== undefined) operator = operatorOf(g.op);
    else if (g.cop !== undefined) {
      // "a p-value of 0.07"; never after a bare "p" ("Total P was 0.05 mg/L" is phosphorus).
      if (!valueLabel) {
        reject();
        continue;
      }
      operator = '=';
    } else {
      // Lost operator ("p 0.06", "p0.05"): a decimal point is required, so "p53" and "P450" stay out.
      const glued = g.gap === '' && g.paren === undefined;
      const decimal = /^(?:0?[.·]|0,)\d/.test(g.val!);
      if (plural || isNs || g.paren !== undefined || !decimal || (glued && !/^0/.test(g.val!)) || (glued && !bare)) {
        reject();
        continue;
      }
      operator = 'none';
    }
    if (isNs) {
      hits.push(makeHit(f, s, e, { operator, value: null, kind: 'ns', lower: null }));
      taken.push([s, e]);
      continue;
    }
    const value = parsePNumber(g.val!);
    if (value === null || value > 1 || UNIT_AFTER.test(t.slice(e))) {
      reject();
      continue;
    }
    let lower: PValueHit['lower'] = null;
    if (g.tail !== undefined) {
      // "p = 0.05–0.10" is a range; anything else after a dash ("p=0-065", "p = 1-2") is not a p-value.
      const hi = /^\s?[-−–]\s?(\d*[.·]\d+)$/.exec(g.tail);
      const hv = hi ? parsePNumber(hi[1]!) : null;
      if (hv === null || hv > 1 || hv < value || (operator !== '=' && operator !== 'none')) {
        taken.push([s, e]);
        continue;
      }
      lower = { value, inclusive: true };
      hits.push(makeHit(f, s, e, { operator: '<=', value: hv, kind: 'value', lower }));
      taken.push([s, e]);
      continue;
    }
    hits.push(makeHit(f, s, e, { operator, value, kind: 'value', lower }));
    taken.push([s, e]);
  }

  // Stand-alone no-value markers.
  for (const m of t.matchAll(NS_MARK)) {
    const s = m.index;
    const e = s + m[0].length;
    if (overlaps(s, e)) continue;
    // "NS, not significant" and "n.s. = not significant" define a legend key.
    if (NS_DEFINITION_AFTER.test(t.slice(e, e + 40))) continue;
    if (m[0] === 'ns') {
      if (originalSlice(f, s, e) !== 'NS') continue;
      const prev = t.slice(0, s).trimEnd().at(-1) ?? '';
      const next = t.slice(e).trimStart()[0] ?? '';
      if (prev === '' || next === '' || !'([;,'.includes(prev) || !')];,'.includes(next)) continue;
      if (prev === '(' && definesAbbreviation(t, s)) continue;
    }
    hits.push(makeHit(f, s, e, { operator: 'none', value: null, kind: 'ns', lower: null }));
    taken.push([s, e]);
  }

  hits.sort((a, b) => a.start - b.start);
  return hits;
}
