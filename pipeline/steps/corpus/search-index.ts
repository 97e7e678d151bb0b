/**
 * The corpus search index (`search_terms`, `search_documents`; contracts/corpus/database.ts), written from
 * FTS5's own tokens: every (term, excerpt, offset) FTS5 indexed, read from its index (fts5-instances.ts), so
 * the server's index holds exactly the tokens FTS5 matches on, whatever unicode61 does with a character.
 * Runs after the FTS5 rebuild, on the database being built, and ends with the two-token phrases
 * (search-bigrams.ts), made from the terms just written.
 */
import { encodeTermFlat, encodeVarints } from '../../../contracts/corpus/search-postings.ts';
import type { SqliteDb } from '../../lib/sqlite.ts';
import { Fts5LayoutError, type OnTerm, readFts5Pages, readFts5Vocab } from './fts5-instances.ts';
import { writeSearchBigrams } from './search-bigrams.ts';

/**
 * Fills the search tables from `excerpts_fts`; returns the number of terms and of token instances. FTS5's
 * instances are read from its pages (fts5-instances.ts), or through its vocabulary tables when the pages are not
 * in the layout that reader knows (whatever it wrote is then removed and written again). `scratch`: a directory
 * the two-word phrases may spill to (search-bigrams.ts; made and removed).
 */
export function writeSearchIndex(db: SqliteDb, scratch?: string): { terms: number; tokens: number } {
  // The terms first, in a function of their own: their per-excerpt counts are garbage before the pairs are made.
  const written = writeSearchTerms(db);
  writeSearchBigrams(db, { scratch });
  return written;
}

/** `search_terms` and `search_documents` from FTS5's index. */
function writeSearchTerms(db: SqliteDb): { terms: number; tokens: number } {
  const excerpts = Number(db.selectValue('SELECT count(*) FROM excerpts'));
  if (excerpts > 0 && Number(db.selectValue('SELECT max(id) FROM excerpts')) !== excerpts) throw new Error('excerpt ids are not 1 … n');
  const sizes = new Int32Array(excerpts);
  let tokens = 0;
  let terms = 0;
  const put = db.prepare('INSERT INTO search_terms (term, docs, postings, positions, offset_width) VALUES (?, ?, ?, ?, ?)');
  const onTerm: OnTerm = (term, { ids, counts, offsets, n }) => {
    const { postings, positions, offsetWidth } = encodeTermFlat(ids, counts, offsets, n);
    for (let j = 0; j < n; j++) {
      if (ids[j]! > excerpts) throw new Error(`FTS5 indexes excerpt ${ids[j]}; there are ${excerpts}`);
      sizes[ids[j]! - 1]! += counts[j]!;
      tokens += counts[j]!;
    }
    put.bind([term, n, postings, positions, offsetWidth]).stepReset();
    terms++;
  };
  try {
    try {
      readFts5Pages(db, 'excerpts_fts', onTerm);
    } catch (err) {
      if (!(err instanceof Fts5LayoutError)) throw err;
      db.exec('DELETE FROM search_terms');
      sizes.fill(0);
      tokens = 0;
      terms = 0;
      readFts5Vocab(db, 'excerpts_fts', onTerm);
    }
  } finally {
    put.finalize();
  }
  db.prepare('INSERT INTO search_documents (excerpts, tokens, sizes) VALUES (?, ?, ?)')
    .bind([excerpts, tokens, encodeVarints(sizes)])
    .stepFinalize();
  return { terms, tokens };
}
