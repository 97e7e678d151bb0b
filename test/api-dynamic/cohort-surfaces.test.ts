/**
 * The smaller cohort surfaces on the 3,000-work fixture: typeahead facets and cohort facets against the CSV
 * oracle, `/works` totals, ETags, cursor misuse, and a seeded fuzz of query strings that must never get
 * anything but a 200/201/400/404 with the documented error body.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import { appFor } from '../helpers/app.ts';
import { expectError } from '../helpers/cohort.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import { sharedFixture } from '../helpers/shared-fixture.ts';
import { readTable, type Row } from '../helpers/oracle.ts';

const API = '/frame/api/v1';

type App = Awaited<ReturnType<typeof appFor>>;
type Res = Awaited<ReturnType<App['app']['inject']>>;

const tmp = tempDir('cohort-surfaces');
let h: App;
let works: Row[] = [];
let authors: Row[] = [];
let authorships: Row[] = [];

beforeAll(async () => {
  const { snapshot, out } = await sharedFixture();
  h = await appFor(out, { STATE_DIR: join(tmp.path, 'state') });
  works = readTable(snapshot, 'works.csv');
  authors = readTable(snapshot, 'authors.csv');
  authorships = readTable(snapshot, 'authorships.csv');
}, 120_000);
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

const get = (url: string) => h.app.inject(url);

/** Whether an error names a parameter, in its details or its message. */
const names = (body: { message: string; details?: { parameter?: string }[] }, parameter: string) =>
  body.details?.some((d) => d.parameter === parameter) === true || body.message.includes(`"${parameter}"`);

/** Code-unit order, the order the docs' "then value" / "then name" means for these ASCII-and-accents values. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Search terms as the docs define them: runs of letters and digits, case-folded. */
const terms = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');

describe('typeahead facets', () => {
  it.each(['venue', 'topic', 'author'])('/facets/%s: q shorter than 2 characters after trimming, or missing, is a 400', async (which) => {
    for (const query of ['q=a', 'q=%20a%20', 'q=', 'q=%20%20%20']) {
      const body = expectError(await get(`${API}/facets/${which}?${query}`), 'INVALID_PARAMETER');
      expect(names(body, 'q'), query).toBe(true);
    }
    // Without q at all: a 400 naming q (the docs' "else INVALID_PARAMETER" or the generic MISSING_PARAMETER).
    const missing = await get(`${API}/facets/${which}`);
    expect(missing.statusCode).toBe(400);
    expect(missing.headers['cache-control']).toBe('no-store');
    const body = errorBodySchema.parse(missing.json());
    expect(['INVALID_PARAMETER', 'MISSING_PARAMETER']).toContain(body.code);
    expect(names(body, 'q')).toBe(true);
  });

  it.each(['venue', 'topic', 'author'])('/facets/%s: an unknown parameter is a 400 UNKNOWN_PARAMETER', async (which) => {
    expectError(await get(`${API}/facets/${which}?q=jo&lang=fr`), 'UNKNOWN_PARAMETER');
  });

  it.each([
    ['venue', 'jo'],
    ['venue', 'HEALTH'],
    ['venue', ' of ne'],
    ['topic', 'ne'],
    ['topic', 'Practice'],
    ['topic', 'gen'],
  ] as const)('/facets/%s?q=%s: the top 12 values containing q by frame works, then value', async (which, q) => {
    const res = await get(`${API}/facets/${which}?q=${encodeURIComponent(q)}`);
    expect(res.statusCode).toBe(200);
    const results = (res.json() as { results: { value: string; works: number }[] }).results;
    const needle = q.trim().toLowerCase();
    const counts = new Map<string, number>();
    for (const w of works) if (w[which] !== '') counts.set(w[which]!, (counts.get(w[which]!) ?? 0) + 1);
    const expected = [...counts]
      .filter(([value]) => value.toLowerCase().includes(needle))
      .map(([value, n]) => ({ value, works: n }))
      .sort((a, b) => b.works - a.works || byText(a.value, b.value))
      .slice(0, 12);
    expect(expected.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(12);
    for (const r of results) expect(r.value.toLowerCase()).toContain(needle);
    expect(results).toEqual(expected);
  });

  it.each(['tremb', 'anne trem', 'MAR', 'li', 'jean-d'])('/facets/author?q=%s: researchers by Canadian output, then name', async (q) => {
    const res = await get(`${API}/facets/author?q=${encodeURIComponent(q)}`);
    expect(res.statusCode).toBe(200);
    const results = (res.json() as { results: { id: string; name: string; ca_works: number }[] }).results;

    // Oracle: distinct works per author over Canadian-affiliated authorships.
    const caWorks = new Map<string, Set<string>>();
    for (const a of authorships) {
      if (a.is_ca !== 'true') continue;
      let set = caWorks.get(a.author_id!);
      if (!set) caWorks.set(a.author_id!, (set = new Set()));
      set.add(a.work_id!);
    }
    const want = terms(q);
    const last = want[want.length - 1]!;
    const matches = (name: string) => {
      const have = terms(name);
      return want.slice(0, -1).every((t) => have.includes(t)) && have.some((t) => t.startsWith(last));
    };
    const expected = authors
      .filter((a) => matches(a.name!) && (caWorks.get(a.id!)?.size ?? 0) > 0)
      .map((a) => ({ id: a.id!, name: a.name!, ca_works: caWorks.get(a.id!)!.size }))
      .sort((a, b) => b.ca_works - a.ca_works || byText(a.name, b.name));

    expect(results.length).toBeLessThanOrEqual(12);
    expect(results.length).toBe(Math.min(12, expected.length));
    expect(expected.length).toBeGreaterThan(0);
    for (const r of results) {
      expect(r.id).toMatch(/^A\d+$/);
      expect(r.ca_works).toBeGreaterThan(0);
      expect(r.ca_works, r.id).toBe(caWorks.get(r.id)?.size);
      expect(matches(r.name), r.name).toBe(true);
    }
    // Two researchers may share a name and an output, and their order is then not specified: compare the
    // (ca_works, name) pairs in order, and check that each id is a researcher with that output and name.
    expect(results.map((r) => [r.ca_works, r.name])).toEqual(expected.slice(0, results.length).map((r) => [r.ca_works, r.name]));
    const key = (r: { ca_works: number; name: string }) => `${r.ca_works}\u0000${r.name}`;
    for (const r of results) expect(expected.some((e) => e.id === r.id && key(e) === key(r))).toBe(true);
  });
});

describe('/cohort/facets', () => {
  it('requires facet: 400 MISSING_PARAMETER', async () => {
    const body = expectError(await get(`${API}/cohort/facets?lang=fr`), 'MISSING_PARAMETER');
    expect(names(body, 'facet')).toBe(true);
  });

  it('facet=year: the counts sum to meta.total, one entry per year, by year', async () => {
    const res = await get(`${API}/cohort/facets?facet=year`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { meta: { total: number }; results: { value: number | null; works: number }[] };
    expect(body.meta.total).toBe(works.length);
    expect(body.results.reduce((s, r) => s + r.works, 0)).toBe(body.meta.total);
    const years = body.results.filter((r) => r.value !== null).map((r) => r.value as number);
    expect(years).toEqual([...years].sort((a, b) => a - b));
    expect(new Set(years).size).toBe(years.length);
    const filtered = await get(`${API}/cohort/facets?facet=year&lang=fr&route=aff`);
    const fb = filtered.json() as { meta: { total: number }; results: { works: number }[] };
    expect(fb.results.reduce((s, r) => s + r.works, 0)).toBe(fb.meta.total);
  });

  it("facet=type&lang=fr: the oracle's grouping of French works by type", async () => {
    const res = await get(`${API}/cohort/facets?facet=type&lang=fr`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { meta: { total: number }; results: { value: string | null; works: number }[] };
    const counts = new Map<string | null, number>();
    for (const w of works) {
      if (w.lang!.toLowerCase() !== 'fr') continue;
      const v = w.type === '' ? null : w.type!;
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const expected = [...counts]
      .map(([value, n]) => ({ value, works: n }))
      .sort((a, b) => b.works - a.works || (a.value === null ? 1 : b.value === null ? -1 : byText(a.value, b.value)));
    expect(body.results).toEqual(expected);
    expect(body.meta.total).toBe(expected.reduce((s, r) => s + r.works, 0));
  });
});

describe('/works', () => {
  it('reports the exact total under the 10,000 cap', async () => {
    const res = await get(`${API}/works`);
    expect(res.statusCode).toBe(200);
    const meta = (res.json() as { meta: { total: number; total_is_capped: boolean } }).meta;
    expect(meta.total).toBe(3000);
    expect(meta.total_is_capped).toBe(false);
  });
});

describe('ETag on /cohort', () => {
  it('same URL, same strong ETag; If-None-Match gives 304; another page, another ETag', async () => {
    const url = `${API}/cohort?lang=en&per_page=10`;
    const one = await get(url);
    const two = await get(url);
    expect(one.statusCode).toBe(200);
    const etag = String(one.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etag.startsWith('W/')).toBe(false);
    expect(two.headers.etag).toBe(etag);
    const cached = await h.app.inject({ url, headers: { 'if-none-match': etag } });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    const page2 = await get(`${url}&page=2`);
    expect(page2.statusCode).toBe(200);
    expect(page2.headers.etag).not.toBe(etag);
    const stale = await h.app.inject({ url: `${url}&page=2`, headers: { 'if-none-match': etag } });
    expect(stale.statusCode).toBe(200);
  });
});

describe('cursor misuse', () => {
  it('a cursor only continues the query that issued it; garbage and cursor+page are 400s', async () => {
    const fr = (await get(`${API}/cohort?lang=fr&per_page=5`)).json() as { meta: { next_cursor: string | null; query_hash: string } };
    const cursor = fr.meta.next_cursor;
    expect(cursor).not.toBeNull();
    const ok = await get(`${API}/cohort?lang=fr&per_page=5&cursor=${encodeURIComponent(cursor!)}`);
    expect(ok.statusCode).toBe(200);

    const other = expectError(await get(`${API}/cohort?lang=en&cursor=${encodeURIComponent(cursor!)}`), 'INVALID_PARAMETER');
    expect(names(other, 'cursor')).toBe(true);
    const resorted = expectError(await get(`${API}/cohort?lang=fr&sort=year_asc&cursor=${encodeURIComponent(cursor!)}`), 'INVALID_PARAMETER');
    expect(names(resorted, 'cursor')).toBe(true);
    // Forged cursors for the right query (its hash and sort) but with a key the service never issues.
    const forge = (k: unknown) => Buffer.from(JSON.stringify({ h: fr.meta.query_hash, s: 'cited', k })).toString('base64url');
    const forged = [forge(['x', 1]), forge([1]), forge([1e308, 1e308]), forge(null), forge([-1, 1.5])];
    for (const garbage of ['garbage', 'eyJ9', encodeURIComponent(cursor!.slice(0, -3)), '%ZZ', ...forged]) {
      const body = expectError(await get(`${API}/cohort?lang=fr&cursor=${garbage}`), 'INVALID_PARAMETER');
      expect(names(body, 'cursor'), garbage).toBe(true);
    }
    expectError(await get(`${API}/cohort?lang=fr&page=2&cursor=${encodeURIComponent(cursor!)}`), 'INVALID_PARAMETER');
  });
});

// The fuzz: query strings built from a seeded generator, so a failure is reproducible from its seed and the
// printed query string.

/** xorshift32: small, seedable, good enough to mix query parts. */
function seeded(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! };
}

const REAL_KEYS = [
  'q',
  'author',
  'author_id',
  'year_from',
  'year_to',
  'cited_min',
  'lang',
  'type',
  'field',
  'topic',
  'venue',
  'route',
  'route_aff',
  'route_fund',
  'route_venue',
  'route_about',
  'retracted',
  'no_abstract',
  'abstract',
  'n_in',
  'category',
  'design',
  'label_source',
  'prediction_mode',
  'agreement',
  'labeled',
  'sort',
  'page',
  'per_page',
  'cursor',
  'format',
  'facet',
] as const;
const JUNK_KEYS = [
  'foo',
  'LANG',
  'Lang',
  'year',
  'id',
  'limit',
  'offset',
  'lang[]',
  'q ',
  ' q',
  'é',
  '%ZZ',
  '',
  'constructor',
  'toString',
  'hasOwnProperty',
  'a%00b',
];
const UNDERSCORE_KEYS = ['_', '_x', '_page', '_lang', '__proto__', '_%ZZ', '_format', '_cb'];
/** Values that mean something to some parameter, so that some queries get past validation. */
const REAL_VALUES = [
  'fr',
  'en',
  'EN',
  'article',
  'review',
  'aff',
  'no_aff',
  'fund',
  'cited',
  'year_asc',
  'year_desc',
  'relevance',
  'csv',
  'json',
  'type',
  'year',
  'route',
  'venue',
  'topic',
  '1',
  '0',
  'true',
  'false',
  'has',
  'none',
  'metaresearch',
  'bibliometrics',
  'direct',
  'predicted',
  'consensus',
  'candidate',
  'all',
  'any',
  'A5000000006',
  'health',
  'jo',
  'tremb',
  '2015',
  '2020',
  '100',
  '25',
  'Canadian Journal of Health',
  'Clinical Health and Practice',
];
/** Plausible values per parameter, so that combinations of valid parameters reach the engine, not just the parser. */
const KEY_VALUES: Record<string, readonly string[]> = {
  q: ['health', 'Health policy', 'machine-learning', 'a b'],
  author: ['tremblay', 'anne', 'li wei'],
  author_id: ['A5000000006', 'A1', 'A0', 'B5'],
  year_from: ['1000', '2010', '2015', '9999', '2030'],
  year_to: ['2012', '2020', '1000', '9999'],
  cited_min: ['0', '1', '10', '10000000', '10000001'],
  lang: ['fr', 'en', 'EN', 'de', 'xx', ''],
  type: ['article', 'review', 'Article', 'book-chapter', ''],
  field: ['Social Sciences', 'Medicine', 'nope'],
  topic: ['Clinical Health and Practice', 'nope'],
  venue: ['Canadian Journal of Health', 'nope'],
  route: ['aff', 'fund', 'venue', 'about', 'no_aff', 'AFF'],
  route_aff: ['1', '0', 'true', 'false', 'yes'],
  route_fund: ['1', '0'],
  route_venue: ['1', '0'],
  route_about: ['1', '0'],
  retracted: ['1', '0', 'true'],
  no_abstract: ['1', '0'],
  abstract: ['has', 'none', 'some'],
  n_in: ['0', '1', '2', '3', '4'],
  category: ['metaresearch', 'bibliometrics', 'open_science', 'nope'],
  design: ['nope', 'rct'],
  label_source: ['direct', 'predicted'],
  prediction_mode: ['candidate', 'consensus'],
  agreement: ['any', 'all'],
  labeled: ['1', '0'],
  sort: ['cited', 'year_desc', 'year_asc', 'relevance', 'random'],
  page: ['1', '2', '100', '101', '400', '0'],
  per_page: ['1', '25', '100', '101', '0'],
  cursor: ['eyJ9', 'garbage'],
  format: ['csv', 'json', 'xml'],
  facet: ['type', 'lang', 'field', 'topic', 'venue', 'year', 'route', 'author'],
};
const BROKEN = ['%ZZ', '%', '%E0%A4%A', '%FF', 'a%2', '%C3%28', '%%', '%u00e9'];

function fuzzValue(r: ReturnType<typeof seeded>): { raw: string } {
  const enc = (v: string) => ({ raw: encodeURIComponent(v) });
  switch (r.int(12)) {
    case 0:
      return enc(String(r.int(20_000) - 5_000));
    case 1:
      return enc(r.pick(['-1', '-0', '0.5', '2015.5', '1e308', '-1e308', '1e3', '0x10', 'NaN', 'Infinity', '10000001', '99999999999999999999', '+5', ' 5 ']));
    case 2:
      return enc(r.pick(['', ' ', '\t', '   ', '\n']));
    case 3:
      return enc(r.pick(['é', '日本語', '🙂', 'Montréal', '\u0000', '\u202e', 'ß', 'İ', '\ufeffen', 'a\u0301']));
    case 4:
      return { raw: r.pick(BROKEN) };
    case 5: {
      const n = r.pick([201, 301, 1000, 5000]);
      return enc(r.pick(['a', 'é', 'ab ', '%', '&']).repeat(n).slice(0, 5000));
    }
    case 6:
      return enc(Array.from({ length: 1 + r.int(30) }, () => r.pick(['health', 'a', 'b', 'the', 'x1'])).join(' '));
    case 7:
      return enc(r.pick(['<script>', "' OR 1=1 --", '../../etc/passwd', '{"a":1}', '[]', 'null', 'undefined', '=1+1', '@cmd']));
    default:
      return enc(r.pick(REAL_VALUES));
  }
}

interface Pair {
  key: string;
  raw: string;
  ignored: boolean;
}

function fuzzQuery(r: ReturnType<typeof seeded>): Pair[] {
  const pairs: Pair[] = [];
  const n = r.int(6);
  for (let k = 0; k < n; k++) {
    const roll = r.next();
    const key = roll < 0.7 ? r.pick(REAL_KEYS) : roll < 0.85 ? r.pick(JUNK_KEYS) : r.pick(UNDERSCORE_KEYS);
    const plausible = KEY_VALUES[key];
    const raw = plausible && r.next() < 0.6 ? encodeURIComponent(r.pick(plausible)) : fuzzValue(r).raw;
    pairs.push({ key, raw, ignored: key.startsWith('_') });
    // Repeat a key now and then: repeated keys are an error, not a silent choice of one value.
    if (r.next() < 0.08) pairs.push({ ...pairs[pairs.length - 1]!, raw: fuzzValue(r).raw });
  }
  if (r.next() < 0.2) pairs.push({ key: r.pick(UNDERSCORE_KEYS), raw: fuzzValue(r).raw, ignored: true });
  return pairs;
}

const jsonOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
const codeOf = (text: string) => (jsonOrNull(text) as { code?: string } | null)?.code;

const queryString = (pairs: Pair[]) => pairs.map((p) => `${p.key}=${p.raw}`).join('&');

const SURFACES = [
  ['GET', '/cohort'],
  ['GET', '/works'],
  ['GET', '/cohort/facets'],
  ['GET', '/cohort/export'],
  ['GET', '/facets/venue'],
  ['GET', '/facets/author'],
  ['POST', '/permalink'],
] as const;

describe('fuzzed query strings', () => {
  it('never answer other than 200, 201, 400 or 404; 400s carry the error body; _ parameters change nothing', async () => {
    const SEED = 20260712;
    const r = seeded(SEED);
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let underscored = 0;
    const send = (method: 'GET' | 'POST', path: string, qs: string) => h.app.inject({ method, url: `${API}${path}${qs === '' ? '' : `?${qs}`}` });
    const TOTAL = 840;
    for (let k = 0; k < TOTAL; k++) {
      const [method, path] = SURFACES[k % SURFACES.length]!;
      const pairs = fuzzQuery(r);
      // Facet surfaces need their required parameter most of the time, or nearly every case stops at it.
      if (path === '/cohort/facets' && r.next() < 0.7)
        pairs.unshift({ key: 'facet', raw: r.pick(['type', 'year', 'route', 'venue', 'lang', 'x']), ignored: false });
      if (path.startsWith('/facets/') && r.next() < 0.7)
        pairs.unshift({ key: 'q', raw: r.next() < 0.5 ? r.pick(['jo', 'health', 'tremb', 'anne%20t', 'Mar', 'ne']) : fuzzValue(r).raw, ignored: false });
      // Export bodies are large: keep most export cases small by narrowing the cohort.
      if (path === '/cohort/export' && r.next() < 0.6) pairs.unshift({ key: 'lang', raw: 'de', ignored: false });
      const qs = queryString(pairs);
      const where = `${method} ${path}?${qs.slice(0, 300)}${qs.length > 300 ? '…' : ''} (seed ${SEED}, case ${k})`;
      let res: Res;
      try {
        res = await send(method, path, qs);
      } catch (err) {
        problems.push(`${where}: inject threw ${String(err)}`);
        continue;
      }
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (![200, 201, 400, 404].includes(res.statusCode)) {
        problems.push(`${where}: status ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      if (res.statusCode === 400) {
        const parsed = errorBodySchema.safeParse(jsonOrNull(res.body));
        if (!parsed.success) problems.push(`${where}: 400 without the error body: ${res.body.slice(0, 200)}`);
        else if (!['INVALID_PARAMETER', 'UNKNOWN_PARAMETER', 'MISSING_PARAMETER'].includes(parsed.data.code))
          problems.push(`${where}: 400 with code ${parsed.data.code}`);
        if (res.headers['cache-control'] !== 'no-store') problems.push(`${where}: 400 with Cache-Control ${String(res.headers['cache-control'])}`);
      }
      // The same request without its _ parameters must get the same answer: they are ignored, never errors.
      if (pairs.some((p) => p.ignored)) {
        underscored++;
        const bare = await send(method, path, queryString(pairs.filter((p) => !p.ignored)));
        // A permalink the first request minted (201) is found by the second (200): the same answer.
        const same = (a: number, b: number) => a === b || (path === '/permalink' && a === 201 && b === 200);
        if (!same(res.statusCode, bare.statusCode)) problems.push(`${where}: ${res.statusCode} with its _ parameters, ${bare.statusCode} without`);
        else if (res.statusCode === 400 && codeOf(bare.body) !== codeOf(res.body)) problems.push(`${where}: _ parameters changed the error code`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    // The mix must reach both sides of validation, or the fuzz proves little.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(50);
    expect(underscored).toBeGreaterThan(50);
  });
});
