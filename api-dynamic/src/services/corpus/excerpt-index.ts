/**
 * The excerpt list's filter, count and order, in memory. `/excerpts` must give an exact total for any
 * combination of phrase, band and status over up to a million sentences within 15 ms; a COUNT over an
 * occurrence index in sqlite-wasm scans too slowly for that, so at load the occurrences' (phrase, band,
 * status) codes go into typed arrays (a few bytes per occurrence) and one pass over them answers the count
 * and collects the page. Each order is a precomputed permutation, so a page in any order costs the same pass.
 * sqlite keeps what it is good at: the text, the full-text index and the rows of the page.
 *
 * Measured on a 1M-excerpt build (docs/benchmarks.md, Corpus): each excerpt also carries one 32-bit mask of the
 * (status, band) pairs of its occurrences, so a filter without a phrase is one AND per excerpt; each phrase has
 * the list of excerpts it occurs in, so a phrase filter visits only those; the page is collected by walking the
 * order only as far as it ends, and the total by a separate pass that does not touch the permutation (issue 21:
 * without phrase or p range, by a histogram of the excerpts' masks, per year for a year range, so the total of
 * the most common listings does not grow with the corpus). A search's
 * candidate list (from FTS5) is paged in another order through rank arrays (the inverse permutations).
 */
import { BANDS, type Band, OCCURRENCE_STATUSES, type OccurrenceStatus } from '../../../../contracts/corpus/vocab.ts';
import type { ExcerptSort } from '../../../../contracts/corpus/vocab.ts';
import type { SqliteDb } from './sqlite.ts';

/** Band code of an occurrence without a band (rejected, indeterminate). */
const NO_BAND = BANDS.length;

/** The occurrence filters of a query, as bit masks over the codes, and the year and p-value ranges. */
export interface OccurrenceFilter {
  /** Index into the lexicon's phrase list, or -1 for any phrase. */
  phrase: number;
  bandMask: number;
  statusMask: number;
  /** Inclusive year range of the excerpt's article; `years` false when no year filter is given. */
  years: boolean;
  yearFrom: number;
  yearTo: number;
  /** Inclusive range of an occurrence's exact p-value; `ps` false when no p filter is given. */
  ps: boolean;
  pMin: number;
  pMax: number;
}

/** Year and p ranges of a query (null: not given). */
export interface RangeFilters {
  year_from: number | null;
  year_to: number | null;
  p_min: number | null;
  p_max: number | null;
}

const NO_RANGES: RangeFilters = { year_from: null, year_to: null, p_min: null, p_max: null };

export function occurrenceFilter(
  phraseIndex: number,
  bands: readonly Band[],
  statuses: readonly OccurrenceStatus[],
  ranges: RangeFilters = NO_RANGES,
): OccurrenceFilter {
  const bandMask = bands.length === 0 ? (1 << (NO_BAND + 1)) - 1 : bands.reduce((m, b) => m | (1 << BANDS.indexOf(b)), 0);
  const statusMask =
    statuses.length === 0 ? (1 << OCCURRENCE_STATUSES.length) - 1 : statuses.reduce((m, s) => m | (1 << OCCURRENCE_STATUSES.indexOf(s)), 0);
  return {
    phrase: phraseIndex,
    bandMask,
    statusMask,
    years: ranges.year_from !== null || ranges.year_to !== null,
    yearFrom: ranges.year_from ?? -Infinity,
    yearTo: ranges.year_to ?? Infinity,
    ps: ranges.p_min !== null || ranges.p_max !== null,
    pMin: ranges.p_min ?? 0,
    pMax: ranges.p_max ?? 1,
  };
}

/** Bit of a (status, band) pair in an excerpt's mask: 8 bits per status, one per band code (≤ 7 codes). */
const pairBit = (status: number, band: number) => 1 << (status * 8 + band);

/** The (status, band) pairs a filter allows, as a mask over `pairBit`s. */
function pairMask(f: OccurrenceFilter): number {
  let mask = 0;
  for (let s = 0; s < OCCURRENCE_STATUSES.length; s++) if ((f.statusMask >> s) & 1) mask |= (f.bandMask & 0xff) << (s * 8);
  return mask;
}

/** Candidate lists at most this share of the corpus are paged by sorting their ranks; larger ones by a walk. */
const RANK_SORT_SHARE = 1 / 8;

type KeyedSort = Exclude<ExcerptSort, 'relevance' | 'article'>;
/**
 * The permutations kept. A sentence's p-value key is taken over the occurrences the listing is about: over its
 * verified occurrences when only verified ones are listed (the default listing, any verified band), else over
 * all of them; so a rejected "p = 0.01" never moves a verified p = 0.09 to the top of the default listing.
 */
type OrderName = KeyedSort | 'p_asc_verified' | 'p_desc_verified';

/** Pair bits of verified occurrences (status code 0), whatever their band. */
const VERIFIED_PAIRS = 0xff;

export class ExcerptIndex {
  /** Position of each excerpt in each keyed order (the inverse permutations). */
  private readonly ranks: Record<OrderName, Int32Array>;
  /**
   * How many excerpts carry each distinct (status, band) mask: a few hundred masks at most, however large the
   * corpus, so a count without phrase, year or p range sums over them instead of passing over every excerpt
   * (issue 21: at 5M excerpts that pass alone would take most of the 15 ms).
   */
  private readonly maskValues: Int32Array;
  private readonly maskCounts: Int32Array;
  /** The same histogram per publication year (excerpts without a year left out), for year ranges. */
  private readonly yearMasks: { year: number; values: Int32Array; counts: Int32Array }[];

  private constructor(
    /** Number of excerpts; excerpt ids are 1 … size, in `article` order. */
    readonly size: number,
    private readonly occStart: Int32Array,
    private readonly occPhrase: Uint16Array,
    private readonly occBand: Uint8Array,
    private readonly occStatus: Uint8Array,
    /** Exact p-value of each occurrence (NaN: a bound, "n.s." or none), for `p_min`/`p_max`. */
    private readonly occP: Float64Array,
    /** 0-based article row of each excerpt (excerpt index = id − 1). */
    readonly articleOf: Int32Array,
    /** Publication year of each excerpt's article (-1: none), for `year_from`/`year_to`. */
    private readonly yearOf: Int16Array,
    private readonly orders: Record<OrderName, Int32Array>,
    /** Per excerpt, the `pairBit`s of its occurrences. */
    private readonly pairs: Int32Array,
    /** Per phrase code, the excerpts it occurs in (ascending): `phraseExcerpts[phraseStart[p] … phraseStart[p + 1])`. */
    private readonly phraseStart: Int32Array,
    private readonly phraseExcerpts: Int32Array,
  ) {
    const rank = (order: Int32Array) => {
      const r = new Int32Array(order.length);
      for (let pos = 0; pos < order.length; pos++) r[order[pos]!] = pos;
      return r;
    };
    const histogram = new Map<number, number>();
    for (let i = 0; i < size; i++) histogram.set(pairs[i]!, (histogram.get(pairs[i]!) ?? 0) + 1);
    this.maskValues = Int32Array.from(histogram.keys());
    this.maskCounts = Int32Array.from(histogram.values());
    const byYear = new Map<number, Map<number, number>>();
    for (let i = 0; i < size; i++) {
      if (yearOf[i]! < 0) continue;
      let h = byYear.get(yearOf[i]!);
      if (!h) byYear.set(yearOf[i]!, (h = new Map()));
      h.set(pairs[i]!, (h.get(pairs[i]!) ?? 0) + 1);
    }
    this.yearMasks = [...byYear].map(([year, h]) => ({ year, values: Int32Array.from(h.keys()), counts: Int32Array.from(h.values()) }));
    this.ranks = {
      p_asc: rank(orders.p_asc),
      p_desc: rank(orders.p_desc),
      year_desc: rank(orders.year_desc),
      p_asc_verified: rank(orders.p_asc_verified),
      p_desc_verified: rank(orders.p_desc_verified),
    };
  }

  /** Reads the codes and sort keys from the database (one pass per table, in id order). */
  static load(db: SqliteDb, phrases: readonly string[]): ExcerptIndex {
    const size = Number(db.selectValue('SELECT count(*) FROM excerpts'));
    const occurrences = Number(db.selectValue('SELECT count(*) FROM occurrences'));
    const phraseCode = new Map(phrases.map((p, i) => [p, i]));
    const bandCode = new Map<string | null, number>(BANDS.map((b, i) => [b, i]));
    bandCode.set(null, NO_BAND);
    const statusCode = new Map<string, number>(OCCURRENCE_STATUSES.map((s, i) => [s, i]));

    const articleOf = new Int32Array(size);
    const year = new Int16Array(size);
    const st = db.prepare('SELECT e.id, e.article, a.year FROM excerpts e JOIN articles a ON a.id = e.article ORDER BY e.id');
    try {
      let i = 0;
      while (st.step()) {
        if (st.getInt(0) !== i + 1) throw new Error('excerpt ids are not 1 … n in order');
        articleOf[i] = st.getInt(1)! - 1;
        const y = st.get(2);
        year[i] = y === null ? -1 : Number(y);
        i++;
      }
    } finally {
      st.finalize();
    }

    const occStart = new Int32Array(size + 1);
    const occPhrase = new Uint16Array(occurrences);
    const occBand = new Uint8Array(occurrences);
    const occStatus = new Uint8Array(occurrences);
    const occP = new Float64Array(occurrences).fill(NaN);
    // p-value keys of each excerpt over all its occurrences and over its verified ones (NaN: none stated).
    const pMin = new Float64Array(size).fill(NaN);
    const pMax = new Float64Array(size).fill(NaN);
    const pMinVerified = new Float64Array(size).fill(NaN);
    const pMaxVerified = new Float64Array(size).fill(NaN);
    const widen = (min: Float64Array, max: Float64Array, i: number, v: number) => {
      if (!(min[i]! <= v)) min[i] = v;
      if (!(max[i]! >= v)) max[i] = v;
    };
    const so = db.prepare('SELECT excerpt, phrase, band, status, p_value, p_exact FROM occurrences ORDER BY excerpt, ordinal');
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
        const status = statusCode.get(so.getString(3)!);
        if (status === undefined) throw new Error(`occurrence status "${so.getString(3)}" is not a status`);
        occStatus[k] = status;
        const p = so.get(4);
        if (p !== null && so.getInt(5) === 1) occP[k] = Number(p);
        if (p !== null) {
          widen(pMin, pMax, excerpt - 1, Number(p));
          if (status === 0) widen(pMinVerified, pMaxVerified, excerpt - 1, Number(p));
        }
        k++;
      }
      while (current <= size) occStart[current++] = k;
    } finally {
      so.finalize();
    }

    const pairs = new Int32Array(size);
    const phraseCount = new Int32Array(phrases.length + 1);
    // First occurrence of its phrase within the excerpt (an excerpt has a few occurrences: a look back is cheap).
    const firstOfPhrase = (i: number, k: number) => {
      for (let j = occStart[i]!; j < k; j++) if (occPhrase[j] === occPhrase[k]) return false;
      return true;
    };
    for (let i = 0; i < size; i++)
      for (let k = occStart[i]!, end = occStart[i + 1]!; k < end; k++) {
        pairs[i]! |= pairBit(occStatus[k]!, occBand[k]!);
        if (firstOfPhrase(i, k)) phraseCount[occPhrase[k]! + 1]!++;
      }
    const phraseStart = new Int32Array(phrases.length + 1);
    for (let p = 0; p < phrases.length; p++) phraseStart[p + 1] = phraseStart[p]! + phraseCount[p + 1]!;
    const phraseExcerpts = new Int32Array(phraseStart[phrases.length]!);
    const fill = phraseStart.slice(0, phrases.length);
    for (let i = 0; i < size; i++)
      for (let k = occStart[i]!, end = occStart[i + 1]!; k < end; k++) if (firstOfPhrase(i, k)) phraseExcerpts[fill[occPhrase[k]!]!++] = i;

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
    return new ExcerptIndex(
      size,
      occStart,
      occPhrase,
      occBand,
      occStatus,
      occP,
      articleOf,
      year,
      {
        p_asc: byKey(pMin, 1),
        p_desc: byKey(pMax, -1),
        year_desc: byKey(yearKey, -1),
        p_asc_verified: byKey(pMinVerified, 1),
        p_desc_verified: byKey(pMaxVerified, -1),
      },
      pairs,
      phraseStart,
      phraseExcerpts,
    );
  }

  /** The permutation for `sort` under filter `f` (see OrderName). */
  private orderName(sort: KeyedSort, f: OccurrenceFilter): OrderName {
    if (sort === 'year_desc' || (pairMask(f) & ~VERIFIED_PAIRS) !== 0) return sort;
    return sort === 'p_asc' ? 'p_asc_verified' : 'p_desc_verified';
  }

  /** True when one of excerpt `i`'s occurrences passes every filter. */
  matches(i: number, f: OccurrenceFilter): boolean {
    return this.test(i, f, pairMask(f));
  }

  /** `matches` with the filter's pair mask computed once per query: without a phrase, one AND. */
  private test(i: number, f: OccurrenceFilter, mask: number): boolean {
    if ((this.pairs[i]! & mask) === 0) return false;
    if (f.years) {
      const y = this.yearOf[i]!;
      if (y < 0 || y < f.yearFrom || y > f.yearTo) return false;
    }
    if (f.phrase < 0 && !f.ps) return true;
    for (let k = this.occStart[i]!, end = this.occStart[i + 1]!; k < end; k++) {
      if (f.phrase >= 0 && this.occPhrase[k] !== f.phrase) continue;
      if (((f.bandMask >> this.occBand[k]!) & 1) === 0) continue;
      if (((f.statusMask >> this.occStatus[k]!) & 1) === 0) continue;
      // NaN (no exact value) fails both comparisons.
      if (f.ps && !(this.occP[k]! >= f.pMin && this.occP[k]! <= f.pMax)) continue;
      return true;
    }
    return false;
  }

  /** Number of excerpts passing `f` (a pass over the masks, or over the phrase's excerpts). */
  private count(f: OccurrenceFilter, mask: number): number {
    let total = 0;
    if (f.phrase < 0 && !f.years && !f.ps) {
      for (let m = 0; m < this.maskValues.length; m++) if ((this.maskValues[m]! & mask) !== 0) total += this.maskCounts[m]!;
    } else if (f.phrase < 0 && !f.ps) {
      for (const y of this.yearMasks)
        if (y.year >= f.yearFrom && y.year <= f.yearTo)
          for (let m = 0; m < y.values.length; m++) if ((y.values[m]! & mask) !== 0) total += y.counts[m]!;
    } else if (f.phrase < 0) {
      for (let i = 0; i < this.size; i++) if (this.test(i, f, mask)) total++;
    } else if (f.phrase < this.phraseStart.length - 1) {
      for (let k = this.phraseStart[f.phrase]!, end = this.phraseStart[f.phrase + 1]!; k < end; k++)
        if (this.test(this.phraseExcerpts[k]!, f, mask)) total++;
    }
    return total;
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
    const order = sort === 'article' ? null : this.orders[this.orderName(sort, f)];
    const mask = pairMask(f);
    const indexes: number[] = [];
    if (within === null && f.phrase >= 0 && sort === 'article') {
      // The phrase's own list is in article order: count and page in one pass over it.
      const list = f.phrase < this.phraseStart.length - 1 ? this.phraseExcerpts.subarray(this.phraseStart[f.phrase]!, this.phraseStart[f.phrase + 1]!) : new Int32Array(0);
      return this.pageList(list, f, offset, limit);
    }
    // The page: walk the order only until it is complete.
    let seen = 0;
    for (let pos = 0; pos < this.size && indexes.length < limit; pos++) {
      const i = order === null ? pos : order[pos]!;
      if (within !== null && within[i] === 0) continue;
      if (!this.test(i, f, mask)) continue;
      if (seen >= offset) indexes.push(i);
      seen++;
    }
    // The total, in id order (no permutation, so memory is read in sequence).
    let total: number;
    if (within === null) total = this.count(f, mask);
    else {
      total = 0;
      for (let i = 0; i < this.size; i++) if (within[i] !== 0 && this.test(i, f, mask)) total++;
    }
    return { total, indexes };
  }

  /**
   * Counts the excerpts of `list` (excerpt indexes, in the order wanted: a search's candidates by id or by
   * relevance) passing `f`, and returns those at positions [offset, offset + limit) of the list.
   */
  pageList(list: Int32Array, f: OccurrenceFilter, offset: number, limit: number): { total: number; indexes: number[] } {
    const mask = pairMask(f);
    const indexes: number[] = [];
    let total = 0;
    for (let k = 0; k < list.length; k++) {
      const i = list[k]!;
      if (!this.test(i, f, mask)) continue;
      if (total >= offset && indexes.length < limit) indexes.push(i);
      total++;
    }
    return { total, indexes };
  }

  /**
   * The same for a candidate list (excerpt indexes, ascending) in a keyed order: a small list is counted and its
   * ranks sorted; a large one is marked and the order walked until the page is complete.
   */
  pageSorted(list: Int32Array, f: OccurrenceFilter, sort: KeyedSort, offset: number, limit: number): { total: number; indexes: number[] } {
    const mask = pairMask(f);
    const name = this.orderName(sort, f);
    const order = this.orders[name];
    if (list.length <= this.size * RANK_SORT_SHARE) {
      const rank = this.ranks[name];
      const keys = new Int32Array(list.length);
      let total = 0;
      for (let k = 0; k < list.length; k++) if (this.test(list[k]!, f, mask)) keys[total++] = rank[list[k]!]!;
      const sorted = keys.subarray(0, total).sort();
      const indexes: number[] = [];
      for (let k = offset; k < Math.min(total, offset + limit); k++) indexes.push(order[sorted[k]!]!);
      return { total, indexes };
    }
    const within = new Uint8Array(this.size);
    let total = 0;
    for (let k = 0; k < list.length; k++)
      if (this.test(list[k]!, f, mask)) {
        within[list[k]!] = 1;
        total++;
      }
    const indexes: number[] = [];
    let seen = 0;
    for (let pos = 0; pos < this.size && indexes.length < limit && seen < total; pos++) {
      const i = order[pos]!;
      if (within[i] === 0) continue;
      if (seen >= offset) indexes.push(i);
      seen++;
    }
    return { total, indexes };
  }
}
