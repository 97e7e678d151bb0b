/**
 * Sentence boundaries as `Intl.Segmenter('en', { granularity: 'sentence' })` finds them, computed in
 * JavaScript for text made only of characters whose Unicode Sentence_Break class is listed below, and left to
 * ICU for any other text.
 *
 * Why: ICU's segmenter would be a fifth of the extraction's CPU time (docs/decisions.md has the measurement).
 * Each segment object it returns is allocated with a copy of the input (Node 20), and the JS ↔ ICU round trip
 * costs more than the rules themselves. The rules (UAX #29, which ICU's sentence rules implement) only look
 * at each character's Sentence_Break class, and the classes of the characters listed here are fixed by
 * Unicode. The output must be ICU's exactly (the corpus's sentences, `sentences_scanned`, `also_in` and the
 * hashed article ids depend on every boundary): test/pipeline/corpus/sentence-breaks.test.ts compares the two
 * on every paragraph of the real reference articles and of a generated corpus, on every string of up to five
 * characters over one representative per class, and on random strings over every listed character.
 *
 * The rules, for the classes present here (no CR, LF, Sep, Format, Extend or OLetter: text containing such a
 * character goes to ICU), with SATerm = ATerm | STerm:
 * - SB6  ATerm × Numeric
 * - SB7  (Upper | Lower) ATerm × Upper
 * - SB8  ATerm Close* Sp* × (¬(Upper | Lower | SATerm))* Lower
 * - SB8a SATerm Close* Sp* × (SContinue | SATerm)
 * - SB9, SB10: no break inside SATerm Close* Sp*
 * - SB11 SATerm Close* Sp* ÷ (a break after the run)
 * - SB998 no break anywhere else.
 */

const OTHER = 1;
const SP = 2;
const LOWER = 3;
const UPPER = 4;
const NUMERIC = 5;
const ATERM = 6;
const STERM = 7;
const CLOSE = 8;
const SCONTINUE = 9;

/** Sentence_Break class per UTF-16 code unit of the BMP; 0: not listed (the text goes to ICU). */
const CLASS = new Uint8Array(0x10000);

function assign(cls: number, chars: string): void {
  for (const ch of chars) CLASS[ch.charCodeAt(0)] = cls;
}
function assignRange(cls: number, from: number, to: number, except: readonly number[] = []): void {
  for (let c = from; c <= to; c++) if (!except.includes(c)) CLASS[c] = cls;
}

// Printable ASCII.
assignRange(OTHER, 0x21, 0x7e);
assign(SP, ' ');
assignRange(LOWER, 0x61, 0x7a);
assignRange(UPPER, 0x41, 0x5a);
assignRange(NUMERIC, 0x30, 0x39);
assign(ATERM, '.');
assign(STERM, '!?');
assign(CLOSE, `"'()[]{}`);
assign(SCONTINUE, ',-:;');
// Latin-1 letters (× and ÷ are symbols), Greek letters (U+03A2 is unassigned; ς is lower case).
assignRange(UPPER, 0xc0, 0xde, [0xd7]);
assignRange(LOWER, 0xdf, 0xff, [0xf7]);
assign(OTHER, '\u00d7\u00f7');
assignRange(UPPER, 0x391, 0x3a9, [0x3a2]);
assignRange(LOWER, 0x3b1, 0x3c9);
// Symbols and punctuation frequent in scientific text, each checked against ICU by the test.
assign(
  OTHER,
  '\u00b1\u00b0\u00b7\u00af\u00a7\u00b6\u00a9\u00ae\u2032\u2033\u2022\u2026\u2122\u2030\u2264\u2265\u2260\u2248\u2212\u2236\u2211\u221a\u221e\u2192\u2190\u2191\u2193\u223c',
);
assign(LOWER, '\u00b5');
assign(SCONTINUE, '\u2013\u2014');
assign(CLOSE, '\u2018\u2019\u201c\u201d\u00ab\u00bb');

/**
 * The inner sentence boundaries of `text` (offsets where a sentence starts, excluding 0 and `text.length`),
 * in order; null when a character of `text` has no listed class (ICU must split it). One pass: every character
 * is looked at by the main loop or, as Close or Sp, by the loops after a terminator (a separate pass checking
 * the classes first would read every character twice).
 */
export function sentenceBreaks(text: string): number[] | null {
  const n = text.length;
  const out: number[] = [];
  let i = 0;
  while (i < n) {
    const k = CLASS[text.charCodeAt(i)]!;
    if (k !== ATERM && k !== STERM) {
      if (k === 0) return null;
      i++;
      continue;
    }
    const t = i;
    let j = t + 1;
    while (j < n && CLASS[text.charCodeAt(j)] === CLOSE) j++;
    while (j < n && CLASS[text.charCodeAt(j)] === SP) j++;
    if (j >= n) break;
    const next = CLASS[text.charCodeAt(j)]!;
    let join = next === SCONTINUE || next === ATERM || next === STERM; // SB8a
    if (!join && k === ATERM) {
      if (j === t + 1 && next === NUMERIC)
        join = true; // SB6
      else if (j === t + 1 && next === UPPER && t > 0 && (CLASS[text.charCodeAt(t - 1)] === UPPER || CLASS[text.charCodeAt(t - 1)] === LOWER))
        join = true; // SB7
      else {
        // SB8: the first letter or sentence terminator from here on decides.
        let m = j;
        for (; m < n; m++) {
          const c = CLASS[text.charCodeAt(m)];
          if (c === LOWER || c === UPPER || c === ATERM || c === STERM) break;
        }
        join = m < n && CLASS[text.charCodeAt(m)] === LOWER;
      }
    }
    if (!join) out.push(j);
    i = j;
  }
  return out;
}

/** Every character with a listed class (for the test that compares this module with ICU). */
export function listedCharacters(): string[] {
  const out: string[] = [];
  for (let c = 0; c < CLASS.length; c++) if (CLASS[c] !== 0) out.push(String.fromCharCode(c));
  return out;
}
