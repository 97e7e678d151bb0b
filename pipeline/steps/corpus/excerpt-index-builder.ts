/**
 * The server's excerpt index (contracts/corpus/excerpt-index-data.ts), gathered while the database's rows are
 * written instead of read back from them afterwards: reading every excerpt and occurrence back cell by cell
 * through sqlite-wasm's binding cost several seconds at 100,000 articles. Each excerpt gives its values as they
 * are bound. The result is what `computeExcerptIndex` gives over the finished rows (tested:
 * test/pipeline/corpus/).
 */
import { completeExcerptIndex, type ExcerptIndexData, type ExcerptIndexRows, occurrenceCodes } from '../../../contracts/corpus/excerpt-index-data.ts';
import type { ExtractedArticle } from '../../corpus/extract.ts';

/** A typed array that grows as it is appended to. */
class Column<T extends Int32Array | Uint16Array | Uint8Array | Float64Array | Int16Array> {
  length = 0;
  constructor(private array: T) {}
  push(v: number): void {
    if (this.length === this.array.length) {
      const grown = new (this.array.constructor as new (n: number) => T)(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = v;
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
