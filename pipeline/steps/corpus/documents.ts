/**
 * Corpus step 3: the frozen JSON the API serves as is: `stats.json`, `phrases.json` and one
 * `articles/<id>.json` per article, under `corpus/api/v1/`. The corpus-wide documents are checked against their
 * schemas before they are written, so a build can never publish a document the API's description does not allow;
 * article documents are written from their extraction's JSON text, one in ARTICLE_CHECK_EVERY checked the same
 * way (`articleDocJson`: what that still guarantees).
 *
 * Counting rules (docs/api-corpus.md): a sentence is counted once per article (extract.ts de-duplicates);
 * `excerpts` counts sentences with at least one verified occurrence, which is what `/excerpts` lists without
 * parameters; a band's `excerpts` is what `/excerpts?band=<band>` lists; medians are taken over exact values
 * (`p = v`) of verified occurrences only, since a bound ("p > 0.05") is not a value (hedged.md §2.2).
 */
import {
  articleDocSchema,
  type PhraseDoc,
  phraseDocSchema,
  type PhraseRow,
  phrasesDocSchema,
  type StatsDoc,
  statsDocSchema,
  type YearStats,
} from '../../../contracts/corpus/documents.ts';
import { BANDS, type Band, VERIFIED_BANDS } from '../../../contracts/corpus/vocab.ts';
import type { ArticleSummary } from './article-summary.ts';
import type { CountedSummary } from './summary-store.ts';

/**
 * Where the documents go inside a build directory: at their URL path (DECISIONS.md §1), so a static host
 * serving the build answers `/corpus/api/v1/stats` with the same bytes as the server.
 */
export const CORPUS_STATS_FILE = 'corpus/api/v1/stats.json';
export const CORPUS_PHRASES_FILE = 'corpus/api/v1/phrases.json';
export const CORPUS_ARTICLES_DIR = 'corpus/api/v1/articles';

/** An article document's path inside a build directory. */
export const articleDocumentPath = (id: string) => `${CORPUS_ARTICLES_DIR}/${id}.json`;
/** One document per lexicon phrase, named by the canonical phrase as written (spaces included), so the URL path decodes to the file. */
export const CORPUS_PHRASE_DIR = 'corpus/api/v1/phrases';

const BAND_INDEX = Object.fromEntries(BANDS.map((b, i) => [b, i])) as Record<Band, number>;

/** Years ascending, the unknown year (null) last: the order of every `by_year` list. */
export function compareYears(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/** The median of a list of numbers (mean of the middle two for an even count); null for an empty list. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  // A typed array sorts numbers in numeric order without a comparator call per step (0.2 s at 100,000 articles).
  const v = Float64Array.from(values).sort();
  const mid = v.length >> 1;
  const m = v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  // p-values have a few decimals; the mean of two must not print as 0.065000000000001.
  return Number(m.toFixed(12));
}

export interface CorpusDocsInput {
  /**
   * Whole articles, or summaries with `load` to give the whole article of an index when its document is made;
   * in listing order, visited once (they may be read as they are visited rather than held).
   */
  articles: Iterable<CountedSummary>;
  /** The JSON text of the whole article of an index (extract-corpus.ts: `loadJson`): given with summaries. */
  loadJson?: (index: number) => string;
  meta: { snapshot: string; lexicon_version: string; synthetic: boolean };
  lexicon: { version: string; source: string; phrases: number };
  /** Every canonical phrase of the lexicon: each gets its `/phrases/{phrase}` document, occurring or not. */
  phraseList: readonly string[];
  /**
   * Given: each article document is handed to it as it is reached, as its JSON text (`json` makes it; a caller
   * that already holds the same document need not call it), instead of being kept in the map, so the documents
   * of a large corpus are never all in memory at once.
   */
  articleDocument?: (index: number, path: string, json: () => string) => void;
}

/**
 * One article document in how many is checked against the schema when documents are written as JSON text
 * (`articleDocument`); see {@link articleDocJson}.
 */
export const ARTICLE_CHECK_EVERY = 64;

/**
 * An article's document as JSON text, from the JSON text of its extraction (`JSON.stringify` of an
 * `ExtractedArticle`) and of the meta: the extraction with `meta` as its last member, which is where the schema
 * puts it. The extraction is not parsed again (parsing and checking every article document would be about a
 * tenth of a build's CPU time). What guards the boundary instead: the extraction's type is the schema's own
 * (`ExtractedArticle = Omit<ArticleDoc, 'meta'>`), and with `check` the document is parsed with the schema and
 * must come out of it as the same text (the same members in the same order, no value the schema would refuse or
 * change). The step checks the first article and one in {@link ARTICLE_CHECK_EVERY} after it, which catches
 * anything an extraction does to every article; the tests check every document of their corpora.
 */
export function articleDocJson(extractionJson: string, metaJson: string, check: boolean): string {
  const json = `${extractionJson.slice(0, -1)},"meta":${metaJson}}`;
  if (check) {
    const parsed = articleDocSchema.safeParse(JSON.parse(json));
    if (!parsed.success) throw new Error(`an article document does not match its schema: ${parsed.error.message.slice(0, 300)}`);
    if (JSON.stringify(parsed.data) !== json) throw new Error(`an article document is not in its schema's form: ${json.slice(0, 120)}…`);
  }
  return json;
}

/** The document of the article of listing index `index`, from its extraction's JSON text; checked for one index in ARTICLE_CHECK_EVERY. */
function articleDocumentJson(index: number, extractionJson: string, metaJson: string): string {
  return articleDocJson(extractionJson, metaJson, index % ARTICLE_CHECK_EVERY === 0);
}

/** Builds every document; the map's keys are paths relative to the build directory. */
export function corpusDocuments({ articles, meta, lexicon, phraseList, articleDocument, loadJson }: CorpusDocsInput): Map<string, unknown> {
  const metaJson = JSON.stringify(meta);
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
    /** Articles with a verified occurrence: counted when the article (by index) differs from the last one counted. */
    articles: number;
    lastArticle: number;
    bands: Record<(typeof VERIFIED_BANDS)[number], number>;
    exact: number[];
    rejected: number;
    unverified: number;
  }
  type PhraseCounts = Omit<PhraseAcc, 'exact'>;
  const phraseCounts = (): PhraseCounts => ({
    verified: 0,
    articles: 0,
    lastArticle: -1,
    bands: Object.fromEntries(VERIFIED_BANDS.map((b) => [b, 0])) as PhraseAcc['bands'],
    rejected: 0,
    unverified: 0,
  });
  const phrases = new Map<string, PhraseAcc>();
  /** Per phrase, per year: the same counts. */
  const phraseYears = new Map<string, Map<number | null, PhraseCounts>>();
  const phraseYear = (phrase: string, year: number | null): PhraseCounts => {
    let years = phraseYears.get(phrase);
    if (!years) phraseYears.set(phrase, (years = new Map()));
    let acc = years.get(year);
    if (!acc) years.set(year, (acc = phraseCounts()));
    return acc;
  };
  // Articles are visited one after the other, each once: an article is new to a phrase when it is not the last one counted.
  const count = (acc: PhraseCounts, o: ArticleSummary['excerpts'][number]['occurrences'][number], article: number) => {
    if (o.status === 'verified') {
      acc.verified++;
      if (acc.lastArticle !== article) {
        acc.lastArticle = article;
        acc.articles++;
      }
      if (o.band !== null && o.band !== 'none') acc.bands[o.band]++;
    } else if (o.status === 'rejected') acc.rejected++;
    else if (o.status === 'unverified') acc.unverified++;
  };
  const years = new Map<number | null, Omit<YearStats, 'share_with_verified'>>();
  const yearRow = (year: number | null) => {
    let row = years.get(year);
    if (!row) {
      row = { year, articles_scanned: 0, articles_with_verified: 0, excerpts: 0, bands: Object.fromEntries(BANDS.map((b) => [b, 0])) as Record<Band, number> };
      years.set(year, row);
    }
    return row;
  };
  const phraseAcc = (phrase: string): PhraseAcc => {
    let acc = phrases.get(phrase);
    if (!acc) {
      acc = {
        verified: 0,
        articles: 0,
        lastArticle: -1,
        bands: Object.fromEntries(VERIFIED_BANDS.map((b) => [b, 0])) as PhraseAcc['bands'],
        exact: [],
        rejected: 0,
        unverified: 0,
      };
      phrases.set(phrase, acc);
    }
    return acc;
  };

  let index = -1;
  for (const a of articles) {
    index++;
    const yr = yearRow(a.year);
    yr.articles_scanned++;
    sentences += a.sentences_scanned;
    if (a.id_kind === 'generated') withoutPmcid++;
    if (a.occurrences.verified > 0) {
      withVerified++;
      yr.articles_with_verified++;
    }
    for (const e of a.excerpts) {
      excerptsAny++;
      let bandsHere = 0; // bit i: BANDS[i] occurs in the excerpt
      let verifiedHere = false;
      for (const o of e.occurrences) {
        statusTotals[o.status]++;
        if (o.band !== null) {
          bandOcc[o.band]++;
          bandsHere |= 1 << BAND_INDEX[o.band];
        }
        const acc = phraseAcc(o.phrase);
        count(acc, o, index);
        count(phraseYear(o.phrase, a.year), o, index);
        if (o.status === 'verified') {
          verifiedHere = true;
          if (o.p?.exact && o.p.value !== null) {
            acc.exact.push(o.p.value);
            exactVerified.push(o.p.value);
          }
        }
      }
      if (verifiedHere) {
        verifiedExcerpts++;
        yr.excerpts++;
      }
      for (let i = 0; bandsHere !== 0; i++, bandsHere >>>= 1)
        if (bandsHere & 1) {
          bandExc[BANDS[i]!]++;
          yr.bands[BANDS[i]!]++;
        }
    }
    const path = articleDocumentPath(a.pmcid);
    // Without `loadJson`, the articles are whole (the type cannot say which of the two a caller passes).
    const i = index;
    if (articleDocument) articleDocument(i, path, () => articleDocumentJson(i, loadJson ? loadJson(i) : JSON.stringify(a), metaJson));
    else docs.set(path, loadJson ? JSON.parse(articleDocJson(loadJson(i), metaJson, true)) : articleDocSchema.parse({ ...a, meta }));
  }

  const stats: StatsDoc = {
    articles_scanned: index + 1,
    articles_with_verified: withVerified,
    articles_without_pmcid: withoutPmcid,
    sentences_scanned: sentences,
    excerpts: verifiedExcerpts,
    excerpts_any_status: excerptsAny,
    occurrences: statusTotals,
    bands: BANDS.map((band) => ({ band, occurrences: bandOcc[band], excerpts: bandExc[band] })),
    median_p: median(exactVerified),
    median_p_values: exactVerified.length,
    by_year: [...years.values()]
      .sort((x, y) => compareYears(x.year, y.year))
      .map((r) => ({ ...r, share_with_verified: r.articles_scanned === 0 ? 0 : r.articles_with_verified / r.articles_scanned })),
    lexicon,
    meta,
  };
  docs.set(CORPUS_STATS_FILE, statsDocSchema.parse(stats));

  const rows: PhraseRow[] = [...phrases]
    .filter(([, acc]) => acc.verified > 0)
    .map(([phrase, acc]) => ({
      phrase,
      verified: acc.verified,
      articles: acc.articles,
      bands: acc.bands,
      median_p: median(acc.exact),
      rejected: acc.rejected,
      unverified: acc.unverified,
    }))
    .sort((x, y) => y.verified - x.verified || (x.phrase < y.phrase ? -1 : x.phrase > y.phrase ? 1 : 0));
  docs.set(CORPUS_PHRASES_FILE, phrasesDocSchema.parse({ total: rows.length, phrases: rows, meta }));

  const plain = (c: PhraseCounts) => ({ verified: c.verified, articles: c.articles, bands: c.bands, rejected: c.rejected, unverified: c.unverified });
  for (const phrase of new Set([...phraseList, ...phrases.keys()])) {
    const doc: PhraseDoc = {
      phrase,
      ...plain(phrases.get(phrase) ?? phraseCounts()),
      by_year: [...(phraseYears.get(phrase) ?? new Map<number | null, PhraseCounts>())]
        .sort(([x], [y]) => compareYears(x, y))
        .map(([year, c]) => ({ year, ...plain(c) })),
      meta,
    };
    docs.set(`${CORPUS_PHRASE_DIR}/${phrase}.json`, phraseDocSchema.parse(doc));
  }
  return docs;
}
