/**
 * How titles and author names are cut into search terms: one function, titleTerms(), used by the pipeline
 * (registered in DuckDB as `ori_terms`, see pipeline/lib/duckdb.ts) and by the query parser, so a query term
 * and an indexed term are always folded the same way. Folding: compatibility decomposition (NFKD: `ﬁ` → `fi`),
 * diacritics removed (`Montréal` = `Montreal`, `İstanbul` = `istanbul`), lower case, final sigma as sigma;
 * then every run of characters that are neither letters nor digits separates terms.
 */
const MARKS = /\p{M}+/gu;
/** Any UTF-16 code unit above ASCII (surrogates included). */
const NON_ASCII = /[\u0080-\uffff]/;
/** A term: a maximal run of letters and digits (the pieces a split at every other character leaves, empty ones dropped). */
const TERM = /[\p{L}\p{N}]+/gu;
/**
 * The same runs in a text of ASCII characters only, folded (so without A-Z): there the only letters and
 * digits are a-z and 0-9. A non-Unicode expression scans about three times as fast (docs/decisions.md
 * has the measurement), and abstracts are mostly ASCII.
 */
const ASCII_TERM = /[a-z0-9]+/g;

export function foldText(text: string): string {
  // ASCII only: NFKD changes nothing, there are no marks and no final sigma, so folding is lower case.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase().replaceAll('ς', 'σ');
}

/** The folded terms of a text, in order, repeats kept. */
export function textTerms(text: string): string[] {
  const folded = foldText(text);
  return folded.match(NON_ASCII.test(folded) ? TERM : ASCII_TERM) ?? [];
}

/** Distinct folded terms of a text, in first-seen order. */
export function titleTerms(text: string): string[] {
  return [...new Set(textTerms(text))];
}
