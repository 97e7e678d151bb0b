/**
 * The cohort engine: exact counts, coverage, facet counts and sorted pages over the in-memory cohort index.
 *
 * A query runs in two passes. The count pass marks the cohort in a bitset: the AND of one precomputed bitset
 * per filter (filter-bitsets.ts), or, when a search, topic or venue narrows the rows to a list, a test of
 * each listed row; totals and coverage are popcounts. The page pass then walks the sort's precomputed row
 * permutation and keeps marked rows until the page is full, or, when the cohort is small, sorts the marked
 * rows directly; both give the same order (the sort key, then id), so paging is stable.
 */
import { ApiError } from '../../../../../contracts/common/errors.ts';
import { popcount } from '../../../../../contracts/common/bytes.ts';
import { CATEGORY_ORDER, DESIGNS, ROUTES } from '../../../../../contracts/frame/vocab.ts';
import { FLAG, ROUTE_FLAG } from '../../../../../contracts/frame/cohort-index.ts';
import { type CohortFacet, type CohortFilters, type Sort, SORTS } from '../../../../../contracts/frame/cohort-query.ts';
import type { CohortIndex, Csr } from './cohort-index.ts';
import type { Bitset } from './filter-bitsets.ts';

const SORT_NAMES: ReadonlySet<string> = new Set(SORTS);

export interface CohortCounts {
  total: number;
  direct_labels_cover: number;
  predictions_cover: number;
}

export interface CohortMatch extends CohortCounts {
  /** Bit i set ⇔ row i is in the cohort. */
  bits: Uint32Array;
  /** Rows a search narrowed the cohort to (ascending), or null when every row was a candidate. */
  candidates: Uint32Array | null;
  /** Facet histogram by code (when asked). */
  histogram: Uint32Array | null;
}

// ---- candidate rows from searches ----

function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Uint32Array(small.length);
  let n = 0;
  if (large.length > small.length * 16) {
    // Very different sizes: binary-search each element of the small list in the large one.
    let lo = 0;
    for (const x of small) {
      let hi = large.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (large[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      if (lo < large.length && large[lo] === x) out[n++] = x;
    }
  } else {
    let i = 0;
    let j = 0;
    while (i < small.length && j < large.length) {
      const x = small[i]!;
      const y = large[j]!;
      if (x === y) {
        out[n++] = x;
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
  }
  return out.subarray(0, n);
}

/** Sorted lists intersected, smallest first (stops as soon as the result is empty). */
function intersectAll(lists: Uint32Array[]): Uint32Array {
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let rows = sorted[0]!;
  for (const l of sorted.slice(1)) {
    if (rows.length === 0) break;
    rows = intersect(rows, l);
  }
  return rows;
}

/** Values listed under every key, reading the shortest lists first (a long list is not read once the result is empty). */
function listedUnderAll(csr: Csr, keys: number[]): Uint32Array {
  const sorted = [...keys].sort((a, b) => csr.size(a) - csr.size(b));
  let rows = csr.list(sorted[0]!);
  for (const k of sorted.slice(1)) {
    if (rows.length === 0) break;
    rows = intersect(rows, csr.list(k));
  }
  return rows;
}

/** Author rows whose names have every term. */
function authorsWithAllTerms(index: CohortIndex, terms: string[]): Uint32Array {
  const keys: number[] = [];
  for (const t of terms) {
    const k = index.authorTerm.get(t);
    if (k === undefined) return new Uint32Array(0);
    keys.push(k);
  }
  return listedUnderAll(index.csr.author_terms, keys);
}

/** Work rows of a set of author rows, ascending and distinct. */
function worksOfAuthors(index: CohortIndex, authors: ArrayLike<number>): Uint32Array {
  if (authors.length === 1) return index.csr.author_works.list(authors[0]!);
  const lists: Uint32Array[] = [];
  let n = 0;
  for (let k = 0; k < authors.length; k++) {
    const l = index.csr.author_works.list(authors[k]!);
    lists.push(l);
    n += l.length;
  }
  const all = new Uint32Array(n);
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  all.sort();
  let m = 0;
  for (let k = 0; k < all.length; k++) if (k === 0 || all[k] !== all[k - 1]) all[m++] = all[k]!;
  return all.subarray(0, m);
}

/** The row lists that searches narrow the cohort to (title terms without a bitset, several author terms, author id). */
function searchLists(index: CohortIndex, f: CohortFilters, rareTitleKeys: number[]): Uint32Array[] {
  const lists: Uint32Array[] = [];
  if (rareTitleKeys.length > 0) lists.push(listedUnderAll(index.csr.title_terms, rareTitleKeys));
  // A one-term author search is planned with the filters (plan); several terms intersect their authors here.
  if (f.author !== undefined && f.author.includes(' ')) lists.push(worksOfAuthors(index, authorsWithAllTerms(index, f.author.split(' '))));
  if (f.author_id !== undefined) {
    const a = index.rowOfAuthor(f.author_id);
    lists.push(a < 0 ? new Uint32Array(0) : index.csr.author_works.list(a));
  }
  return lists;
}

// ---- the filter as bitsets ----

/** One AND term: a bitset, or its complement. */
interface Term {
  set: Bitset;
  not: boolean;
}

/**
 * The filters as AND terms over bitsets plus row lists (topic, venue, large dictionaries, an infrequent author
 * term), or null when a value the frame does not have makes the cohort empty.
 */
function plan(index: CohortIndex, f: CohortFilters): { terms: Term[]; lists: Uint32Array[]; rareTitleKeys: number[] } | null {
  const b = index.filters;
  const terms: Term[] = [];
  const lists: Uint32Array[] = [];
  const rareTitleKeys: number[] = [];
  const yes = (set: Bitset) => terms.push({ set, not: false });
  // Title terms: frequent ones are bitsets, the rest row lists (a term the frame lacks empties the cohort).
  for (const t of f.q === undefined ? [] : f.q.split(' ')) {
    const k = index.titleTerm.get(t);
    if (k === undefined) return null;
    const set = b.frequentTitleTerms.get(k);
    if (set) yes(set);
    else rareTitleKeys.push(k);
  }
  // One author-name term: the precomputed works of every author whose name has it, as a bitset when the term
  // is frequent (a term the frame lacks empties the cohort).
  if (f.author !== undefined && !f.author.includes(' ')) {
    const k = index.authorTerm.get(f.author);
    if (k === undefined) return null;
    const set = b.frequentAuthorTerm(k);
    if (set) yes(set);
    else lists.push(index.csr.author_term_works.list(k));
  }
  if (f.year_from !== undefined) yes(b.yearAtLeastSet(f.year_from));
  if (f.year_to !== undefined) {
    yes(b.yearAtLeastSet(1)); // a known year
    terms.push({ set: b.yearAtLeastSet(f.year_to + 1), not: true });
  }
  if (f.cited_min !== undefined) yes(b.citedAtLeast(f.cited_min));
  for (const d of ['lang', 'type', 'field', 'topic', 'venue'] as const) {
    const v = f[d];
    if (v === undefined) continue;
    const code = index.dict[d].code.get(v);
    if (code === undefined) return null;
    const sets = d === 'topic' || d === 'venue' ? null : b.value[d];
    if (sets) yes(sets[code]!);
    else {
      const l = b.lists[d]!;
      lists.push(l.rows.subarray(l.offsets[code]!, l.offsets[code + 1]!));
    }
  }
  const flagTerm = (flag: number, v: boolean | undefined) => {
    if (v !== undefined) terms.push({ set: b.flag[Math.log2(flag)]!, not: !v });
  };
  for (const r of ROUTES) flagTerm(ROUTE_FLAG[r], f[`route_${r}`]);
  flagTerm(FLAG.retracted, f.retracted);
  flagTerm(FLAG.has_abstract, f.abstract === undefined ? undefined : f.abstract === 'has');
  flagTerm(FLAG.direct_labeled, f.labeled);
  if (f.n_in !== undefined) yes(b.nIn[f.n_in]!);
  const predicted = f.label_source === 'predicted';
  const consensus = f.prediction_mode === 'consensus';
  const all = f.agreement === 'all';
  if (f.category !== undefined) {
    const k = CATEGORY_ORDER.indexOf(f.category);
    yes((predicted ? (consensus ? b.predCons : b.predCand) : all ? b.directAll : b.directAny)[k]!);
  }
  if (f.design !== undefined) {
    const k = DESIGNS.indexOf(f.design) + 1;
    yes((predicted ? (consensus ? b.predDesignCons : b.predDesignCand) : all ? b.directDesignAll : b.directDesignAny)[k]!);
  }
  return { terms, lists, rareTitleKeys };
}

/** Set bits of `a`, or of `a AND b`. */
function countBits(a: Uint32Array, b: Uint32Array | null): number {
  let n = 0;
  if (b === null) for (let w = 0; w < a.length; w++) n += popcount(a[w]!);
  else for (let w = 0; w < a.length; w++) n += popcount(a[w]! & b[w]!);
  return n;
}

/** The facet's histogram over the cohort's rows (route counts come from the flags). */
function histogramOf(index: CohortIndex, facet: CohortFacet, bits: Uint32Array): Uint32Array {
  const column: ArrayLike<number> = facet === 'route' ? index.col.flags : facet === 'year' ? index.col.year : index.col[facet];
  const size = facet === 'route' ? 256 : facet === 'year' ? 10_000 : index.dict[facet].values.length + 1;
  const hist = new Uint32Array(size);
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const b = 31 - Math.clz32(word & -word);
      hist[column[(w << 5) + b]!]!++;
      word &= word - 1;
    }
  }
  return hist;
}

const isSet = (bits: Uint32Array, i: number) => (bits[i >>> 5]! & (1 << (i & 31))) !== 0;

/** Runs the count pass: exact total, coverage, the match bitset and optionally a facet histogram. */
export function matchCohort(index: CohortIndex, f: CohortFilters, facet: CohortFacet | null = null): CohortMatch {
  const b = index.filters;
  const bits = new Uint32Array(b.words);
  const p = plan(index, f);
  let candidates: Uint32Array | null = null;
  if (p !== null) {
    const lists = [...searchLists(index, f, p.rareTitleKeys), ...p.lists];
    if (lists.length > 0) {
      candidates = intersectAll(lists);
      // Few rows: test each against the terms.
      for (const i of candidates) {
        let ok = true;
        for (const t of p.terms) if (isSet(t.set, i) === t.not) ok = false;
        if (ok) bits[i >>> 5]! |= 1 << (i & 31);
      }
    } else {
      // Whole frame: AND the terms word by word, one term at a time.
      bits.set(b.all);
      for (const t of p.terms) {
        const s = t.set;
        if (t.not) for (let w = 0; w < bits.length; w++) bits[w]! &= ~s[w]!;
        else for (let w = 0; w < bits.length; w++) bits[w]! &= s[w]!;
      }
    }
  }
  return {
    total: countBits(bits, null),
    direct_labels_cover: countBits(bits, b.flag[Math.log2(FLAG.direct_labeled)]!),
    predictions_cover: countBits(bits, b.flag[Math.log2(FLAG.predicted)]!),
    bits,
    candidates,
    histogram: facet === null ? null : histogramOf(index, facet, bits),
  };
}

// ---- sorting and paging ----

/** The sort key of a row as a tuple that orders ascending: the permutation order, ties by row (id). */
export function sortKey(index: CohortIndex, sort: Sort, row: number): number[] {
  const { year, cited, ntok } = index.col;
  switch (sort) {
    case 'cited':
      return [-cited[row]!, row];
    case 'year_desc':
      return [year[row] === 0 ? 1 : 0, -year[row]!, -cited[row]!, row];
    case 'year_asc':
      return [year[row] === 0 ? 1 : 0, year[row]!, -cited[row]!, row];
    case 'relevance':
      return [ntok[row]!, -cited[row]!, row];
  }
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! - b[k]!;
  return 0;
}

/** Rows of the cohort, ascending. */
function gather(m: CohortMatch): Uint32Array {
  const out = new Uint32Array(m.total);
  let n = 0;
  if (m.candidates !== null) {
    for (const i of m.candidates) if (isSet(m.bits, i)) out[n++] = i;
    return out;
  }
  const { bits } = m;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const b = 31 - Math.clz32(word & -word);
      out[n++] = (w << 5) + b;
      word &= word - 1;
    }
  }
  return out;
}

/**
 * Yields the cohort's rows in sort order, from just after `after` (a sort key) when given. Lazy: a page asks
 * for `need` rows and stops. Chooses between walking the sort's permutation (cost ≈ need × rows / total) and
 * sorting the cohort's own rows (cost ≈ total × log total), whichever is cheaper.
 */
export function* rowsInOrder(index: CohortIndex, m: CohortMatch, sort: Sort, after: number[] | null, need: number): Generator<number> {
  if (m.total === 0) return;
  const N = index.rows;
  const walkCost = Math.min(N, (need * N) / m.total);
  const sortCost = m.total * Math.log2(m.total + 2) * 4 + (m.candidates === null ? N / 32 : 0);
  if (sortCost < walkCost) {
    const rows = gather(m);
    const keys = Array.from(rows, (r) => sortKey(index, sort, r));
    const order = Array.from(rows.keys()).sort((a, b) => compareKeys(keys[a]!, keys[b]!));
    for (const k of order) if (after === null || compareKeys(keys[k]!, after) > 0) yield rows[k]!;
    return;
  }
  const perm = index.orders[sort];
  let start = 0;
  if (after !== null) {
    // First permutation position whose key is after the cursor.
    let lo = 0;
    let hi = perm.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(sortKey(index, sort, perm[mid]!), after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const { bits } = m;
  for (let p = start; p < perm.length; p++) {
    const i = perm[p]!;
    if ((bits[i >>> 5]! & (1 << (i & 31))) !== 0) yield i;
  }
}

export interface CohortPage {
  rows: number[];
  /** Sort key of the last row when more rows follow, else null. */
  nextKey: number[] | null;
}

/** One page: by offset (page, per_page) or after a cursor key. */
export function cohortPage(index: CohortIndex, m: CohortMatch, sort: Sort, per_page: number, page: number, after: number[] | null): CohortPage {
  const skip = after === null ? (page - 1) * per_page : 0;
  const rows: number[] = [];
  let more = false;
  let k = 0;
  for (const r of rowsInOrder(index, m, sort, after, skip + per_page + 1)) {
    if (k++ < skip) continue;
    if (rows.length === per_page) {
      more = true;
      break;
    }
    rows.push(r);
  }
  return { rows, nextKey: more && rows.length > 0 ? sortKey(index, sort, rows[rows.length - 1]!) : null };
}

// ---- cursors ----

/** An opaque cursor: the query hash and sort it belongs to, and the sort key of the last row served. */
export function encodeCursor(hash: string, sort: Sort, key: number[]): string {
  return Buffer.from(JSON.stringify({ h: hash, s: sort, k: key })).toString('base64url');
}

const KEY_LENGTH: Record<Sort, number> = { cited: 2, year_desc: 4, year_asc: 4, relevance: 3 };

export function decodeCursor(cursor: string, hash: string, sort: Sort): number[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const c = parsed as { h?: unknown; s?: unknown; k?: unknown } | null;
  const valid =
    c !== null &&
    typeof c === 'object' &&
    typeof c.h === 'string' &&
    typeof c.s === 'string' &&
    Array.isArray(c.k) &&
    c.k.every((x) => Number.isSafeInteger(x)) &&
    c.k.length === KEY_LENGTH[(SORT_NAMES.has(c.s) ? c.s : 'cited') as Sort] &&
    // Only the exact text this service issued (base64url decoding forgives stray trailing characters).
    encodeCursor(c.h, c.s as Sort, c.k as number[]) === cursor;
  if (!valid)
    throw new ApiError('INVALID_PARAMETER', 'Invalid value for "cursor": it is not a cursor this service issued; pass meta.next_cursor unchanged.', [
      { parameter: 'cursor', message: 'not a cursor this service issued' },
    ]);
  if (c.h !== hash || c.s !== sort)
    throw new ApiError(
      'INVALID_PARAMETER',
      `Invalid value for "cursor": it was issued for another query (filters or sort differ, or another snapshot); a cursor only continues the query it came from.`,
      [{ parameter: 'cursor', message: 'issued for another query' }],
    );
  return c.k as number[];
}

/** The route facet counts within a cohort from the flags histogram. */
export function routeCounts(hist: Uint32Array): { value: string; works: number }[] {
  const out = ROUTES.map((r) => ({ value: r as string, works: 0 }));
  let noAff = 0;
  for (let f = 0; f < hist.length; f++) {
    const n = hist[f]!;
    if (n === 0) continue;
    ROUTES.forEach((r, k) => {
      if (f & ROUTE_FLAG[r]) out[k]!.works += n;
    });
    if (!(f & FLAG.aff)) noAff += n;
  }
  return [...out, { value: 'no_aff', works: noAff }];
}
