/**
 * The corpus documents the static corpus pages are prerendered from (build-output/current/corpus/api/v1/…),
 * read at build time and parsed with the schemas the API's contract test uses (contracts/corpus/documents.ts),
 * so a document that does not match them fails the site build rather than a page. The article pages are one
 * per document the pipeline wrote, under the id the API answers with (PMC123 or nopmc-…), so a page and the
 * API's JSON share one address scheme.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ArticleDoc,
  articleDocSchema,
  type PhraseDoc,
  phraseDocSchema,
  type PhrasesDoc,
  phrasesDocSchema,
  type StatsDoc,
  statsDocSchema,
} from '../../../../contracts/corpus/documents.ts';
import { buildOutputDir, frozen } from '../build-output.ts';

const ARTICLES = 'corpus/api/v1/articles';
const PHRASES = 'corpus/api/v1/phrases';

/** null for a build without a corpus. */
export function corpusStats(): StatsDoc | null {
  const doc = frozen<unknown>('corpus/api/v1/stats');
  return doc === null ? null : statsDocSchema.parse(doc);
}

export function corpusPhrases(): PhrasesDoc | null {
  const doc = frozen<unknown>('corpus/api/v1/phrases');
  return doc === null ? null : phrasesDocSchema.parse(doc);
}

/** The ids of every article document in the build (empty for a build without a corpus). */
export function articleIds(): string[] {
  const dir = join(buildOutputDir(), 'current', ARTICLES);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

export function articleDoc(id: string): ArticleDoc {
  const doc = frozen<unknown>(`${ARTICLES}/${id}`);
  if (doc === null) throw new Error(`no article document ${id} in ${buildOutputDir()}`);
  return articleDocSchema.parse(doc);
}

/** Every phrase document of the build (one per lexicon phrase), by phrase; empty for a build without a corpus. */
export function phraseDocs(): PhraseDoc[] {
  const dir = join(buildOutputDir(), 'current', PHRASES);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => phraseDocSchema.parse(frozen<unknown>(`${PHRASES}/${f.slice(0, -'.json'.length)}`)))
    .sort((a, b) => (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0));
}
