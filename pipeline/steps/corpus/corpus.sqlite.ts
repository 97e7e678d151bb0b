/**
 * Corpus step 2: the corpus database (contracts/corpus/database.ts) from the extracted articles. Built in a
 * file with sqlite-wasm through the file VFS (on disk as it grows, not in the wasm heap; pipeline/lib/sqlite.ts)
 * in one transaction, the full-text index rebuilt and optimised once at the end, the server's search index read
 * from it (search-index.ts) and its excerpt index gathered as the rows are written (excerpt-index-builder.ts),
 * then compacted into the output file with VACUUM INTO.
 */
import { existsSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { CORPUS_DB_PAGE_SIZE, CORPUS_DB_SCHEMA, CORPUS_DB_VERSION } from '../../../contracts/corpus/database.ts';
import { writeExcerptIndex } from '../../../contracts/corpus/excerpt-index-data.ts';
import type { ExtractedArticle } from '../../corpus/extract.ts';
import { createDatabase, RowInserter, sqlite3, type SqliteDb, vacuumInto } from '../../lib/sqlite.ts';
import { PhaseClock } from '../../lib/phase-clock.ts';
import type { Progress } from '../../lib/progress.ts';
import type { ArticleSummary } from './article-summary.ts';
import { ExcerptIndexBuilder } from './excerpt-index-builder.ts';
import { writeSearchIndex } from './search-index.ts';

export interface CorpusDbInfo {
  snapshot: string;
  lexiconVersion: string;
  lexiconSource: string;
  /** Every canonical phrase of the lexicon (the values `phrase=` accepts). */
  phrases: readonly string[];
}

/**
 * FTS5's pending-terms limit while the full-text index is rebuilt: 8 MiB of the wasm heap, which never shrinks (a
 * larger limit, once reached, stays for the rest of the step; docs/decisions.md).
 */
const FTS_PENDING_BYTES = 8 << 20;

/** Builds `excerpts_fts` over the rows of `excerpts` (inside the caller's transaction): FTS5's rebuild, then its optimize. */
export function buildFtsIndex(db: SqliteDb): void {
  // FTS5 writes its pending terms out as a new segment every `hashsize` bytes (1 MiB by default) and the
  // optimize merges the segments: with FTS_PENDING_BYTES there are few to merge (docs/decisions.md: rebuild and
  // optimize twice as fast). A setting, kept in the table's config: the index is the same.
  db.exec(`INSERT INTO excerpts_fts (excerpts_fts, rank) VALUES ('hashsize', ${FTS_PENDING_BYTES})`);
  db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('rebuild')");
  db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('optimize')");
}

/**
 * Writes the database for `articles` (already in listing order) to `path`; returns the excerpt count and the
 * file's size. `articles` may be summaries (extract-corpus.ts) when `load` gives the whole article of an index;
 * they are then loaded one at a time.
 */
export async function writeCorpusDatabase<A extends ArticleSummary>(
  path: string,
  articles: ArrayLike<A>,
  info: CorpusDbInfo,
  progress: Progress,
  ...[load]: A extends ExtractedArticle ? [load?: (index: number) => ExtractedArticle] : [load: (index: number) => ExtractedArticle]
): Promise<{ excerpts: number; bytes: number }> {
  const s = await sqlite3();
  const clock = new PhaseClock();
  // Built in a file beside the output (on disk as it grows, through the file VFS), then compacted into `path`.
  const building = `${path}.building`;
  // The two-word phrases' scratch files (search-bigrams.ts); a run killed while writing them left them behind.
  const pairs = `${path}.pairs`;
  rmSync(pairs, { recursive: true, force: true });
  const db = createDatabase(s, building);
  try {
    db.exec(CORPUS_DB_SCHEMA);
    // The server's excerpt index, gathered as the rows are written (excerpt-index-builder.ts).
    const excerptIndex = new ExcerptIndexBuilder(info.phrases);
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
    const putArticle = db.prepare('INSERT INTO articles (id, pmcid, id_kind, pmid, doi, title, journal, year) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const putExcerpt = db.prepare(
      'INSERT INTO excerpts (id, article, key, section, section_title, label, paragraph, sentence, text, also_in) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const putOccurrence = db.prepare(
      'INSERT INTO occurrences (excerpt, ordinal, phrase, start, "end", status, band, at_threshold, inequality, p_text, p_start, p_end, p_operator, p_value, p_exact) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // Rows written from JS go through RowInserter (pipeline/lib/sqlite.ts): the same values bound, cheaper.
    const articleRow = new RowInserter(s, db, putArticle);
    const excerptRow = new RowInserter(s, db, putExcerpt);
    const occurrenceRow = new RowInserter(s, db, putOccurrence);
    progress.start('corpus: database', articles.length);
    let excerptId = 0;
    for (let i = 0; i < articles.length; i++) {
      const a = load ? load(i) : (articles[i] as unknown as ExtractedArticle);
      const articleId = i + 1;
      articleRow.run([articleId, a.pmcid, a.id_kind, a.pmid, a.doi, a.title, a.journal, a.year]);
      for (const e of a.excerpts) {
        excerptId++;
        excerptRow.run([excerptId, articleId, e.id, e.section, e.section_title, e.label, e.paragraph, e.sentence, e.text, JSON.stringify(e.also_in)]);
        excerptIndex.addExcerpt(i, a.year, e);
        e.occurrences.forEach((o, k) => {
          occurrenceRow.run([
            excerptId,
            k,
            o.phrase,
            o.start,
            o.end,
            o.status,
            o.band,
            o.at_threshold ? 1 : 0,
            o.inequality,
            o.p?.text ?? null,
            o.p?.start ?? null,
            o.p?.end ?? null,
            o.p?.operator ?? null,
            o.p?.value ?? null,
            o.p === null ? null : o.p.exact ? 1 : 0,
          ]);
        });
      }
      if ((i + 1) % 1000 === 0) progress.update(i + 1);
    }
    for (const r of [articleRow, excerptRow, occurrenceRow]) r.dispose();
    putArticle.finalize();
    putExcerpt.finalize();
    putOccurrence.finalize();
    progress.update(articles.length);
    progress.stop();
    clock.lap('rows');
    // The server's excerpt index, stored here once instead of computed at every start (excerpt-index-data.ts);
    // written before the indexes below so that its arrays are gone before theirs are made (after them, the two
    // were the database phase's peak). The tables' order in the file is VACUUM INTO's.
    writeExcerptIndex(db, excerptIndex.finish());
    clock.lap('excerpt index');
    buildFtsIndex(db);
    clock.lap('full-text index');
    const search = writeSearchIndex(db, pairs);
    progress.log(`corpus: search index of ${search.terms} terms, ${search.tokens} tokens`);
    db.exec('COMMIT');
    clock.lap('search index');
    vacuumInto(db, path, CORPUS_DB_PAGE_SIZE);
    clock.lap('compaction');
    progress.log(`corpus: database in ${clock}`);
    return { excerpts: excerptId, bytes: statSync(path).size };
  } finally {
    if (db.pointer) db.close();
    if (existsSync(building)) unlinkSync(building);
    rmSync(pairs, { recursive: true, force: true });
  }
}
