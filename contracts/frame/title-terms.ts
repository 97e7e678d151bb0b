/**
 * How titles and author names are cut into search terms: one function, titleTerms(), used by the pipeline
 * (registered in DuckDB as `ori_terms`, see pipeline/lib/duckdb.ts) and by the query parser, so a query term
 * and an indexed term are always folded the same way. Folding: compatibility decomposition (NFKD: `ﬁ` → `fi`),
 * diacritics removed (`Montréal` = `Montreal`, `İstanbul` = `istanbul`), lower case, final sigma as sigma;
 * then every run of characters that are neither letters nor digits separates terms.
 */
const MARKS = /\p{M}+/gu;
const SPLIT = /[^\p{L}\p{N}]+/u;

export function foldText(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().replaceAll('ς', 'σ');
}

/** Distinct folded terms of a text, in first-seen order. */
export function titleTerms(text: string): string[] {
  const seen = new Set<string>();
  for (const t of foldText(text).split(SPLIT)) if (t !== '') seen.add(t);
  return [...seen];
}
