/**
 * The corpus database (DECISIONS.md §2: sqlite-wasm with FTS5): its file name and tables, shared by the
 * pipeline that writes it and the server that reads it, so the two cannot disagree on a column.
 *
 * Excerpt ids are assigned in the corpus's listing order (articles by PMCID number, then generated ids;
 * sentences in document order), so `ORDER BY id` is `sort=article`. The full-text index is an external-content
 * FTS5 table over `excerpts.text` (no second copy of the text) with the unicode61 tokenizer folding case and
 * diacritics, so "cafe" finds "café".
 *
 * `search_terms` and `search_documents` are the server's own search index over the same tokens (docs/decisions.md,
 * "Corpus: q is answered by our own index"): every term FTS5 indexed, with the excerpts it occurs in, its counts and
 * token offsets, and every excerpt's token count, read from FTS5 itself at build time
 * (pipeline/steps/corpus/search-index.ts; byte format in search-postings.ts). `docs` is the number of
 * excerpts holding the term, `offset_width` the bytes per offset in `positions`. `search_documents` has one row: the excerpt count, the total token count and the
 * token count of each excerpt, and `bigram_min_docs`. `search_bigrams` (from version 5) holds every
 * two-token phrase of the excerpts with a token in at least `bigram_min_docs` excerpts: its excerpts and counts
 * (postings format of search-postings.ts), so a quoted two-word phrase is one list (pipeline/steps/corpus/search-bigrams.ts).
 *
 * `excerpt_index` is the server's excerpt index (occurrence codes, masks, phrase lists, sort orders), computed
 * from the rows at build time and stored as binary chunks (format and version in excerpt-index-data.ts), so the
 * server reads it at start instead of computing it.
 */

/** Path of the database inside a build directory. */
export const CORPUS_DB_FILE = 'corpus/corpus.sqlite';

/** The database file's page size (the server reads it page by page through its file VFS). */
export const CORPUS_DB_PAGE_SIZE = 4096;

/** Bumped whenever a table changes; the server refuses a database of another version. */
export const CORPUS_DB_VERSION = '5';

/** The full-text index's tokenizer (FTS5 `tokenize=` option): the search index holds exactly its tokens. */
export const CORPUS_FTS_TOKENIZE = 'unicode61 remove_diacritics 2';

/**
 * The full-text index: external content over `excerpts.text`. Its own statement, because a rebuild also makes it
 * in a scratch file beside an `excerpts (id, text)` table (pipeline/steps/corpus/fts-index.ts).
 */
export const CORPUS_FTS_TABLE = `CREATE VIRTUAL TABLE excerpts_fts USING fts5(text, content='excerpts', content_rowid='id', tokenize='${CORPUS_FTS_TOKENIZE}');`;

export const CORPUS_DB_SCHEMA = `
CREATE TABLE info (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE articles (
  id INTEGER PRIMARY KEY,
  pmcid TEXT NOT NULL UNIQUE,
  id_kind TEXT NOT NULL,
  pmid TEXT, doi TEXT, title TEXT, journal TEXT, year INTEGER
);
CREATE TABLE excerpts (
  id INTEGER PRIMARY KEY,
  article INTEGER NOT NULL REFERENCES articles(id),
  key TEXT NOT NULL,
  section TEXT NOT NULL,
  section_title TEXT NOT NULL,
  label TEXT,
  paragraph INTEGER NOT NULL,
  sentence INTEGER NOT NULL,
  text TEXT NOT NULL,
  also_in TEXT NOT NULL
);
CREATE TABLE occurrences (
  excerpt INTEGER NOT NULL REFERENCES excerpts(id),
  ordinal INTEGER NOT NULL,
  phrase TEXT NOT NULL,
  start INTEGER NOT NULL,
  "end" INTEGER NOT NULL,
  status TEXT NOT NULL,
  band TEXT,
  at_threshold INTEGER NOT NULL,
  inequality TEXT,
  p_text TEXT, p_start INTEGER, p_end INTEGER, p_operator TEXT, p_value REAL, p_exact INTEGER,
  PRIMARY KEY (excerpt, ordinal)
) WITHOUT ROWID;
${CORPUS_FTS_TABLE}
CREATE TABLE search_terms (
  term TEXT PRIMARY KEY,
  docs INTEGER NOT NULL,
  postings BLOB NOT NULL,
  positions BLOB NOT NULL,
  offset_width INTEGER NOT NULL
);
CREATE TABLE search_documents (
  excerpts INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  sizes BLOB NOT NULL,
  bigram_min_docs INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE search_bigrams (
  first TEXT NOT NULL,
  second TEXT NOT NULL,
  docs INTEGER NOT NULL,
  postings BLOB NOT NULL,
  PRIMARY KEY (first, second)
) WITHOUT ROWID;
CREATE TABLE excerpt_index (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data BLOB NOT NULL);
`;
