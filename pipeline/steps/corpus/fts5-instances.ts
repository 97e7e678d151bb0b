/**
 * Every term of an FTS5 index with every (excerpt, offset) it was indexed at, in the index's own order (term
 * bytes, then excerpt, then offset): what the server's search index is made of (search-index.ts). Two readers
 * give the same: `readFts5Pages` decodes the index's pages itself, `readFts5Vocab` steps through FTS5's
 * `instance` vocabulary table; the first is used, the second where the first does not know the layout (and,
 * in the tests, as the first's oracle). The vocabulary table makes a row per token through
 * SQLite's virtual-table machinery, about four times the CPU time of decoding the pages (~5 bytes a token;
 * docs/decisions.md has the measurement).
 *
 * `readFts5Pages` reads only the layout a freshly rebuilt and optimised index has: a single segment of leaf
 * pages (rows `segid << 37 | page` of the `_data` table, page numbers consecutive), one column, no delete
 * markers, no prefix indexes. The page format (SQLite's fts5_index.c, "Segment leaves"): a 4-byte header
 * (big-endian: the offset of the page's first excerpt id when it comes before the page's first term, else 0;
 * the offset of the page footer), term/doclist data, then the footer, the offsets of the terms that start on
 * the page (the first absolute, then deltas). A term is its size and bytes when it is the first on its page,
 * else the number of bytes it shares with the previous term and its new bytes; every term starts with the
 * index's byte ('0' for the main index). A doclist is excerpt ids (the first of a doclist or of a page whole,
 * then deltas), each followed by its position list: its size in bytes × 2 (+1 for a delete marker), then its
 * offsets, each as offset − previous + 2 (the previous being 0 at the start; 1 would start another column).
 * Numbers are SQLite varints (seven bits a byte, most significant first). A position list, or an entry between
 * its id and its size, may be cut at any varint boundary and go on at the start of the next page. Anything
 * else (another layout, or bytes that do not add up) throws an Fts5LayoutError, before or after some terms were
 * reported: the caller then starts again with `readFts5Vocab`.
 */
import { loadedSqlite3, type SqliteDb } from '../../lib/sqlite.ts';

/** The index is not in the layout this reader knows; nothing it reported should be kept. */
export class Fts5LayoutError extends Error {}

/** One term's instances, flat: excerpt ids ascending, each one's count, offsets excerpt after excerpt (`k` of them). */
export interface TermInstances {
  ids: Int32Array;
  counts: Int32Array;
  offsets: Int32Array;
  n: number;
  k: number;
}

/** The main index's terms start with this byte (prefix indexes with others). */
const MAIN_PREFIX = 0x30;
const SEGMENT_SHIFT = 2 ** 37;
const PAGE_BITS = 2 ** 31;

/** Called with each term (its text) and its instances, in the index's order; the arrays are reused between calls. */
export type OnTerm = (term: string, t: TermInstances) => void;

/** A term's bytes as text; bytes that are not UTF-8 are left to SQLite's own reading (`readFts5Vocab`). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Calls `onTerm` with each term of the FTS5 table `table`'s index, read from its pages. Throws Fts5LayoutError
 * when the index is not one segment of plain leaves or its bytes are not what this reader expects.
 */
export function readFts5Pages(db: SqliteDb, table: string, onTerm: OnTerm): void {
  const fail = (why: string): never => {
    throw new Fts5LayoutError(`${table}: ${why}`);
  };
  // Leaves only: height and doclist-index bits clear (the doclist indexes are not needed to read in order).
  const read = db.prepare(`SELECT id, block FROM "${table}_data" WHERE id >= ${SEGMENT_SHIFT} AND ((id / ${PAGE_BITS}) % 64) = 0 ORDER BY id`);
  const t: TermInstances = { ids: new Int32Array(1024), counts: new Int32Array(1024), offsets: new Int32Array(4096), n: 0, k: 0 };
  let term = new Uint8Array(64);
  let termLength = 0;
  let haveTerm = false;
  let segment = -1;
  let lastPage = 0;
  // Across pages: the excerpt id last read, whether the next id is a doclist's first, and the position list
  // being read (bytes left, previous offset).
  let rowid = 0;
  let firstInDoclist = false;
  let poslistLeft = 0;
  let position = 0;
  /** Where a varint cut by the page end continues (an entry's size after its id). */
  let needSize = false;
  const emit = () => {
    if (!haveTerm) return;
    if (termLength === 0 || term[0] !== MAIN_PREFIX) fail('a term of another index (prefix index) or an empty term');
    if (t.n === 0) fail('a term without instances');
    let text: string;
    try {
      text = UTF8.decode(term.subarray(1, termLength));
    } catch {
      return fail('a term that is not UTF-8');
    }
    onTerm(text, t);
    t.n = 0;
    t.k = 0;
  };
  const addInstance = (offset: number) => {
    if (t.k === t.offsets.length) t.offsets = grow(t.offsets);
    t.offsets[t.k++] = offset;
    t.counts[t.n - 1]!++;
  };
  const addRowid = (id: number) => {
    if (t.n > 0 && id <= t.ids[t.n - 1]!) fail(`excerpt ids not ascending within a term`);
    if (id < 1 || id > 0x7fffffff) fail(`excerpt id ${id} out of range`);
    if (t.n === t.ids.length) {
      t.ids = grow(t.ids);
      t.counts = grow(t.counts);
    }
    t.ids[t.n] = id;
    t.counts[t.n++] = 0;
  };
  try {
    while (read.step()) {
      const id = Number(read.get(0));
      const page = read.get(1);
      if (!(page instanceof Uint8Array) || page.length < 4) fail(`leaf ${id}: not a page`);
      const b = page as Uint8Array;
      const seg = Math.floor(id / SEGMENT_SHIFT);
      const pgno = id % PAGE_BITS;
      if (segment === -1) segment = seg;
      else if (seg !== segment) fail('more than one segment');
      if (lastPage !== 0 && pgno !== lastPage + 1) fail(`leaf pages ${lastPage} and ${pgno} are not consecutive`);
      lastPage = pgno;
      const rowidAt = (b[0]! << 8) | b[1]!;
      const end = (b[2]! << 8) | b[3]!;
      if (end < 4 || end > b.length) fail(`leaf ${pgno}: footer offset ${end} out of the page`);
      // The footer: where each term starting on this page is.
      const termsAt: number[] = [];
      for (let i = end, at = 0; i < b.length;) {
        let v = 0;
        let c: number;
        let bytes = 0;
        do {
          if (i >= b.length || ++bytes > 5) fail(`leaf ${pgno}: footer cut`);
          c = b[i++]!;
          v = v * 128 + (c & 0x7f);
        } while (c >= 0x80);
        at += v;
        termsAt.push(at);
      }
      let nextTerm = 0;
      let idOnPage = false;
      let i = 4;
      /**
       * Reads a varint within the data area (a varint is never cut by a page end): SQLite's, most significant
       * seven bits first; at most five bytes here (every value is below 2^35; a longer one is not ours).
       */
      const varint = (): number => {
        let v = 0;
        let c: number;
        let bytes = 0;
        do {
          if (i >= end || ++bytes > 5) fail(`leaf ${pgno}: a varint runs past the data or is too long`);
          c = b[i++]!;
          v = v * 128 + (c & 0x7f);
        } while (c >= 0x80);
        return v;
      };
      while (i < end) {
        if (needSize) {
          // An entry's position list size, after its id at the end of the previous page.
          const size = varint();
          if (size & 1) fail('a delete marker');
          poslistLeft = size / 2;
          position = 0;
          needSize = false;
          continue;
        }
        if (poslistLeft > 0) {
          const stop = i + Math.min(poslistLeft, end - i);
          if (nextTerm < termsAt.length && termsAt[nextTerm]! < stop) fail(`leaf ${pgno}: a term inside a position list`);
          if (rowidAt !== 0 && i < rowidAt && rowidAt < stop) fail(`leaf ${pgno}: an entry inside a position list`);
          const from = i;
          while (i < stop) {
            const v = varint();
            if (v < 2) fail(v === 1 ? 'a second column' : 'a zero in a position list');
            position += v - 2;
            addInstance(position);
          }
          if (i !== stop) fail(`leaf ${pgno}: a position list's varint runs past its size`);
          poslistLeft -= i - from;
          continue;
        }
        if (nextTerm < termsAt.length && termsAt[nextTerm] === i) {
          emit();
          let keep = 0;
          if (nextTerm > 0) {
            keep = varint();
            if (keep > termLength) fail(`leaf ${pgno}: a term sharing more bytes than the previous has`);
          } else if (i === 4 && rowidAt !== 0) fail(`leaf ${pgno}: an entry and a term both first`);
          const fresh = varint();
          if (i + fresh > end) fail(`leaf ${pgno}: a term runs past the data`);
          if (keep + fresh > term.length) {
            const bigger = new Uint8Array(Math.max(keep + fresh, term.length * 2));
            bigger.set(term.subarray(0, keep));
            term = bigger;
          }
          // After the bytes it shares with the previous term, the new term must sort after it (memcmp).
          if (haveTerm && compareTail(term, keep, termLength, b, i, i + fresh) >= 0) fail('terms not ascending');
          term.set(b.subarray(i, i + fresh), keep);
          termLength = keep + fresh;
          haveTerm = true;
          i += fresh;
          nextTerm++;
          firstInDoclist = true;
          continue;
        }
        if (!haveTerm) fail(`leaf ${pgno}: an entry before any term`);
        if (nextTerm < termsAt.length && termsAt[nextTerm]! < i) fail(`leaf ${pgno}: a term offset inside an entry`);
        // The first id on a page is written whole and the header points at it, unless a term came first.
        if (!firstInDoclist && !idOnPage && i !== rowidAt) fail(`leaf ${pgno}: its first excerpt id is not where its header says`);
        const absolute = firstInDoclist || i === rowidAt;
        idOnPage = true;
        const v = varint();
        rowid = absolute ? v : rowid + v;
        if (!absolute && v === 0) fail(`leaf ${pgno}: a zero excerpt id delta`);
        firstInDoclist = false;
        addRowid(rowid);
        if (i === end) {
          needSize = true;
          continue;
        }
        const size = varint();
        if (size & 1) fail('a delete marker');
        poslistLeft = size / 2;
        position = 0;
        if (poslistLeft === 0) fail(`leaf ${pgno}: an empty position list`);
      }
      if (nextTerm !== termsAt.length) fail(`leaf ${pgno}: ${termsAt.length - nextTerm} terms of the footer not reached`);
    }
    if (poslistLeft > 0 || needSize) fail('the last position list is cut');
    emit();
  } finally {
    read.finalize();
  }
}

const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
};

/** memcmp order of `a[aFrom … aTo)` and `b[bFrom … bTo)`. */
function compareTail(a: Uint8Array, aFrom: number, aTo: number, b: Uint8Array, bFrom: number, bTo: number): number {
  const n = Math.min(aTo - aFrom, bTo - bFrom);
  for (let k = 0; k < n; k++) if (a[aFrom + k] !== b[bFrom + k]) return a[aFrom + k]! - b[bFrom + k]!;
  return aTo - aFrom - (bTo - bFrom);
}

/** The C functions `readFts5Vocab` steps with, as the wasm module exports them (pointers as numbers). */
interface ColumnExports {
  sqlite3_step(p: number): number;
  sqlite3_reset(p: number): number;
  sqlite3_column_int(p: number, i: number): number;
}
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;

/**
 * Calls `onTerm` with each term of the FTS5 table `table` (in the main schema) and its instances, read through
 * FTS5's `row` (the terms) and `instance` vocabulary tables, each term's instances stepped through with
 * sqlite-wasm's exported C functions, two integers a row (a `group_concat` of them as text, parsed in JS,
 * took twice as long; selecting the term with every row would copy its text at every row).
 */
export function readFts5Vocab(db: SqliteDb, table: string, onTerm: OnTerm): void {
  const s = loadedSqlite3();
  const x = s.wasm.exports as unknown as ColumnExports;
  db.exec(`CREATE VIRTUAL TABLE temp.fts5_vocab_rows USING fts5vocab(main, "${table}", row)`);
  db.exec(`CREATE VIRTUAL TABLE temp.fts5_vocab_instances USING fts5vocab(main, "${table}", instance)`);
  const read = db.prepare('SELECT doc, "offset" FROM temp.fts5_vocab_instances WHERE term = ?');
  const p = Number(read.pointer);
  try {
    const t: TermInstances = { ids: new Int32Array(1024), counts: new Int32Array(1024), offsets: new Int32Array(4096), n: 0, k: 0 };
    for (const term of db.selectValues('SELECT term FROM temp.fts5_vocab_rows ORDER BY term') as string[]) {
      read.bind([term]);
      t.n = 0;
      t.k = 0;
      let rc: number;
      while ((rc = x.sqlite3_step(p)) === SQLITE_ROW) {
        const doc = x.sqlite3_column_int(p, 0);
        if (t.n > 0 && t.ids[t.n - 1] === doc) t.counts[t.n - 1]!++;
        else {
          if (t.n === t.ids.length) {
            t.ids = grow(t.ids);
            t.counts = grow(t.counts);
          }
          t.ids[t.n] = doc;
          t.counts[t.n++] = 1;
        }
        if (t.k === t.offsets.length) t.offsets = grow(t.offsets);
        t.offsets[t.k++] = x.sqlite3_column_int(p, 1);
      }
      x.sqlite3_reset(p);
      if (rc !== SQLITE_DONE) throw new Error(`reading FTS5's instances of "${term}": sqlite3 result code ${rc}: ${s.capi.sqlite3_errmsg(db.pointer!)}`);
      onTerm(term, t);
    }
  } finally {
    read.finalize();
    db.exec('DROP TABLE temp.fts5_vocab_rows; DROP TABLE temp.fts5_vocab_instances;');
  }
}
