/**
 * One article in, its hedged sentences out: the unit of work of the corpus step. Splits every text block
 * into sentences, analyses each (lexicon, p-values, association, band) and keeps the sentences with at least
 * one phrase, in document order. A sentence repeated in the same article (an abstract restating a result of
 * the body, a legend repeating the text) is kept once, at its first place, with the other places in `also_in`
 * (hedged.md §5: counting it twice would inflate both the article's and the phrase's counts).
 */
import { createHash } from 'node:crypto';
import type { ArticleDoc, ExcerptDoc, OccurrenceDoc } from '../../contracts/corpus/documents.ts';
import type { Section } from '../../contracts/corpus/vocab.ts';
import { analyseSentence } from './associate.ts';
import type { BandOptions } from './bands.ts';
import type { ArticleMeta, ParsedArticle } from './jats.ts';
import type { LexiconMatcher } from './lexicon.ts';
import { splitSentences } from './sentences.ts';
import type { Occurrence } from './associate.ts';

/** An article's extraction: the article document without its `meta` block (the build adds it). */
export type ExtractedArticle = Omit<ArticleDoc, 'meta'>;

/** Prefix of the ids given to articles without a PMCID. */
export const GENERATED_ID_PREFIX = 'nopmc-';

/**
 * The id an article is listed under: its PMCID, else a stable id derived from what identifies the paper
 * regardless of the file's name: the DOI (lower-cased: DOIs are case-insensitive), else title, journal and
 * year. The same paper always gets the same id, so links to it survive a rebuild.
 */
export function articleId(meta: ArticleMeta, textHash: string): { id: string; kind: 'pmcid' | 'generated' } {
  if (meta.pmcid) return { id: meta.pmcid, kind: 'pmcid' };
  // Without a DOI, title, journal and year are not enough (two untitled files, two "Correction"s of one
  // journal and year): the text decides, so only a true copy of the paper shares the id.
  const basis = meta.doi ? `doi:${meta.doi.toLowerCase()}` : `bib:${meta.title ?? ''}|${meta.journal ?? ''}|${meta.year ?? ''}|${textHash}`;
  return { id: GENERATED_ID_PREFIX + createHash('sha256').update(basis).digest('hex').slice(0, 12), kind: 'generated' };
}

/**
 * Control characters become spaces before anything else sees a sentence: JATS may carry `&#x1;` and a CSV
 * anything, and they would corrupt FTS5 highlight markers and the offsets computed from them.
 */
export function cleanSentence(text: string): string {
  /* eslint-disable no-control-regex -- the control characters are what is removed */
  return /[\u0000-\u001f\u007f]/.test(text)
    ? text
        .replace(/[\u0000-\u001f\u007f]+/g, ' ')
        .replace(/ {2,}/g, ' ')
        .trim()
    : text;
  /* eslint-enable no-control-regex */
}

/** The API shape of an occurrence (snake_case; the p-value without the parser's internals). */
export function occurrenceDoc(o: Occurrence): OccurrenceDoc {
  return {
    phrase: o.phrase,
    start: o.start,
    end: o.end,
    status: o.status,
    band: o.band,
    at_threshold: o.atThreshold,
    inequality: o.inequality,
    p: o.p && { text: o.p.text, start: o.p.start, end: o.p.end, operator: o.p.operator, value: o.p.value, exact: o.p.exact },
  };
}

/** Counts occurrences by status. */
export function statusCounts(excerpts: readonly ExcerptDoc[]): ArticleDoc['occurrences'] {
  const c = { verified: 0, rejected: 0, unverified: 0, indeterminate: 0 };
  for (const e of excerpts) for (const o of e.occurrences) c[o.status]++;
  return c;
}

/** One sentence with its place in the article: what both inputs (JATS, pre-extracted CSV) reduce to. */
export interface PlacedSentence {
  section: Section;
  sectionTitle: string;
  label: string | null;
  paragraph: number;
  /** 0-based position within the paragraph. */
  sentence: number;
  text: string;
}

/** The sentences of a parsed article, paragraph by paragraph (peer-review blocks, if read, are skipped). */
export function* articleSentences(article: ParsedArticle): Generator<PlacedSentence> {
  for (const block of article.blocks) {
    if (block.section === 'peer-review') continue;
    const sentences = splitSentences(block.text);
    for (let i = 0; i < sentences.length; i++)
      yield {
        section: block.section,
        sectionTitle: block.sectionTitle,
        label: block.label,
        paragraph: block.paragraphIndex,
        sentence: i,
        text: sentences[i]!.text,
      };
  }
}

/** Extracts one parsed article. */
export function extractArticle(article: ParsedArticle, matcher: LexiconMatcher, bandOptions: Partial<BandOptions> = {}): ExtractedArticle {
  return extractSentences(article.meta, articleSentences(article), matcher, bandOptions);
}

/** Extracts an article given as metadata and its sentences in document order. */
export function extractSentences(
  meta: ArticleMeta,
  sentences: Iterable<PlacedSentence>,
  matcher: LexiconMatcher,
  bandOptions: Partial<BandOptions> = {},
): ExtractedArticle {
  const excerpts: ExcerptDoc[] = [];
  const firstPlace = new Map<string, ExcerptDoc | null>();
  // The text hash only enters the id of an article with neither PMCID nor DOI (articleId): not computed otherwise.
  const textHash = meta.pmcid || meta.doi ? null : createHash('sha256');
  let sentencesScanned = 0;
  for (const placed of sentences) {
    const s = { ...placed, text: cleanSentence(placed.text) };
    if (s.text === '') continue;
    sentencesScanned++;
    textHash?.update(s.text).update('\n');
    const seen = firstPlace.get(s.text);
    if (seen !== undefined) {
      // A repeat: counted and listed once. Only hedged sentences are recorded (null marks a plain one).
      seen?.also_in.push(s.section);
      continue;
    }
    const { occurrences } = analyseSentence(s.text, matcher, bandOptions);
    if (occurrences.length === 0) {
      firstPlace.set(s.text, null);
      continue;
    }
    const excerpt: ExcerptDoc = {
      id: `${s.paragraph}.${s.sentence}`, // prefixed with the article id below, once the text is hashed
      section: s.section,
      section_title: s.sectionTitle,
      label: s.label,
      paragraph: s.paragraph,
      sentence: s.sentence,
      text: s.text,
      also_in: [],
      occurrences: occurrences.map(occurrenceDoc),
    };
    firstPlace.set(s.text, excerpt);
    excerpts.push(excerpt);
  }
  const { id, kind } = articleId(meta, textHash?.digest('hex') ?? '');
  for (const e of excerpts) e.id = `${id}/${e.id}`;
  return {
    pmcid: id,
    id_kind: kind,
    pmid: meta.pmid,
    doi: meta.doi,
    title: meta.title,
    journal: meta.journal,
    year: meta.year,
    authors: meta.authors.map((a) => a.name),
    article_type: meta.articleType,
    licence: meta.licence && { url: meta.licence.url, type: meta.licence.type },
    links: {
      pmc: meta.pmcid ? `https://pmc.ncbi.nlm.nih.gov/articles/${meta.pmcid}/` : null,
      doi: meta.doi ? `https://doi.org/${meta.doi}` : null,
    },
    sentences_scanned: sentencesScanned,
    excerpt_count: excerpts.length,
    occurrences: statusCounts(excerpts),
    excerpts,
  };
}
