/**
 * How titles are cut into search terms. The pipeline builds the title-term table with TITLE_TERM_SPLIT_SQL
 * (DuckDB, RE2 syntax) and the query side splits `q` with titleTerms(); both lower-case and split on every
 * run of characters that are neither letters nor digits, so they agree on what a term is.
 */
export const TITLE_TERM_SPLIT_SQL = '[^\\p{L}\\p{N}]+';
const SPLIT = /[^\p{L}\p{N}]+/u;

/** Distinct lower-case terms of a text, in first-seen order. */
export function titleTerms(text: string): string[] {
  const seen = new Set<string>();
  for (const t of text.toLowerCase().split(SPLIT)) if (t !== '') seen.add(t);
  return [...seen];
}
