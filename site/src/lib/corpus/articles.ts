/**
 * The corpus documents the static corpus pages are prerendered from (build-output/current/corpus/api/v1/…),
 * read at build time. The article pages are one per document the pipeline wrote, under the id the API
 * answers with (its canonical PMC123 or nopmc-… id), so a page and the API's JSON share one address scheme.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ArticleDoc, PhrasesDoc, StatsDoc } from '../../../../contracts/corpus/documents.ts';
import { buildOutputDir, frozen } from '../build-output.ts';

const ARTICLES = 'corpus/api/v1/articles';

export const corpusStats = (): StatsDoc | null => frozen<StatsDoc>('corpus/api/v1/stats');
export const corpusPhrases = (): PhrasesDoc | null => frozen<PhrasesDoc>('corpus/api/v1/phrases');

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
  const doc = frozen<ArticleDoc>(`${ARTICLES}/${id}`);
  if (!doc) throw new Error(`no article document ${id} in ${buildOutputDir()}`);
  return doc;
}
