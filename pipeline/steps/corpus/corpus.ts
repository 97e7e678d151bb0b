/**
 * The corpus part of a build: snapshot `corpus/` → extraction → `corpus/corpus.sqlite` (FTS5) +
 * the frozen documents + `corpus/report.json` (inputs skipped with their package and member, duplicate
 * copies, articles given generated ids, deletions, packages read). Writes into the build's temporary
 * directory; publishing is the pipeline's (build.ts). With `cacheDir` (the pipeline's
 * `<build-output>/cache/corpus`), extractions are reused between builds (extraction-cache.ts); nothing else is
 * taken from an earlier build, so a rebuild runs the full build's code and writes the same bytes. The output does
 * not depend on what the cache held, so nothing about the cache goes into the build, only into the log.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CorpusManifest } from '../../../contracts/common/build-manifest.ts';
import { stablePretty } from '../../../contracts/common/stable-json.ts';
import { CORPUS_DB_FILE } from '../../../contracts/corpus/database.ts';
import { compileLexicon, DEFAULT_LEXICON_PATH, type Lexicon, loadLexicon, loadOtteLexicon } from '../../corpus/lexicon.ts';
import { sha256Text } from '../../lib/hash.ts';
import { PhaseClock } from '../../lib/phase-clock.ts';
import type { Progress } from '../../lib/progress.ts';
import { writeCorpusDatabase } from './corpus.sqlite.ts';
import { extractCorpus } from './extract-corpus.ts';
import { ExtractionCache } from './extraction-cache.ts';
import { CORPUS_ARTICLES_DIR, corpusDocuments } from './documents.ts';
import { parseFileList } from './file-lists.ts';
import { corpusFingerprint, corpusInput } from './inputs.ts';
import { readCsvCorpus } from './csv-input.ts';

export const CORPUS_REPORT_FILE = 'corpus/report.json';

/** A lexicon file: the project's JSON format, or a `.csv` phrase list in Otte et al.'s format. */
export function readLexicon(path: string = DEFAULT_LEXICON_PATH): { lexicon: Lexicon; sha256: string } {
  const lexicon = path.toLowerCase().endsWith('.csv') ? loadOtteLexicon(path) : loadLexicon(path);
  return { lexicon: { ...lexicon, source: basename(path) }, sha256: sha256Text(readFileSync(path)) };
}

/** The identity of the corpus inputs, without building anything (for `--if-stale`). */
export function corpusIdentity(snapshot: string, lexiconPath?: string): Pick<CorpusManifest, 'fingerprint'> & { lexiconSha256: string } {
  return {
    fingerprint: corpusFingerprint(corpusInput(snapshot)),
    lexiconSha256: sha256Text(readFileSync(lexiconPath ?? DEFAULT_LEXICON_PATH)),
  };
}

/**
 * Checks what can be checked before the long frame build: the corpus directory's form, the lexicon file, a
 * CSV input's rows and the packages' file lists, so a typo there fails in seconds rather than after the frame is built.
 */
export function checkCorpusInput(snapshot: string, lexiconPath?: string): void {
  const input = corpusInput(snapshot);
  readLexicon(lexiconPath);
  if (input.kind === 'csv') readCsvCorpus(input.papers, input.sentences);
  // Each list parsed and dropped: extraction reads a package's own list with the package (file-lists.ts).
  if (input.kind === 'jats') for (const n of input.fileLists) parseFileList(join(input.dir, n));
}

export interface CorpusStepOptions {
  snapshot: string;
  /** The build's temporary directory. */
  out: string;
  snapshotId: string;
  /** The snapshot manifest's flag, carried into every corpus document's meta. */
  synthetic: boolean;
  lexiconPath?: string;
  /** The extraction cache's directory, kept between builds; none: every article is extracted. */
  cacheDir?: string;
  progress: Progress;
}

export async function buildCorpus(o: CorpusStepOptions): Promise<CorpusManifest> {
  const { progress } = o;
  const clock = new PhaseClock();
  const input = corpusInput(o.snapshot);
  const { lexicon, sha256 } = readLexicon(o.lexiconPath);
  const meta = { snapshot: o.snapshotId, lexicon_version: lexicon.version, synthetic: o.synthetic };
  mkdirSync(join(o.out, CORPUS_ARTICLES_DIR), { recursive: true });
  const matcher = compileLexicon(lexicon);
  clock.lap('lexicon');
  for (const c of matcher.collisions) progress.log(`corpus: lexicon form "${c.form}" belongs to "${c.kept}"; dropped from "${c.dropped}"`);
  if (input.kind === 'none') progress.log(`corpus: no ${input.dir}; the corpus is empty`);
  else
    progress.log(
      `corpus: ${input.kind === 'jats' ? `${input.files.length} JATS files, ${input.packages.length} packages, ${input.fileLists.length} file lists, ${input.deletionLists.length} deletion lists` : 'papers.csv + sentences.csv'} in ${input.dir}, lexicon ${lexicon.version} (${matcher.phrases.length} phrases)` +
        (input.ignored.length ? `; ignoring ${input.ignored.join(', ')}` : ''),
    );
  const fileHashes = new Map<string, string>();
  const fingerprint = corpusFingerprint(input, fileHashes);
  clock.lap('input hashes');
  const cache = new ExtractionCache(o.cacheDir ?? null, sha256, {});
  clock.lap('cache index');
  const extraction = await extractCorpus(input, matcher, {}, progress, { cache, fileHashes });
  const articles = extraction.count;
  if (input.kind !== 'none')
    progress.log(
      `corpus: ${articles} articles in ${extraction.seconds.toFixed(1)} s ` +
        `(${(articles / Math.max(extraction.seconds, 1e-9)).toFixed(0)} articles/s, ${(extraction.bytes / 2 ** 20 / Math.max(extraction.seconds, 1e-9)).toFixed(1)} MB/s); ` +
        `${extraction.skipped.length} inputs skipped, ${extraction.duplicates.length} duplicates, ${extraction.generatedIds.length} without PMCID, ` +
        `${extraction.deleted.filter((d) => d.found).length} deleted; cache: ${extraction.cache.hits} reused, ${extraction.cache.misses} extracted, ` +
        `${extraction.cache.packageHits} of ${extraction.packages.length} packages not reread`,
    );
  for (const s of extraction.skipped.slice(0, 20)) progress.log(`corpus: skipped ${s.package ? `${s.package}: ` : ''}${s.file}: ${s.reason}`);
  clock.lap('extraction');

  // The article documents, written as they are made, and the corpus-wide ones.
  const docs = corpusDocuments({
    articles: extraction.summaries(),
    loadJson: extraction.loadJson,
    meta,
    lexicon: { version: lexicon.version, source: lexicon.source, phrases: matcher.phrases.length },
    phraseList: matcher.phrases,
    articleDocument: (_, path, json) => writeFileSync(join(o.out, path), json()),
  });
  for (const [path, doc] of docs) {
    mkdirSync(dirname(join(o.out, path)), { recursive: true });
    writeFileSync(join(o.out, path), JSON.stringify(doc));
  }
  clock.lap('documents');
  const dbInfo = { snapshot: o.snapshotId, lexiconVersion: lexicon.version, lexiconSource: lexicon.source, phrases: matcher.phrases };
  const { excerpts } = await writeCorpusDatabase(join(o.out, CORPUS_DB_FILE), { length: articles }, dbInfo, progress, extraction.load);
  clock.lap('database');
  writeFileSync(
    join(o.out, CORPUS_REPORT_FILE),
    stablePretty({
      skipped: extraction.skipped,
      duplicates: extraction.duplicates,
      generated_ids: extraction.generatedIds,
      deleted: extraction.deleted,
      packages: extraction.packages,
    }),
  );
  cache.prune();
  if (extraction.cache.pruned > 0) progress.log(`corpus: removed ${extraction.cache.pruned} cache entries this build did not use`);
  clock.lap('report and cache');
  progress.log(`corpus: step in ${clock}`);
  return {
    input: input.kind,
    fingerprint,
    input_files: input.kind === 'jats' ? input.files.length : input.kind === 'csv' ? 2 : 0,
    input_packages: input.kind === 'jats' ? input.packages.length : 0,
    deleted_articles: extraction.deleted.filter((d) => d.found).length,
    articles,
    excerpts,
    skipped_files: extraction.skipped.length,
    duplicate_articles: extraction.duplicates.length,
    generated_ids: extraction.generatedIds.length,
    lexicon: { version: lexicon.version, source: lexicon.source, sha256 },
  };
}
