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
export function articleId(meta: ArticleMeta): { id: string; kind: 'pmcid' | 'generated' } {
  if (meta.pmcid) return { id: meta.pmcid, kind: 'pmcid' };
  const basis = meta.doi ? `doi:${meta.doi.toLowerCase()}` : `bib:${meta.title ?? ''}|${meta.journal ?? ''}|${meta.year ?? ''}`;
  return { id: GENERATED_ID_PREFIX + createHash('sha256').update(basis).digest('hex').slice(0, 12), kind: 'generated' };
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

/** Extracts one parsed article (peer-review blocks, if the parser was asked for them, are ignored). */
export function extractArticle(
  article: ParsedArticle,
  matcher: LexiconMatcher,
  bandOptions: Partial<BandOptions> = {},
): ExtractedArticle {
  const { meta } = article;
  const { id, kind } = articleId(meta);
  const excerpts: ExcerptDoc[] = [];
  const firstPlace = new Map<string, ExcerptDoc | null>();
  let sentencesScanned = 0;
  for (const block of article.blocks) {
    if (block.section === 'peer-review') continue;
    const section: Section = block.section;
    const sentences = splitSentences(block.text);
    sentencesScanned += sentences.length;
    sentences.forEach((s, i) => {
      const seen = firstPlace.get(s.text);
      if (seen !== undefined) {
        // A repeat: counted and listed once. Only hedged sentences are recorded (null marks a plain one).
        seen?.also_in.push(section);
        return;
      }
      const { occurrences } = analyseSentence(s.text, matcher, bandOptions);
      if (occurrences.length === 0) {
        firstPlace.set(s.text, null);
        return;
      }
      const excerpt: ExcerptDoc = {
        id: `${id}/${block.paragraphIndex}.${i}`,
        section,
        section_title: block.sectionTitle,
        label: block.label,
        paragraph: block.paragraphIndex,
        sentence: i,
        text: s.text,
        also_in: [],
        occurrences: occurrences.map(occurrenceDoc),
      };
      firstPlace.set(s.text, excerpt);
      excerpts.push(excerpt);
    });
  }
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
