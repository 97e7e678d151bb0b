/**
 * Corpus step 3: the frozen JSON the API serves as is: `stats.json`, `phrases.json` and one
 * `articles/<id>.json` per article, under `corpus/api/v1/`. Each document is checked against its schema before it is written,
 * so a build can never publish a document the API's description does not allow.
 *
 * Counting rules (docs/api-corpus.md): a sentence is counted once per article (extract.ts de-duplicates);
 * `excerpts` counts sentences with at least one verified occurrence, which is what `/excerpts` lists without
 * parameters; a band's `excerpts` is what `/excerpts?band=<band>` lists; medians are taken over exact values
 * (`p = v`) of verified occurrences only, since a bound ("p > 0.05") is not a value (hedged.md §2.2).
 */
import {
  type ArticleDoc,
  articleDocSchema,
  type PhraseRow,
  phrasesDocSchema,
  type StatsDoc,
  statsDocSchema,
} from '../../../contracts/corpus/documents.ts';
import { BANDS, type Band, VERIFIED_BANDS } from '../../../contracts/corpus/vocab.ts';
import type { ExtractedArticle } from '../../corpus/extract.ts';

/**
 * Where the documents go inside a build directory: at their URL path (DECISIONS.md §1), so a static host
 * serving the build answers `/corpus/api/v1/stats` with the same bytes as the server.
 */
export const CORPUS_STATS_FILE = 'corpus/api/v1/stats.json';
export const CORPUS_PHRASES_FILE = 'corpus/api/v1/phrases.json';
export const CORPUS_ARTICLES_DIR = 'corpus/api/v1/articles';

/** The median of a list of numbers (mean of the middle two for an even count); null for an empty list. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  const m = v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  // p-values have a few decimals; the mean of two must not print as 0.065000000000001.
  return Number(m.toFixed(12));
}

export interface CorpusDocsInput {
  articles: readonly ExtractedArticle[];
  meta: { snapshot: string; lexicon_version: string; synthetic: boolean };
  lexicon: { version: string; source: string; phrases: number };
}

/** Builds every document; the map's keys are paths relative to the build directory. */
export function corpusDocuments({ articles, meta, lexicon }: CorpusDocsInput): Map<string, unknown> {
  const docs = new Map<string, unknown>();
  const statusTotals = { verified: 0, rejected: 0, unverified: 0, indeterminate: 0 };
  const bandOcc = Object.fromEntries(BANDS.map((b) => [b, 0])) as Record<Band, number>;
  const bandExc = Object.fromEntries(BANDS.map((b) => [b, 0])) as Record<Band, number>;
  const exactVerified: number[] = [];
  let withVerified = 0;
  let withoutPmcid = 0;
  let sentences = 0;
  let verifiedExcerpts = 0;
  let excerptsAny = 0;
  interface PhraseAcc {
    verified: number;
    articles: Set<string>;
    bands: Record<(typeof VERIFIED_BANDS)[number], number>;
    exact: number[];
    rejected: number;
    unverified: number;
  }
  const phrases = new Map<string, PhraseAcc>();
  const phraseAcc = (phrase: string): PhraseAcc => {
    let acc = phrases.get(phrase);
    if (!acc) {
      acc = {
        verified: 0,
        articles: new Set(),
        bands: Object.fromEntries(VERIFIED_BANDS.map((b) => [b, 0])) as PhraseAcc['bands'],
        exact: [],
        rejected: 0,
        unverified: 0,
      };
      phrases.set(phrase, acc);
    }
    return acc;
  };

  for (const a of articles) {
    sentences += a.sentences_scanned;
    if (a.id_kind === 'generated') withoutPmcid++;
    if (a.occurrences.verified > 0) withVerified++;
    for (const e of a.excerpts) {
      excerptsAny++;
      const bandsHere = new Set<Band>();
      let verifiedHere = false;
      for (const o of e.occurrences) {
        statusTotals[o.status]++;
        if (o.band !== null) {
          bandOcc[o.band]++;
          bandsHere.add(o.band);
        }
        const acc = phraseAcc(o.phrase);
        if (o.status === 'verified') {
          verifiedHere = true;
          acc.verified++;
          acc.articles.add(a.pmcid);
          if (o.band !== null && o.band !== 'none') acc.bands[o.band]++;
          if (o.p?.exact && o.p.value !== null) {
            acc.exact.push(o.p.value);
            exactVerified.push(o.p.value);
          }
        } else if (o.status === 'rejected') acc.rejected++;
        else if (o.status === 'unverified') acc.unverified++;
      }
      if (verifiedHere) verifiedExcerpts++;
      for (const b of bandsHere) bandExc[b]++;
    }
    const doc: ArticleDoc = articleDocSchema.parse({ ...a, meta });
    docs.set(`${CORPUS_ARTICLES_DIR}/${a.pmcid}.json`, doc);
  }

  const stats: StatsDoc = {
    articles_scanned: articles.length,
    articles_with_verified: withVerified,
    articles_without_pmcid: withoutPmcid,
    sentences_scanned: sentences,
    excerpts: verifiedExcerpts,
    excerpts_any_status: excerptsAny,
    occurrences: statusTotals,
    bands: BANDS.map((band) => ({ band, occurrences: bandOcc[band], excerpts: bandExc[band] })),
    median_p: median(exactVerified),
    median_p_values: exactVerified.length,
    lexicon,
    meta,
  };
  docs.set(CORPUS_STATS_FILE, statsDocSchema.parse(stats));

  const rows: PhraseRow[] = [...phrases]
    .filter(([, acc]) => acc.verified > 0)
    .map(([phrase, acc]) => ({
      phrase,
      verified: acc.verified,
      articles: acc.articles.size,
      bands: acc.bands,
      median_p: median(acc.exact),
      rejected: acc.rejected,
      unverified: acc.unverified,
    }))
    .sort((x, y) => y.verified - x.verified || (x.phrase < y.phrase ? -1 : x.phrase > y.phrase ? 1 : 0));
  docs.set(CORPUS_PHRASES_FILE, phrasesDocSchema.parse({ total: rows.length, phrases: rows, meta }));
  return docs;
}
