/**
 * The cohort engine: exact counts, coverage, facet counts and sorted pages over the in-memory cohort index.
 *
 * A query runs in two passes. The count pass tests every candidate row (all rows, or the rows a title or
 * author search allows) with a predicate compiled from the filters, counting the cohort and its coverage and
 * marking matches in a bitset. The page pass then walks the sort's precomputed row permutation and keeps
 * marked rows until the page is full, or, when the cohort is small, sorts the marked rows directly; both
 * give the same order (the sort key, then id), so paging is stable.
 */
import { ApiError } from '../../../../../contracts/common/errors.ts';
import { CATEGORY_ORDER, DESIGNS, ROUTES } from '../../../../../contracts/frame/vocab.ts';
import { FLAG, ROUTE_FLAG } from '../../../../../contracts/frame/cohort-index.ts';
import type { CohortFacet, CohortFilters, Sort } from '../../../../../contracts/frame/cohort-query.ts';
import type { CohortIndex } from './cohort-index.ts';

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

/** Rows whose term lists contain every term (ANDed), smallest list first. */
function allTerms(index: CohortIndex, which: 'title' | 'author', terms: string[]): Uint32Array {
  const map = which === 'title' ? index.titleTerm : index.authorTerm;
  const csr = which === 'title' ? index.csr.title_terms : index.csr.author_terms;
  const keys: number[] = [];
  for (const t of terms) {
    const k = map.get(t);
    if (k === undefined) return new Uint32Array(0);
    keys.push(k);
  }
  keys.sort((a, b) => csr.size(a) - csr.size(b));
  let rows = csr.list(keys[0]!);
  for (const k of keys.slice(1)) {
    if (rows.length === 0) break;
    rows = intersect(rows, csr.list(k));
  }
  return rows;
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

function candidateRows(index: CohortIndex, f: CohortFilters): Uint32Array | null {
  const lists: Uint32Array[] = [];
  if (f.q !== undefined) lists.push(allTerms(index, 'title', f.q.split(' ')));
  if (f.author !== undefined) {
    const terms = f.author.split(' ');
    if (terms.length === 1) {
      // One term: the precomputed works of every author whose name has it.
      const k = index.authorTerm.get(terms[0]!);
      lists.push(k === undefined ? new Uint32Array(0) : index.csr.author_term_works.list(k));
    } else lists.push(worksOfAuthors(index, allTerms(index, 'author', terms)));
  }
  if (f.author_id !== undefined) {
    const a = index.rowOfAuthor(f.author_id);
    lists.push(a < 0 ? new Uint32Array(0) : index.csr.author_works.list(a));
  }
  if (lists.length === 0) return null;
  lists.sort((a, b) => a.length - b.length);
  let rows = lists[0]!;
  for (const l of lists.slice(1)) rows = intersect(rows, l);
  return rows;
}

// ---- the compiled predicate ----

/**
 * JS conditions over row `i` (columns bound as locals), or null when the filters select nothing. They are
 * combined with `&`, not `&&`: a broad filter matches rows at random, and a branch per row mispredicts about
 * as often as it predicts, which costs more than evaluating every condition (the scan stays branch-free).
 */
function conditions(index: CohortIndex, f: CohortFilters): string[] | null {
  const cond: string[] = [];
  if (f.year_from !== undefined) cond.push(`year[i] >= ${f.year_from}`);
  if (f.year_to !== undefined) cond.push(`((year[i] - 1) >>> 0) < ${f.year_to}`); // unknown year (0) wraps to 2^32 - 1
  if (f.cited_min !== undefined) cond.push(`cited[i] >= ${f.cited_min}`);
  for (const d of ['lang', 'type', 'field', 'topic', 'venue'] as const) {
    const v = f[d];
    if (v === undefined) continue;
    const code = index.dict[d].code.get(v);
    if (code === undefined) return null;
    cond.push(`${d}[i] === ${code}`);
  }
  let mask = 0;
  let want = 0;
  const bit = (b: number, v: boolean | undefined) => {
    if (v === undefined) return;
    mask |= b;
    if (v) want |= b;
  };
  for (const r of ROUTES) bit(ROUTE_FLAG[r], f[`route_${r}`]);
  bit(FLAG.retracted, f.retracted);
  bit(FLAG.has_abstract, f.abstract === undefined ? undefined : f.abstract === 'has');
  bit(FLAG.direct_labeled, f.labeled);
  if (mask !== 0) cond.push(`(flags[i] & ${mask}) === ${want}`);
  if (f.n_in !== undefined) cond.push(`n_in[i] === ${f.n_in}`);
  if (f.category !== undefined) {
    const b = 1 << CATEGORY_ORDER.indexOf(f.category);
    const column = f.label_source === 'predicted' ? (f.prediction_mode === 'consensus' ? 'pred_cons' : 'pred_cand') : f.agreement === 'all' ? 'direct_all' : 'direct_any';
    cond.push(`(${column}[i] & ${b}) !== 0`);
  }
  if (f.design !== undefined) {
    const k = DESIGNS.indexOf(f.design);
    if (f.label_source === 'predicted') cond.push(`${f.prediction_mode === 'consensus' ? 'pred_design_cons' : 'pred_design_cand'}[i] === ${k + 1}`);
    else cond.push(`(${f.agreement === 'all' ? 'direct_design_all' : 'direct_design_any'}[i] & ${1 << k}) !== 0`);
  }
  return cond;
}

type ScanFn = (
  col: CohortIndex['col'],
  candidates: Uint32Array | null,
  n: number,
  bits: Uint32Array,
  hist: Uint32Array | null,
  facet: ArrayLike<number> | null,
) => void;

const COLUMN_LOCALS = 'const { year, cited, flags, n_in, lang, type, field, topic, venue, pred_cand, pred_cons, pred_design_cand, pred_design_cons, direct_any, direct_all, direct_design_any, direct_design_all } = col;';

/** Compiled scans by condition text: the same filter shape reuses its function (and V8's optimised code). */
const scans = new Map<string, ScanFn>();

/**
 * Compiles the scan that marks the cohort's rows in `bits` (and, for a facet, fills its histogram). Counting
 * is left to popcounts over the bitset, so the per-row work is the predicate and one OR into a register.
 */
function compileScan(cond: string[], withFacet: boolean): ScanFn {
  const key = `${withFacet ? 'F:' : ''}${cond.map((c) => `(${c})`).join(' & ')}`;
  let fn = scans.get(key);
  if (fn) return fn;
  const match = cond.length === 0 ? '1' : cond.map((c) => `(${c})`).join(' & ');
  // m is 1 when the row matches, else 0; everything after it is arithmetic on m (no branches).
  const perRow = `const m = (${match}) | 0;${withFacet ? ' hist[facet[i]] += m;' : ''}`;
  // Generated only from a closed set of column names and numbers, never from request text.
  fn = new Function(
    'col',
    'candidates',
    'n',
    'bits',
    'hist',
    'facet',
    `${COLUMN_LOCALS}
     if (candidates === null) {
       // Whole words of 32 rows: the match word is built in a register and stored once.
       const whole = n >>> 5;
       for (let w = 0; w < whole; w++) {
         let word = 0;
         const base = w << 5;
         for (let b = 0; b < 32; b++) {
           const i = base + b;
           ${perRow}
           word |= m << b;
         }
         bits[w] = word;
       }
       for (let i = whole << 5; i < n; i++) {
         ${perRow}
         bits[i >>> 5] |= m << (i & 31);
       }
     } else {
       for (let k = 0; k < candidates.length; k++) {
         const i = candidates[k];
         ${perRow}
         bits[i >>> 5] |= m << (i & 31);
       }
     }`,
  ) as ScanFn;
  if (scans.size > 1000) scans.clear();
  scans.set(key, fn);
  return fn;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** Set bits of `a`, or of `a AND b`. */
function countBits(a: Uint32Array, b: Uint32Array | null): number {
  let n = 0;
  if (b === null) for (let w = 0; w < a.length; w++) n += popcount(a[w]!);
  else for (let w = 0; w < a.length; w++) n += popcount(a[w]! & b[w]!);
  return n;
}

/** The facet column and histogram size for `/cohort/facets` (route is counted from the flags). */
function facetColumn(index: CohortIndex, facet: CohortFacet): { column: ArrayLike<number>; size: number } {
  switch (facet) {
    case 'year':
      return { column: index.col.year, size: 10_000 };
    case 'route':
      return { column: index.col.flags, size: 256 };
    default:
      return { column: index.col[facet], size: index.dict[facet].values.length + 1 };
  }
}

/** Runs the count pass: exact total, coverage, the match bitset and optionally a facet histogram. */
export function matchCohort(index: CohortIndex, f: CohortFilters, facet: CohortFacet | null = null): CohortMatch {
  const bits = new Uint32Array((index.rows + 31) >>> 5);
  const fc = facet === null ? null : facetColumn(index, facet);
  const histogram = fc === null ? null : new Uint32Array(fc.size);
  const cond = conditions(index, f);
  const empty: CohortMatch = { total: 0, direct_labels_cover: 0, predictions_cover: 0, bits, candidates: new Uint32Array(0), histogram };
  if (cond === null) return empty;
  const candidates = candidateRows(index, f);
  if (candidates !== null && candidates.length === 0) return empty;
  compileScan(cond, histogram !== null)(index.col, candidates, index.rows, bits, histogram, fc?.column ?? null);
  return {
    total: countBits(bits, null),
    direct_labels_cover: countBits(bits, index.flagBits.direct_labeled),
    predictions_cover: countBits(bits, index.flagBits.predicted),
    bits,
    candidates,
    histogram,
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

const isSet = (bits: Uint32Array, i: number) => (bits[i >>> 5]! & (1 << (i & 31))) !== 0;

/** Rows of the cohort, ascending. */
function gather(index: CohortIndex, m: CohortMatch): Uint32Array {
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
    const rows = gather(index, m);
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

export function decodeCursor(cursor: string, hash: string, sort: Sort): number[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const c = parsed as { h?: unknown; s?: unknown; k?: unknown } | null;
  const valid =
    c !== null && typeof c === 'object' && typeof c.h === 'string' && typeof c.s === 'string' && Array.isArray(c.k) && c.k.length >= 2 && c.k.length <= 4 && c.k.every((x) => Number.isSafeInteger(x)) &&
    // Only the exact text this service issued (base64url decoding forgives stray trailing characters).
    encodeCursor(c.h, c.s as Sort, c.k as number[]) === cursor;
  if (!valid)
    throw new ApiError('INVALID_PARAMETER', 'Invalid value for "cursor": it is not a cursor this service issued; pass meta.next_cursor unchanged.', [{ parameter: 'cursor', message: 'not a cursor this service issued' }]);
  if (c.h !== hash || c.s !== sort)
    throw new ApiError('INVALID_PARAMETER', `Invalid value for "cursor": it was issued for another query (filters or sort differ, or another snapshot); a cursor only continues the query it came from.`, [
      { parameter: 'cursor', message: 'issued for another query' },
    ]);
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
