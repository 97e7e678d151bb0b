/**
 * The compact summary store (pipeline/steps/corpus/summary-store.ts) gives back what the documents count of
 * each summary it was given: checked field by field against the summaries themselves (the oracle is the input),
 * on generated articles and on hand-made edge cases (no year, p null, a bound without value, -0, every band and
 * status, articles without excerpts), across the typed arrays' growth.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../../pipeline/corpus/extract.ts';
import { parseArticle } from '../../../pipeline/corpus/jats.ts';
import { compileLexicon, loadLexicon } from '../../../pipeline/corpus/lexicon.ts';
import { generateArticle } from '../../../pipeline/generate/corpus/article.ts';
import { type ArticleSummary, summarize } from '../../../pipeline/steps/corpus/article-summary.ts';
import { type CountedSummary, SummaryStore } from '../../../pipeline/steps/corpus/summary-store.ts';
import { BANDS, OCCURRENCE_STATUSES } from '../../../contracts/corpus/vocab.ts';

/** What the store keeps of a summary, as plain data. */
const counted = (a: ArticleSummary): CountedSummary => ({
  pmcid: a.pmcid,
  id_kind: a.id_kind,
  year: a.year,
  sentences_scanned: a.sentences_scanned,
  occurrences: { verified: a.occurrences.verified },
  excerpts: a.excerpts.map((e) => ({
    occurrences: e.occurrences.map((o) => ({
      phrase: o.phrase,
      status: o.status,
      band: o.band,
      p: o.p === null ? null : { exact: o.p.exact, value: o.p.value },
    })),
  })),
});

describe('SummaryStore', () => {
  it('gives back every generated article’s counted summary', () => {
    const matcher = compileLexicon(loadLexicon());
    const summaries = Array.from({ length: 40 }, (_, i) => summarize(extractArticle(parseArticle(generateArticle(3, i, 0).xml), matcher, {})));
    expect(summaries.reduce((n, s) => n + s.excerpts.length, 0)).toBeGreaterThan(40);
    const store = new SummaryStore();
    const handles = summaries.map((s) => store.add(s));
    summaries.forEach((s, i) => expect(store.get(handles[i]!)).toEqual(counted(s)));
  });

  it('keeps nulls, bounds, -0 and every band and status apart, across growth', () => {
    const store = new SummaryStore();
    const made: ArticleSummary[] = [];
    for (let i = 0; i < 3000; i++) {
      const occurrences = Array.from({ length: i % 4 }, (_, k) => ({
        phrase: `phrase ${(i + k) % 7}`,
        status: OCCURRENCE_STATUSES[(i + k) % OCCURRENCE_STATUSES.length]!,
        band: k === 0 ? null : BANDS[(i + k) % BANDS.length]!,
        p: (i + k) % 5 === 0 ? null : { exact: (i + k) % 2 === 0, value: (i + k) % 3 === 0 ? null : (i + k) % 11 === 0 ? -0 : ((i * 7 + k) % 1000) / 997 },
      }));
      const a: ArticleSummary = {
        pmcid: `PMC${i}`,
        id_kind: i % 9 === 0 ? 'generated' : 'pmcid',
        pmid: null,
        licence: null,
        year: i % 13 === 0 ? null : 1990 + (i % 35),
        sentences_scanned: i * 3,
        occurrences: { verified: i % 5, rejected: 0, unverified: 0, indeterminate: 0 },
        excerpts: i % 6 === 0 ? [] : [{ occurrences }, { occurrences: occurrences.slice(1) }],
      };
      made.push(a);
      expect(store.add(a)).toBe(i);
    }
    expect(store.size).toBe(3000);
    made.forEach((a, i) => expect(store.get(i)).toEqual(counted(a)));
    // -0 is kept as -0 (medians and JSON would not tell, but the store must not change a value).
    const withNegZero = made.findIndex((a) => a.excerpts.some((e) => e.occurrences.some((o) => Object.is(o.p?.value, -0))));
    expect(withNegZero).toBeGreaterThanOrEqual(0);
    const back = store
      .get(withNegZero)
      .excerpts.flatMap((e) => e.occurrences)
      .some((o) => Object.is(o.p?.value, -0));
    expect(back).toBe(true);
  });
});
