import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  compileLexicon,
  DEFAULT_LEXICON_PATH,
  expandPattern,
  foldSentence,
  lexiconFileSchema,
  loadLexicon,
  loadOtteLexicon,
  parseLexiconFile,
  parseOtteLexicon,
  toOriginalRange,
  type Lexicon,
} from '../../../pipeline/corpus/lexicon.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const OTTE_PHRASES = sharedPath('reference/hedged/otte2022/detect_phrases/phrases_505.csv');
const OTTE_P = sharedPath('reference/hedged/otte2022/data.manual/all_P_values.csv');
const havePhrases = needShared('reference/hedged/otte2022/detect_phrases/phrases_505.csv', "the tests of Otte et al.'s phrase list");
const haveP = havePhrases && needShared('reference/hedged/otte2022/data.manual/all_P_values.csv', 'the phrase tests on the manual p-value rows');

/**
 * The expanded content of each released lexicon version. Changing hedging-v1.json without bumping its
 * version fails here: bump `version` (and the file name), add the new hash, keep the old line.
 */
const RELEASED: Record<string, string> = {
  'hedging-v1': '1d849304608240a1',
  'hedging-v2': 'b03ce92d0e382ab8',
};

const tiny = (entries: Record<string, string[]>): Lexicon => ({
  version: 'test-v1',
  source: 'test',
  entries: Object.entries(entries).map(([phrase, variants]) => ({ phrase, variants })),
});

/** Matches with the text they cover, checked against the offsets. */
function spans(matcher: ReturnType<typeof compileLexicon>, s: string): [string, string][] {
  return matcher.match(s).map((m) => [m.phrase, s.slice(m.start, m.end)]);
}

describe('expandPattern: the lexicon grammar', () => {
  it('expands choices, optional parts and word suffixes', () => {
    expect(expandPattern('marginally significant')).toEqual(['marginally significant']);
    expect(expandPattern('[a ]strong [statistical ]trend')).toEqual([
      'a strong statistical trend',
      'a strong trend',
      'strong statistical trend',
      'strong trend',
    ]);
    expect(expandPattern('approach(|ed|es|ing) significance')).toEqual([
      'approach significance',
      'approached significance',
      'approaches significance',
      'approaching significance',
    ]);
    expect(expandPattern('trend toward(|s)')).toEqual(['trend toward', 'trend towards']);
    expect(expandPattern('[a |an ]x')).toEqual(['a x', 'an x', 'x']);
    expect(expandPattern('(a (b|c)|d) e')).toEqual(['a b e', 'a c e', 'd e']);
  });

  it('rejects malformed patterns and runaway expansions', () => {
    for (const bad of ['(a|b', '[a', 'a)b', 'a]', 'a|b', '[x]', '(|)']) expect(() => expandPattern(bad), bad).toThrow(/lexicon pattern/);
    expect(() => expandPattern('(a|b|c|d)'.repeat(7))).toThrow(/more than 4096 forms/);
  });
});

describe('the project lexicon (pipeline/corpus/lexicon/hedging-v2.json)', () => {
  const lexicon = loadLexicon();

  it('validates against its schema and carries its version', () => {
    expect(DEFAULT_LEXICON_PATH.endsWith('hedging-v2.json')).toBe(true);
    expect(lexicon.version).toBe('hedging-v2');
    expect(lexicon.entries.length).toBeGreaterThanOrEqual(40);
    for (const e of lexicon.entries) expect(e.variants, e.phrase).toContain(e.phrase);
    expect(compileLexicon(lexicon).collisions).toEqual([]);
  });

  it('has not changed without a version bump', () => {
    const hash = createHash('sha256').update(JSON.stringify(lexicon.entries)).digest('hex').slice(0, 16);
    expect(RELEASED[lexicon.version], `hedging lexicon ${lexicon.version} content hash is ${hash}`).toBe(hash);
  });

  it('names what is wrong in a bad file', () => {
    const base = JSON.parse(readFileSync(DEFAULT_LEXICON_PATH, 'utf8')) as { entries: unknown[] };
    const withEntries = (entries: unknown[]) => ({ ...base, entries });
    const issues = (json: unknown) => lexiconFileSchema.safeParse(json).error?.issues.map((i) => i.message) ?? [];
    expect(issues(withEntries([{ phrase: 'a trend', patterns: ['[a ]tendency'] }]))).toEqual(['is not one of the forms of its patterns']);
    expect(issues(withEntries([{ phrase: 'near significant' }, { phrase: 'near-significant' }]))).toEqual([
      'form "near-significant" is also a form of "near significant"',
    ]);
    expect(issues(withEntries([{ phrase: 'x', patterns: ['(x'] }]))[0]).toMatch(/unclosed/);
    expect(issues(withEntries([{ phrase: 'Marginal' }]))).toEqual(['must be trimmed, NFKC, lower case']);
    expect(issues({ ...base, version: '1' }).length).toBe(1);
    expect(() => parseLexiconFile({ ...base, extra: 1 })).toThrow();
  });

  const m = compileLexicon(lexicon);

  it('finds the variants the exact Otte list missed in the reference JATS files (hedged.md §2.4)', () => {
    const cases: [string, string, string][] = [
      ['There was a strong statistical trend for an increase (p=0.07)', 'a strong trend', 'a strong statistical trend'],
      ['Geocoris spp. tended to predate more larvae', 'tended to', 'tended to'],
      ['the groups differed only marginally (corrected p = 0.052)', 'marginally different', 'differed only marginally'],
      ['activity marginally decreased (corrected p = 0.092)', 'marginally lower', 'marginally decreased'],
      ['a non-significant trend towards increasing yield', 'a non-significant trend', 'a non-significant trend'],
      ['a trend towards improvement was seen', 'trend toward', 'trend towards'],
      ['There were trends toward higher indices', 'trend toward', 'trends toward'],
      ['a nonsignificant trend', 'a non-significant trend', 'a nonsignificant trend'],
      ['a non significant trend', 'a non-significant trend', 'a non significant trend'],
      ['a near-significant trend toward benefit', 'a borderline significant trend', 'a near-significant trend'],
      ['the effect was near significant', 'near-significant', 'near significant'],
      ['it approached statistical significance', 'approaching significance', 'approached statistical significance'],
      ['the difference approaches significance', 'approaching significance', 'approaches significance'],
      ['this was marginally statistically significant', 'marginally significant', 'marginally statistically significant'],
      ['a trend toward statistical significance', 'a trend toward significance', 'a trend toward statistical significance'],
      ['a trend towards significance', 'a trend toward significance', 'a trend towards significance'],
      ['a borderline-significant increase', 'borderline significant', 'borderline-significant'],
      ['it tends to be significant', 'tended to be significant', 'tends to be significant'],
    ];
    for (const [s, phrase, text] of cases) expect(spans(m, s), s).toEqual([[phrase, text]]);
  });

  it('matches on word boundaries only', () => {
    // Otte's artefact: no phrase inside "smarginally" or "nottended".
    expect(m.match('smarginally significant, pretended to, untrend toward')).toEqual([]);
    expect(spans(m, '(marginally significant)')).toEqual([['marginally significant', 'marginally significant']]);
  });
});

describe('compileLexicon: matching rules', () => {
  const m = compileLexicon(
    tiny({
      'all but significant': ['all but significant'],
      'a strong trend': ['a strong trend'],
      'a strong trend toward significance': ['a strong trend toward significance'],
      'trend toward significance': ['trend toward significance'],
      significance: ['significance'],
      'non-significant': ['non-significant'],
      'near significance': ['near significance'],
      'a clear, strong trend': ['a clear, strong trend'],
    }),
  );

  it('needs a word boundary at both ends (not "sm·all but significant")', () => {
    expect(m.match('a small but significant effect')).toEqual([]);
    expect(spans(m, 'all but significant.')).toEqual([['all but significant', 'all but significant']]);
    expect(m.match('insignificances')).toEqual([]);
  });

  it('takes the longest match first and never overlaps', () => {
    expect(spans(m, 'a strong trend toward significance was seen')).toEqual([['a strong trend toward significance', 'a strong trend toward significance']]);
    // "trend toward significance" (25) beats "a strong trend" (14), which overlaps it.
    expect(spans(m, 'a strong trend toward significance.').length).toBe(1);
    expect(spans(m, 'a strong trend and near significance')).toEqual([
      ['a strong trend', 'a strong trend'],
      ['near significance', 'near significance'],
    ]);
  });

  it('treats runs of spaces and hyphens alike, and a hyphen between letters as optional', () => {
    for (const s of ['non-significant', 'non significant', 'nonsignificant', 'non - significant', 'Non‐significant', 'non\u00a0significant'])
      expect(spans(m, `a ${s} result`), s).toEqual([['non-significant', s]]);
    for (const s of ['near-significance', 'near  significance', 'near\nsignificance']) expect(spans(m, s), s).toEqual([['near significance', s]]);
    expect(m.match('nearsignificance')).toEqual([]); // a space in a form does not match nothing
    // A hyphen in the text is optional too: a closed form matches a hyphenated text.
    const closed = compileLexicon(tiny({ 'a nonsignificant trend': ['a nonsignificant trend'] }));
    expect(spans(closed, 'a non-significant trend')).toEqual([['a nonsignificant trend', 'a non-significant trend']]);
    expect(closed.match('a non - significant trend')).toEqual([]);
    expect(spans(m, 'a clear, strong trend')).toEqual([['a clear, strong trend', 'a clear, strong trend']]);
  });

  it('reports offsets in the original string when NFKC or lower-casing change lengths', () => {
    const cases = [
      'The Non-Signiﬁcant result', // "ﬁ": 1 unit in, 2 out
      'The ＮＯＮ－ＳＩＧＮＩＦＩＣＡＮＴ result', // full-width letters and hyphen
      '😀😀 non-significant 😀', // astral characters before and after
      'İİ non-significant', // "İ" lower-cases to two units
      'A 𝐧𝐨𝐧-𝐬𝐢𝐠𝐧𝐢𝐟𝐢𝐜𝐚𝐧𝐭 result', // math bold: astral, 2 units → 1
      'non-signi\u00adficant', // soft hyphen dropped
      'Cafe\u0301 non-significant', // a combining mark before (folded with its base: 2 units → 1)
      'ﬀ non-signiﬁcant ﬃ', // ligatures on both sides
    ];
    for (const s of cases) {
      const got = m.match(s);
      expect(got, s).toHaveLength(1);
      const text = s.slice(got[0]!.start, got[0]!.end);
      expect(
        text
          .normalize('NFKC')
          .toLowerCase()
          .replace(/[\u00ad]/g, '')
          .replace(/[－]/g, '-'),
        s,
      ).toBe('non-significant');
    }
    expect(m.match('The Non-Signiﬁcant result')[0]).toEqual({ phrase: 'non-significant', start: 4, end: 18 });
    expect(m.match('😀😀 non-significant 😀')[0]).toEqual({ phrase: 'non-significant', start: 5, end: 20 });
  });

  it('folds a sentence once for every step, with a map back to the original', () => {
    const s = 'ﬁ 𝑝 ＝ x';
    const f = foldSentence(s);
    expect(f.text).toBe('fi p = x');
    expect(toOriginalRange(f, 0, 2)).toEqual({ start: 0, end: 1 });
    expect(toOriginalRange(f, 3, 4)).toEqual({ start: 2, end: 4 });
    expect(toOriginalRange(f, 5, 6)).toEqual({ start: 5, end: 6 });
    expect(foldSentence('Plain ASCII').starts).toBeNull();
    expect(m.match(f)).toEqual(m.match(s));
  });
});

describe.skipIf(!havePhrases)("Otte et al.'s phrase list (otte2022/detect_phrases/phrases_505.csv)", () => {
  it('loads as 503 unique, ligature-free, lower-case phrases with a content-hash version', () => {
    const raw = readFileSync(OTTE_PHRASES, 'utf8');
    expect((raw.match(/ﬁ/g) ?? []).length).toBeGreaterThanOrEqual(34);
    const lex = loadOtteLexicon(OTTE_PHRASES);
    expect(lex.entries).toHaveLength(503);
    expect(lex.version).toMatch(/^otte-csv-[0-9a-f]{12}$/);
    expect(lex.version).toBe(parseOtteLexicon(raw).version);
    for (const e of lex.entries) {
      expect(e.phrase).toBe(e.phrase.normalize('NFKC').toLowerCase().trim());
      expect(e.phrase).not.toMatch(/ﬁ/);
    }
    expect(lex.entries.map((e) => e.phrase)).toContain('borderline significant');
  });

  it('matches each of its own phrases, as written (with the ligature) and normalised, as exactly itself', () => {
    const lex = loadOtteLexicon(OTTE_PHRASES);
    const m = compileLexicon(lex);
    expect(m.collisions).toEqual([]);
    const rows = parse(readFileSync(OTTE_PHRASES, 'utf8'), { columns: true }) as { phrases: string }[];
    for (const { phrases: written } of rows) {
      const own = written.normalize('NFKC').trim().toLowerCase();
      for (const s of [written, own, `Results: ${written.trim()}.`]) {
        const got = m.match(s);
        expect(
          got.map((g) => g.phrase),
          JSON.stringify(s),
        ).toEqual([own]);
        expect(s.slice(got[0]!.start, got[0]!.end).normalize('NFKC').toLowerCase()).toBe(own);
      }
    }
  });

  it.skipIf(!haveP)('matches the phrase of every one of the 11,926 manual p-value rows', () => {
    const m = compileLexicon(loadOtteLexicon(OTTE_PHRASES));
    const rows = parse(readFileSync(OTTE_P, 'utf8'), { columns: true }) as { phrase: string }[];
    const phrases = new Set(rows.map((r) => r.phrase.replace(/^"|"$/g, '').trim()));
    expect(phrases.size).toBe(192);
    for (const p of phrases)
      expect(
        m.match(p).map((g) => g.phrase),
        p,
      ).toEqual([p]);
  });

  it.skipIf(!haveP)('leaves out the phrases that mostly describe p < 0.05 (hedging-v1 exclusions)', () => {
    // Otte's manual rows by whether hedging-v1 matches their phrase: the share of p < 0.05 in each group.
    const ours = compileLexicon(loadLexicon());
    const rows = parse(readFileSync(OTTE_P, 'utf8'), { columns: true }) as { phrase: string; highest_pvalue: string }[];
    const tally = { in: [0, 0], out: [0, 0] };
    for (const r of rows) {
      const side = ours.match(r.phrase.replace(/^"|"$/g, '')).length > 0 ? tally.in : tally.out;
      side[0]!++;
      if (Number(r.highest_pvalue) < 0.05) side[1]!++;
    }
    const share = (t: number[]) => t[1]! / t[0]!;
    console.info(
      `hedging-v1 covers ${tally.in[0]} of ${rows.length} Otte rows; p < 0.05: ${(share(tally.in) * 100).toFixed(1)}% covered, ${(share(tally.out) * 100).toFixed(1)}% left out`,
    );
    expect(tally.in[0]! / rows.length).toBeGreaterThan(0.75);
    expect(share(tally.in)).toBeLessThan(0.08);
    expect(share(tally.out)).toBeGreaterThan(0.5);
  });

  it('can stand in for the project lexicon (--lexicon FILE) with the same matcher', () => {
    const m = compileLexicon(loadOtteLexicon(OTTE_PHRASES));
    expect(spans(m, 'a small but significant effect; it was all but significant')).toEqual([['all but significant', 'all but significant']]);
    expect(spans(m, 'a non-significant trend')).toEqual([['a nonsignificant trend', 'a non-significant trend']]);
  });
});

describe('parseOtteLexicon', () => {
  it('reads the CSV format, trims, folds and drops duplicates', () => {
    const csv = '"","phrases"\n"1","Marginally signiﬁcant "\n"2","marginally significant "\n"3","a  trend "\n';
    const lex = parseOtteLexicon(csv, 'x.csv');
    expect(lex.entries).toEqual([
      { phrase: 'marginally significant', variants: ['marginally significant'] },
      { phrase: 'a trend', variants: ['a trend'] },
    ]);
    expect(lex.source).toBe('x.csv');
    expect(() => parseOtteLexicon('"","phrases"\n')).toThrow(/no phrases/);
  });
});

describe('speed', () => {
  it('matches a sentence without per-call work that grows with the lexicon', () => {
    const small = compileLexicon(tiny({ 'marginally significant': ['marginally significant'] }));
    const large = compileLexicon(loadLexicon());
    const sentence =
      'Age (r=-0.15, p=0.09), waist circumference and serum ferritin level tended to be inversely correlated with leukocyte mtDNA copy number, although the relationship was not statistically significant. ';
    const time = (fn: () => void) => {
      for (let i = 0; i < 2000; i++) fn();
      const t0 = performance.now();
      for (let i = 0; i < 20000; i++) fn();
      return performance.now() - t0;
    };
    const tSmall = time(() => small.match(sentence));
    const tLarge = time(() => large.match(sentence));
    // 6,800 forms against 1: a trie walk per word start, so the same order of time (generous for CI noise).
    expect(tLarge).toBeLessThan(tSmall * 10 + 50);
  });
});

describe('foldSentence against a per-character oracle', () => {
  // The definition, one character (with its combining marks) at a time: NFKC, lower case, ignorables
  // dropped, each output unit mapped to its source character's range. The implementation folds ASCII runs
  // at once; this checks it gives the same text and maps.
  const oracle = (s: string) => {
    let text = '';
    const starts: number[] = [];
    const ends: number[] = [];
    let i = 0;
    while (i < s.length) {
      let j = i + (s.codePointAt(i)! > 0xffff ? 2 : 1);
      while (j < s.length && /^\p{M}$/u.test(String.fromCodePoint(s.codePointAt(j)!))) j += s.codePointAt(j)! > 0xffff ? 2 : 1;
      const ignorable = j === i + 1 && [0xad, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff].includes(s.charCodeAt(i));
      const chunk = ignorable ? '' : s.slice(i, j).normalize('NFKC').toLowerCase();
      for (let k = 0; k < chunk.length; k++) {
        starts.push(i);
        ends.push(j);
      }
      text += chunk;
      i = j;
    }
    return { text, starts, ends };
  };
  it('agrees on every string of up to 4 characters over ASCII, marks, ligatures, surrogates and ignorables', () => {
    const alphabet = ['a', 'B', ' ', '\u0301', '\u0308', 'é', 'ﬁ', '×', '\u00ad', '\u200b', 'Ⅻ', '\ud835\udc00', '\ud800', 'İ'];
    let compared = 0;
    const grow = (s: string, depth: number): void => {
      if ([...s].some((c) => c.charCodeAt(0) > 0x7f)) {
        const f = foldSentence(s);
        const o = oracle(s);
        expect([f.text, [...f.starts!], [...f.ends!]], JSON.stringify(s)).toEqual([o.text, o.starts, o.ends]);
        compared++;
      }
      if (depth > 0) for (const c of alphabet) grow(s + c, depth - 1);
    };
    grow('', 4);
    expect(compared).toBeGreaterThan(30_000);
  });
});
