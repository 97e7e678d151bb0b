/**
 * Addresses of the corpus pages and of an article elsewhere, in one place for every corpus page.
 */
import { CORPUS_API } from '../paths.ts';

/** The site's page of an article (its canonical id: PMC123 or nopmc-…). */
export const articlePath = (id: string): string => `/corpus/articles/${id}`;

/** The anchor of an excerpt on its article page: `PMC123/4.2` → `s-4-2`. */
export function excerptAnchor(excerptId: string): string {
  const local = excerptId.slice(excerptId.lastIndexOf('/') + 1);
  return `s-${local.replace(/\./g, '-')}`;
}

/** The article page, scrolled to one of its excerpts. */
export const excerptPath = (excerptId: string, articleId: string): string => `${articlePath(articleId)}#${excerptAnchor(excerptId)}`;

/** The JSON of an article, as the API serves it. */
export const articleApiPath = (id: string): string => `${CORPUS_API}/articles/${id}`;

/**
 * The article at PubMed Central. Article documents carry it (`links.pmc`, written by the pipeline); excerpt
 * list items only carry the PMCID, so the list builds the same address from it: keep the two in step
 * (pipeline/corpus/extract.ts).
 */
export function pmcUrl(article: { pmcid: string; id_kind: string }): string | null {
  return article.id_kind === 'pmcid' ? `https://pmc.ncbi.nlm.nih.gov/articles/${article.pmcid}/` : null;
}

/** The excerpt browser, with a query string as the API takes it ('' for none). */
export const excerptsPath = (query = ''): string => (query ? `/corpus/excerpts?${query}` : '/corpus/excerpts');

/**
 * The slug of a phrase's page: its canonical name with spaces as hyphens ("trend toward" → `trend-toward`).
 * Two phrases could in principle share one ("near significant", "near-significant"); the page route refuses
 * to build then rather than publish one page for two.
 */
export const phraseSlug = (phrase: string): string => phrase.replace(/ /g, '-');

/** The site's page of one phrase (its counts and yearly counts). */
export const phrasePath = (phrase: string): string => `/corpus/phrase/${phraseSlug(phrase)}`;

/** The excerpt browser for one publication year (and more parameters, as the API takes them). */
export const yearExcerptsPath = (year: number, more = ''): string => excerptsPath(`year_from=${year}&year_to=${year}${more ? `&${more}` : ''}`);
