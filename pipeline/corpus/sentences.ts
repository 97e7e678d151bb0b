/**
 * Sentence splitting for one paragraph: `Intl.Segmenter` (ICU, UAX #29) followed by a repair pass.
 *
 * Why this design (research/hedged.md §5.2): on real JATS paragraphs ICU was the most accurate and by far the
 * fastest splitter measured, and its remaining errors are almost all splits after abbreviations ("Fig. ‖ 2B",
 * "et al. ‖ (2014)", "vs. ‖ Control", "ca. ‖ 1.5 m"), which a small repair pass joins back. ICU never splits
 * inside a decimal ("p = .07") because it does not break before a digit that follows a full stop directly, and
 * it does not break before a lower-case word ("Geocoris spp. tended").
 *
 * The repair pass prefers keeping text together over splitting it: for this corpus a wrong split can separate
 * a hedging phrase from its p-value, while a missed split only makes one excerpt longer. It
 * - joins a piece to the next when the piece ends in a known abbreviation (et al., e.g., i.e., cf., vs., v.,
 *   Fig(s)., Eq(s)., Ref(s)., Tab., Suppl., approx., ca., resp., viz., Dr., Prof., St., No., …) or in a
 *   dotted initialism ("U.S.", "S.E.M.", "n.s.", "i.v.");
 * - joins a piece to the next when the next one starts with a digit, a lower-case word, or closing
 *   punctuation (`) ] } , ; : %`), except lower-case-initial tokens that legitimately start sentences
 *   ("mRNA", "siRNA", "iPSC", "pH", "p53", "p-values");
 * - splits where ICU did not, before such a token after a sentence end: "(p = 0.07). mRNA levels rose".
 * It deliberately does not treat a lone capital ("vitamin D. The") or "spp."/"sp." before a capital
 * ("Geocoris spp. In 2011, …") as an abbreviation: both are more often real sentence ends in body text.
 *
 * Text is never changed: each sentence is `paragraph.slice(start, end)`, with surrounding whitespace
 * excluded. Callers should pass text normalised by `normaliseText` (jats-text.ts), as `parseArticle` does.
 *
 * Memory: ICU segment objects each carry a copy of the whole input in Node 20 (research/hedged.md §5.3), so
 * only `segment` and `index` are read and no segment object is kept.
 */

/** One sentence: `text === paragraph.slice(start, end)` (UTF-16 offsets). */
export interface Sentence {
  text: string;
  start: number;
  end: number;
}

import { sentenceBreaks } from './sentence-breaks.ts';

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Abbreviations compared case-insensitively (lower-cased here). */
const ABBREVIATIONS = new Set([
  'al.',
  'e.g.',
  'i.e.',
  'cf.',
  'vs.',
  'v.',
  'fig.',
  'figs.',
  'eq.',
  'eqs.',
  'ref.',
  'refs.',
  'tab.',
  'tabs.',
  'suppl.',
  'approx.',
  'ca.',
  'resp.',
  'viz.',
  'incl.',
  'vol.',
  'pp.',
  'chap.',
  'sect.',
  'ed.',
  'eds.',
  'var.',
  'cv.',
  'subsp.',
  'ssp.',
  'nr.',
  'app.',
  'est.',
  'cit.',
  'op.',
  'ibid.',
]);

/** Abbreviations that only count with this capitalisation ("Ms." is a title, "ms." a unit). */
const CASED_ABBREVIATIONS = new Set([
  'Dr.',
  'Drs.',
  'Prof.',
  'Mr.',
  'Mrs.',
  'Ms.',
  'St.',
  'No.',
  'Nos.',
  'Inc.',
  'Ltd.',
  'Co.',
  'Corp.',
  'Jr.',
  'Sr.',
  'Dept.',
  'Univ.',
  'Gen.',
  'Mt.',
]);

/** Two or more single letters each followed by a full stop: "e.g.", "U.S.", "S.E.M.", "n.s.", "i.v.". */
const INITIALISM = /^(?:[A-Za-z]\.){2,}$/;

/**
 * Lower-case-initial tokens that start sentences: a lower-case word with a capital or digit inside ("mRNA",
 * "siRNA", "pH", "p53", "p21"), or "p-value(s)" / "p value(s)".
 */
const LOWER_SENTENCE_START = /^(?:[a-z]+[A-Z0-9][A-Za-z0-9-]*|p-values?\b|p values?\b)/;

/** A sentence end inside an ICU segment followed by such a token. */
const HIDDEN_BOUNDARY = /[.!?]["'\u2019\u201D)\]]*\s+(?=(?:[a-z]+[A-Z0-9][A-Za-z0-9-]*|p-values?\b|p values?\b))/g;

const OPENERS = /^[("'\u2018\u201C[]+/;

/** The last whitespace-separated token of `text`, without opening brackets or quotes. */
function lastToken(text: string): string {
  const trimmed = text.trimEnd();
  const space = Math.max(trimmed.lastIndexOf(' '), trimmed.lastIndexOf('\u00A0'));
  return trimmed.slice(space + 1).replace(OPENERS, '');
}

function endsWithAbbreviation(text: string): boolean {
  const token = lastToken(text);
  if (!token.endsWith('.')) return false;
  return ABBREVIATIONS.has(token.toLowerCase()) || CASED_ABBREVIATIONS.has(token) || INITIALISM.test(token);
}

function startsAsContinuation(text: string): boolean {
  const c = text[0];
  if (c === undefined) return false;
  if (c >= '0' && c <= '9') return true;
  if (')]},;:%'.includes(c)) return true;
  if (c >= 'a' && c <= 'z') return !LOWER_SENTENCE_START.test(text);
  return false;
}

/** Paragraphs longer than this are segmented in pieces (see `chunks`). */
const CHUNK = 4096;
/** A full stop, question or exclamation mark, whitespace, then a capital: ICU breaks there without exception. */
const SURE_BOUNDARY = /[.!?]\s+(?=[A-Z])/g;

/**
 * Cuts a long paragraph into pieces of about CHUNK characters at places where ICU would break anyway. Each
 * ICU segment object copies the whole input (Node 20), which makes one pass over a 400 kB paragraph take
 * seconds; pieces keep the cost linear. The repair pass runs over all pieces' spans together, so joins across
 * a cut still happen.
 */
function chunks(paragraph: string): [number, string][] {
  if (paragraph.length <= CHUNK) return [[0, paragraph]];
  const out: [number, string][] = [];
  let from = 0;
  while (paragraph.length - from > CHUNK) {
    SURE_BOUNDARY.lastIndex = from + CHUNK;
    const m = SURE_BOUNDARY.exec(paragraph);
    if (!m) break;
    const cut = m.index + m[0].length;
    out.push([from, paragraph.slice(from, cut)]);
    from = cut;
  }
  out.push([from, paragraph.slice(from)]);
  return out;
}

/** ICU segments as [start, end) spans with surrounding whitespace excluded; empty segments dropped. */
function icuSpans(paragraph: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const [offset, piece] of chunks(paragraph)) icuSpansOf(paragraph, piece, offset, spans);
  return spans;
}

function icuSpansOf(paragraph: string, chunk: string, offset: number, spans: [number, number][]): void {
  const cuts = sentenceBreaks(chunk);
  if (cuts !== null) {
    // ICU's boundaries computed in JS (sentence-breaks.ts): the same spans without a segment object each.
    let from = 0;
    for (const cut of cuts) {
      pieceSpans(paragraph, offset + from, offset + cut, spans);
      from = cut;
    }
    if (from < chunk.length) pieceSpans(paragraph, offset + from, offset + chunk.length, spans);
    return;
  }
  for (const { segment, index } of segmenter.segment(chunk)) pieceSpans(paragraph, offset + index, offset + index + segment.length, spans);
}

/** The spans of one ICU segment [start, end) of `paragraph`: trimmed, split again where ICU misses a boundary. */
function pieceSpans(paragraph: string, segStart: number, segEnd: number, spans: [number, number][]): void {
  let start = segStart;
  let end = segEnd;
  while (start < end && isSpace(paragraph.charCodeAt(start))) start++;
  while (end > start && isSpace(paragraph.charCodeAt(end - 1))) end--;
  if (end <= start) return;
  // Boundaries ICU misses before "mRNA", "pH", "p-values" and similar.
  const piece = paragraph.slice(start, end);
  let from = 0;
  // exec on the one global regex rather than matchAll, which clones the regex for every piece (it never
  // matches empty, so the loop always advances).
  HIDDEN_BOUNDARY.lastIndex = 0;
  for (let m = HIDDEN_BOUNDARY.exec(piece); m !== null; m = HIDDEN_BOUNDARY.exec(piece)) {
    const cut = m.index + m[0].trimEnd().length;
    if (endsWithAbbreviation(piece.slice(from, cut))) continue;
    spans.push([start + from, start + cut]);
    from = m.index + m[0].length;
  }
  spans.push([start + from, end]);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0 || code === 0x2009 || code === 0x202f;
}

/**
 * Splits one paragraph into sentences with offsets. Deterministic, no allocation proportional to the
 * paragraph beyond the result. An empty or all-whitespace paragraph gives [].
 */
export function splitSentences(paragraph: string): Sentence[] {
  const spans = icuSpans(paragraph);
  const out: Sentence[] = [];
  let cur: [number, number] | null = null;
  for (const span of spans) {
    if (cur) {
      const curText = paragraph.slice(cur[0], cur[1]);
      const nextText = paragraph.slice(span[0], span[1]);
      if (endsWithAbbreviation(curText) || startsAsContinuation(nextText)) {
        cur = [cur[0], span[1]];
        continue;
      }
      out.push({ text: paragraph.slice(cur[0], cur[1]), start: cur[0], end: cur[1] });
    }
    cur = [span[0], span[1]];
  }
  if (cur) out.push({ text: paragraph.slice(cur[0], cur[1]), start: cur[0], end: cur[1] });
  return out;
}
