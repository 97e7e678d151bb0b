/**
 * The corpus search index (`search_terms`, `search_documents`; contracts/corpus/database.ts), written from
 * FTS5's own tokens: every (term, excerpt, offset) FTS5 indexed, read from its index (fts5-instances.ts), so
 * the server's index holds exactly the tokens FTS5 matches on, whatever unicode61 does with a character.
 * Runs after the FTS5 rebuild, on the database being built.
 *
 * A rebuild that carries unchanged articles over (corpus.sqlite.ts, previous-build.ts) carries their postings
 * over too (search-carry.ts, in the rebuild's worker thread: rebuild-worker.ts): the previous build's index,
 * re-numbered, merged with the tokens of the new excerpts only, which a small FTS5 table with the same tokenizer
 * gives here (`tokenizeExcerpts`). Reading every token back from the full index was most of what a rebuild spent on
 * the whole corpus; the result is the same rows in the same order (tested byte for byte against a full build).
 * Either way ends with the two-token phrases (search-bigrams.ts): from the terms just written, or carried over.
 */
import { CORPUS_FTS_TOKENIZE } from '../../../contracts/corpus/database.ts';
import { decodeVarints, encodeTermFlat, encodeVarints } from '../../../contracts/corpus/search-postings.ts';
import type { Sqlite3, SqliteDb } from '../../lib/sqlite.ts';
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

/** The previous build's search index, read while its database is attached (search-carry.ts carries it over). */
export interface PreviousSearchIndex {
  /** In `ORDER BY term` order (SQLite's binary order: code points). */
  terms: { term: string; docs: number; postings: Uint8Array; positions: Uint8Array; width: number }[];
  /** Token count per previous excerpt (index id − 1). */
  sizes: Int32Array;
  /** Its two-word phrases, in (first, second) order (SQLite's binary order), and the docs that made a term common. */
  bigrams: { first: string; second: string; docs: number; postings: Uint8Array }[];
  bigramMinDocs: number;
}

/** Reads the search index of the database attached as `schema`. */
export function readSearchIndex(db: SqliteDb, schema: string): PreviousSearchIndex {
  const terms: PreviousSearchIndex['terms'] = [];
  for (const [term, docs, postings, positions, width] of db.selectArrays(`SELECT term, docs, postings, positions, offset_width FROM ${schema}.search_terms ORDER BY term`))
    terms.push({ term: term as string, docs: Number(docs), postings: blob(postings), positions: blob(positions), width: Number(width) });
  const bigrams: PreviousSearchIndex['bigrams'] = [];
  for (const [first, second, docs, postings] of db.selectArrays(`SELECT first, second, docs, postings FROM ${schema}.search_bigrams ORDER BY first, second`))
    bigrams.push({ first: first as string, second: second as string, docs: Number(docs), postings: blob(postings) });
  const [excerpts, sizes, minDocs] = db.selectArray(`SELECT excerpts, sizes, bigram_min_docs FROM ${schema}.search_documents`) ?? [0, null, 0];
  return { terms, sizes: decodeVarints(blob(sizes), Number(excerpts)), bigrams, bigramMinDocs: Number(minDocs) };
}

const blob = (v: unknown): Uint8Array => (v instanceof Uint8Array ? v : new Uint8Array(0)); // SQLite gives null for an empty blob

/** SQLite's binary order of two texts (UTF-8 bytes, i.e. code points), which JS's UTF-16 `<` is not beyond U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  const sx = x >= 0xd800 && x <= 0xdfff;
  const sy = y >= 0xd800 && y <= 0xdfff;
  // A surrogate (a code point above U+FFFF) sorts after every unit of U+E000 … U+FFFF.
  if (sx !== sy && (sx ? y : x) >= 0xe000) return sx ? 1 : -1;
  return x - y;
}

/** Per term, the tokens of some excerpts: ids ascending, counts, offsets excerpt after excerpt. */
export interface FreshTerm {
  ids: number[];
  counts: number[];
  offsets: number[];
}

/**
 * The FTS5 tokens of `texts` (excerpt id → text), tokenized by FTS5 itself in a scratch database. A rebuild's main
 * thread makes them for its worker (rebuild-worker.ts) while the worker builds the full-text index: the worker's
 * part is the longer.
 */
export function tokenizeExcerpts(s: Sqlite3, texts: readonly { id: number; text: string }[]): Map<string, FreshTerm> {
  const rows = new Map<string, [number, number][]>();
  for (let from = 0; from < texts.length; from += TOKENIZE_BATCH) tokenizeBatch(s, texts.slice(from, from + TOKENIZE_BATCH), rows);
  const out = new Map<string, FreshTerm>();
  for (const [term, list] of rows) {
    list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const t: FreshTerm = { ids: [], counts: [], offsets: [] };
    for (const [id, offset] of list) {
      if (t.ids.at(-1) === id) t.counts[t.counts.length - 1]!++;
      else {
        t.ids.push(id);
        t.counts.push(1);
      }
      t.offsets.push(offset);
    }
    out.set(term, t);
  }
  return out;
}

/**
 * Excerpts tokenized in one scratch table: their instances are read as one text, which must stay far below
 * SQLite's longest value (1e9 bytes; ~20 bytes an instance, ~25 instances an excerpt: ~10 MB here).
 */
const TOKENIZE_BATCH = 20_000;

/** Adds the (term, excerpt, offset) instances of `texts` to `rows`, unsorted. */
function tokenizeBatch(s: Sqlite3, texts: readonly { id: number; text: string }[], rows: Map<string, [number, number][]>): void {
  const scratch = new s.oo1.DB(':memory:');
  try {
    scratch.exec(`CREATE VIRTUAL TABLE fresh USING fts5(text, tokenize='${CORPUS_FTS_TOKENIZE}')`);
    scratch.exec('BEGIN');
    const put = scratch.prepare('INSERT INTO fresh (rowid, text) VALUES (?, ?)');
    for (const { id, text } of texts) put.bind([id, text]).stepReset();
    put.finalize();
    scratch.exec('COMMIT');
    scratch.exec('CREATE VIRTUAL TABLE fresh_instances USING fts5vocab(fresh, instance)');
    // Every instance as one text, a line each (`term doc offset`: a token holds no space or line break), read
    // once: stepping the rows and reading their cells one by one from JS cost several times as much.
    const all = String(scratch.selectValue(`SELECT group_concat(term || ' ' || doc || ' ' || "offset", char(10)) FROM fresh_instances`) ?? '');
    for (let at = 0; at < all.length; ) {
      let end = all.indexOf('\n', at);
      if (end < 0) end = all.length;
      const second = all.lastIndexOf(' ', end - 1);
      const first = all.lastIndexOf(' ', second - 1);
      const term = all.slice(at, first);
      let list = rows.get(term);
      if (!list) rows.set(term, (list = []));
      list.push([Number(all.slice(first + 1, second)), Number(all.slice(second + 1, end))]);
      at = end + 1;
    }
  } finally {
    scratch.close();
  }
}

/** The search tables' rows, in the order they are written (search_terms' rowids follow it). */
export interface SearchRows {
  terms: [term: string, docs: number, postings: Uint8Array, positions: Uint8Array, width: number][];
  documents: [excerpts: number, tokens: number, sizes: Uint8Array];
  bigrams: [first: string, second: string, docs: number, postings: Uint8Array][];
  bigramMinDocs: number;
}

/** A list of search rows being made (by `carrySearchRows`, possibly in another thread), then written whole. */
export function collectSearchRows(): { rows: SearchRows } {
  return { rows: { terms: [], documents: [0, 0, new Uint8Array(0)], bigrams: [], bigramMinDocs: 0 } };
}

/** Writes rows made by `carrySearchRows` into the (empty) search tables. */
export function writeSearchRows(db: SqliteDb, rows: SearchRows): void {
  const put = db.prepare('INSERT INTO search_terms (term, docs, postings, positions, offset_width) VALUES (?, ?, ?, ?, ?)');
  try {
    for (const r of rows.terms) put.bind(r).stepReset();
  } finally {
    put.finalize();
  }
  db.prepare('INSERT INTO search_documents (excerpts, tokens, sizes) VALUES (?, ?, ?)').bind(rows.documents).stepFinalize();
  const pair = db.prepare('INSERT INTO search_bigrams (first, second, docs, postings) VALUES (?, ?, ?, ?)');
  try {
    for (const r of rows.bigrams) pair.bind(r).stepReset();
  } finally {
    pair.finalize();
  }
  db.prepare('UPDATE search_documents SET bigram_min_docs = ?').bind([rows.bigramMinDocs]).stepFinalize();
}
