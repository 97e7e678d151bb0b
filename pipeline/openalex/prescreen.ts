/**
 * A raw-text prescreen that decides, without JSON.parse, that a works-snapshot line cannot enter the frame:
 * about 99% of the snapshot holds no Canadian evidence, and parsing those lines was most of the builder's cost
 * (docs/benchmarks.md, issue 17). A line is rejected only when its text, with JSON escapes decoded and folded
 * as the lexicon folds terms, holds none of the evidence any route reads:
 *   - aff: no `"ca"` string in any case (a country code CA anywhere, institutions' or `countries`);
 *   - fund / venue: no letter+digits run naming a pinned funder or source id;
 *   - about: no Tier A or Tier B lexicon entry all of whose terms occur, even as parts of longer words.
 * Each test is a superset of its rule (the rule reads some of the line's strings, whole terms, exact fields;
 * the prescreen reads all of it as substrings), so a line the rules would admit is never rejected: a test
 * runs both paths over the real reference records and the edge records (test/pipeline/openalex/prescreen.test.ts).
 *
 * A rejected line still has to count for deduplication (a newer version without a route supersedes an admitted
 * one), so its work id and updated_date are read from the text, and only when unambiguous: the line is one
 * object (`{` … `}`), exactly one `"id"` key holds a work id and at most one `"updated_date"` key a plain string
 * or null. Anything else goes to the full parse. What the prescreen gives up (docs/decisions.md): a rejected
 * line is not validated (its other fields' types are not checked) and is counted as `no-evidence`, not by
 * `window` / `xpac` / `not-publication`; `--full-parse` turns it off.
 */
import { ABOUT_CANADA_LEXICON } from '../../contracts/frame/about-canada.ts';
import { shortId } from '../../contracts/frame/catalogue-work.ts';
import { foldText } from '../../contracts/frame/title-terms.ts';
import type { RouteRules } from '../../contracts/frame/route-rules.ts';

/**
 * The entries that can admit a work (Tier C never admits on its own), as term lists. The scan finds every
 * lexicon term that is a whole run of letters and digits of the text (case-insensitive; a JSON escape such as
 * `\n` ends a run); an entry may match when all its terms were found, anywhere in the line (an abstract's
 * inverted index lists a phrase's words as separate keys, in any order).
 */
const ADMITTING = ABOUT_CANADA_LEXICON.filter((e) => e.tier !== 'C').map((e) => [...new Set(e.entry.split(' '))]);
const ONE_TERM = new Set(ADMITTING.filter((t) => t.length === 1).map((t) => t[0]!));
const MULTI_TERM = ADMITTING.filter((t) => t.length > 1);
const MULTI_WORDS = new Set(MULTI_TERM.flat());

/** The hash the scan computes over a run of lower-case ASCII letters and digits. */
function hashOf(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) h = (Math.imul(h, 31) + word.charCodeAt(i)) | 0;
  return h;
}
const TERM_HASHES = new Set([...ONE_TERM, ...MULTI_WORDS].map(hashOf));
const CA_HASH = hashOf('ca');
const BACKSLASH = 92;
const QUOTE = 34;
/** ASCII code → its lower-case code when a letter or digit (a run's character), else 0 (a separator). */
const RUN_CHAR = new Uint8Array(128);
for (let c = 48; c <= 57; c++) RUN_CHAR[c] = c;
for (let c = 97; c <= 122; c++) RUN_CHAR[c] = RUN_CHAR[c - 32] = c;

const WORK_ID_KEY = /[{,]\s*"id"\s*:\s*"\s*((?:https:\/\/openalex\.org\/)?W[1-9]\d{0,14})\s*"/gi;
const UPDATED_KEY = /[{,]\s*"updated_date"\s*:\s*(?:"([^"\\]*)"|(null))/g;
/**
 * An escaped backslash (kept: it is no escape of what follows), a UTF-16 pair written as two \u escapes, one
 * \u escape, a pair written as is, or one character outside ASCII.
 */
const UNICODE = /\\\\|\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|[\ud800-\udbff][\udc00-\udfff]|[\u0080-\uffff]/g;

/**
 * The text with every \u escape decoded and every character outside ASCII folded as the lexicon folds
 * (foldText: accents off, compatibility forms, lower case), one character at a time, so the ASCII bulk of
 * a line is left as it is. Other escapes stay (they stand for no letter or digit).
 */
const folded = new Map<string, string>();
function foldUnicode(text: string): string {
  return text.replace(UNICODE, (m: string, high: string | undefined, low: string | undefined, hex: string | undefined) => {
    if (m === '\\\\') return m;
    const ch = high !== undefined ? String.fromCharCode(parseInt(high, 16), parseInt(low!, 16)) : hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : m;
    let f = folded.get(ch);
    if (f === undefined) {
      // A decoded backslash is no escape: a space keeps it a separator without starting one.
      f = ch === '\\' ? ' ' : foldText(ch);
      if (folded.size < 65_536) folded.set(ch, f);
    }
    return f;
  });
}

/**
 * A copy of a short piece of a line: a regexp capture is a slice that keeps its whole line (~10 kB) alive,
 * and the part writers buffer 4 MiB of id lines before they write (1 GiB of retained lines in a test run).
 */
const detached = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

export interface Prescreen {
  /** The line's work id and updated_date when the line certainly cannot enter the frame, else null (parse it). */
  reject(line: string): { id: string; updated: string } | null;
}

export function prescreen(rules: RouteRules): Prescreen {
  const ids = new Set([...rules.funderIds, ...rules.sourceIds]);

  const idLetters = new Set([...ids].map((id) => id.toLowerCase().charCodeAt(0)));

  /**
   * One pass over the text, run by run of ASCII letters and digits (no substring is made unless a run's
   * hash names a lexicon term or its tail could be a pinned id). 'refold' when the text holds a \u escape
   * or a character outside ASCII (rare: OpenAlex lines are ASCII with escapes), which foldUnicode resolves.
   */
  const scan = (text: string, folded: boolean): boolean | 'refold' => {
    let seen: Set<string> | null = null;
    const n = text.length;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (c === BACKSLASH) {
        if (!folded && text.charCodeAt(i + 1) === 117) return 'refold';
        i += 2;
        continue;
      }
      if (c >= 128) {
        if (!folded) return 'refold';
        i++;
        continue;
      }
      if (RUN_CHAR[c] === 0) {
        i++;
        continue;
      }
      const start = i;
      let h = 0;
      let lastLetter = -1;
      for (; i < n; i++) {
        c = text.charCodeAt(i);
        const r = c < 128 ? RUN_CHAR[c]! : 0;
        if (r === 0) break;
        if (r >= 97) lastLetter = i;
        h = (Math.imul(h, 31) + r) | 0;
      }
      if (TERM_HASHES.has(h)) {
        const word = text.slice(start, i).toLowerCase();
        if (ONE_TERM.has(word)) return true;
        if (MULTI_WORDS.has(word)) (seen ??= new Set()).add(word);
      }
      if (h === CA_HASH && i - start === 2 && text.charCodeAt(start - 1) === QUOTE && text.charCodeAt(i) === QUOTE) return true;
      // shortId reads an id as the letter before the value's trailing digits (`…/F4320306076`).
      if (lastLetter >= start && lastLetter < i - 1 && idLetters.has(text.charCodeAt(lastLetter) | 32)) {
        if (ids.has(`${text[lastLetter]!.toUpperCase()}${text.slice(lastLetter + 1, i)}`)) return true;
      }
    }
    return seen !== null && MULTI_TERM.some((terms) => terms.every((t) => seen.has(t)));
  };

  return {
    reject(line) {
      const text = line.trim();
      if (text[0] !== '{' || text[text.length - 1] !== '}') return null;
      let found = scan(text, false);
      if (found === 'refold') found = scan(foldUnicode(text), true);
      if (found) return null;
      WORK_ID_KEY.lastIndex = 0;
      const first = WORK_ID_KEY.exec(text);
      if (first === null || WORK_ID_KEY.exec(text) !== null) return null;
      let updated = '';
      const keys = text.split('"updated_date"').length - 1;
      if (keys > 1) return null;
      if (keys === 1) {
        UPDATED_KEY.lastIndex = 0;
        const m = UPDATED_KEY.exec(text);
        if (m === null) return null;
        updated = m[1] === undefined ? '' : detached(m[1]);
      }
      return { id: detached(shortId(first[1])!), updated };
    },
  };
}
