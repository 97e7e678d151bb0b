/**
 * The excerpt list's filter, count and order, in memory. `/excerpts` must give an exact total for any
 * combination of phrase, band and status over up to a million sentences within 15 ms; a COUNT over an
 * occurrence index in sqlite-wasm scans too slowly for that, so at load the occurrences' (phrase, band,
 * status) codes go into typed arrays (a few bytes per occurrence) and one pass over them answers the count
 * and collects the page. Each order is a precomputed permutation, so a page in any order costs the same pass.
 * sqlite keeps what it is good at: the text, the full-text index and the rows of the page.
 */
import { BANDS, type Band, OCCURRENCE_STATUSES, type OccurrenceStatus } from '../../../../contracts/corpus/vocab.ts';
import type { ExcerptSort } from '../../../../contracts/corpus/vocab.ts';
import type { SqliteDb } from './sqlite.ts';

/** Band code of an occurrence without a band (rejected, indeterminate). */
const NO_BAND = BANDS.length;

/** The occurrence filters of a query, as bit masks over the codes. */
export interface OccurrenceFilter {
  /** Index into the lexicon's phrase list, or -1 for any phrase. */
  phrase: number;
  bandMask: number;
  statusMask: number;
}

export function occurrenceFilter(phraseIndex: number, bands: readonly Band[], statuses: readonly OccurrenceStatus[]): OccurrenceFilter {
  const bandMask = bands.length === 0 ? (1 << (NO_BAND + 1)) - 1 : bands.reduce((m, b) => m | (1 << BANDS.indexOf(b)), 0);
  const statusMask =
    statuses.length === 0 ? (1 << OCCURRENCE_STATUSES.length) - 1 : statuses.reduce((m, s) => m | (1 << OCCURRENCE_STATUSES.indexOf(s)), 0);
  return { phrase: phraseIndex, bandMask, statusMask };
}

export class ExcerptIndex {
  private constructor(
    /** Number of excerpts; excerpt ids are 1 … size, in `article` order. */
    readonly size: number,
    private readonly occStart: Int32Array,
    private readonly occPhrase: Uint16Array,
    private readonly occBand: Uint8Array,
    private readonly occStatus: Uint8Array,
    /** 0-based article row of each excerpt (excerpt index = id − 1). */
    readonly articleOf: Int32Array,
    private readonly orders: Record<Exclude<ExcerptSort, 'relevance' | 'article'>, Int32Array>,
  ) {}

  /** Reads the codes and sort keys from the database (one pass per table, in id order). */
  static load(db: SqliteDb, phrases: readonly string[]): ExcerptIndex {
    const size = Number(db.selectValue('SELECT count(*) FROM excerpts'));
    const occurrences = Number(db.selectValue('SELECT count(*) FROM occurrences'));
    const phraseCode = new Map(phrases.map((p, i) => [p, i]));
    const bandCode = new Map<string | null, number>(BANDS.map((b, i) => [b, i]));
    bandCode.set(null, NO_BAND);
    const statusCode = new Map<string, number>(OCCURRENCE_STATUSES.map((s, i) => [s, i]));

    const articleOf = new Int32Array(size);
    const year = new Int32Array(size);
    const pMin = new Float64Array(size);
    const pMax = new Float64Array(size);
    const st = db.prepare('SELECT e.id, e.article, a.year, e.p_min, e.p_max FROM excerpts e JOIN articles a ON a.id = e.article ORDER BY e.id');
    try {
      let i = 0;
      while (st.step()) {
        if (st.getInt(0) !== i + 1) throw new Error('excerpt ids are not 1 … n in order');
        articleOf[i] = st.getInt(1)! - 1;
        const [y, lo, hi] = [st.get(2), st.get(3), st.get(4)];
        year[i] = y === null ? -1 : Number(y);
        pMin[i] = lo === null ? NaN : Number(lo);
        pMax[i] = hi === null ? NaN : Number(hi);
        i++;
      }
    } finally {
      st.finalize();
    }

    const occStart = new Int32Array(size + 1);
    const occPhrase = new Uint16Array(occurrences);
    const occBand = new Uint8Array(occurrences);
    const occStatus = new Uint8Array(occurrences);
    const so = db.prepare('SELECT excerpt, phrase, band, status FROM occurrences ORDER BY excerpt, ordinal');
    try {
      let k = 0;
      let current = 0;
      while (so.step()) {
        const excerpt = so.getInt(0)!;
        while (current < excerpt) occStart[current++] = k;
        const phrase = so.getString(1)!;
        const code = phraseCode.get(phrase);
        if (code === undefined) throw new Error(`occurrence phrase "${phrase}" is not in the lexicon`);
        occPhrase[k] = code;
        occBand[k] = bandCode.get(so.get(2) as string | null)!;
        occStatus[k] = statusCode.get(so.getString(3)!)!;
        k++;
      }
      while (current <= size) occStart[current++] = k;
    } finally {
      so.finalize();
    }

    // Orders: missing keys last, ties by id (the article order), so every order is total and stable.
    const ids = () => Int32Array.from({ length: size }, (_, i) => i);
    const byKey = (key: Float64Array, dir: 1 | -1) =>
      ids().sort((a, b) => {
        const x = key[a]!;
        const y = key[b]!;
        const xm = Number.isNaN(x);
        const ym = Number.isNaN(y);
        if (xm !== ym) return xm ? 1 : -1;
        return (xm ? 0 : dir * (x - y)) || a - b;
      });
    const yearKey = Float64Array.from(year, (y) => (y < 0 ? NaN : y));
    return new ExcerptIndex(size, occStart, occPhrase, occBand, occStatus, articleOf, {
      p_asc: byKey(pMin, 1),
      p_desc: byKey(pMax, -1),
      year_desc: byKey(yearKey, -1),
    });
  }

  /** True when one of excerpt `i`'s occurrences passes every filter. */
  matches(i: number, f: OccurrenceFilter): boolean {
    for (let k = this.occStart[i]!, end = this.occStart[i + 1]!; k < end; k++) {
      if (f.phrase >= 0 && this.occPhrase[k] !== f.phrase) continue;
      if (((f.bandMask >> this.occBand[k]!) & 1) === 0) continue;
      if (((f.statusMask >> this.occStatus[k]!) & 1) === 0) continue;
      return true;
    }
    return false;
  }

  /**
   * Counts the excerpts passing `f` (and, when given, in `within`: a 0/1 mark per excerpt) and returns the
   * indexes of those at positions [offset, offset + limit) of `sort`.
   */
  page(
    f: OccurrenceFilter,
    sort: Exclude<ExcerptSort, 'relevance'>,
    offset: number,
    limit: number,
    within: Uint8Array | null = null,
  ): { total: number; indexes: number[] } {
    const order = sort === 'article' ? null : this.orders[sort];
    const indexes: number[] = [];
    let total = 0;
    for (let pos = 0; pos < this.size; pos++) {
      const i = order === null ? pos : order[pos]!;
      if (within !== null && within[i] === 0) continue;
      if (!this.matches(i, f)) continue;
      if (total >= offset && indexes.length < limit) indexes.push(i);
      total++;
    }
    return { total, indexes };
  }
}
