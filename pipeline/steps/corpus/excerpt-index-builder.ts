/**
 * The server's excerpt index (contracts/corpus/excerpt-index-data.ts), gathered while the database's rows are
 * written instead of read back from them afterwards: reading every excerpt and occurrence back cell by cell
 * through sqlite-wasm's binding cost several seconds at 100,000 articles. Each excerpt gives its values as they
 * are bound. The result is what `computeExcerptIndex` gives over the finished rows (tested:
 * test/pipeline/corpus/).
 */
import { completeExcerptIndex, type ExcerptIndexData, type ExcerptIndexRows, occurrenceCodes } from '../../../contracts/corpus/excerpt-index-data.ts';
import { GrowableColumn } from '../../../contracts/common/bytes.ts';
import type { ExtractedArticle } from '../../corpus/extract.ts';

export class ExcerptIndexBuilder {
  private readonly codes: ReturnType<typeof occurrenceCodes>;
  /** occStart without its closing entry. */
  private readonly occStart = new GrowableColumn(new Int32Array(1024));
  private readonly occPhrase = new GrowableColumn(new Uint16Array(1024));
  private readonly occBand = new GrowableColumn(new Uint8Array(1024));
  private readonly occStatus = new GrowableColumn(new Uint8Array(1024));
  private readonly occP = new GrowableColumn(new Float64Array(1024));
  private readonly occPAny = new GrowableColumn(new Float64Array(1024));
  private readonly articleOf = new GrowableColumn(new Int32Array(1024));
  private readonly yearOf = new GrowableColumn(new Int16Array(1024));

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
