/**
 * The corpus search index (`search_terms`, `search_documents`; contracts/corpus/database.ts), written from
 * FTS5's own tokens: every (term, excerpt, offset) FTS5 indexed, read from its index (fts5-instances.ts), so
 * the server's index holds exactly the tokens FTS5 matches on, whatever unicode61 does with a character.
 * Runs after the FTS5 rebuild, on the database being built.
 *
 * A rebuild that carries unchanged articles over (corpus.sqlite.ts, previous-build.ts) carries their postings
 * over too (`carrySearchRows`, in the rebuild's worker thread: rebuild-worker.ts): the previous build's index,
 * re-numbered, merged with the tokens of the new excerpts only, which a small FTS5 table with the same tokenizer
 * gives in a scratch database. Reading every token back from the full index was most of what a rebuild spent on
 * the whole corpus; the result is the same rows in the same order (tested byte for byte against a full build).
 * Either way ends with the two-token phrases (search-bigrams.ts): from the terms just written, or for carried
 * rows from the tokens placed as the terms are made.
 */
import { CORPUS_FTS_TOKENIZE } from '../../../contracts/corpus/database.ts';
import { bigramMinDocs, decodePositions, decodePostings, decodeVarints, encodePostings, encodeTermFlat, encodeVarints } from '../../../contracts/corpus/search-postings.ts';
import type { Sqlite3, SqliteDb } from '../../lib/sqlite.ts';
import { Fts5LayoutError, type OnTerm, readFts5Pages, readFts5Vocab } from './fts5-instances.ts';
import { eachBigram, PAIR_BUDGET, type PlacedTokens, writeSearchBigrams } from './search-bigrams.ts';

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

/** The previous build's search index, read while its database is attached. */
export interface PreviousSearchIndex {
  /** In `ORDER BY term` order (SQLite's binary order: code points). */
  terms: { term: string; docs: number; postings: Uint8Array; positions: Uint8Array; width: number }[];
  /** Token count per previous excerpt (index id − 1). */
  sizes: Int32Array;
}

/** Reads the search index of the database attached as `schema`. */
export function readSearchIndex(db: SqliteDb, schema: string): PreviousSearchIndex {
  const terms: PreviousSearchIndex['terms'] = [];
  for (const [term, docs, postings, positions, width] of db.selectArrays(`SELECT term, docs, postings, positions, offset_width FROM ${schema}.search_terms ORDER BY term`))
    terms.push({ term: term as string, docs: Number(docs), postings: blob(postings), positions: blob(positions), width: Number(width) });
  const [excerpts, sizes] = db.selectArray(`SELECT excerpts, sizes FROM ${schema}.search_documents`) ?? [0, null];
  return { terms, sizes: decodeVarints(blob(sizes), Number(excerpts)) };
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

/**
 * The search tables' rows from the previous build's index and the new excerpts' texts, into `out` (written whole
 * by `writeSearchRows`): `remap[i]` is the new id of previous excerpt i + 1 (0: not carried over), ascending
 * wherever it is not 0; `fresh` are the excerpts written anew. Returns null (making no rows) when the two do not
 * make up excerpts 1 … `excerpts` exactly; the caller then reads the index from FTS5 (`writeSearchIndex`). Needs no
 * connection to the database being built: a rebuild's worker thread makes them while that database is written
 * (rebuild-worker.ts).
 */
export function carrySearchRows(
  s: Sqlite3,
  previous: PreviousSearchIndex,
  remap: Int32Array,
  fresh: readonly { id: number; text: string }[],
  excerpts: number,
  out: { rows: SearchRows },
  /** `fresh`'s tokens, when made already (`tokenizeExcerpts`). */
  freshTokens?: Map<string, FreshTerm>,
): { terms: number; tokens: number } | null {
  if (remap.length !== previous.sizes.length) return null;
  const sizes = new Int32Array(excerpts);
  const seen = new Uint8Array(excerpts + 1);
  let last = 0;
  for (let i = 0; i < remap.length; i++) {
    const id = remap[i]!;
    if (id === 0) continue;
    if (id <= last || id > excerpts) return null;
    last = id;
    seen[id] = 1;
    sizes[id - 1] = previous.sizes[i]!;
  }
  for (const { id } of fresh) {
    if (id < 1 || id > excerpts || seen[id]) return null;
    seen[id] = 1;
  }
  if (seen.reduce((n, v) => n + v, 0) !== excerpts) return null;

  const freshTerms = freshTokens ?? tokenizeExcerpts(s, fresh);
  for (const t of freshTerms.values()) t.ids.forEach((id, k) => (sizes[id - 1]! += t.counts[k]!));
  const byTerm = new Map(previous.terms.map((p) => [p.term, p]));
  const order = [...previous.terms.map((p) => p.term), ...[...freshTerms.keys()].filter((t) => !byTerm.has(t))].sort(compareCodePoints);

  // The tokens put in place as the terms are written, for the two-word phrases (search-bigrams.ts), which
  // would otherwise decode every term again from the rows just written.
  const minDocs = bigramMinDocs(excerpts);
  const start = new Float64Array(excerpts + 1);
  for (let i = 0; i < excerpts; i++) start[i + 1] = start[i]! + sizes[i]!;
  const placed: PlacedTokens = { names: [], common: new Uint8Array(order.length), minDocs, start, tokenAt: new Int32Array(start[excerpts]!).fill(-1) };
  let terms = 0;
  for (const term of order) {
    const old = byTerm.get(term);
    const add = freshTerms.get(term);
    const oldDocs = old ? decodePostings(old.postings, old.docs) : null;
    const oldOffsets = old ? decodePositions(old.positions, old.width) : null;
    const addN = add ? add.ids.length : 0;
    const cap = (old?.docs ?? 0) + addN;
    const ids = new Int32Array(cap);
    const counts = new Int32Array(cap);
    const offsets = new Int32Array((oldOffsets?.length ?? 0) + (add?.offsets.length ?? 0));
    let n = 0;
    let total = 0;
    let oi = 0; // next previous excerpt of the term
    let op = 0; // its first offset
    let fi = 0; // next fresh excerpt of the term
    let fp = 0;
    const oldN = old?.docs ?? 0;
    for (;;) {
      while (oi < oldN && remap[oldDocs!.docs[oi]!] === 0) op += oldDocs!.freq[oi++]!;
      const oldId = oi < oldN ? remap[oldDocs!.docs[oi]!]! : Infinity;
      const addId = fi < addN ? add!.ids[fi]! : Infinity;
      if (oldId === Infinity && addId === Infinity) break;
      if (oldId < addId) {
        const c = oldDocs!.freq[oi++]!;
        ids[n] = oldId;
        counts[n++] = c;
        for (let k = 0; k < c; k++) offsets[total++] = oldOffsets![op++]!; // (a subarray per excerpt costs more than the copy)
      } else {
        const c = add!.counts[fi++]!;
        ids[n] = addId;
        counts[n++] = c;
        for (let k = 0; k < c; k++) offsets[total++] = add!.offsets[fp++]!;
      }
    }
    if (n === 0) continue; // every excerpt holding it is gone, and FTS5 rebuilt from the rows no longer has it
    const { postings, positions, offsetWidth } = encodeTermFlat(ids, counts, offsets, n);
    out.rows.terms.push([term, n, postings, positions, offsetWidth]);
    placed.common[terms] = n >= minDocs ? 1 : 0;
    placed.names.push(term);
    for (let k = 0, o = 0; k < n; k++) {
      const at = start[ids[k]! - 1]!;
      for (let c = 0; c < counts[k]!; c++) placed.tokenAt[at + offsets[o++]!] = terms;
    }
    terms++;
  }
  let tokens = 0;
  for (const v of sizes) tokens += v;
  out.rows.documents = [excerpts, tokens, encodeVarints(sizes)];
  eachBigram({ ...placed, common: placed.common.subarray(0, terms) }, PAIR_BUDGET, (a, b, ids, counts, n) => {
    out.rows.bigrams.push([placed.names[a]!, placed.names[b]!, n, encodePostings(ids, counts, n)]);
  });
  out.rows.bigramMinDocs = minDocs;
  return { terms, tokens };
}
