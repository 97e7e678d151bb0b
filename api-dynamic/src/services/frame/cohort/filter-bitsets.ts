/**
 * Bitsets (one bit per row) for every filter value of a small vocabulary, built once when a build is loaded:
 * the flag bits, each lang/type/field value, each screening count, each category and design of predictions
 * and direct labels, and "year ≥ y" for every year present. A cohort is then the AND of a few bitsets, 32 rows
 * per operation (about 0.1 ms per filter at 4.3M rows), instead of a predicate per row. Topic and venue, with
 * thousands of values, get row lists instead; the most frequent title terms get bitsets too. About 50 MB per
 * million works.
 */
import { CATEGORY_ORDER, DESIGNS } from '../../../../../contracts/frame/vocab.ts';
import type { CohortIndex } from './cohort-index.ts';

export type Bitset = Uint32Array;

/** Frequent author-name terms whose bitsets are kept once made (FilterBitsets.authorTermSets). */
const AUTHOR_TERM_BITSETS = 16;

/** Dictionaries larger than this get no per-value bitsets (their equality filters use row lists). */
const MAX_BITSET_VALUES = 1024;

function byValue(column: ArrayLike<number>, values: number, words: number, offset = 0): Bitset[] {
  const sets = Array.from({ length: values }, () => new Uint32Array(words));
  for (let i = 0; i < column.length; i++) sets[column[i]! + offset]![i >>> 5]! |= 1 << (i & 31);
  return sets;
}

function byBit(column: ArrayLike<number>, bits: number, words: number): Bitset[] {
  const sets = Array.from({ length: bits }, () => new Uint32Array(words));
  for (let i = 0; i < column.length; i++) {
    let m = column[i]!;
    while (m !== 0) {
      const b = 31 - Math.clz32(m & -m);
      sets[b]![i >>> 5]! |= 1 << (i & 31);
      m &= m - 1;
    }
  }
  return sets;
}

/** Rows by code, ascending: offsets per code and one array of rows. */
export interface RowLists {
  offsets: Uint32Array;
  rows: Uint32Array;
}

function rowLists(column: ArrayLike<number>, codes: number): RowLists {
  const offsets = new Uint32Array(codes + 2);
  for (let i = 0; i < column.length; i++) offsets[column[i]! + 1]!++;
  for (let c = 0; c <= codes; c++) offsets[c + 1]! += offsets[c]!;
  const at = offsets.slice(0, codes + 1);
  const rows = new Uint32Array(column.length);
  for (let i = 0; i < column.length; i++) rows[at[column[i]!]!++] = i;
  return { offsets, rows };
}

export class FilterBitsets {
  readonly words: number;
  /** Bit k of the flags column (FLAG values are 1 << k). */
  readonly flag: Bitset[];
  /** By code of lang, type, field (null when the dictionary is too large). */
  readonly value: Record<'lang' | 'type' | 'field', Bitset[] | null>;
  /** Screening count n_in = k (k = 0..3). */
  readonly nIn: Bitset[];
  readonly predCand: Bitset[];
  readonly predCons: Bitset[];
  readonly directAny: Bitset[];
  readonly directAll: Bitset[];
  /** By 1 + design index. */
  readonly predDesignCand: Bitset[];
  readonly predDesignCons: Bitset[];
  readonly directDesignAny: Bitset[];
  readonly directDesignAll: Bitset[];
  /** Distinct known years ascending, and for each the rows with a year at least that. */
  private readonly years: number[];
  private readonly yearAtLeast: Bitset[];
  readonly lists: Record<'topic' | 'venue' | 'lang' | 'type' | 'field', RowLists | null>;
  /** Rows of the frame (the tail bits of the last word are 0). */
  readonly all: Bitset;
  /**
   * Title terms in more than 1/64 of the works (`the`, `of`, common words; about a hundred at 4.3M works), by
   * term key: ANDing their bitsets costs 0.1 ms where intersecting their row lists cost 40–95 ms.
   */
  readonly frequentTitleTerms: Map<number, Bitset>;
  /**
   * Bitsets of author-name terms in more than 1/64 of the works, made on first use, the most recently used
   * AUTHOR_TERM_BITSETS kept. Their lists are stored delta-varint coded (pipeline version 8), and decoding one
   * of ~400,000 works costs about 1 ms a request where version 7 read its u32 list from the page cache; a
   * bitset is ANDed in 0.1 ms. Generated names make about 86 such terms at 4.3M works (46 MB as bitsets), so
   * they are not all built at start like the title terms; 16 hold 8.6 MB at most.
   */
  private readonly authorTermSets = new Map<number, Bitset>();

  constructor(private readonly index: CohortIndex) {
    const n = index.rows;
    const words = (this.words = (n + 31) >>> 5);
    const c = index.col;
    this.all = new Uint32Array(words).fill(0xffffffff);
    if (n % 32 !== 0) this.all[words - 1] = (2 ** (n % 32) - 1) >>> 0;
    this.flag = byBit(c.flags, 8, words);
    const small = (d: 'lang' | 'type' | 'field') => index.dict[d].values.length < MAX_BITSET_VALUES;
    this.value = {
      lang: small('lang') ? byValue(c.lang, index.dict.lang.values.length + 1, words) : null,
      type: small('type') ? byValue(c.type, index.dict.type.values.length + 1, words) : null,
      field: small('field') ? byValue(c.field, index.dict.field.values.length + 1, words) : null,
    };
    this.nIn = byValue(c.n_in, 5, words, 1).slice(1);
    this.predCand = byBit(c.pred_cand, CATEGORY_ORDER.length, words);
    this.predCons = byBit(c.pred_cons, CATEGORY_ORDER.length, words);
    this.directAny = byBit(c.direct_any, CATEGORY_ORDER.length, words);
    this.directAll = byBit(c.direct_all, CATEGORY_ORDER.length, words);
    this.predDesignCand = byValue(c.pred_design_cand, DESIGNS.length + 1, words);
    this.predDesignCons = byValue(c.pred_design_cons, DESIGNS.length + 1, words);
    this.directDesignAny = [new Uint32Array(0), ...byBit(c.direct_design_any, DESIGNS.length, words)];
    this.directDesignAll = [new Uint32Array(0), ...byBit(c.direct_design_all, DESIGNS.length, words)];
    // Year ≥ y for each distinct year, by suffix ORs of the per-year sets.
    const present = new Set<number>();
    for (let i = 0; i < n; i++) if (c.year[i] !== 0) present.add(c.year[i]!);
    this.years = [...present].sort((a, b) => a - b);
    const slot = new Map(this.years.map((y, k) => [y, k]));
    const perYear = this.years.map(() => new Uint32Array(words));
    for (let i = 0; i < n; i++) if (c.year[i] !== 0) perYear[slot.get(c.year[i]!)!]![i >>> 5]! |= 1 << (i & 31);
    for (let k = perYear.length - 2; k >= 0; k--) {
      const cur = perYear[k]!;
      const next = perYear[k + 1]!;
      for (let w = 0; w < words; w++) cur[w]! |= next[w]!;
    }
    this.yearAtLeast = perYear;
    this.frequentTitleTerms = new Map();
    const terms = index.csr.title_terms;
    for (let k = 0; k < terms.keys; k++) {
      if (terms.size(k) <= n / 64) continue;
      const set = new Uint32Array(words);
      for (const i of terms.list(k)) set[i >>> 5]! |= 1 << (i & 31);
      this.frequentTitleTerms.set(k, set);
    }
    const lists = (d: 'topic' | 'venue' | 'lang' | 'type' | 'field') => rowLists(c[d], index.dict[d].values.length);
    this.lists = {
      topic: lists('topic'),
      venue: lists('venue'),
      lang: this.value.lang ? null : lists('lang'),
      type: this.value.type ? null : lists('type'),
      field: this.value.field ? null : lists('field'),
    };
  }

  /** Rows with a known year ≥ y (none when y is after every year). */
  yearAtLeastSet(y: number): Bitset {
    let lo = 0;
    let hi = this.years.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.years[mid]! < y) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.years.length ? this.yearAtLeast[lo]! : new Uint32Array(this.words);
  }

  /** Rows with cited_by ≥ n: a prefix of the cited-desc permutation, marked in a new bitset. */
  citedAtLeast(n: number): Bitset {
    const perm = this.index.orders.cited;
    const cited = this.index.col.cited;
    let lo = 0;
    let hi = perm.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cited[perm[mid]!]! >= n) lo = mid + 1;
      else hi = mid;
    }
    const set = new Uint32Array(this.words);
    for (let p = 0; p < lo; p++) {
      const i = perm[p]!;
      set[i >>> 5]! |= 1 << (i & 31);
    }
    return set;
  }

  /** The bitset of an author-name term's works when the term is frequent (see authorTermSets), else null. */
  frequentAuthorTerm(key: number): Bitset | null {
    const works = this.index.csr.author_term_works;
    if (works.size(key) <= this.index.rows / 64) return null;
    let set = this.authorTermSets.get(key);
    if (set) this.authorTermSets.delete(key);
    else {
      set = new Uint32Array(this.words);
      for (const i of works.list(key)) set[i >>> 5]! |= 1 << (i & 31);
      if (this.authorTermSets.size >= AUTHOR_TERM_BITSETS) this.authorTermSets.delete(this.authorTermSets.keys().next().value!);
    }
    this.authorTermSets.set(key, set); // most recently used last
    return set;
  }

  /** Approximate memory held, for the logs. */
  get bytes(): number {
    const sets = [
      [...this.frequentTitleTerms.values()],
      [...this.authorTermSets.values()],
      this.flag,
      this.nIn,
      this.predCand,
      this.predCons,
      this.directAny,
      this.directAll,
      this.predDesignCand,
      this.predDesignCons,
      this.directDesignAny,
      this.directDesignAll,
      this.yearAtLeast,
      ...Object.values(this.value).filter((v) => v !== null),
    ];
    const listBytes = Object.values(this.lists).reduce((s, l) => s + (l ? l.rows.byteLength + l.offsets.byteLength : 0), 0);
    return sets.flat().reduce((s, b) => s + b.byteLength, 0) + listBytes + this.all.byteLength;
  }
}
