/**
 * The server's excerpt index (contracts/corpus/excerpt-index-data.ts), gathered while the database's rows are
 * written instead of read back from them afterwards: reading every excerpt and occurrence back cell by cell
 * through sqlite-wasm's binding was the largest part of a rebuild after a daily package (issue 21 session 23:
 * 3.9 s of 21 s at 100,000 articles). Excerpts written from JS give their values as they are bound; excerpts
 * carried over from the previous build (corpus.sqlite.ts) give theirs from the previous build's stored index,
 * with only the p-values that index does not keep (bounds, which the p orders use) read from its rows, once. The
 * result is what `computeExcerptIndex` gives over the finished rows (tested: test/pipeline/corpus/).
 */
import {
  completeExcerptIndex,
  type ExcerptIndexData,
  type ExcerptIndexRows,
  occurrenceCodes,
  readExcerptIndex,
} from '../../../contracts/corpus/excerpt-index-data.ts';
import type { ExtractedArticle } from '../../corpus/extract.ts';
import type { SqliteDb } from '../../lib/sqlite.ts';

/** The previous build's index with the p-value of every occurrence (exact or a bound). */
export interface PreviousExcerptIndex {
  data: ExcerptIndexData;
  occPAny: Float64Array;
}

/** Reads the index of the database attached as `schema`, and the bounds it does not keep from its rows. */
export function readPreviousExcerptIndex(db: SqliteDb, schema: string): PreviousExcerptIndex {
  const data = readExcerptIndex(db, `${schema}.excerpt_index`);
  const occPAny = data.occP.slice();
  // Only the bounds (p < 0.05, p > 0.1): a sixth of the rows, found by SQLite's scan, stepped through cell by cell
  // (selectArrays' array per row cost three times as much).
  const st = db.prepare(`SELECT excerpt, ordinal, p_value FROM ${schema}.occurrences WHERE p_exact = 0 AND p_value IS NOT NULL`);
  try {
    while (st.step()) {
      const excerpt = st.getInt(0)!;
      const ordinal = st.getInt(1)!;
      const at = data.occStart[excerpt - 1]! + ordinal;
      if (!(excerpt >= 1 && excerpt <= data.size && ordinal >= 0 && at < data.occStart[excerpt]!))
        throw new Error(`previous occurrence ${excerpt}:${ordinal} is not in its excerpt index`);
      occPAny[at] = st.getFloat(2)!;
    }
  } finally {
    st.finalize();
  }
  return { data, occPAny };
}

/** A typed array that grows as it is appended to. */
class Column<T extends Int32Array | Uint16Array | Uint8Array | Float64Array | Int16Array> {
  length = 0;
  constructor(private array: T) {}
  /** Room for `n` more; returns the array to write into (valid until the next `reserve`). */
  reserve(n: number): T {
    if (this.length + n > this.array.length) {
      const grown = new (this.array.constructor as new (n: number) => T)(Math.max(this.length + n, this.array.length * 2));
      grown.set(this.array.subarray(0, this.length));
      this.array = grown;
    }
    return this.array;
  }
  push(v: number): void {
    this.reserve(1)[this.length++] = v;
  }
  /**
   * The values appended (a view of the column's array: the index is written and let go at once, so a copy would
   * only add its size to the step's peak, ~28 MB at 200,000 articles); the column is emptied.
   */
  done(): T {
    const values = this.array.subarray(0, this.length) as T;
    this.array = new (this.array.constructor as new (n: number) => T)(0);
    this.length = 0;
    return values;
  }
}

export class ExcerptIndexBuilder {
  private readonly codes: ReturnType<typeof occurrenceCodes>;
  /** occStart without its closing entry. */
  private readonly occStart = new Column(new Int32Array(1024));
  private readonly occPhrase = new Column(new Uint16Array(1024));
  private readonly occBand = new Column(new Uint8Array(1024));
  private readonly occStatus = new Column(new Uint8Array(1024));
  private readonly occP = new Column(new Float64Array(1024));
  private readonly occPAny = new Column(new Float64Array(1024));
  private readonly articleOf = new Column(new Int32Array(1024));
  private readonly yearOf = new Column(new Int16Array(1024));

  constructor(private readonly phrases: readonly string[]) {
    this.codes = occurrenceCodes(phrases);
  }

  /** An excerpt of article row `article` (0-based) as written from JS: its values as bound to the rows. */
  addExcerpt(article: number, year: number | null, excerpt: ExtractedArticle['excerpts'][number]): void {
    this.occStart.push(this.occPhrase.length);
    this.articleOf.push(article);
    this.yearOf.push(year === null ? -1 : year);
    for (const o of excerpt.occurrences) {
      this.occPhrase.push(this.codes.phrase(o.phrase));
      this.occBand.push(this.codes.band(o.band));
      this.occStatus.push(this.codes.status(o.status));
      const value = o.p?.value ?? null;
      this.occPAny.push(value === null ? NaN : value);
      this.occP.push(value !== null && o.p!.exact ? value : NaN);
    }
  }

  /** The previous build's excerpts `first` … `end - 1` (ids), as the next ones, their article rows moved by `articleDelta`. */
  addCarried(previous: PreviousExcerptIndex, first: number, end: number, articleDelta: number): void {
    const p = previous.data;
    const n = end - first;
    const from = p.occStart[first - 1]!;
    const to = p.occStart[end - 1]!;
    const shift = this.occPhrase.length - from;
    const starts = this.occStart.reserve(n);
    const articles = this.articleOf.reserve(n);
    const years = this.yearOf.reserve(n);
    const at = this.occStart.length;
    for (let e = 0; e < n; e++) {
      starts[at + e] = p.occStart[first - 1 + e]! + shift;
      articles[at + e] = p.articleOf[first - 1 + e]! + articleDelta;
      years[at + e] = p.yearOf[first - 1 + e]!;
    }
    this.occStart.length += n;
    this.articleOf.length += n;
    this.yearOf.length += n;
    const copy = <T extends Uint16Array | Uint8Array | Float64Array>(column: Column<T>, source: T) => {
      column.reserve(to - from).set(source.subarray(from, to), column.length);
      column.length += to - from;
    };
    copy(this.occPhrase, p.occPhrase);
    copy(this.occBand, p.occBand);
    copy(this.occStatus, p.occStatus);
    copy(this.occP, p.occP);
    copy(this.occPAny, previous.occPAny);
  }

  /** The index of every excerpt added, in order; the builder is emptied. */
  finish(): ExcerptIndexData {
    const size = this.occStart.length;
    this.occStart.push(this.occPhrase.length);
    const rows: ExcerptIndexRows = {
      size,
      occStart: this.occStart.done(),
      occPhrase: this.occPhrase.done(),
      occBand: this.occBand.done(),
      occStatus: this.occStatus.done(),
      occP: this.occP.done(),
      occPAny: this.occPAny.done(),
      articleOf: this.articleOf.done(),
      yearOf: this.yearOf.done(),
    };
    return completeExcerptIndex(rows, this.phrases.length);
  }
}
