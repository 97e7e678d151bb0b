/**
 * Turns JATS inline content (paragraphs, titles, captions) into plain text without losing any run of text.
 *
 * Decisions, each documented in docs/corpus-jats.md:
 * - Inline markup (`<italic>`, `<bold>`, `<sub>`, `<named-content>`, …) contributes its text in place and
 *   nothing else: `<italic>p</italic> = 0.07` → "p = 0.07", `p<sub>Het</sub>` → "pHet".
 * - A superscript that is a signed integer directly after a digit is an exponent and becomes "^" plus the
 *   integer with an ASCII minus: `10<sup>−3</sup>` → "10^-3", so "7.2 × 10^-2" stays readable as one number
 *   and a footnote number after a p-value cannot fuse with it ("0.04^2", never "0.042"). Other superscripts
 *   are kept as written: `χ<sup>2</sup>` → "χ2", `7<sup>th</sup>` → "7th".
 * - Citation markers are kept. A superscripted cross-reference (`<sup><xref ref-type="bibr">12</xref></sup>`,
 *   the reverse nesting, or a footnote marker `<sup><xref ref-type="table-fn">a</xref></sup>`) becomes
 *   " [12]" / " [a]", so it cannot fuse with the word or number before it ("p = 0.07 [12]", not "0.0712").
 * - `<inline-formula>` and MathML contribute their text; `msup` follows the exponent rule above; TeX
 *   annotations are dropped. `<alternatives>` contributes one alternative: MathML, else cleaned TeX.
 * - Block elements nested inside a paragraph (`<fig>`, `<table-wrap>`, `<list>`, `<disp-formula>`,
 *   `<boxed-text>`, …) are cut out of the paragraph's text and handed back to the caller, which emits
 *   captions, footnotes and list items as their own blocks; a display formula is dropped.
 * - Whitespace: every Unicode space (including U+00A0, U+2009, U+202F) and line break becomes one ASCII space,
 *   runs collapse, ends are trimmed; soft hyphens and zero-width characters are removed. Nothing else is
 *   changed: no NFKC, minus signs and dashes stay as written, so quoted excerpts match the article.
 */
import type { XmlElement, XmlNode } from './jats-tree.ts';
import { hasDescendant } from './jats-tree.ts';

/** Marks where a nested block was cut out; U+FFFF is a noncharacter that XML text cannot contain. */
const GAP = '\uFFFF';

/** Elements that are blocks even when nested inside `<p>`: cut out of the paragraph text. */
export const NESTED_BLOCKS: ReadonlySet<string> = new Set([
  'fig',
  'fig-group',
  'table-wrap',
  'table-wrap-group',
  'list',
  'def-list',
  'boxed-text',
  'disp-quote',
  'statement',
  'verse-group',
  'chem-struct-wrap',
  'disp-formula',
  'disp-formula-group',
  'supplementary-material',
  'media',
  'graphic',
  'preformat',
  'code',
  'table',
  'array',
  'ref-list',
  'speech',
  'question-wrap',
]);

/** Inline elements whose content is not part of the running text. */
const DROPPED_INLINE: ReadonlySet<string> = new Set([
  'fn',
  'target',
  'object-id',
  'inline-graphic',
  'private-char',
  'annotation',
  'annotation-xml',
  'alt-text',
  'long-desc',
  'milestone-start',
  'milestone-end',
  'index-term',
  'index-term-range-end',
]);

const SIGNED_INTEGER = /^[-+\u2212\u2013]?\d+$/;
const isDigit = (c: string) => c >= '0' && c <= '9';
const isXref = (e: XmlElement) => e.local === 'xref';

/** Accumulates text and remembers its last character, for the superscript rule. */
class Sink {
  text = '';
  last = '';
  /** The last text came from a subscript: "χ<sub>21</sub><sup>2</sup>" is not 21 to the power 2. */
  afterSub = false;
  add(s: string): void {
    if (s.length === 0) return;
    this.text += s;
    this.last = s[s.length - 1]!;
    this.afterSub = false;
  }
  /** True when a superscript here is an exponent of the number just written. */
  exponentPosition(): boolean {
    return !this.afterSub && isDigit(this.last);
  }
}

function renderChildren(el: XmlElement, sink: Sink, nested: XmlElement[] | null): void {
  for (const child of el.children) renderNode(child, sink, nested);
}

function renderNode(node: XmlNode, sink: Sink, nested: XmlElement[] | null): void {
  if (typeof node === 'string') {
    sink.add(node);
    return;
  }
  const local = node.local;
  if (NESTED_BLOCKS.has(local)) {
    if (nested) nested.push(node);
    sink.add(GAP);
    return;
  }
  if (DROPPED_INLINE.has(local)) return;
  switch (local) {
    case 'sup':
      renderSup(node, sink);
      return;
    case 'sub':
      renderChildren(node, sink, nested);
      sink.afterSub = true;
      return;
    case 'xref':
      if (node.children.some((c) => typeof c !== 'string' && c.local === 'sup')) {
        bracketed(node, sink);
        return;
      }
      renderChildren(node, sink, nested);
      return;
    case 'math':
      renderMath(node, sink);
      return;
    case 'tex-math':
      sink.add(cleanTex(plain(node)));
      return;
    case 'alternatives':
      renderAlternatives(node, sink);
      return;
    case 'break':
      sink.add(' ');
      return;
    default:
      renderChildren(node, sink, nested);
  }
}

/** Text of an element with the inline rules, no block extraction, not whitespace-normalised. */
function plain(el: XmlElement): string {
  const sink = new Sink();
  renderChildren(el, sink, null);
  return sink.text;
}

function bracketed(el: XmlElement, sink: Sink): void {
  const inner = normaliseText(plain(el));
  if (inner) sink.add(` [${inner}]`);
}

function renderSup(el: XmlElement, sink: Sink): void {
  if (hasDescendant(el, isXref)) {
    bracketed(el, sink);
    return;
  }
  const inner = normaliseText(plain(el));
  if (sink.exponentPosition() && SIGNED_INTEGER.test(inner)) sink.add(`^${asciiMinus(inner)}`);
  else sink.add(plain(el));
}

const asciiMinus = (s: string) => s.replace(/[\u2212\u2013]/g, '-');

/** MathML: token text in order; `msup` with an integer exponent after a digit follows the "^" rule. */
function renderMath(el: XmlElement, sink: Sink): void {
  for (const child of el.children) {
    if (typeof child === 'string') {
      // Whitespace between MathML elements is layout, not content; token elements keep their own text.
      if (el.local === 'mi' || el.local === 'mn' || el.local === 'mo' || el.local === 'mtext' || el.local === 'ms') sink.add(child);
      continue;
    }
    switch (child.local) {
      case 'annotation':
      case 'annotation-xml':
        break;
      case 'mspace':
        sink.add(' ');
        break;
      case 'msup': {
        const [base, exp] = child.children.filter((c): c is XmlElement => typeof c !== 'string');
        if (base) renderMath({ ...child, children: [base] }, sink);
        if (exp) {
          const e = new Sink();
          renderMath({ ...child, children: [exp] }, e);
          const inner = normaliseText(e.text);
          if (sink.exponentPosition() && SIGNED_INTEGER.test(inner)) sink.add(`^${asciiMinus(inner)}`);
          else sink.add(e.text);
        }
        break;
      }
      case 'mfrac': {
        const [num, den] = child.children.filter((c): c is XmlElement => typeof c !== 'string');
        if (num) renderMath({ ...child, children: [num] }, sink);
        sink.add('/');
        if (den) renderMath({ ...child, children: [den] }, sink);
        break;
      }
      case 'msqrt':
        sink.add('\u221A');
        renderMath(child, sink);
        break;
      default:
        renderMath(child, sink);
    }
  }
}

/** One alternative only: MathML if present, else TeX, else nothing (graphics and tables carry no text). */
function renderAlternatives(el: XmlElement, sink: Sink): void {
  const kids = el.children.filter((c): c is XmlElement => typeof c !== 'string');
  const math = kids.find((k) => k.local === 'math');
  if (math) {
    renderMath(math, sink);
    return;
  }
  const tex = kids.find((k) => k.local === 'tex-math');
  if (tex) sink.add(cleanTex(plain(tex)));
}

const TEX_SYMBOLS = new Map<string, string>(
  Object.entries({
    times: '\u00D7',
    le: '\u2264',
    leq: '\u2264',
    ge: '\u2265',
    geq: '\u2265',
    pm: '\u00B1',
    lt: '<',
    gt: '>',
    chi: '\u03C7',
    alpha: '\u03B1',
    beta: '\u03B2',
    gamma: '\u03B3',
    delta: '\u03B4',
    mu: '\u03BC',
    sigma: '\u03C3',
    eta: '\u03B7',
    kappa: '\u03BA',
    rho: '\u03C1',
    tau: '\u03C4',
    lambda: '\u03BB',
    approx: '\u2248',
    sim: '\u223C',
    neq: '\u2260',
    ne: '\u2260',
    cdot: '\u00B7',
    minus: '\u2212',
    '%': '%',
    ',': ' ',
    ';': ' ',
    ' ': ' ',
    '{': '{',
    '}': '}',
  }),
);

/**
 * A readable rendering of a TeX formula: PMC's `\documentclass…\begin{document}` wrapper and `$` delimiters
 * removed, a few symbols mapped (`\times` → ×, `\le` → ≤, Greek letters), other commands and grouping braces
 * dropped, `^{-3}` written as "^-3". Only used when a formula has no MathML.
 */
export function cleanTex(tex: string): string {
  const begin = tex.indexOf('\\begin{document}');
  let s = begin === -1 ? tex : tex.slice(begin + 16);
  const end = s.indexOf('\\end{document}');
  if (end !== -1) s = s.slice(0, end);
  s = s.replace(/\$/g, '');
  s = s.replace(/\\(?:mathrm|mathit|textit|text|mbox|mathbf|textbf|boldsymbol|rm|it)\b/g, '');
  s = s.replace(/\\([A-Za-z]+|[%,; {}])/g, (_, cmd: string) => TEX_SYMBOLS.get(cmd) ?? '');
  s = s.replace(/\^\{([^{}]*)\}/g, '^$1').replace(/_\{([^{}]*)\}/g, '$1');
  return s.replace(/[{}]/g, '').replace(/_/g, '');
}

/**
 * Whitespace normalisation used for every text block: soft hyphens and zero-width characters removed,
 * any run of Unicode whitespace turned into one ASCII space, ends trimmed. Exported so callers that bring
 * text from elsewhere (the CSV input) can normalise it the same way before sentence splitting.
 */
export function normaliseText(s: string): string {
  let t = s.replace(/[\u00AD\u200B-\u200D\u2060\u180E]/g, '');
  if (t.indexOf(GAP) !== -1) {
    // A cut-out block leaves no space before closing punctuation: "shown in <fig/>." → "shown in."
    t = t.replace(/[\s\uFFFF]*\uFFFF[\s\uFFFF]*(?=[.,;:!?)\]]|$)/g, '').replace(/\uFFFF/g, ' ');
  }
  // Every maximal run of whitespace becomes one space; a run that is one space already is not matched (the
  // same result as /\s+/g with far fewer replacements: most runs in running text are single spaces).
  return t.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/**
 * Text of an inline container (a `<p>`, `<title>`, `<label>`) with the rules above. Block elements nested in
 * it are appended to `nested` (when given) in document order, for the caller to emit as separate blocks.
 */
export function inlineText(el: XmlElement, nested: XmlElement[] | null = null): string {
  const sink = new Sink();
  renderChildren(el, sink, nested);
  return normaliseText(sink.text);
}
