/**
 * The corpus part of a build (issue 6): snapshot `corpus/` → extraction → `corpus/corpus.sqlite` (FTS5) +
 * the frozen documents + `corpus/report.json` (inputs skipped with their package and member, duplicate
 * copies, articles given generated ids, deletions, packages read). Writes into the build's temporary
 * directory; publishing is the pipeline's (build.ts). With `cacheDir` (the pipeline's
 * `<build-output>/cache/corpus`), extractions are reused between builds (extraction-cache.ts), and the rows and
 * documents of articles unchanged since the previous build are carried over from it (previous-build.ts); the
 * output does not depend on what the cache held, so nothing about the cache goes into the build, only into the log.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { CorpusManifest } from '../../../contracts/common/build-manifest.ts';
import { stablePretty } from '../../../contracts/common/stable-json.ts';
import { CORPUS_DB_FILE } from '../../../contracts/corpus/database.ts';
import { compileLexicon, DEFAULT_LEXICON_PATH, type Lexicon, loadLexicon, loadOtteLexicon } from '../../corpus/lexicon.ts';
import { sha256FileSync, sha256Text } from '../../lib/hash.ts';
import { PhaseClock } from '../../lib/phase-clock.ts';
import type { Progress } from '../../lib/progress.ts';
import { type CarryHelp, carryPlan, writeCorpusDatabase } from './corpus.sqlite.ts';
import { extractCorpus } from './extract-corpus.ts';
import { ExtractionCache } from './extraction-cache.ts';
import { PreviousBuild } from './previous-build.ts';
import { articleDocumentPath, CORPUS_ARTICLES_DIR, corpusDocuments } from './documents.ts';
import { parseFileList } from './file-lists.ts';
import { corpusFingerprint, corpusInput } from './inputs.ts';
import { readCsvCorpus } from './csv-input.ts';
import { type FreshTerm, tokenizeExcerpts } from './search-index.ts';
import { sqlite3 } from '../../lib/sqlite.ts';

export const CORPUS_REPORT_FILE = 'corpus/report.json';

/** A rebuild's new documents written at once (`writeDocuments`): the thread pool has four threads. */
const PARALLEL_WRITES = 8;

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
  /** The rebuild worker's module (previous-build.ts; tests give one that dies). */
  rebuildWorker?: URL;
  /** When a rebuild writes its documents (corpus.sqlite.ts, `CarryHelp`); unset, as the timing says (tests set it). */
  callersWork?: CarryHelp['callersWork'];
}

export async function buildCorpus(o: CorpusStepOptions): Promise<CorpusManifest> {
  const { progress } = o;
  const clock = new PhaseClock();
  const input = corpusInput(o.snapshot);
  const { lexicon, sha256 } = readLexicon(o.lexiconPath);
  const meta = { snapshot: o.snapshotId, lexicon_version: lexicon.version, synthetic: o.synthetic };
  const metaJson = JSON.stringify(meta);
  mkdirSync(join(o.out, CORPUS_ARTICLES_DIR), { recursive: true });
  // What the previous build left (previous-build.ts): unchanged articles' rows and documents are carried over.
  // Its worker thread starts first, loading its code and then linking the previous build's documents while this
  // thread compiles the lexicon, hashes the inputs, reads the cache's index and extracts (issue 21 session 27: its
  // work before the plan had become as long as this thread's).
  const previous = o.cacheDir ? new PreviousBuild(o.cacheDir, o.rebuildWorker) : null;
  const dbPath = join(o.out, CORPUS_DB_FILE);
  const ftsFile = `${dbPath}.fts`;
  let extraction!: Awaited<ReturnType<typeof extractCorpus>>;
  const excerptCount = (i: number) => extraction.excerptCounts[i]!;
  let db: Awaited<ReturnType<typeof writeCorpusDatabase>>;
  let fingerprint!: string;
  let cache!: ExtractionCache;
  let dbSha256 = '';
  try {
    previous?.startWorker(o.out, metaJson);
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
    fingerprint = corpusFingerprint(input, fileHashes);
    clock.lap('input hashes');
    cache = new ExtractionCache(o.cacheDir ?? null, sha256, {});
    clock.lap('cache index');
    extraction = await extractCorpus(input, matcher, {}, progress, { cache, fileHashes });
    const articles = extraction.count;
    if (input.kind !== 'none')
      progress.log(
        `corpus: ${articles} articles in ${extraction.seconds.toFixed(1)} s ` +
          `(${(articles / Math.max(extraction.seconds, 1e-9)).toFixed(0)} articles/s, ${(extraction.bytes / 2 ** 20 / Math.max(extraction.seconds, 1e-9)).toFixed(1)} MB/s); ` +
          `${extraction.skipped.length} inputs skipped, ${extraction.duplicates.length} duplicates, ${extraction.generatedIds.length} without PMCID, ` +
          `${extraction.deleted.filter((d) => d.found).length} deleted; cache: ${extraction.cache.hits} reused, ${extraction.cache.misses} extracted, ` +
          `${extraction.cache.packageHits} of ${extraction.packages.length} packages not reread (${extraction.cache.packHits} from their summary packs)`,
      );
    for (const s of extraction.skipped.slice(0, 20)) progress.log(`corpus: skipped ${s.package ? `${s.package}: ` : ''}${s.file}: ${s.reason}`);
    clock.lap('extraction');

    const { keys } = extraction;
    const dbInfo = { snapshot: o.snapshotId, lexiconVersion: lexicon.version, lexiconSource: lexicon.source, phrases: matcher.phrases };
    // Set from inside writeDocuments: a wider type than the initial value, so the checks after a call are not narrowed away.
    let documents = 'to write' as 'to write' | 'writing' | 'written';
    /**
     * The article documents (those carried over are linked already) and the corpus-wide ones. `later`: a rebuild's
     * few new documents are gathered and written afterwards, several at a time from the thread pool (issue 21
     * session 24: each creation in a directory the worker had just filled with links waited ~0.6 ms).
     */
    const writeDocuments = async (later = false) => {
      if (documents !== 'to write') return;
      documents = 'writing';
      const unlinked = await previous?.linkedDocuments();
      if (unlinked) progress.log(`corpus: ${unlinked}`);
      const gathered: { path: string; json: () => string; docKey: string | null }[] = [];
      const docs = corpusDocuments({
        articles: extraction.summaries(),
        loadJson: extraction.loadJson,
        meta,
        lexicon: { version: lexicon.version, source: lexicon.source, phrases: matcher.phrases.length },
        phraseList: matcher.phrases,
        articleDocument: (i, path, json) => {
          if (previous?.reuseDocument(i)) return;
          const key = keys.get(i);
          const docKey = previous && key ? previous.documentKey(key, metaJson) : null;
          if (later) return void gathered.push({ path, json, docKey });
          // 'wx': a new file, never written through an existing one (a document in the build shares its file
          // with the stored one and with earlier builds when it is linked).
          writeFileSync(join(o.out, path), json(), { flag: 'wx' });
          if (docKey) previous!.store(docKey, join(o.out, path));
        },
      });
      let next = 0;
      const writer = async () => {
        for (let g = gathered[next++]; g; g = gathered[next++]) {
          await writeFile(join(o.out, g.path), g.json(), { flag: 'wx' });
          if (g.docKey) previous!.store(g.docKey, join(o.out, g.path));
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_WRITES, gathered.length) }, writer));
      for (const [path, doc] of docs) {
        mkdirSync(dirname(join(o.out, path)), { recursive: true });
        writeFileSync(join(o.out, path), JSON.stringify(doc));
      }
      documents = 'written';
    };
    // The plan of the carry-over goes to the worker first: it builds the full-text index and the search index's
    // rows while this thread writes the rows, then the documents (`meanwhile`: the worker's part is the longer).
    const carry = previous?.carryOver(keys, excerptCount) ?? null;
    const plan = carry && carryPlan(carry, articles, extraction.load);
    const answers = plan && previous!.sendPlan({ ...plan, ftsFile });
    // The new excerpts' tokens, made here while the worker builds the full-text index (its part is the longer);
    // should that fail, the worker makes them (and its own failure leaves the search index to FTS5).
    if (answers) {
      let tokens: Map<string, FreshTerm> | null = null;
      try {
        tokens = tokenizeExcerpts(await sqlite3(), plan.fresh);
      } catch (err) {
        progress.log(`corpus: the new excerpts not tokenized here (${(err as Error).message.split('\n')[0]}); the rebuild worker tokenizes them`);
      }
      previous!.sendTokens(tokens);
    }
    const help: CarryHelp | undefined =
      plan && answers ? { plan, ftsFile, answers, meanwhile: () => writeDocuments(true), compact: (c) => previous!.compact(c), callersWork: o.callersWork } : undefined;
    if (!help) {
      await writeDocuments();
      clock.lap('documents');
    }
    try {
      db = await writeCorpusDatabase(dbPath, { length: articles }, dbInfo, progress, carry && { ...carry, help }, extraction.load);
    } catch (err) {
      // A failure while the documents were written is the build's (`meanwhile`), not the carry-over's.
      if (!carry || documents === 'writing') throw err;
      // Whatever is wrong with what the previous build left, the database is written from the articles alone.
      progress.log(`corpus: not carrying rows over from the previous build (${(err as Error).message.split('\n')[0]})`);
      await writeDocuments();
      // Its indexes would not be used: the second core is this thread's again.
      await previous?.stopWorker();
      db = await writeCorpusDatabase(dbPath, { length: articles }, dbInfo, progress, null, extraction.load);
    }
    clock.lap(help ? 'database and documents' : 'database');
    // The database's sha256, for the record the next build checks it against: taken by the rebuild's worker while
    // this thread writes the report (here when there is no worker, or it could not).
    const hashing = previous?.hashDatabase(dbPath) ?? null;
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
    if (previous) {
      const hashed = hashing && (await hashing);
      if (hashing && !hashed) progress.log("corpus: the database's sha256 not taken by the rebuild worker; taken here");
      dbSha256 = hashed ?? sha256FileSync(dbPath);
    }
  } finally {
    const times = previous?.workerTimes();
    if (times) progress.log(`corpus: rebuild worker answered (s from its start): ${times}`);
    await previous?.stopWorker();
    rmSync(ftsFile, { force: true });
  }
  const articles = extraction.count;
  const { excerpts, carried } = db;
  if (previous) {
    // Each document's path is recorded for the next build, which links it before extracting.
    previous.save(dbPath, dbSha256, extraction.keys, excerptCount, meta, (i) => articleDocumentPath(extraction.pmcid(i)));
    progress.log(`corpus: carried over from the previous build: ${carried} of ${articles} articles' rows, ${previous.stats.docsLinked} article documents`);
  }
  cache.prune();
  await previous?.settled();
  if (extraction.cache.pruned > 0) progress.log(`corpus: removed ${extraction.cache.pruned} cache entries this build did not use`);
  clock.lap('report and records');
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
