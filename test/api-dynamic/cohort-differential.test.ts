/**
 * Differential test of the cohort engine: hundreds of seeded random queries over the committed sample
 * snapshot, each answered by the API (DuckDB build + cohort index) and by the CSV oracle
 * (test/helpers/cohort-oracle.ts), which share no code beyond the query parser. Mismatches are collected,
 * not thrown one at a time, so one run reports every disagreement with its query string.
 */
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASH_PATTERN, parseCohortQuery, type Sort, WORKS_TOTAL_CAP } from '../../contracts/frame/cohort-query.ts';
import { titleTerms } from '../../contracts/frame/title-terms.ts';
import { CATEGORIES, DESIGNS } from '../../contracts/frame/vocab.ts';
import { appFor } from '../helpers/app.ts';
import { CohortOracle } from '../helpers/cohort-oracle.ts';
import { fixtureBuild, tempDir } from '../helpers/fixture-build.ts';
import { readTable } from '../helpers/oracle.ts';
import { mulberry32 } from '../helpers/random.ts';

const repoRoot = join(import.meta.dirname, '..', '..');
const SAMPLE = join(repoRoot, 'snapshots/sample');
const API = '/frame/api/v1';
const COMBINATIONS = 320;

const tmp = tempDir('cohort-differential');
let h: Awaited<ReturnType<typeof appFor>>;
let oracle: CohortOracle;
let authorNames: string[][] = [];
let authorIds: string[] = [];

beforeAll(async () => {
  await fixtureBuild(SAMPLE, join(tmp.path, 'out'), false);
  h = await appFor(join(tmp.path, 'out'));
  oracle = new CohortOracle(SAMPLE);
  authorNames = readTable(SAMPLE, 'authors.csv').map((a) => titleTerms(a.name!));
  authorIds = readTable(SAMPLE, 'authorships.csv').map((a) => a.author_id!);
});
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

type Params = [string, string][];
type Gen = (p: Params) => void;

/** Random query strings drawn from the cohort vocabulary with values that occur in the sample. */
function queryGenerator(seed: number, surface: 'cohort' | 'works') {
  const rnd = mulberry32(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const chance = (p: number) => rnd() < p;
  const works = oracle.works;
  const years = works.flatMap((w) => (w.year === null ? [] : [w.year]));
  const minYear = Math.min(...years);
  const maxYear = Math.max(...years);
  const cited = works.map((w) => w.cited_by).sort((a, b) => a - b);
  const quantile = (q: number) => cited[Math.min(cited.length - 1, Math.floor(q * cited.length))]!;
  const citedSteps = [1, quantile(0.5), quantile(0.75), quantile(0.9), quantile(0.99), quantile(0.999), cited.at(-1)! + 1];
  /** Terms as a user might type them: case and separators vary, the parser folds them. */
  const typed = (ts: string[]) => ts.map((t) => (chance(0.3) ? t.toUpperCase() : t)).join(chance(0.5) ? ' ' : ', ');
  const someTerms = (ts: string[]) => {
    const first = pick(ts);
    const rest = ts.filter((t) => t !== first);
    return chance(0.5) && rest.length > 0 ? [first, pick(rest)] : [first];
  };
  const value = (k: 'lang' | 'type' | 'field' | 'topic' | 'venue') => {
    for (;;) {
      const v = pick(works)[k];
      if (v !== '') return v;
    }
  };

  const common: Record<string, Gen> = {
    q: (p) => {
      // Mostly terms of one title; sometimes terms from two titles, which rarely meet.
      const ts = chance(0.8) ? someTerms([...pick(works).titleTerms]) : [pick([...pick(works).titleTerms]), pick([...pick(works).titleTerms])];
      p.push(['q', typed(ts)]);
    },
    author: (p) => p.push(['author', typed(someTerms(pick(authorNames)))]),
    author_id: (p) => p.push(['author_id', pick(authorIds)]),
    years: (p) => {
      const a = minYear + int(maxYear - minYear + 1);
      const b = a + int(Math.max(1, maxYear - a + 1));
      const which = int(3);
      if (which !== 1) p.push(['year_from', String(a)]);
      if (which !== 0) p.push(['year_to', String(which === 1 ? a : b)]);
    },
    cited_min: (p) => p.push(['cited_min', String(pick(citedSteps))]),
    lang: (p) => p.push(['lang', value('lang')]),
    type: (p) => p.push(['type', value('type')]),
    field: (p) => p.push(['field', value('field')]),
    route: (p) => {
      if (surface === 'works' || chance(0.4)) {
        p.push(['route', pick(['aff', 'fund', 'venue', 'about', 'no_aff'])]);
        return;
      }
      const keys = ['route_aff', 'route_fund', 'route_venue', 'route_about'];
      const first = pick(keys);
      for (const k of chance(0.3) ? [first, pick(keys.filter((x) => x !== first))] : [first]) p.push([k, pick(['1', '0', 'true', 'false'])]);
    },
    retracted: (p) => p.push(['retracted', pick(['1', '0'])]),
    abstract: (p) => {
      if (surface === 'works') p.push(['no_abstract', '1']);
      else
        p.push(
          pick<[string, string]>([
            ['no_abstract', '1'],
            ['abstract', 'has'],
            ['abstract', 'none'],
          ]),
        );
    },
    n_in: (p) => p.push(['n_in', String(int(4))]),
  };
  const cohortOnly: Record<string, Gen> = {
    topic: (p) => p.push(['topic', value('topic')]),
    venue: (p) => p.push(['venue', value('venue')]),
    labeled: (p) => p.push(['labeled', pick(['1', '0'])]),
    labels: (p) => {
      const which = int(3);
      if (which !== 1) p.push(['category', pick(CATEGORIES)]);
      if (which !== 0) p.push(['design', pick(DESIGNS)]);
      // Only valid pairings: agreement with direct labels, prediction_mode with predicted ones.
      const mode = pick<Params>([
        [],
        [],
        [['label_source', 'direct']],
        [['agreement', 'all']],
        [['agreement', 'all']],
        [['agreement', 'any']],
        [['label_source', 'predicted']],
        [['label_source', 'predicted']],
        [
          ['label_source', 'predicted'],
          ['prediction_mode', 'consensus'],
        ],
        [
          ['label_source', 'predicted'],
          ['prediction_mode', 'consensus'],
        ],
        [
          ['label_source', 'predicted'],
          ['prediction_mode', 'candidate'],
        ],
      ]);
      p.push(...mode);
    },
  };
  const kinds = surface === 'works' ? common : { ...common, ...cohortOnly };
  // Title search and labels carry the most logic (relevance, agreement, predictions): draw them more often.
  const names = [...Object.keys(kinds), 'q', ...(surface === 'cohort' ? ['labels', 'labels'] : [])];

  /** One query string; `paging: false` leaves out sort, page and per_page (for surfaces without them). */
  return (paging = true): string => {
    const p: Params = [];
    const k = pick([0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5]);
    const chosen = new Set<string>();
    while (chosen.size < k) chosen.add(pick(names));
    for (const name of chosen) kinds[name]!(p);
    // Label options without a category or design: the parser drops them, so the cohort must not change.
    if (surface === 'cohort' && !chosen.has('labels') && chance(0.1))
      p.push(
        ...pick<Params>([
          [['label_source', 'predicted']],
          [['agreement', 'all']],
          [
            ['label_source', 'predicted'],
            ['prediction_mode', 'consensus'],
          ],
        ]),
      );
    const hasQ = p.some(([key]) => key === 'q');
    if (paging && chance(0.8))
      p.push(['sort', pick<Sort>(hasQ ? ['cited', 'year_desc', 'year_asc', 'relevance', 'relevance'] : ['cited', 'year_desc', 'year_asc'])]);
    if (paging && chance(0.7)) p.push(['page', String(1 + int(3))]);
    if (paging && chance(0.8)) p.push(['per_page', String(1 + int(100))]);
    // Parameter order does not matter to the API; shuffle so that is exercised too.
    for (let i = p.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [p[i], p[j]] = [p[j]!, p[i]!];
    }
    return new URLSearchParams(p).toString();
  };
}

interface Item {
  id: string;
}
const ids = (results: Item[]) => results.map((r) => r.id);

/** A short, readable account of where two id lists part. */
function idDiff(expected: string[], actual: string[]): string {
  let i = 0;
  while (i < expected.length && expected[i] === actual[i]) i++;
  return `lengths ${expected.length}/${actual.length}, first difference at ${i}: expected ${expected.slice(i, i + 3).join(',') || '(end)'} got ${actual.slice(i, i + 3).join(',') || '(end)'}`;
}

async function getJson(url: string) {
  const res = await h.app.inject(url);
  return { status: res.statusCode, headers: res.headers, body: res.statusCode === 200 ? res.json() : res.body };
}

/** Compares /cohort with the oracle for one query string; returns the disagreements. */
async function checkCohort(qs: string): Promise<{ problems: string[]; total: number }> {
  const url = `${API}/cohort?${qs}`;
  const query = parseCohortQuery(url, 'cohort');
  const counts = oracle.counts(query.filters);
  const res = await getJson(url);
  if (res.status !== 200) return { problems: [`${url}: status ${res.status} ${String(res.body).slice(0, 300)}`], total: counts.total };
  const { meta, results } = res.body as { meta: Record<string, unknown>; results: Item[] };
  const problems: string[] = [];
  for (const k of ['total', 'direct_labels_cover', 'predictions_cover'] as const)
    if (meta[k] !== counts[k]) problems.push(`${url}: meta.${k} expected ${counts[k]} got ${String(meta[k])}`);
  const expected = oracle.page(query.filters, query.sort, query.page, query.per_page);
  const actual = ids(results);
  if (expected.join() !== actual.join()) problems.push(`${url}: page ids ${idDiff(expected, actual)}`);
  if (!isDeepStrictEqual(meta.filters, query.filters))
    problems.push(`${url}: meta.filters ${JSON.stringify(meta.filters)} expected ${JSON.stringify(query.filters)}`);
  if (typeof meta.query_hash !== 'string' || !HASH_PATTERN.test(meta.query_hash)) problems.push(`${url}: meta.query_hash ${String(meta.query_hash)}`);
  return { problems, total: counts.total };
}

/**
 * Every category and design under every label source, alone and paired: direct labels are sparse in the
 * sample, so random draws alone would mostly meet them in empty cohorts. Sorts and pages rotate.
 */
function labelMatrix(): string[] {
  const modes = ['', '&agreement=all', '&label_source=predicted', '&label_source=predicted&prediction_mode=consensus'];
  const sorts = ['', '&sort=year_desc&page=2&per_page=10', '&sort=year_asc&per_page=100', '&sort=cited&page=3&per_page=7'];
  const out: string[] = [];
  // (i + out.length) rather than out.length alone: four modes and four sorts would otherwise pair up for good.
  for (const [i, c] of CATEGORIES.entries()) for (const m of modes) out.push(`category=${c}${m}${sorts[(i + out.length) % sorts.length]}`);
  for (const [i, d] of DESIGNS.entries()) for (const m of modes) out.push(`design=${d}${m}${sorts[(i + out.length) % sorts.length]}`);
  for (const m of modes) out.push(`category=metaresearch&design=randomized_trial${m}`, `category=sts&design=observational${m}&labeled=1`);
  out.push('labeled=1&sort=year_asc&per_page=100', 'labeled=0&per_page=100&page=3', 'labeled=1&category=sts&label_source=predicted');
  return out;
}

/**
 * The sample's 20 most frequent author-name terms, alone and with a year range, in two sorts: frequent terms
 * are answered from bitsets made on first use, 16 kept (filter-bitsets.ts), so 20 of them also make it evict
 * and rebuild. Random draws meet these terms too, but rarely alone.
 */
function frequentAuthorTerms(): string[] {
  const works = new Map<string, number>();
  for (const terms of authorNames) for (const t of new Set(terms)) works.set(t, (works.get(t) ?? 0) + 1);
  const top = [...works]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 20)
    .map(([t]) => t);
  return [
    ...top.map((t) => `author=${t}`),
    ...top.map((t) => `author=${t}&year_from=2015&sort=year_asc&per_page=50`),
    ...top.slice(0, 4).map((t) => `author=${t}`),
  ];
}

describe('/cohort against the CSV oracle', () => {
  it(`agrees on totals, covers and page ids for ${COMBINATIONS} random queries and the label matrix`, async () => {
    const next = queryGenerator(20260712, 'cohort');
    // Fixed cases first: the whole frame in every order, and cohorts that are certainly empty.
    const fixed = [
      '',
      'sort=year_desc&per_page=100',
      'sort=year_asc&page=3&per_page=100',
      `cited_min=${10_000_000}`,
      'q=zzzzqqqq',
      'author_id=A1',
      'year_from=9999',
    ];
    const queries = [...fixed, ...labelMatrix(), ...frequentAuthorTerms()];
    for (let i = 0; i < COMBINATIONS; i++) queries.push(next());
    const problems: string[] = [];
    const totals: number[] = [];
    for (const qs of queries) {
      const r = await checkCohort(qs);
      problems.push(...r.problems);
      totals.push(r.total);
    }
    // The mix must cover empty, small and broad cohorts, or agreement proves little.
    expect(totals.filter((t) => t === 0).length).toBeGreaterThanOrEqual(10);
    expect(totals.filter((t) => t > 0 && t < 100).length).toBeGreaterThanOrEqual(30);
    expect(totals.filter((t) => t >= 1000).length).toBeGreaterThanOrEqual(30);
    expect(problems).toEqual([]);
  });

  /** A cohort of a few hundred works, found in the sample rather than hard-coded. */
  function midSizeCohort(): string {
    for (const k of ['type', 'lang', 'field'] as const) {
      for (const v of new Set(oracle.works.map((w) => w[k]))) {
        if (v === '') continue;
        const n = oracle.counts({ [k]: v }).total;
        if (n >= 250 && n <= 600) return new URLSearchParams({ [k]: v }).toString();
      }
    }
    throw new Error('no mid-size cohort in the sample');
  }

  /** A title term that a few hundred works share, for walking the relevance order. */
  function midSizeTerm(): string {
    for (const w of oracle.works)
      for (const t of w.titleTerms) {
        const n = oracle.counts({ q: t }).total;
        if (n >= 250 && n <= 600) return t;
      }
    throw new Error('no mid-size title term in the sample');
  }

  it('walks a mid-size cohort by cursor to exactly the oracle order', async () => {
    const base = midSizeCohort();
    const walks = [...(['cited', 'year_desc', 'year_asc'] as const).map((sort) => [base, sort] as const), [`q=${midSizeTerm()}`, 'relevance'] as const];
    for (const [filter, sort] of walks) {
      const qs = `${filter}&sort=${sort}&per_page=37`;
      const expected = oracle.ordered(parseCohortQuery(`${API}/cohort?${qs}`, 'cohort').filters, sort).map((w) => w.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let guard = 0; guard < 100; guard++) {
        const res = await getJson(`${API}/cohort?${qs}${cursor === null ? '' : `&cursor=${cursor}`}`);
        expect(res.status, `${qs} cursor=${cursor}: ${String(res.body).slice(0, 300)}`).toBe(200);
        const body = res.body as { meta: { next_cursor: string | null; total: number }; results: Item[] };
        expect(body.results.length, qs).toBeLessThanOrEqual(37);
        seen.push(...ids(body.results));
        cursor = body.meta.next_cursor;
        if (cursor === null) break;
      }
      expect(new Set(seen).size, `${qs}: duplicates`).toBe(seen.length);
      expect(seen, qs).toEqual(expected);
      expect(expected.length).toBeGreaterThan(37 * 5);
    }
  });

  it('page=2 is items 26–50 of the oracle order', async () => {
    const base = midSizeCohort();
    const res = await getJson(`${API}/cohort?${base}&page=2`);
    const filters = parseCohortQuery(`${API}/cohort?${base}`, 'cohort').filters;
    const expected = oracle
      .ordered(filters, 'cited')
      .slice(25, 50)
      .map((w) => w.id);
    expect(ids((res.body as { results: Item[] }).results)).toEqual(expected);
  });
});

describe('/works against the CSV oracle', () => {
  it('agrees on capped totals and page ids', async () => {
    const next = queryGenerator(7, 'works');
    const queries = ['', 'route=aff', 'sort=year_asc&per_page=100', 'route=no_aff&retracted=0'];
    while (queries.length < 24) queries.push(next());
    const problems: string[] = [];
    let capped = 0;
    for (const qs of queries) {
      const url = `${API}/works?${qs}`;
      const query = parseCohortQuery(url, 'works');
      const exact = oracle.counts(query.filters).total;
      const res = await getJson(url);
      if (res.status !== 200) {
        problems.push(`${url}: status ${res.status} ${String(res.body).slice(0, 300)}`);
        continue;
      }
      const { meta, results } = res.body as { meta: { total: number; total_is_capped: boolean }; results: Item[] };
      if (meta.total !== Math.min(exact, WORKS_TOTAL_CAP)) problems.push(`${url}: meta.total expected ${Math.min(exact, WORKS_TOTAL_CAP)} got ${meta.total}`);
      if (meta.total_is_capped !== exact > WORKS_TOTAL_CAP)
        problems.push(`${url}: total_is_capped expected ${exact > WORKS_TOTAL_CAP} got ${meta.total_is_capped}`);
      if (exact > WORKS_TOTAL_CAP) capped++;
      const expected = oracle.page(query.filters, query.sort, query.page, query.per_page);
      if (expected.join() !== ids(results).join()) problems.push(`${url}: page ids ${idDiff(expected, ids(results))}`);
    }
    expect(capped).toBeGreaterThanOrEqual(2);
    expect(problems).toEqual([]);
  });
});

describe('/cohort/facets against the CSV oracle', () => {
  it('counts type, lang, field, year, topic and route values as the oracle groups them', async () => {
    const next = queryGenerator(99, 'cohort');
    const queries = ['', 'route=aff', 'q=canada', 'category=metaresearch&label_source=predicted'];
    while (queries.length < 12) queries.push(next(false));
    const problems: string[] = [];
    for (const qs of queries) {
      for (const facet of ['type', 'lang', 'field', 'year', 'topic', 'route'] as const) {
        const url = `${API}/cohort/facets?facet=${facet}${qs ? `&${qs}` : ''}`;
        const filters = parseCohortQuery(url, 'cohort_facets').filters;
        const expected = oracle.facet(filters, facet);
        const res = await getJson(url);
        if (res.status !== 200) {
          problems.push(`${url}: status ${res.status} ${String(res.body).slice(0, 300)}`);
          continue;
        }
        const body = res.body as { meta: { total: number }; results: { value: string | number | null; works: number }[] };
        const total = oracle.counts(filters).total;
        if (body.meta.total !== total) problems.push(`${url}: meta.total expected ${total} got ${body.meta.total}`);
        const actual = new Map(body.results.map((r) => [r.value === null ? 'null' : String(r.value), r.works]));
        if (facet === 'topic') {
          // Topics are cut to the 100 largest; each one shown must still carry its exact count.
          if (actual.size !== Math.min(100, expected.size)) problems.push(`${url}: ${actual.size} values shown, expected ${Math.min(100, expected.size)}`);
          for (const [v, n] of actual) if (expected.get(v) !== n) problems.push(`${url}: ${v} expected ${expected.get(v)} got ${n}`);
        } else {
          const sorted = (m: Map<string, number>) => JSON.stringify([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
          if (sorted(actual) !== sorted(expected)) problems.push(`${url}: expected ${sorted(expected)} got ${sorted(actual)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('/cohort/export against the CSV oracle', () => {
  const combos = ['', 'type=report', 'route=no_aff&abstract=has', 'category=sts&label_source=predicted', 'q=canada&year_from=2015'];

  it('exports the whole cohort as JSON in the oracle order', async () => {
    for (const qs of combos) {
      const url = `${API}/cohort/export?format=json&sort=year_desc${qs ? `&${qs}` : ''}`;
      const filters = parseCohortQuery(url, 'export').filters;
      const expected = oracle.ordered(filters, 'year_desc').map((w) => w.id);
      const res = await h.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-export-truncated'], url).toBe('false');
      const body = res.json() as { meta: { truncated: boolean; cohort_total: number }; results: Item[] };
      expect(body.meta.truncated, url).toBe(false);
      expect(body.meta.cohort_total, url).toBe(expected.length);
      const got = ids(body.results);
      expect(got.join() === expected.join(), `${url}: ${idDiff(expected, got)}`).toBe(true);
    }
  });

  it('exports the same order as CSV, with formula-like cells defused', async () => {
    const risky = new Set<string>();
    for (const qs of combos) {
      const url = `${API}/cohort/export?format=csv&sort=year_desc${qs ? `&${qs}` : ''}`;
      const filters = parseCohortQuery(url, 'export').filters;
      const expected = oracle.ordered(filters, 'year_desc');
      const res = await h.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-export-truncated'], url).toBe('false');
      const [header, ...cells] = parse(res.body) as string[][];
      expect(header![0], url).toBe('id');
      const title = header!.indexOf('title');
      expect(title, url).toBeGreaterThan(0);
      const got = cells.map((r) => r[0]!);
      expect(
        got.join() === expected.map((w) => w.id).join(),
        `${url}: ${idDiff(
          expected.map((w) => w.id),
          got,
        )}`,
      ).toBe(true);
      // A spreadsheet runs a cell that starts with = + - @ as a formula; the export prefixes it with '.
      for (const [i, w] of expected.entries()) {
        if (/^[=+\-@]/.test(w.title)) {
          risky.add(w.id);
          expect(cells[i]![title], w.id).toBe(`'${w.title}`);
        } else expect(cells[i]![title], w.id).toBe(w.title);
      }
    }
    // The whole frame is among the combinations, so the sample's formula-like titles were all checked.
    expect(risky.size).toBe(oracle.works.filter((w) => /^[=+\-@]/.test(w.title)).length);
  });
});
