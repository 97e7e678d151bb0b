/**
 * Corpus step 2: the corpus database (contracts/corpus/database.ts) from the extracted articles. Built in a
 * file with sqlite-wasm through the file VFS (on disk as it grows, not in the wasm heap; pipeline/lib/sqlite.ts)
 * in one transaction, the full-text index rebuilt and optimised once at the end (fts-index.ts; in a rebuild, by
 * its worker thread), the server's search index read from it or carried over (search-index.ts) and its excerpt index gathered
 * as the rows are written (excerpt-index-builder.ts), then compacted into the output file with
 * VACUUM INTO. With a carry-over plan (previous-build.ts), the rows of unchanged articles are copied
 * from the previous build's database, attached, run by run of consecutive articles, renumbered inside SQLite:
 * the rows are the same and are inserted in the same order, so the file is the same as when every row is
 * written from JS (tested byte for byte), at a fraction of the cost.
 */
import { existsSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { CORPUS_DB_PAGE_SIZE, CORPUS_DB_SCHEMA, CORPUS_DB_VERSION } from '../../../contracts/corpus/database.ts';
import { writeExcerptIndex } from '../../../contracts/corpus/excerpt-index-data.ts';
import type { ExtractedArticle } from '../../corpus/extract.ts';
import {
  attachDatabase,
  attachReadOnly,
  BUILD_CACHE_KIB,
  BUILD_PAGE_SIZE,
  compactFile,
  createDatabase,
  FULL_BUILD_CACHE_KIB,
  REBUILD_VACUUM_CACHE_KIB,
  RowInserter,
  sqlite3,
  VACUUM_CACHE_KIB,
  vacuumInto,
} from '../../lib/sqlite.ts';
import { PhaseClock } from '../../lib/phase-clock.ts';
import type { Progress } from '../../lib/progress.ts';
import type { ArticleSummary } from './article-summary.ts';
import { ExcerptIndexBuilder, type PreviousExcerptIndex, readPreviousExcerptIndex } from './excerpt-index-builder.ts';
import { buildFtsIndex, copyFtsIndex } from './fts-index.ts';
import type { CarryOver, WorkerAnswers } from './previous-build.ts';
import type { Compaction, SearchPlan } from './rebuild-worker.ts';
import { writeSearchIndex, writeSearchRows } from './search-index.ts';

export interface CorpusDbInfo {
  snapshot: string;
  lexiconVersion: string;
  lexiconSource: string;
  /** Every canonical phrase of the lexicon (the values `phrase=` accepts). */
  phrases: readonly string[];
}

const ARTICLE_COLUMNS = 'pmcid, id_kind, pmid, doi, title, journal, year';
const EXCERPT_COLUMNS = 'key, section, section_title, label, paragraph, sentence, text, also_in';
const OCCURRENCE_COLUMNS = 'ordinal, phrase, start, "end", status, band, at_threshold, inequality, p_text, p_start, p_end, p_operator, p_value, p_exact';

/**
 * A carry-over whose indexes the rebuild's worker thread makes (corpus.ts): the plan it was sent (`carryPlan`), the
 * scratch file of its full-text index (fts-index.ts) or null, and its answers.
 */
export interface CarryHelp {
  plan: SearchPlan;
  ftsFile: string;
  answers: WorkerAnswers;
  /**
   * The caller's own work (it must not touch the database): done while the worker builds its indexes when they are
   * the longer, else while it compacts the database once written (before it is compacted here if it cannot).
   */
  meanwhile: () => Promise<void>;
  /** Has the worker compact the written database (previous-build.ts, `compact`); null: compacted here. */
  compact: (c: Compaction) => Promise<{ error?: string }> | null;
  /** When the caller's work is done: while the worker builds its indexes or compacts; unset, as the timing says. */
  callersWork?: 'with the indexes' | 'with the compaction';
}

/** Runs of consecutive articles carried over from consecutive previous ones, and single articles written anew. */
function* carriedRuns(carry: CarryOver | null, count: number): Generator<{ i: number; j: number; fromId: number }> {
  for (let i = 0; i < count; ) {
    const fromId = carry?.from[i] ?? 0;
    let j = i + 1;
    if (fromId > 0) while (j < count && carry!.from[j] === fromId + (j - i)) j++;
    yield { i, j, fromId };
    i = j;
  }
}

/**
 * What a carry-over makes of the excerpts, known before any row is written: each previous excerpt's new id (0: not
 * carried) and the new excerpts' texts, with their ids. `load` gives the articles not carried over.
 */
export function carryPlan(carry: CarryOver, count: number, load: (index: number) => ExtractedArticle): SearchPlan {
  const remap = new Int32Array(carry.firstExcerpt[carry.firstExcerpt.length - 1]! - 1);
  const fresh: { id: number; text: string }[] = [];
  let id = 0;
  for (const { i, j, fromId } of carriedRuns(carry, count)) {
    if (fromId > 0) {
      const firstExcerpt = carry.firstExcerpt[fromId - 1]!;
      const endExcerpt = carry.firstExcerpt[fromId - 1 + (j - i)]!;
      for (let e = firstExcerpt; e < endExcerpt; e++) remap[e - 1] = ++id;
    } else for (const e of load(i).excerpts) fresh.push({ id: ++id, text: e.text });
  }
  return { previousDb: carry.db, remap, fresh, excerpts: id };
}

/**
 * Writes the database for `articles` (already in listing order) to `path`; returns the excerpt count, the
 * file's size, and how many articles' rows were copied from the previous database (`carry`).
 * `articles` may be summaries (extract-corpus.ts) when `load` gives the whole article of an index; only the
 * articles not carried over are loaded, one at a time.
 */
export async function writeCorpusDatabase<A extends ArticleSummary>(
  path: string,
  articles: ArrayLike<A>,
  info: CorpusDbInfo,
  progress: Progress,
  carry: (CarryOver & { help?: CarryHelp }) | null = null,
  ...[load]: A extends ExtractedArticle ? [load?: (index: number) => ExtractedArticle] : [load: (index: number) => ExtractedArticle]
): Promise<{ excerpts: number; bytes: number; carried: number }> {
  const s = await sqlite3();
  const clock = new PhaseClock();
  // Built in a file beside the output (on disk as it grows, through the file VFS), then compacted into `path`.
  const building = `${path}.building`;
  // The two-word phrases' scratch files (search-bigrams.ts); a run killed while writing them left them behind.
  const pairs = `${path}.pairs`;
  rmSync(pairs, { recursive: true, force: true });
  // A full build's page cache is small (FULL_BUILD_CACHE_KIB); a rebuild's is as it was (its rows are copied).
  const db = createDatabase(s, building, BUILD_PAGE_SIZE, carry ? BUILD_CACHE_KIB : FULL_BUILD_CACHE_KIB);
  let carried = 0;
  try {
    db.exec(CORPUS_DB_SCHEMA);
    // The carried-over indexes are made by the rebuild's worker thread while this one writes the rows (corpus.ts
    // sent it the plan): the full-text index and the search index. Without it, both are made here from the rows.
    const help = carry?.help ?? null;
    const plan = help?.plan ?? null;
    /** Whether the worker's full-text index has come (taken in whenever this thread yields). */
    let ftsAnswered = false;
    void help?.answers.fts.then(() => (ftsAnswered = true));
    // The previous database, checked against its record, and its excerpt index: read by the worker, or here.
    let previousExcerpts: PreviousExcerptIndex | null = null;
    if (carry) {
      const read = help && (await help.answers.previous);
      if (read && 'differs' in read) throw new Error(read.differs);
      if (read) attachReadOnly(db, 'prev', carry.db);
      else attachDatabase(db, 'prev', carry.db, carry.sha256);
      previousExcerpts = read ? read.index : readPreviousExcerptIndex(db, 'prev');
    }
    // The server's excerpt index, gathered as the rows are written (excerpt-index-builder.ts).
    const excerptIndex = new ExcerptIndexBuilder(info.phrases);
    // The record's excerpt counts and the previous database's own index must agree (a mismatch would read past
    // its arrays, silently): the caller then writes the database from the articles alone.
    if (carry && previousExcerpts!.data.size !== carry.firstExcerpt[carry.firstExcerpt.length - 1]! - 1)
      throw new Error(`the previous database's excerpt index has ${previousExcerpts!.data.size} excerpts; its record says ${carry.firstExcerpt[carry.firstExcerpt.length - 1]! - 1}`);
    db.exec('BEGIN');
    const putInfo = db.prepare('INSERT INTO info (key, value) VALUES (?, ?)');
    for (const [k, v] of [
      ['schema_version', CORPUS_DB_VERSION],
      ['snapshot', info.snapshot],
      ['lexicon_version', info.lexiconVersion],
      ['lexicon_source', info.lexiconSource],
      ['phrases', JSON.stringify(info.phrases)],
    ])
      putInfo.bind([k!, v!]).stepReset();
    putInfo.finalize();
    const putArticle = db.prepare(
      'INSERT INTO articles (id, pmcid, id_kind, pmid, doi, title, journal, year) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const putExcerpt = db.prepare(
      'INSERT INTO excerpts (id, article, key, section, section_title, label, paragraph, sentence, text, also_in) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const putOccurrence = db.prepare(
      'INSERT INTO occurrences (excerpt, ordinal, phrase, start, "end", status, band, at_threshold, inequality, p_text, p_start, p_end, p_operator, p_value, p_exact) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // A run: new ids = previous ids + ?1 (articles) or + ?1 (excerpts, with their article + ?2), within a range.
    const copyArticles = carry ? db.prepare(`INSERT INTO articles (id, ${ARTICLE_COLUMNS}) SELECT id + ?1, ${ARTICLE_COLUMNS} FROM prev.articles WHERE id BETWEEN ?2 AND ?3 ORDER BY id`) : null;
    const copyExcerpts = carry
      ? db.prepare(`INSERT INTO excerpts (id, article, ${EXCERPT_COLUMNS}) SELECT id + ?1, article + ?2, ${EXCERPT_COLUMNS} FROM prev.excerpts WHERE id BETWEEN ?3 AND ?4 ORDER BY id`)
      : null;
    const copyOccurrences = carry
      ? db.prepare(
          `INSERT INTO occurrences (excerpt, ${OCCURRENCE_COLUMNS}) SELECT excerpt + ?1, ${OCCURRENCE_COLUMNS} FROM prev.occurrences WHERE excerpt BETWEEN ?2 AND ?3 ORDER BY excerpt, ordinal`,
        )
      : null;
    // Rows written from JS go through RowInserter (pipeline/lib/sqlite.ts): the same values bound, cheaper.
    const articleRow = new RowInserter(s, db, putArticle);
    const excerptRow = new RowInserter(s, db, putExcerpt);
    const occurrenceRow = new RowInserter(s, db, putOccurrence);
    progress.start('corpus: database', articles.length);
    let excerptId = 0;
    let reported = 0;
    for (const { i, j, fromId } of carriedRuns(carry, articles.length)) {
      if (carry && fromId > 0) {
        const firstExcerpt = carry.firstExcerpt[fromId - 1]!;
        const endExcerpt = carry.firstExcerpt[fromId - 1 + (j - i)]!;
        const articleDelta = i + 1 - fromId;
        const excerptDelta = excerptId + 1 - firstExcerpt;
        copyArticles!.bind([articleDelta, fromId, fromId + (j - i) - 1]).stepReset();
        excerptIndex.addCarried(previousExcerpts!, firstExcerpt, endExcerpt, articleDelta);
        if (endExcerpt > firstExcerpt) {
          copyExcerpts!.bind([excerptDelta, articleDelta, firstExcerpt, endExcerpt - 1]).stepReset();
          copyOccurrences!.bind([excerptDelta, firstExcerpt, endExcerpt - 1]).stepReset();
        }
        excerptId += endExcerpt - firstExcerpt;
        carried += j - i;
      } else excerptId = insertArticle(i, excerptId);
      if (j - reported >= 1000) progress.update((reported = j));
    }
    copyArticles?.finalize();
    copyExcerpts?.finalize();
    copyOccurrences?.finalize();
    if (plan && excerptId !== plan.excerpts) throw new Error(`the rows have ${excerptId} excerpts; the search index was planned for ${plan.excerpts}`);
    /** Inserts article `i` from JS; returns the last excerpt id used. */
    function insertArticle(i: number, lastExcerpt: number): number {
      const a = load ? load(i) : (articles[i] as unknown as ExtractedArticle);
      let excerptId = lastExcerpt;
      const articleId = i + 1;
      articleRow.run([articleId, a.pmcid, a.id_kind, a.pmid, a.doi, a.title, a.journal, a.year]);
      for (const e of a.excerpts) {
        excerptId++;
        excerptRow.run([excerptId, articleId, e.id, e.section, e.section_title, e.label, e.paragraph, e.sentence, e.text, JSON.stringify(e.also_in)]);
        excerptIndex.addExcerpt(i, a.year, e);
        e.occurrences.forEach((o, k) => {
          occurrenceRow.run([
            excerptId, k, o.phrase, o.start, o.end, o.status, o.band, o.at_threshold ? 1 : 0, o.inequality,
            o.p?.text ?? null, o.p?.start ?? null, o.p?.end ?? null, o.p?.operator ?? null, o.p?.value ?? null,
            o.p === null ? null : o.p.exact ? 1 : 0,
          ]);
        });
      }
      return excerptId;
    }
    for (const r of [articleRow, excerptRow, occurrenceRow]) r.dispose();
    putArticle.finalize();
    putExcerpt.finalize();
    putOccurrence.finalize();
    progress.update(articles.length);
    progress.stop();
    clock.lap('rows');
    // The server's excerpt index, stored here once instead of computed at every start (excerpt-index-data.ts);
    // written before the indexes below so that its arrays are gone before theirs are made (issue 21 session 24:
    // after them, the two were the database phase's peak), and before the full-text index, which the rebuild's
    // worker may still be building. The tables' order in the file is VACUUM INTO's.
    writeExcerptIndex(db, excerptIndex.finish());
    clock.lap('excerpt index');
    if (carry) {
      // The previous database goes before the indexes are built (DETACH needs no open transaction): its page
      // cache is freed for theirs.
      db.exec('COMMIT');
      db.exec('DETACH prev');
      db.exec('BEGIN');
    }
    // The caller's work (the documents) fills the wait when the worker is the longer (its full-text index not ready
    // once this thread's rows are written); otherwise it is done while the worker compacts the database (below).
    let callersWorkDone = false;
    if (help) {
      await new Promise((resolve) => setImmediate(resolve)); // the worker's answers so far, in
      if (help.callersWork === 'with the indexes' || (!help.callersWork && !ftsAnswered)) {
        await help.meanwhile();
        callersWorkDone = true;
        clock.lap("the caller's work");
      }
    }
    const fts = help && (await help.answers.fts);
    let ftsError = fts?.error ?? null;
    if (fts && !ftsError) {
      db.exec('COMMIT');
      try {
        copyFtsIndex(db, help!.ftsFile);
      } catch (err) {
        ftsError = `its copy failed: ${(err as Error).message}`;
      }
      db.exec('BEGIN');
    }
    if (!fts || ftsError) {
      if (ftsError) progress.log(`corpus: full-text index not built by the rebuild worker (${ftsError.split('\n')[0]}); built here`);
      buildFtsIndex(db);
    }
    clock.lap('full-text index');
    const answer = help && (await help.answers.search);
    if (answer && 'error' in answer) progress.log(`corpus: search index not carried over (${answer.error.split('\n')[0]}); read from the full-text index`);
    const carriedIndex = answer && 'rows' in answer ? (writeSearchRows(db, answer.rows), answer.result) : null;
    const search = carriedIndex ?? writeSearchIndex(db, pairs);
    progress.log(`corpus: search index of ${search.terms} terms, ${search.tokens} tokens${carriedIndex ? ` (carried over, ${plan!.fresh.length} new excerpts tokenized, two-word phrases ${carriedIndex.bigrams})` : ''}`);
    db.exec('COMMIT');
    clock.lap('search index');
    const cacheKib = carry ? REBUILD_VACUUM_CACHE_KIB : VACUUM_CACHE_KIB;
    // The caller's work still to do: the worker compacts the database, closed here (all of it is in its file),
    // meanwhile (issue 21 session 27: both were on the rebuild's critical path, one after the other). Otherwise this
    // thread compacts it, its page cache warm.
    let compacted: { error?: string } | null = null;
    if (help && !callersWorkDone) {
      db.close();
      const compacting = help.compact({ from: building, to: path, pageSize: CORPUS_DB_PAGE_SIZE, cacheKib });
      await help.meanwhile();
      clock.lap("the caller's work");
      compacted = (compacting && (await compacting)) ?? { error: 'no worker' };
      if (compacted.error) progress.log(`corpus: the database not compacted by the rebuild worker (${compacted.error.split('\n')[0]}); compacted here`);
    }
    if (db.pointer) vacuumInto(db, path, CORPUS_DB_PAGE_SIZE, cacheKib);
    else if (compacted?.error) compactFile(s, building, path, CORPUS_DB_PAGE_SIZE, cacheKib);
    clock.lap('compaction');
    progress.log(`corpus: database in ${clock}`);
    return { excerpts: excerptId, bytes: statSync(path).size, carried };
  } finally {
    if (db.pointer) db.close();
    if (existsSync(building)) unlinkSync(building);
    rmSync(pairs, { recursive: true, force: true });
  }
}

