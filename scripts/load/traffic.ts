/**
 * The request mixes of `npm run bench:load`: what a day of real clients sends, drawn from values the build
 * itself holds (so every request is valid and means the same on any build), with a seeded generator so two
 * runs send the same sequence. Every request here must answer 2xx: a 4xx or 5xx during the benchmark is a
 * finding, not noise.
 */
import { Rng } from '../../pipeline/generate/prng.ts';
import { CATEGORIES, DESIGNS } from '../../contracts/frame/vocab.ts';
import { COHORT_FACETS } from '../../contracts/frame/cohort-query.ts';
import { FROZEN_ROUTES } from '../../api-dynamic/src/routes/frame/index.ts';

/** Values read from the running server before the load starts. */
export interface Pools {
  workIds: string[];
  authorIds: string[];
  /** Researchers with a Canadian-affiliated authorship: the collaboration network's nodes. */
  networkIds: string[];
  fields: string[];
  topics: string[];
  venues: string[];
  langs: string[];
  types: string[];
  /** Title words (letters only, at least 4), from the titles of the works in `workIds`. */
  titleTerms: string[];
  /** Surname-like author name terms, from the same works' authors. */
  nameTerms: string[];
  phrases: string[];
  bands: string[];
  pmcids: string[];
  years: { min: number; max: number };
}

export interface LoadRequest {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const enc = encodeURIComponent;

/** GETs a path of the server and returns the parsed JSON body, throwing on any status but 200. */
export type GetJson = (path: string) => Promise<unknown>;

/** `GetJson` over HTTP. */
export const httpGetJson =
  (base: string): GetJson =>
  async (path) => {
    const res = await fetch(`${base}${path}`);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };

type Facet = { results: { value: string | number | null; works: number }[] };
type WorkRecord = {
  id: string;
  title: string;
  authors?: { id: string; name: string; is_ca?: boolean }[];
};

/** Reads the pools from a running server (about 260 requests; a few seconds on the 4.3M build). */
export async function collectPools(get: GetJson, onProgress: (done: number, total: number) => void = () => {}): Promise<Pools> {
  const json = async <T>(path: string) => (await get(path)) as T;
  const facet = async (name: (typeof COHORT_FACETS)[number]) =>
    (await json<Facet>(`/frame/api/v1/cohort/facets?facet=${name}`)).results.filter((r) => r.value !== null && r.works > 0);
  const [fields, topics, venues, langs, types, years] = await Promise.all([
    facet('field'),
    facet('topic'),
    facet('venue'),
    facet('lang'),
    facet('type'),
    facet('year'),
  ]);
  const ids = new Set<string>();
  const pages = ['sort=cited', 'sort=year_desc', 'sort=year_asc', 'lang=fr', 'route_fund=1', 'type=preprint', 'cited_min=1&sort=year_asc'];
  for (const [k, qs] of pages.entries()) {
    for (const page of [1, 7, 40]) {
      const r = await json<{ results: { id: string }[] }>(`/frame/api/v1/cohort?${qs}&per_page=100&page=${page}`);
      for (const w of r.results) ids.add(w.id);
    }
    onProgress(k + 1, pages.length + 2);
  }
  const workIds = [...ids];
  const authors = new Set<string>();
  const network = new Set<string>();
  const titleTerms = new Set<string>();
  const nameTerms = new Set<string>();
  for (const id of workIds.slice(0, 200)) {
    const w = await json<WorkRecord>(`/frame/api/v1/works/${id}`);
    for (const t of w.title.toLowerCase().split(/[^a-z]+/)) if (t.length >= 4) titleTerms.add(t);
    for (const a of w.authors ?? []) {
      authors.add(a.id);
      if (a.is_ca) network.add(a.id);
      const last = a.name
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((t) => t.length >= 3)
        .at(-1);
      if (last) nameTerms.add(last);
    }
  }
  onProgress(pages.length + 1, pages.length + 2);
  const phrases = await json<{ phrases: { phrase: string }[] }>('/corpus/api/v1/phrases').then((r) => r.phrases.map((p) => p.phrase));
  const stats = await json<{ bands: { band: string; excerpts: number }[] }>('/corpus/api/v1/stats');
  const excerpts = await json<{
    results: { article: { pmcid: string | null } }[];
  }>('/corpus/api/v1/excerpts?per_page=100');
  onProgress(pages.length + 2, pages.length + 2);
  const yearValues = years.map((y) => Number(y.value)).filter(Number.isFinite);
  return {
    workIds,
    authorIds: [...authors],
    networkIds: [...network],
    fields: fields.map((f) => String(f.value)),
    // The 300 largest topics and venues: a real cohort names values people have heard of, and rare values
    // are still drawn (venue facets list thousands, most of a handful of works).
    topics: topics.slice(0, 300).map((f) => String(f.value)),
    venues: venues.slice(0, 300).map((f) => String(f.value)),
    langs: langs.slice(0, 12).map((f) => String(f.value)),
    types: types.map((f) => String(f.value)),
    titleTerms: [...titleTerms],
    nameTerms: [...nameTerms],
    phrases,
    bands: stats.bands.filter((b) => b.excerpts > 0).map((b) => b.band),
    pmcids: [...new Set(excerpts.results.map((i) => i.article.pmcid).filter((p): p is string => p !== null))],
    years: {
      min: Math.max(Math.min(...yearValues), 1990),
      max: Math.max(...yearValues),
    },
  };
}

const staticOf = new WeakMap<Pools, string[]>();

/** The frozen JSON documents of all three services: bytes precomputed by the pipeline, sent as stored. */
export function staticPaths(pools: Pools): string[] {
  // Built once per pools: the soak asks for it on every fourth request.
  let paths = staticOf.get(pools);
  if (!paths) {
    paths = [
      ...FROZEN_ROUTES.map((p) => `/frame/api/v1/${p}`),
      '/corpus/api/v1/stats',
      '/corpus/api/v1/phrases',
      ...pools.pmcids.slice(0, 5).map((p) => `/corpus/api/v1/articles/${p}`),
    ];
    staticOf.set(pools, paths);
  }
  return paths;
}

/** One random filter, as query-string pairs; each kind of filter is as likely as the next. */
function randomFilter(rng: Rng, p: Pools): string[] {
  const y = rng.range(p.years.min, p.years.max);
  switch (rng.int(17)) {
    case 0:
      return [`route_${rng.pick(['aff', 'fund', 'venue', 'about'])}=${rng.pick(['1', '1', '0'])}`];
    case 1:
      return [`route=${rng.pick(['aff', 'fund', 'venue', 'about', 'no_aff'])}`];
    case 2:
      return rng.chance(0.5) ? [`year_from=${y}`] : [`year_from=${y}`, `year_to=${Math.min(p.years.max, y + rng.int(6))}`];
    case 3:
      return [`lang=${enc(rng.pick(p.langs))}`];
    case 4:
      return [`type=${enc(rng.pick(p.types))}`];
    case 5:
      return [`field=${enc(rng.pick(p.fields))}`];
    case 6:
      return [`topic=${enc(rng.pick(p.topics))}`];
    case 7:
      return [`venue=${enc(rng.pick(p.venues))}`];
    case 8:
      return [`cited_min=${rng.pick([1, 5, 10, 25, 50, 100, 500])}`];
    case 9:
      return [`q=${[rng.pick(p.titleTerms), ...(rng.chance(0.3) ? [rng.pick(p.titleTerms)] : [])].join('+')}`];
    case 10:
      return [`author=${enc(rng.pick(p.nameTerms))}`];
    case 11:
      return [`author_id=${rng.pick(p.authorIds)}`];
    case 12:
      return rng.chance(0.5) ? [`retracted=${rng.pick(['1', '0'])}`] : [`abstract=${rng.pick(['has', 'none'])}`];
    case 13:
      return [`n_in=${rng.int(4)}`];
    case 14:
      return [`labeled=${rng.pick(['1', '0'])}`];
    case 15: {
      const label = rng.chance(0.7) ? `category=${rng.pick(CATEGORIES)}` : `design=${rng.pick(DESIGNS)}`;
      if (rng.chance(0.5)) return [label, ...(rng.chance(0.3) ? ['agreement=all'] : [])];
      return [label, 'label_source=predicted', ...(rng.chance(0.3) ? ['prediction_mode=consensus'] : [])];
    }
    default:
      return [];
  }
}

/** 0–4 random filters (mostly 1–2), without repeating a key. */
function randomFilters(rng: Rng, p: Pools): string[] {
  const n = rng.pick([0, 1, 1, 1, 2, 2, 2, 3, 4]);
  const out: string[] = [];
  const keys = new Set<string>();
  for (let tries = 0; out.length < n && tries < 20; tries++)
    for (const pair of randomFilter(rng, p)) {
      const key = pair.slice(0, pair.indexOf('='));
      // `route` and `route_*`, the label pairs: one of each family, so no request is a contradiction.
      const family = key.startsWith('route') ? 'route' : key === 'category' || key === 'design' ? 'label' : key;
      if (keys.has(family) && !['year_to', 'agreement', 'label_source', 'prediction_mode'].includes(key)) break;
      keys.add(family);
      out.push(pair);
    }
  return out;
}

/** A page of a random cohort: filters, sometimes a sort, a page mostly near the start. */
function cohortPage(rng: Rng, filters: string[]): string[] {
  const extra: string[] = [];
  const hasQ = filters.some((f) => f.startsWith('q='));
  if (rng.chance(0.4)) extra.push(`sort=${rng.pick(hasQ ? ['cited', 'year_desc', 'year_asc', 'relevance'] : ['cited', 'year_desc', 'year_asc'])}`);
  if (rng.chance(0.3)) extra.push(`page=${rng.chance(0.8) ? 2 + rng.int(5) : 10 + rng.int(90)}`);
  if (rng.chance(0.3)) extra.push(`per_page=${rng.pick([10, 50, 100])}`);
  return [...filters, ...extra];
}

const qs = (pairs: string[]) => (pairs.length ? `?${pairs.join('&')}` : '');

/** The cohort family: pages, /works search, facet counts within a cohort, typeahead. */
export function cohortRequest(rng: Rng, p: Pools): LoadRequest {
  const r = rng.float();
  if (r < 0.7)
    return {
      kind: 'cohort',
      method: 'GET',
      path: `/frame/api/v1/cohort${qs(cohortPage(rng, randomFilters(rng, p)))}`,
    };
  if (r < 0.8) {
    const search = rng.chance(0.7) ? `q=${rng.pick(p.titleTerms)}` : `author=${enc(rng.pick(p.nameTerms))}`;
    const more = rng.chance(0.4) ? [`year_from=${rng.range(p.years.min, p.years.max)}`] : [];
    return {
      kind: 'works',
      method: 'GET',
      path: `/frame/api/v1/works?${[search, ...more].join('&')}`,
    };
  }
  if (r < 0.9) {
    const filters = randomFilters(rng, p);
    return {
      kind: 'cohort facets',
      method: 'GET',
      path: `/frame/api/v1/cohort/facets${qs([...filters, `facet=${rng.pick(COHORT_FACETS)}`])}`,
    };
  }
  const which = rng.pick(['venue', 'topic', 'author'] as const);
  const source = which === 'venue' ? p.venues : which === 'topic' ? p.topics : p.nameTerms;
  const word = rng.pick(source).toLowerCase();
  return {
    kind: 'typeahead',
    method: 'GET',
    path: `/frame/api/v1/facets/${which}?q=${enc(word.slice(0, 2 + rng.int(Math.max(1, word.length - 1))))}`,
  };
}

/** State the soak mix carries between requests: permalinks minted so far, to resolve later. */
export interface SoakState {
  hashes: string[];
  fairDois: number;
  fairNext: number;
}

/**
 * The soak's mix over all three services, in proportions a public deployment sees (mostly reads of frozen
 * documents and cohort pages; few exports, permalinks and assessments, which are the expensive ones).
 */
export function soakRequest(rng: Rng, p: Pools, state: SoakState, fairPrefix: string | null): LoadRequest {
  const r = rng.float();
  if (r < 0.25) return { kind: 'static', method: 'GET', path: rng.pick(staticPaths(p)) };
  if (r < 0.6) return cohortRequest(rng, p);
  if (r < 0.72)
    return {
      kind: 'work record',
      method: 'GET',
      path: `/frame/api/v1/works/${rng.pick(p.workIds)}`,
    };
  if (r < 0.77)
    return {
      kind: 'network',
      method: 'GET',
      path: rng.chance(0.9) ? `/frame/api/v1/network?author_id=${rng.pick(p.networkIds)}` : '/frame/api/v1/network',
    };
  if (r < 0.8)
    return {
      kind: 'screened',
      method: 'GET',
      path: `/frame/api/v1/screened?page=${1 + rng.int(20)}${rng.chance(0.3) ? '&contested_only=1' : ''}`,
    };
  if (r < 0.88) {
    const pairs = [
      ...(rng.chance(0.5) ? [`band=${enc(rng.pick(p.bands))}`] : []),
      ...(rng.chance(0.4) && p.phrases.length ? [`phrase=${enc(rng.pick(p.phrases))}`] : []),
      ...(rng.chance(0.4) ? [`q=${rng.pick(['trend', 'significance', 'effect', 'marginally', 'difference', 'outcome'])}`] : []),
      ...(rng.chance(0.3) ? [`page=${2 + rng.int(3)}`] : []),
    ];
    return {
      kind: 'excerpts',
      method: 'GET',
      path: `/corpus/api/v1/excerpts${qs(pairs)}`,
    };
  }
  if (r < 0.91 && p.pmcids.length)
    return {
      kind: 'article',
      method: 'GET',
      path: `/corpus/api/v1/articles/${rng.pick(p.pmcids)}`,
    };
  if (r < 0.93)
    return {
      kind: 'permalink mint',
      method: 'POST',
      path: `/frame/api/v1/permalink${qs(randomFilters(rng, p))}`,
    };
  if (r < 0.96 && state.hashes.length)
    return {
      kind: 'permalink resolve',
      method: 'GET',
      path: `/frame/api/v1/permalink/${rng.pick(state.hashes)}`,
    };
  if (r < 0.97) {
    // Exports of narrow cohorts (a topic, a venue or a researcher: up to a few thousand rows).
    const narrow = rng.pick([`topic=${enc(rng.pick(p.topics))}`, `venue=${enc(rng.pick(p.venues))}`, `author_id=${rng.pick(p.authorIds)}`]);
    return {
      kind: 'export',
      method: 'GET',
      path: `/frame/api/v1/cohort/export?${narrow}&format=${rng.pick(['csv', 'json'])}`,
    };
  }
  if (r < 0.98 && fairPrefix !== null) {
    const n = state.fairNext++ % state.fairDois;
    return {
      kind: 'fair assess',
      method: 'POST',
      path: `${fairPrefix}/api/v1/assess`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: `10.1594/PANGAEA.902845.b${n}` }),
    };
  }
  return cohortRequest(rng, p);
}
