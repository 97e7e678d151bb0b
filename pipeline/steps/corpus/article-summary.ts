/**
 * What the corpus-wide documents (documents.ts: stats, phrases, years) and the bookkeeping of the step need of
 * an article: everything but its texts and offsets. The extraction cache keeps it beside the whole extraction
 * (extraction-cache.ts), so a rebuild that carries an article's rows and document over from the previous build
 * (previous-build.ts) reads only this and never parses the article's texts; and the step holds these, not whole
 * articles, between extraction and writing. A whole extraction is a summary too (the same fields, more of them).
 */
import type { OccurrenceDoc, PValue } from '../../../contracts/corpus/documents.ts';
import type { ExtractedArticle } from '../../corpus/extract.ts';

export type ArticleSummary = Pick<ExtractedArticle, 'pmcid' | 'id_kind' | 'pmid' | 'licence' | 'year' | 'sentences_scanned' | 'occurrences'> & {
  excerpts: readonly { occurrences: readonly (Pick<OccurrenceDoc, 'phrase' | 'status' | 'band'> & { p: Pick<PValue, 'exact' | 'value'> | null })[] }[];
};

export function summarize(a: ExtractedArticle): ArticleSummary {
  return {
    pmcid: a.pmcid,
    id_kind: a.id_kind,
    pmid: a.pmid,
    licence: a.licence,
    year: a.year,
    sentences_scanned: a.sentences_scanned,
    occurrences: a.occurrences,
    excerpts: a.excerpts.map((e) => ({
      occurrences: e.occurrences.map((o) => ({
        phrase: o.phrase,
        status: o.status,
        band: o.band,
        p: o.p === null ? null : { exact: o.p.exact, value: o.p.value },
      })),
    })),
  };
}
