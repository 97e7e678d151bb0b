/**
 * Answers of the cohort service built from the engine: the `/cohort` and `/works` pages, cohort facets,
 * typeahead facets, and the rows of an export. Route handlers only parse, call these and send.
 */
import {
  type CohortFacet,
  type CohortFilters,
  type CohortQuery,
  filtersToQuery,
  queryHash,
  WORKS_TOTAL_CAP,
  MAX_PER_PAGE,
} from '../../../../../contracts/frame/cohort-query.ts';
import { DIRECT_LABEL_STATUS } from '../../../../../contracts/frame/work-record.ts';
import { titleTerms } from '../../../../../contracts/frame/title-terms.ts';
import type { Build } from '../../build-store.ts';
import { type CohortMatch, cohortPage, decodeCursor, encodeCursor, matchCohort, routeCounts } from './engine.ts';

export const PREDICTION_STATUS_TEXT = 'machine_predicted_unvalidated (teacher distillation; fidelity to machine teachers, not human accuracy)';

/** Turns the count cache off (COHORT_CACHE=off: benchmarks measure the engine itself). */
export const cacheControl = { enabled: true };

/** A small cache of count passes by canonical query (the snapshot is frozen, so a count never changes). */
const matches = new WeakMap<Build, Map<string, CohortMatch>>();
const MATCH_CACHE = 64;

/** The count pass of a cohort on a build, from the cache when it is on (facet histograms are not cached). */
export function cohortMatch(build: Build, filters: CohortFilters, facet: CohortFacet | null = null): CohortMatch {
  const index = build.cohort;
  if (facet !== null || !cacheControl.enabled) return matchCohort(index, filters, facet);
  let cache = matches.get(build);
  if (!cache) {
    cache = new Map();
    matches.set(build, cache);
  }
  const key = JSON.stringify(filters);
  const hit = cache.get(key);
  if (hit) {
    // Refresh its place in the LRU order.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  // Keep the bitset, not the search's row list (which can be millions of rows): paging can gather from bits.
  const m = { ...matchCohort(index, filters), candidates: null };
  cache.set(key, m);
  if (cache.size > MATCH_CACHE) cache.delete(cache.keys().next().value!);
  return m;
}

export function cohortCounts(build: Build, filters: CohortFilters) {
  const m = cohortMatch(build, filters);
  return { total: m.total, direct_labels_cover: m.direct_labels_cover, predictions_cover: m.predictions_cover };
}

function pageOf(build: Build, q: CohortQuery, hash: string) {
  const index = build.cohort;
  const m = cohortMatch(build, q.filters);
  const after = q.cursor === null ? null : decodeCursor(q.cursor, hash, q.sort);
  const page = cohortPage(index, m, q.sort, q.per_page, q.page, after);
  return { m, page, results: page.rows.map((r) => index.record(r)) };
}

/** What every cohort answer says about the question: the snapshot, the canonical filters, the sort. */
export function questionBlock(build: Build, q: CohortQuery, hash: string) {
  return { snapshot: build.snapshotRef, query_hash: hash, filters: q.filters, query: filtersToQuery(q.filters), sort: q.sort };
}

function pageBlock(q: CohortQuery, hash: string, nextKey: number[] | null) {
  return {
    page: q.cursor === null ? q.page : null,
    per_page: q.per_page,
    max_per_page: MAX_PER_PAGE,
    next_cursor: nextKey === null ? null : encodeCursor(hash, q.sort, nextKey),
  };
}

/** The `/cohort` body (JSON text: stored items are spliced in without re-parsing). */
export function cohortBody(build: Build, q: CohortQuery): string {
  const hash = queryHash(q.filters, build.snapshotId);
  const { m, page, results } = pageOf(build, q, hash);
  const meta = {
    ...questionBlock(build, q, hash),
    ...pageBlock(q, hash, page.nextKey),
    total: m.total,
    total_is_capped: false,
    direct_labels_cover: m.direct_labels_cover,
    predictions_cover: m.predictions_cover,
    direct_label_status: DIRECT_LABEL_STATUS,
    prediction_status: PREDICTION_STATUS_TEXT,
    note: 'An empty labels array means the work has no direct label (unknown), never that it is not in the category.',
  };
  return `{"meta":${JSON.stringify(meta)},"results":[${results.join(',')}]}`;
}

/** The `/works` body: the same works, with the seed's capped total. */
export function worksBody(build: Build, q: CohortQuery): string {
  const hash = queryHash(q.filters, build.snapshotId);
  const { m, page, results } = pageOf(build, q, hash);
  const meta = {
    ...questionBlock(build, q, hash),
    ...pageBlock(q, hash, page.nextKey),
    total: Math.min(m.total, WORKS_TOTAL_CAP),
    total_is_capped: m.total > WORKS_TOTAL_CAP,
  };
  return `{"meta":${JSON.stringify(meta)},"results":[${results.join(',')}]}`;
}

const FACET_TOP = 100;

/** `/cohort/facets`: counts of one facet's values within the cohort. */
export function cohortFacetBody(build: Build, q: CohortQuery, facet: CohortFacet): string {
  const index = build.cohort;
  const m = cohortMatch(build, q.filters, facet);
  const hist = m.histogram!;
  let results: { value: string | number | null; works: number }[];
  if (facet === 'route') results = routeCounts(hist);
  else if (facet === 'year') {
    results = [];
    for (let y = 1; y < hist.length; y++) if (hist[y]! > 0) results.push({ value: y, works: hist[y]! });
    if (hist[0]! > 0) results.push({ value: null, works: hist[0]! });
  } else {
    const values = index.dict[facet].values;
    results = [];
    for (let c = 0; c < hist.length; c++) if (hist[c]! > 0) results.push({ value: c === 0 ? null : values[c - 1]!, works: hist[c]! });
    results.sort((a, b) => b.works - a.works || (a.value === null ? 1 : b.value === null ? -1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }
  const distinct = results.filter((r) => r.value !== null).length;
  const truncated = (facet === 'topic' || facet === 'venue') && results.length > FACET_TOP;
  const meta = {
    snapshot: build.snapshotRef,
    query_hash: queryHash(q.filters, build.snapshotId),
    filters: q.filters,
    facet,
    total: m.total,
    distinct_values: distinct,
    shown: truncated ? FACET_TOP : results.length,
    note:
      facet === 'route'
        ? 'Routes overlap: a work admitted by several routes counts once under each, so the counts may sum to more than total. no_aff counts works without a Canadian affiliation.'
        : facet === 'year'
          ? 'By year ascending; value null counts works with no known year. The counts sum to total.'
          : 'By works, then value; value null counts works with no value. Over all values the counts sum to total.',
  };
  return JSON.stringify({ meta, results: truncated ? results.slice(0, FACET_TOP) : results });
}

export const TYPEAHEAD_LIMIT = 12;

/** `/facets/venue` and `/facets/topic`: values containing q (case-insensitive), by frame works, then value. */
export function valueTypeahead(build: Build, which: 'venue' | 'topic', q: string) {
  const d = build.cohort.dict[which];
  const needle = q.toLowerCase();
  const results: { value: string; works: number }[] = [];
  for (const code of d.ranked) {
    if (!d.lower[code - 1]!.includes(needle)) continue;
    results.push({ value: d.values[code - 1]!, works: d.works[code - 1]! });
    if (results.length === TYPEAHEAD_LIMIT) break;
  }
  return results;
}

/** The rows of `list` that are also in `set` (all of them when there is no set yet). */
function keepListed(set: Set<number> | null, list: Uint32Array): Set<number> {
  const out = new Set<number>();
  for (const a of list) if (set === null || set.has(a)) out.add(a);
  return out;
}

/**
 * `/facets/author`: researchers with Canadian-affiliated work whose name has every term of q, the last one
 * as a prefix (so typing "tremb" finds Tremblay), ranked by Canadian output, then name.
 */
export function authorTypeahead(build: Build, q: string) {
  const index = build.cohort;
  const terms = titleTerms(q);
  if (terms.length === 0) return [];
  const last = terms[terms.length - 1]!;
  const sorted = index.authorTermsSorted;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.term < last) lo = mid + 1;
    else hi = mid;
  }
  // Authors who have every complete term...
  let exact: Set<number> | null = null;
  for (const t of terms.slice(0, -1)) {
    const key = index.authorTerm.get(t);
    if (key === undefined) return [];
    exact = keepListed(exact, index.csr.author_terms.list(key));
  }
  // ...and a term starting with the last one. Only the best Canadian outputs are kept as they stream by:
  // `floor` rises to the 12th best seen, so a short prefix shared by many authors stays cheap.
  const ca = index.authorCaWorks;
  let best: number[] = [];
  let chosen = new Set<number>();
  let floor = 1; // at least one Canadian-affiliated work
  const trim = () => {
    best.sort((a, b) => ca[b]! - ca[a]!);
    floor = ca[best[TYPEAHEAD_LIMIT - 1]!]!;
    best = best.filter((a) => ca[a]! >= floor); // ties at the boundary stay, to be ordered by name
    chosen = new Set(best);
  };
  for (let k = lo; k < sorted.length && sorted[k]!.term.startsWith(last); k++) {
    for (const a of index.csr.author_terms.list(sorted[k]!.key)) {
      if (ca[a]! < floor || chosen.has(a) || (exact !== null && !exact.has(a))) continue;
      chosen.add(a);
      best.push(a);
      if (best.length >= 8 * TYPEAHEAD_LIMIT) trim();
    }
  }
  return best
    .map((a) => ({ id: `A${index.authorId(a)}`, name: index.authorName(a), ca_works: ca[a]! }))
    .sort((x, y) => y.ca_works - x.ca_works || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .slice(0, TYPEAHEAD_LIMIT);
}
