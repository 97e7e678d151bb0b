/**
 * The excerpt list's filter, count and order, in memory. `/excerpts` must give an exact total for any
 * combination of phrase, band and status over up to a million sentences within 15 ms; a COUNT over an
 * occurrence index in sqlite-wasm scans too slowly for that, so the occurrences' (phrase, band, status) codes
 * are kept in typed arrays (a few bytes per occurrence) and one pass over them answers the count and collects
 * the page. The arrays and orders are computed by the pipeline and read from the database at load, in chunks
 * (contracts/corpus/excerpt-index-data.ts: computing them at start would be most of start-up); the histograms
 * and rank arrays, linear passes, are derived here. Each order is a precomputed permutation, so a page in any order costs the same pass.
 * sqlite keeps what it is good at: the text, the full-text index and the rows of the page.
 *
 * Measured on a 1M-excerpt build (docs/benchmarks.md, Corpus): each excerpt also carries one 32-bit mask of the
 * (status, band) pairs of its occurrences, so a filter without a phrase is one test per excerpt (a test of
 * the mask's 16-bit code among the distinct masks, through a table of the codes the filter allows); each phrase has
 * the list of excerpts it occurs in, so a phrase filter visits only those; the page is collected by walking the
 * order only as far as it ends, and the total by a separate pass that does not touch the permutation (or,
 * without phrase or p range, by a histogram of the excerpts' masks, per year for a year range, so the total of
 * the most common listings does not grow with the corpus). A search's candidates (search-index.ts) are paged
 * by bm25 group (pageRanked), in id order (pageList) or in a keyed order (pageSorted: a bounded heap of their
 * ranks, a walk of the order over their bits, or a sort of their ranks), with totals from the search's
 * histogram of mask codes when the filter is on band and status alone (docs/decisions.md).
 */
import { BANDS, type Band, OCCURRENCE_STATUSES, type OccurrenceStatus } from '../../../../contracts/corpus/vocab.ts';
import type { ExcerptSort } from '../../../../contracts/corpus/vocab.ts';
import {
  computeExcerptIndex,
  type ExcerptIndexData,
  NO_BAND,
  type OrderName,
  pairBit,
  readExcerptIndex,
} from '../../../../contracts/corpus/excerpt-index-data.ts';
import { type ExcerptTags, groupOf, type KeyHeads, type RankedGroups } from './bm25.ts';
import { RankBitset } from '../../../../contracts/common/bytes.ts';
import type { SqliteDb } from './sqlite.ts';

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
  const statusMask = statuses.length === 0 ? (1 << OCCURRENCE_STATUSES.length) - 1 : statuses.reduce((m, s) => m | (1 << OCCURRENCE_STATUSES.indexOf(s)), 0);
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

/** The (status, band) pairs a filter allows, as a mask over `pairBit`s. */
function pairMask(f: OccurrenceFilter): number {
  let mask = 0;
  for (let s = 0; s < OCCURRENCE_STATUSES.length; s++) if ((f.statusMask >> s) & 1) mask |= (f.bandMask & 0xff) << (s * 8);
  return mask;
}

/**
 * Excerpts per block of an order whose mask-code histogram is kept (blockCounts): a deep page without a phrase,
 * year or p filter skips whole blocks by their counts instead of testing every excerpt before it (at 5M
 * excerpts a deep page of the default listing would test millions of excerpts; docs/decisions.md).
 */
const PAGE_BLOCK = 4096;

/** A phrase's excerpts as a rank bitset, and the pair bits of each (`phrasePairs`' part of the phrase, in their order). */
interface PhraseBits {
  set: RankBitset;
  pairs: Int32Array;
}

/** A keyed page ending at most this far into a search's candidates is selected with a bounded heap (pageByHeap). */
const HEAP_PAGE = 2048;

/** Candidate lists at most this share of the corpus are paged by sorting their ranks; larger ones by a walk. */
const RANK_SORT_SHARE = 1 / 8;

type KeyedSort = Exclude<ExcerptSort, 'relevance' | 'article'>;

/** Pair bits of verified occurrences (status code 0), whatever their band. */
const VERIFIED_PAIRS = 0xff;

export class ExcerptIndex {
  /** Position of each excerpt in each keyed order (the inverse permutations). */
  private readonly ranks: Record<OrderName, Int32Array>;
  /**
   * How many excerpts carry each distinct (status, band) mask: a few hundred masks at most, however large the
   * corpus, so a count without phrase, year or p range sums over them instead of passing over every excerpt
   * (at 5M excerpts that pass alone would take most of the 15 ms; docs/decisions.md).
   */
  private readonly maskValues: Int32Array;
  /**
   * Each excerpt's mask as its index in `maskValues`, 16 bits: the filter of a search reads it once per candidate,
   * and at 5M excerpts a quarter of the bytes of the 32-bit masks misses the CPU cache much less. Null
   * if a corpus ever had more than 65,536 distinct masks (the masks are then read).
   */
  private readonly pairCode: Uint16Array | null;
  private readonly maskCounts: Int32Array;
  /** The same histogram per publication year (excerpts without a year left out), for year ranges. */
  private readonly yearMasks: { year: number; values: Int32Array; counts: Int32Array }[];

  /** Number of excerpts; excerpt ids are 1 … size, in `article` order. */
  readonly size: number;
  /** 0-based article row of each excerpt (excerpt index = id − 1). */
  readonly articleOf: Int32Array;
  private readonly occStart: Int32Array;
  private readonly occPhrase: Uint16Array;
  private readonly occBand: Uint8Array;
  private readonly occStatus: Uint8Array;
  private readonly occP: Float64Array;
  private readonly yearOf: Int16Array;
  private readonly orders: Record<OrderName, Int32Array>;
  private readonly pairs: Int32Array;
  private readonly phraseStart: Int32Array;
  private readonly phraseExcerpts: Int32Array;
  /**
   * Beside `phraseExcerpts`: the `pairBit`s of that phrase's own occurrences in each excerpt, and per phrase how
   * many of its excerpts carry each distinct such mask. A phrase filter on band and status is then one test per
   * listed excerpt and its total a sum over a few masks (reading the occurrences instead, `phrase=` + band at 5M
   * reads those of ~400,000 excerpts for a page of 25; docs/decisions.md).
   */
  private readonly phrasePairs: Int32Array;
  private readonly phraseMasks: { values: Int32Array; counts: Int32Array }[];
  /** Per order (article order too), the mask-code histogram of each PAGE_BLOCK of positions, made on first use. */
  private readonly blockCountsMade = new Map<OrderName | 'article', Int32Array>();
  /** Per phrase, its excerpts as bits (bit i of word i >>> 5), made on first use: a search's candidates are tested against it first. */
  private readonly phraseBitsMade: (PhraseBits | undefined)[] = [];

  private constructor(
    data: ExcerptIndexData,
    /** PAGE_BLOCK, smaller in tests (a fixture corpus has a few thousand excerpts). */
    private readonly pageBlock: number,
  ) {
    ({
      size: this.size,
      articleOf: this.articleOf,
      occStart: this.occStart,
      occPhrase: this.occPhrase,
      occBand: this.occBand,
      occStatus: this.occStatus,
      occP: this.occP,
      yearOf: this.yearOf,
      orders: this.orders,
      pairs: this.pairs,
      phraseStart: this.phraseStart,
      phraseExcerpts: this.phraseExcerpts,
    } = data);
    const { size, pairs, yearOf, orders } = data;
    const rank = (order: Int32Array) => {
      const r = new Int32Array(order.length);
      for (let pos = 0; pos < order.length; pos++) r[order[pos]!] = pos;
      return r;
    };
    // Each excerpt's mask as its number among the distinct masks (see pairCode), counted as it goes.
    const codeOf = new Map<number, number>();
    const values: number[] = [];
    const counts: number[] = [];
    const pairCode = new Uint16Array(size);
    for (let i = 0; i < size; i++) {
      let c = codeOf.get(pairs[i]!);
      if (c === undefined) {
        c = values.length;
        codeOf.set(pairs[i]!, c);
        values.push(pairs[i]!);
        counts.push(0);
      }
      counts[c]!++;
      pairCode[i] = c;
    }
    this.maskValues = Int32Array.from(values);
    this.maskCounts = Int32Array.from(counts);
    this.pairCode = values.length <= 0x10000 ? pairCode : null;
    const byYear = new Map<number, Map<number, number>>();
    for (let i = 0; i < size; i++) {
      if (yearOf[i]! < 0) continue;
      let h = byYear.get(yearOf[i]!);
      if (!h) byYear.set(yearOf[i]!, (h = new Map()));
      h.set(pairs[i]!, (h.get(pairs[i]!) ?? 0) + 1);
    }
    this.yearMasks = [...byYear].map(([year, h]) => ({ year, values: Int32Array.from(h.keys()), counts: Int32Array.from(h.values()) }));
    // Each listed excerpt's pair bits of that phrase only, and their histogram per phrase.
    const { occStart, occPhrase, occBand, occStatus, phraseStart, phraseExcerpts } = data;
    this.phrasePairs = new Int32Array(phraseExcerpts.length);
    this.phraseMasks = [];
    for (let p = 0; p + 1 < phraseStart.length; p++) {
      const h = new Map<number, number>();
      for (let k = phraseStart[p]!, end = phraseStart[p + 1]!; k < end; k++) {
        const i = phraseExcerpts[k]!;
        let m = 0;
        for (let o = occStart[i]!, last = occStart[i + 1]!; o < last; o++) if (occPhrase[o] === p) m |= pairBit(occStatus[o]!, occBand[o]!);
        this.phrasePairs[k] = m;
        h.set(m, (h.get(m) ?? 0) + 1);
      }
      this.phraseMasks.push({ values: Int32Array.from(h.keys()), counts: Int32Array.from(h.values()) });
    }
    this.ranks = {
      p_asc: rank(orders.p_asc),
      p_desc: rank(orders.p_desc),
      year_desc: rank(orders.year_desc),
      p_asc_verified: rank(orders.p_asc_verified),
      p_desc_verified: rank(orders.p_desc_verified),
    };
  }

  /** The index stored in the database by the pipeline (excerpt-index-data.ts), read in chunks. */
  static load(db: SqliteDb, pageBlock = PAGE_BLOCK): ExcerptIndex {
    return new ExcerptIndex(readExcerptIndex(db), pageBlock);
  }

  /** The index computed from the database's rows (what the pipeline stores; tests compare the two). */
  static compute(db: SqliteDb, phrases: readonly string[]): ExcerptIndex {
    return new ExcerptIndex(computeExcerptIndex(db, phrases), PAGE_BLOCK);
  }

  /** The permutation for `sort` under filter `f` (see OrderName). */
  private orderName(sort: KeyedSort, f: OccurrenceFilter): OrderName {
    if (sort === 'year_desc' || (pairMask(f) & ~VERIFIED_PAIRS) !== 0) return sort;
    return sort === 'p_asc' ? 'p_asc_verified' : 'p_desc_verified';
  }

  /** True when one of excerpt `i`'s occurrences passes every filter. */
  matches(i: number, f: OccurrenceFilter): boolean {
    const mask = pairMask(f);
    return this.test(i, f, mask, this.allowedCodes(mask));
  }

  /** True when `f` filters on band and status alone (a mask code says whether an excerpt passes). */
  private codesOnly(f: OccurrenceFilter): boolean {
    return this.pairCode !== null && f.phrase < 0 && !f.years && !f.ps;
  }

  /**
   * How many excerpts of `list` carry each mask code: a search's totals under any band and status filter,
   * summed over the codes allowed, without a pass over its candidates (at 5M excerpts a common word
   * has 1.4M candidates, and a pass over them is too slow; docs/decisions.md). A relevance search gets
   * the same per bm25 group from its grouping (codeTags). Null without codes.
   */
  codeCounts(list: Int32Array): Int32Array | null {
    const code = this.pairCode;
    if (code === null) return null;
    const counts = new Int32Array(this.maskValues.length);
    for (let k = 0; k < list.length; k++) counts[code[list[k]!]!]!++;
    return counts;
  }

  /** The excerpts' mask codes as tags for bm25Groups (so a relevance search's codeCounts come with its groups); null without codes. */
  codeTags(): ExcerptTags | null {
    return this.pairCode === null ? null : { tag: this.pairCode, tags: this.maskValues.length };
  }

  /** Excerpts of `list` as one bit each (bit i of word i >>> 5), for walking an order over a search's candidates. */
  memberBits(list: Int32Array): Uint32Array {
    const bits = new Uint32Array((this.size + 31) >>> 5);
    for (let k = 0; k < list.length; k++) bits[list[k]! >>> 5]! |= 1 << (list[k]! & 31);
    return bits;
  }

  /** The total of a histogram from codeCounts (any number of groups) under the allowed codes. */
  private countCodes(codeCounts: Int32Array, allowed: Uint8Array): number {
    let total = 0;
    for (let k = 0; k < codeCounts.length; k++) if (allowed[k % allowed.length] !== 0) total += codeCounts[k]!;
    return total;
  }

  /** Per distinct mask (pairCode), 1 when it has a pair the filter's `mask` allows. */
  private allowedCodes(mask: number): Uint8Array {
    const allowed = new Uint8Array(this.maskValues.length);
    for (let c = 0; c < allowed.length; c++) allowed[c] = (this.maskValues[c]! & mask) !== 0 ? 1 : 0;
    return allowed;
  }

  /** `matches` with the filter's pair mask (and its allowed codes) computed once per query: without a phrase, one lookup. */
  private test(i: number, f: OccurrenceFilter, mask: number, allowed: Uint8Array): boolean {
    const code = this.pairCode;
    if (code !== null ? allowed[code[i]!] === 0 : (this.pairs[i]! & mask) === 0) return false;
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
  private count(f: OccurrenceFilter, mask: number, allowed: Uint8Array): number {
    let total = 0;
    if (f.phrase < 0 && !f.years && !f.ps) {
      for (let m = 0; m < this.maskValues.length; m++) if ((this.maskValues[m]! & mask) !== 0) total += this.maskCounts[m]!;
    } else if (f.phrase < 0 && !f.ps) {
      for (const y of this.yearMasks)
        if (y.year >= f.yearFrom && y.year <= f.yearTo) for (let m = 0; m < y.values.length; m++) if ((y.values[m]! & mask) !== 0) total += y.counts[m]!;
    } else if (f.phrase < 0) {
      for (let i = 0; i < this.size; i++) if (this.test(i, f, mask, allowed)) total++;
    } else if (f.phrase < this.phraseStart.length - 1 && !f.years && !f.ps) {
      const h = this.phraseMasks[f.phrase]!;
      for (let m = 0; m < h.values.length; m++) if ((h.values[m]! & mask) !== 0) total += h.counts[m]!;
    } else if (f.phrase < this.phraseStart.length - 1) {
      for (let k = this.phraseStart[f.phrase]!, end = this.phraseStart[f.phrase + 1]!; k < end; k++)
        if (this.test(this.phraseExcerpts[k]!, f, mask, allowed)) total++;
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
    const name = sort === 'article' ? 'article' : this.orderName(sort, f);
    const order = name === 'article' ? null : this.orders[name];
    const mask = pairMask(f);
    const allowed = this.allowedCodes(mask);
    const indexes: number[] = [];
    if (within === null && f.phrase >= 0 && sort === 'article') {
      if (f.phrase >= this.phraseStart.length - 1) return { total: 0, indexes: [] };
      const from = this.phraseStart[f.phrase]!;
      const to = this.phraseStart[f.phrase + 1]!;
      if (!f.years && !f.ps) {
        // The phrase's own list is in article order, each excerpt with its pair bits of the phrase: the page
        // by walking it until complete, the total from its histogram.
        for (let k = from, seen = 0; k < to && indexes.length < limit; k++) {
          if ((this.phrasePairs[k]! & mask) === 0) continue;
          if (seen >= offset) indexes.push(this.phraseExcerpts[k]!);
          seen++;
        }
        return { total: this.count(f, mask, allowed), indexes };
      }
      // With a year or p range: count and page in one pass over the list.
      return this.pageList(this.phraseExcerpts.subarray(from, to), f, offset, limit);
    }
    // The page: walk the order only until it is complete, from the block holding the offset when a block's
    // count is known from its mask histogram (blockCounts).
    let seen = 0;
    let from = 0;
    if (within === null && this.codesOnly(f) && offset >= this.pageBlock) {
      const counts = this.blockCounts(name);
      const codes = allowed.length;
      for (let b = 0; (b + 1) * this.pageBlock <= this.size; b++) {
        let n = 0;
        for (let c = 0; c < codes; c++) if (allowed[c] !== 0) n += counts[b * codes + c]!;
        if (seen + n > offset) break;
        seen += n;
        from += this.pageBlock;
      }
    }
    for (let pos = from; pos < this.size && indexes.length < limit; pos++) {
      const i = order === null ? pos : order[pos]!;
      if (within !== null && within[i] === 0) continue;
      if (!this.test(i, f, mask, allowed)) continue;
      if (seen >= offset) indexes.push(i);
      seen++;
    }
    // The total, in id order (no permutation, so memory is read in sequence).
    let total: number;
    if (within === null) total = this.count(f, mask, allowed);
    else {
      total = 0;
      for (let i = 0; i < this.size; i++) if (within[i] !== 0 && this.test(i, f, mask, allowed)) total++;
    }
    return { total, indexes };
  }

  /** blockCountsMade of an order: blocks (of `pageBlock`) × codes counts, code-minor (needs pairCode: only used when codesOnly). */
  private blockCounts(name: OrderName | 'article'): Int32Array {
    let counts = this.blockCountsMade.get(name);
    if (counts === undefined) {
      const code = this.pairCode!;
      const codes = this.maskValues.length;
      const order = name === 'article' ? null : this.orders[name];
      counts = new Int32Array(Math.ceil(this.size / this.pageBlock) * codes);
      for (let pos = 0; pos < this.size; pos++) counts[Math.floor(pos / this.pageBlock) * codes + code[order === null ? pos : order[pos]!]!]!++;
      this.blockCountsMade.set(name, counts);
    }
    return counts;
  }

  /** The excerpts of the filter's phrase as bits (made on first use), or null without a phrase filter. */
  private phraseBits(f: OccurrenceFilter): PhraseBits | null {
    if (f.phrase < 0 || f.phrase >= this.phraseStart.length - 1) return null;
    let bits = this.phraseBitsMade[f.phrase];
    if (bits === undefined) {
      const from = this.phraseStart[f.phrase]!;
      const to = this.phraseStart[f.phrase + 1]!;
      bits = { set: RankBitset.of(this.phraseExcerpts.subarray(from, to), this.size), pairs: this.phrasePairs.subarray(from, to) };
      this.phraseBitsMade[f.phrase] = bits;
    }
    return bits;
  }

  /**
   * `test` of a search's candidate, first against the phrase's bits (`phraseBits`): most candidates of a search
   * with `phrase=` do not hold the phrase, and the bit says so without reading their occurrences; one that holds
   * it is tested, without a year or p range, by its pair bits of that phrase (`phrasePairs`, found through the
   * bits' counts) instead of its occurrences (otherwise `mid word + phrase` reads the occurrences of
   * all its 140,000–190,000 candidates; docs/decisions.md).
   */
  private testIn(i: number, f: OccurrenceFilter, mask: number, allowed: Uint8Array, bits: PhraseBits | null): boolean {
    if (bits === null) return this.test(i, f, mask, allowed);
    if (!bits.set.has(i)) return false;
    if (f.years || f.ps) return this.test(i, f, mask, allowed);
    return (bits.pairs[bits.set.rank(i)]! & mask) !== 0;
  }

  /**
   * Counts the excerpts of `list` (excerpt indexes, in the order wanted: a phrase's excerpts or a search's
   * candidates, by id) passing `f`, and returns those at positions [offset, offset + limit) of the list.
   */
  pageList(list: Int32Array, f: OccurrenceFilter, offset: number, limit: number, codeCounts: Int32Array | null = null): { total: number; indexes: number[] } {
    const mask = pairMask(f);
    const allowed = this.allowedCodes(mask);
    const bits = this.phraseBits(f);
    const indexes: number[] = [];
    if (codeCounts !== null && this.codesOnly(f)) {
      // The total from the list's histogram (codeCounts); the list walked only until the page is complete.
      let seen = 0;
      for (let k = 0; k < list.length && indexes.length < limit; k++) {
        const i = list[k]!;
        if (!this.testIn(i, f, mask, allowed, bits)) continue;
        if (seen >= offset) indexes.push(i);
        seen++;
      }
      return { total: this.countCodes(codeCounts, allowed), indexes };
    }
    let total = 0;
    for (let k = 0; k < list.length; k++) {
      const i = list[k]!;
      if (!this.testIn(i, f, mask, allowed, bits)) continue;
      if (total >= offset && indexes.length < limit) indexes.push(i);
      total++;
    }
    return { total, indexes };
  }

  /**
   * Counts the excerpts of `list` (a search's candidates, ascending) passing `f`, and returns those at positions
   * [offset, offset + limit) of the order by bm25 group (`ranked`: per candidate the rank of its score among
   * `groups`, stored or found from its key; ties by index: bm25.ts). The counts per group come from the search's
   * histogram (band and status alone) or one pass; a second pass, in id order, collects the candidates of the
   * groups the page reaches and stops as soon as it holds every position up to the page's end (a common
   * word has 0.5–1.4M candidates: placing them all in relevance order, or reading them all, for a page of 25
   * whose group is met within the first thousands is wasted; docs/decisions.md).
   */
  pageRanked(list: Int32Array, ranked: RankedGroups, f: OccurrenceFilter, offset: number, limit: number): { total: number; indexes: number[] } {
    const mask = pairMask(f);
    const allowed = this.allowedCodes(mask);
    const bits = this.phraseBits(f);
    const { groups, tagCounts } = ranked;
    const counts = new Int32Array(groups);
    let total = 0;
    // Candidates passing a filter the histogram cannot answer (phrase, year, p range), found by the counting
    // pass: the collection then reads only those (rather than every candidate a second time, computing each
    // one's group before its test: `mid word + phrase` reads 140,000–190,000).
    let passing: Int32Array | null = null;
    if (tagCounts !== null && this.codesOnly(f)) {
      // Band and status alone: each group's count from the search's histogram, no pass over the candidates.
      const codes = allowed.length;
      for (let g = 0; g < groups; g++) {
        let n = 0;
        for (let c = 0; c < codes; c++) if (allowed[c] !== 0) n += tagCounts[g * codes + c]!;
        counts[g] = n;
        total += n;
      }
    } else {
      passing = new Int32Array(list.length);
      for (let k = 0; k < list.length; k++) {
        const i = list[k]!;
        if (this.testIn(i, f, mask, allowed, bits)) {
          counts[groupOf(ranked, k, i)]!++;
          passing[total++] = k;
        }
      }
    }
    const end = Math.min(total, offset + limit);
    if (offset >= end) return { total, indexes: [] };
    // The groups holding positions offset … end − 1, and where the first of them starts.
    let first = 0;
    let before = 0;
    while (before + counts[first]! <= offset) before += counts[first++]!;
    let last = first;
    let through = before + counts[first]!;
    while (through < end) through += counts[++last]!;
    // Where each group's rows go, and how many of them the page needs (all but the last group's, of which the
    // first `end − its start`): the pass stops when `needed` rows are placed.
    const next = new Int32Array(last - first + 2);
    for (let g = first; g <= last; g++) next[g - first + 1] = next[g - first]! + counts[g]!;
    const room = new Int32Array(last - first + 1);
    for (let g = first; g <= last; g++) room[g - first] = Math.min(counts[g]!, end - before - next[g - first]!);
    let needed = end - before;
    const rows = new Int32Array(through - before);
    if (passing !== null) {
      for (let p = 0; p < total && needed > 0; p++) {
        const k = passing[p]!;
        const i = list[k]!;
        const g = groupOf(ranked, k, i) - first;
        if (g < 0 || g > last - first || room[g] === 0) continue;
        rows[next[g]!++] = i;
        room[g]!--;
        needed--;
      }
      return { total, indexes: Array.from(rows.subarray(offset - before, end - before)) };
    }
    if (ranked.heads !== null && this.fromHeads(list, ranked.heads, first, last, room.slice(), next.slice(), rows, f, mask, allowed, bits))
      return { total, indexes: Array.from(rows.subarray(offset - before, end - before)) };
    for (let k = 0; k < list.length && needed > 0; k++) {
      const i = list[k]!;
      const g = groupOf(ranked, k, i) - first;
      if (g < 0 || g > last - first || room[g] === 0 || !this.testIn(i, f, mask, allowed, bits)) continue;
      rows[next[g]!++] = i;
      room[g]!--;
      needed--;
    }
    return { total, indexes: Array.from(rows.subarray(offset - before, end - before)) };
  }

  /**
   * pageRanked's collection from the keys' heads (bm25.ts, KeyHeads): for each group the page reaches, its keys'
   * first candidates merged in id order, tested, until the group has the rows the page needs. False (rows
   * half-filled, to be redone by the pass) when a key's head runs out with more candidates behind it first.
   */
  private fromHeads(
    list: Int32Array,
    h: KeyHeads,
    first: number,
    last: number,
    room: Int32Array,
    next: Int32Array,
    rows: Int32Array,
    f: OccurrenceFilter,
    mask: number,
    allowed: Uint8Array,
    bits: PhraseBits | null,
  ): boolean {
    for (let g = first; g <= last; g++) {
      const from = h.start[g]!;
      const to = h.start[g + 1]!;
      const cursor = new Int32Array(to - from);
      let need = room[g - first]!;
      while (need > 0) {
        // The head whose next candidate comes first.
        let best = -1;
        let bestRow = 0;
        for (let j = 0; j < cursor.length; j++) {
          const head = h.heads[from + j]!;
          if (cursor[j]! < h.count[head]!) {
            const r = h.rows[head * h.width + cursor[j]!]!;
            if (best < 0 || r < bestRow) {
              best = j;
              bestRow = r;
            }
          } else if (h.more[head] === 1) return false;
        }
        if (best < 0) return false; // (the counts say more rows pass than the heads hold: not expected)
        cursor[best]!++;
        const i = list[bestRow]!;
        if (!this.testIn(i, f, mask, allowed, bits)) continue;
        rows[next[g - first]!++] = i;
        need--;
      }
    }
    return true;
  }

  /**
   * The same for a candidate list (excerpt indexes, ascending) in a keyed order: a small list is counted and its
   * ranks sorted; a large one is marked and the order walked until the page is complete.
   */
  pageSorted(
    list: Int32Array,
    f: OccurrenceFilter,
    sort: KeyedSort,
    offset: number,
    limit: number,
    codeCounts: Int32Array | null = null,
    members: (() => Uint32Array) | null = null,
  ): { total: number; indexes: number[] } {
    const mask = pairMask(f);
    const allowed = this.allowedCodes(mask);
    const bits = this.phraseBits(f);
    const name = this.orderName(sort, f);
    const order = this.orders[name];
    if (codeCounts !== null && members !== null && this.codesOnly(f)) {
      // The total from the search's histogram; the page by walking the order and testing membership, when the
      // walk is expected to be shorter than a pass over the list (the candidates are a large share).
      const total = this.countCodes(codeCounts, allowed);
      const end = Math.min(total, offset + limit);
      if (end <= offset) return { total, indexes: [] };
      if ((end / total) * this.size <= list.length) {
        const member = members();
        const indexes: number[] = [];
        for (let pos = 0, seen = 0; pos < this.size && seen < end; pos++) {
          const i = order[pos]!;
          if (((member[i >>> 5]! >>> (i & 31)) & 1) === 0 || !this.test(i, f, mask, allowed)) continue;
          if (seen >= offset) indexes.push(i);
          seen++;
        }
        return { total, indexes };
      }
    }
    if (offset + limit <= HEAP_PAGE) return this.pageByHeap(list, f, mask, allowed, this.ranks[name], order, offset, limit);
    if (list.length <= this.size * RANK_SORT_SHARE) {
      const rank = this.ranks[name];
      const keys = new Int32Array(list.length);
      let total = 0;
      for (let k = 0; k < list.length; k++) if (this.testIn(list[k]!, f, mask, allowed, bits)) keys[total++] = rank[list[k]!]!;
      const sorted = keys.subarray(0, total).sort();
      const indexes: number[] = [];
      for (let k = offset; k < Math.min(total, offset + limit); k++) indexes.push(order[sorted[k]!]!);
      return { total, indexes };
    }
    const within = new Uint8Array(this.size);
    let total = 0;
    for (let k = 0; k < list.length; k++)
      if (this.testIn(list[k]!, f, mask, allowed, bits)) {
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

  /**
   * `pageSorted` for a page near the front: one pass over the candidates counts those passing `f` and keeps the
   * `offset + limit` smallest ranks in a bounded max-heap, so the cost is a pass over the list whatever its length
   * (sorting a common word's 500,000 ranks would be most of a keyed search's time). The ranks of an ascending
   * list are read in address order.
   */
  private pageByHeap(
    list: Int32Array,
    f: OccurrenceFilter,
    mask: number,
    allowed: Uint8Array,
    rank: Int32Array,
    order: Int32Array,
    offset: number,
    limit: number,
  ): { total: number; indexes: number[] } {
    const bits = this.phraseBits(f);
    const want = offset + limit;
    const heap = new Int32Array(want);
    let size = 0;
    let total = 0;
    for (let k = 0; k < list.length; k++) {
      const i = list[k]!;
      if (!this.testIn(i, f, mask, allowed, bits)) continue;
      total++;
      const r = rank[i]!;
      if (size < want) {
        // Sift up from the end.
        let c = size++;
        while (c > 0) {
          const p = (c - 1) >> 1;
          if (heap[p]! >= r) break;
          heap[c] = heap[p]!;
          c = p;
        }
        heap[c] = r;
      } else if (r < heap[0]!) {
        // Replace the largest and sift down.
        let c = 0;
        for (;;) {
          let child = 2 * c + 1;
          if (child >= size) break;
          if (child + 1 < size && heap[child + 1]! > heap[child]!) child++;
          if (heap[child]! <= r) break;
          heap[c] = heap[child]!;
          c = child;
        }
        heap[c] = r;
      }
    }
    const sorted = heap.subarray(0, size).sort();
    const indexes: number[] = [];
    for (let k = offset; k < size; k++) indexes.push(order[sorted[k]!]!);
    return { total, indexes };
  }
}
