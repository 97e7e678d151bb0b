/**
 * Corpus step 1: every input article → its extraction (pipeline/corpus/extract.ts), in the order the corpus
 * is listed by (`sort=article`): PMCIDs numerically, then generated ids. A file that cannot be read as JATS is
 * skipped and reported, not fatal: real PMC dumps contain the odd broken file, and one must not stop a build
 * of thousands (the build fails only when no article at all could be read from a non-empty input). A second
 * file with the same article id (the same paper as .nxml and .xml.gz) is reported and the first one kept.
 */
import { join } from 'node:path';
import type { BandOptions } from '../../corpus/bands.ts';
import { type ExtractedArticle, extractArticle, extractSentences } from '../../corpus/extract.ts';
import { readArticleFile } from '../../corpus/jats.ts';
import type { LexiconMatcher } from '../../corpus/lexicon.ts';
import type { Progress } from '../../lib/progress.ts';
import { readCsvCorpus } from './csv-input.ts';
import type { CorpusInput } from './inputs.ts';

export interface CorpusExtraction {
  articles: ExtractedArticle[];
  /** Input files that could not be read, with the reason. */
  skipped: { file: string; reason: string }[];
  /** Inputs whose article id was already taken by an earlier file (by name order). */
  duplicates: { file: string; id: string; kept: string }[];
  /** Articles without a PMCID, with the id they were given. */
  generatedIds: { file: string; id: string }[];
  /** Input bytes read and the wall time of extraction, for the log and the benchmark. */
  bytes: number;
  seconds: number;
}

/** Numeric PMCIDs first, in number order; generated ids after them, by text. */
export function compareArticleIds(a: string, b: string): number {
  const na = /^PMC(\d+)$/.exec(a);
  const nb = /^PMC(\d+)$/.exec(b);
  if (na && nb) return Number(na[1]) - Number(nb[1]);
  if (na) return -1;
  if (nb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export async function extractCorpus(
  input: CorpusInput,
  matcher: LexiconMatcher,
  bandOptions: Partial<BandOptions>,
  progress: Progress,
): Promise<CorpusExtraction> {
  const started = performance.now();
  const out: CorpusExtraction = { articles: [], skipped: [], duplicates: [], generatedIds: [], bytes: 0, seconds: 0 };
  const byId = new Map<string, string>();
  const add = (file: string, article: ExtractedArticle) => {
    const kept = byId.get(article.pmcid);
    if (kept !== undefined) {
      out.duplicates.push({ file, id: article.pmcid, kept });
      return;
    }
    byId.set(article.pmcid, file);
    if (article.id_kind === 'generated') out.generatedIds.push({ file, id: article.pmcid });
    out.articles.push(article);
  };

  if (input.kind === 'jats') {
    out.bytes = input.bytes;
    progress.start('corpus: extracting', input.files.length);
    let done = 0;
    for (const file of input.files) {
      try {
        add(file, extractArticle(await readArticleFile(join(input.dir, file)), matcher, bandOptions));
      } catch (err) {
        out.skipped.push({ file, reason: (err as Error).message.split('\n')[0]!.slice(0, 300) });
      }
      if (++done % 100 === 0) progress.update(done);
    }
    progress.update(done);
    progress.stop();
    if (input.files.length > 0 && out.articles.length === 0)
      throw new Error(`${input.dir}: none of the ${input.files.length} files could be read as JATS (first: ${out.skipped[0]?.file}: ${out.skipped[0]?.reason})`);
  } else if (input.kind === 'csv') {
    out.bytes = input.bytes;
    const papers = readCsvCorpus(input.papers, input.sentences);
    progress.start('corpus: extracting', papers.length);
    papers.forEach((p, i) => {
      add(`papers.csv:${p.paperId}`, extractSentences(p.meta, p.sentences, matcher, bandOptions));
      if (i % 100 === 99) progress.update(i + 1);
    });
    progress.update(papers.length);
    progress.stop();
  }
  out.articles.sort((a, b) => compareArticleIds(a.pmcid, b.pmcid));
  out.seconds = (performance.now() - started) / 1000;
  return out;
}
