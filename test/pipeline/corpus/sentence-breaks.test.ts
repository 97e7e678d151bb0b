/**
 * sentence-breaks.ts must find exactly the boundaries `Intl.Segmenter` finds (ICU is the oracle): on every
 * string of up to four characters over one representative of each Sentence_Break class it knows, on random
 * strings over every character it lists, and on every paragraph of the real reference articles and of a
 * generated corpus. `splitSentences` must give the same sentences either way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArticle } from '../../../pipeline/corpus/jats.ts';
import { listedCharacters, sentenceBreaks } from '../../../pipeline/corpus/sentence-breaks.ts';
import { generateCorpus, GROUND_TRUTH_FILE } from '../../../pipeline/generate/corpus/generate.ts';
import { tempDir } from '../../helpers/fixture-build.ts';
import { mulberry32 } from '../../helpers/random.ts';
import { needShared, sharedPath } from '../../helpers/needs.ts';

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const icuBreaks = (s: string): number[] => {
  const out: number[] = [];
  for (const { index } of segmenter.segment(s)) if (index > 0) out.push(index);
  return out;
};

/** Compares both on each text; returns the texts (at most 5) where they differ, and how many were compared. */
function differences(texts: Iterable<string>): { compared: number; diffs: { text: string; icu: number[]; js: number[] }[] } {
  const diffs: { text: string; icu: number[]; js: number[] }[] = [];
  let compared = 0;
  for (const text of texts) {
    const js = sentenceBreaks(text);
    if (js === null) continue;
    compared++;
    const icu = icuBreaks(text);
    if (icu.join() !== js.join() && diffs.length < 5) diffs.push({ text, icu, js });
  }
  return { compared, diffs };
}

describe('sentence boundaries in JS against Intl.Segmenter', () => {
  it('leaves text with an unlisted character to ICU', () => {
    expect(sentenceBreaks('Plain text. Next one!')).not.toBeNull();
    expect(sentenceBreaks('a\nb')).toBeNull();
    // Wherever the unlisted character is: after a terminator's spaces, in the scan of SB8, at the very end.
    expect(sentenceBreaks('A. \u3000b')).toBeNull();
    expect(sentenceBreaks('A. (\u3000 x')).toBeNull();
    expect(sentenceBreaks('A b.\u3000')).toBeNull();
    expect(sentenceBreaks('A b. C d.  ')).toEqual([5]);
    expect(sentenceBreaks('日本語。')).toBeNull();
    expect(sentenceBreaks('x\u2029y')).toBeNull();
  });

  it('agrees on every string of up to 4 characters over one representative per class', () => {
    // Other, Sp, Lower, Upper, Numeric, ATerm, STerm, Close, SContinue, and non-ASCII members of some.
    const reps = ['/', ' ', 'a', 'A', '1', '.', '?', '!', ')', '"', ',', '-', ':', '\u2019', '\u2013', '\u00b5', '\u03b1', '\u03a7', '\u00b1', '\u00e9'];
    const all: string[] = [];
    const grow = (prefix: string, depth: number): void => {
      if (prefix) all.push(prefix);
      if (depth > 0) for (const r of reps) grow(prefix + r, depth - 1);
    };
    grow('', 4);
    const { compared, diffs } = differences(all);
    expect(compared).toBe(all.length);
    expect(diffs).toEqual([]);
  });

  it('agrees on 30,000 random strings over every listed character, weighted towards the classes that matter', () => {
    const listed = listedCharacters();
    const pick = mulberry32(21);
    const weighted = ['.', '.', '.', ' ', ' ', ' ', ' ', 'a', 'b', 'A', 'B', '1', '?', '!', ')', '(', '"', "'", ',', ';', '-'];
    const texts: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      const len = 1 + Math.floor(pick() * 40);
      let s = '';
      for (let k = 0; k < len; k++) s += pick() < 0.5 ? weighted[Math.floor(pick() * weighted.length)]! : listed[Math.floor(pick() * listed.length)]!;
      texts.push(s);
    }
    const { compared, diffs } = differences(texts);
    expect(compared).toBe(texts.length);
    expect(diffs).toEqual([]);
  });

  const tmp = tempDir('sentence-breaks');
  afterAll(tmp.remove);
  let generated: string[] = [];
  beforeAll(async () => {
    await generateCorpus({ dir: tmp.path, articles: 120, seed: 2020 });
    generated = readdirSync(tmp.path)
      .filter((f) => f !== GROUND_TRUTH_FILE)
      .flatMap((f) => parseArticle(readFileSync(join(tmp.path, f))).blocks.map((b) => b.text));
  });

  it('agrees on every paragraph of a generated corpus', () => {
    const { compared, diffs } = differences(generated);
    expect(compared).toBeGreaterThan(generated.length * 0.7);
    expect(diffs).toEqual([]);
  });

  const JATS = sharedPath('reference/hedged/jats');
  const haveJats = needShared('reference/hedged/jats', 'the real-article comparison');
  it.skipIf(!haveJats)('agrees on every paragraph of the real reference articles', () => {
    const texts = readdirSync(JATS)
      .filter((f) => /\.n?xml$/.test(f))
      .flatMap((f) => parseArticle(readFileSync(join(JATS, f)), { includePeerReview: true }).blocks.map((b) => b.text));
    const { compared, diffs } = differences(texts);
    expect(compared).toBeGreaterThan(texts.length * 0.4);
    expect(diffs).toEqual([]);
  });
});
