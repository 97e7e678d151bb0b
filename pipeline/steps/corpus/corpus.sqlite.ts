/**
 * Corpus step 2: the corpus database (contracts/corpus/database.ts) from the extracted articles. Built in
 * memory with sqlite-wasm in one transaction, the full-text index rebuilt and optimised once at the end
 * (cheaper than indexing row by row), the server's search index read from it (search-index.ts), then
 * written out as a file.
 */
import { writeFileSync } from 'node:fs';
import { CORPUS_DB_SCHEMA, CORPUS_DB_VERSION } from '../../../contracts/corpus/database.ts';
import type { ExtractedArticle } from '../../corpus/extract.ts';
import { exportDatabase, sqlite3 } from '../../lib/sqlite.ts';
import type { Progress } from '../../lib/progress.ts';
import { writeSearchIndex } from './search-index.ts';

export interface CorpusDbInfo {
  snapshot: string;
  lexiconVersion: string;
  lexiconSource: string;
  /** Every canonical phrase of the lexicon (the values `phrase=` accepts). */
  phrases: readonly string[];
}

/** Writes the database for `articles` (already in listing order) to `path`; returns the excerpt count. */
export async function writeCorpusDatabase(
  path: string,
  articles: readonly ExtractedArticle[],
  info: CorpusDbInfo,
  progress: Progress,
): Promise<{ excerpts: number; bytes: number }> {
  const s = await sqlite3();
  const db = new s.oo1.DB(':memory:');
  try {
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;');
    db.exec(CORPUS_DB_SCHEMA);
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
    progress.start('corpus: database', articles.length);
    let excerptId = 0;
    articles.forEach((a, i) => {
      const articleId = i + 1;
      putArticle.bind([articleId, a.pmcid, a.id_kind, a.pmid, a.doi, a.title, a.journal, a.year]).stepReset();
      for (const e of a.excerpts) {
        excerptId++;
        putExcerpt
          .bind([excerptId, articleId, e.id, e.section, e.section_title, e.label, e.paragraph, e.sentence, e.text, JSON.stringify(e.also_in)])
          .stepReset();
        e.occurrences.forEach((o, k) => {
          putOccurrence
            .bind([
              excerptId, k, o.phrase, o.start, o.end, o.status, o.band, o.at_threshold ? 1 : 0, o.inequality,
              o.p?.text ?? null, o.p?.start ?? null, o.p?.end ?? null, o.p?.operator ?? null, o.p?.value ?? null,
              o.p === null ? null : o.p.exact ? 1 : 0,
            ])
            .stepReset();
        });
      }
      if (i % 1000 === 999) progress.update(i + 1);
    });
    putArticle.finalize();
    putExcerpt.finalize();
    putOccurrence.finalize();
    progress.update(articles.length);
    progress.stop();
    db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('rebuild')");
    db.exec("INSERT INTO excerpts_fts (excerpts_fts) VALUES ('optimize')");
    const search = writeSearchIndex(db);
    progress.log(`corpus: search index of ${search.terms} terms, ${search.tokens} tokens`);
    db.exec('COMMIT');
    db.exec('VACUUM');
    const bytes = exportDatabase(s, db);
    writeFileSync(path, bytes);
    return { excerpts: excerptId, bytes: bytes.length };
  } finally {
    db.close();
  }
}
