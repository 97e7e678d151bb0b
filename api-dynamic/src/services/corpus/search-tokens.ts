/**
 * The tokens of a search term, exactly as FTS5 makes them for `excerpts_fts MATCH '"<text>"'`: the
 * table's tokenizer (unicode61 with remove_diacritics 2) folds case and diacritics and splits on whatever its
 * Unicode tables call a separator. A term's tokens are what the search index looks up.
 *
 * On ASCII text unicode61 is simple (tokens are runs of A–Z, a–z, 0–9, lower-cased), so that is done here.
 * Anything else goes through FTS5 itself: a one-row temporary FTS5 table with the same tokenizer and an
 * `fts5vocab` table over it give back its tokens in order. Imitating unicode61 in JavaScript would differ on
 * characters whose folding or category sqlite's tables and JavaScript's disagree on (İ, ǅ, newer letters).
 */
import type { SqliteDb } from './sqlite.ts';

/** The `tokenize=` clause of `excerpts_fts` ("" when it has none), for temporary tables that must match it. */
export function excerptsTokenizeClause(db: SqliteDb): string {
  const sql = String(db.selectValue("SELECT sql FROM sqlite_master WHERE name = 'excerpts_fts'") ?? '');
  const tokenize = /tokenize\s*=\s*('(?:[^']|'')*')/i.exec(sql)?.[1];
  return tokenize ? `, tokenize=${tokenize}` : '';
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\u0000-\u007f]*$/;

export class SearchTokenizer {
  private ready = false;

  constructor(private readonly db: SqliteDb) {}

  /** The tokens of `text`, in order (repeats kept: a phrase "the the" is two tokens). */
  tokens(text: string): string[] {
    if (ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    return this.fts5Tokens(text);
  }

  /** What FTS5 makes of `text` (also the reference the tests hold the ASCII path to). */
  fts5Tokens(text: string): string[] {
    if (!this.ready) {
      this.db.exec(`CREATE VIRTUAL TABLE temp.query_fts USING fts5(text${excerptsTokenizeClause(this.db)})`);
      this.db.exec('CREATE VIRTUAL TABLE temp.query_vocab USING fts5vocab(temp, query_fts, instance)');
      this.ready = true;
    }
    this.db.exec('DELETE FROM temp.query_fts');
    this.db.exec({ sql: 'INSERT INTO temp.query_fts (rowid, text) VALUES (1, ?)', bind: [text] });
    return this.db.selectValues('SELECT term FROM temp.query_vocab ORDER BY offset') as string[];
  }
}
