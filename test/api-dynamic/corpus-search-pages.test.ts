/**
 * `/excerpts` with `q`: every page of a search under every sort and filter against an oracle that shares no code
 * with the server's paging (issue 21: relevance pages from bm25 groups, totals from a search's mask-code
 * histogram, keyed pages by a bounded heap or by walking the order over a member bitset). The oracle reads the
 * database's rows itself: which excerpts match comes from FTS5 (`MATCH … ORDER BY bm25(excerpts_fts), rowid`),
 * which pass the filters from a plain scan of their occurrences, and the keyed orders from the occurrences'
 * p-values and the articles' years, sorted here. Each search is asked in several orders of sorts and pages,
 * with the search cache emptied between rounds, so first requests and cached ones are both compared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorpusData } from '../../api-dynamic/src/services/corpus/corpus-data.ts';
import { ExcerptIndex, occurrenceFilter } from '../../api-dynamic/src/services/corpus/excerpt-index.ts';
import { bm25, bm25Ranked } from '../../api-dynamic/src/services/corpus/bm25.ts';
import { openReadOnly, type SqliteDb } from '../../api-dynamic/src/services/corpus/sqlite.ts';
import { type ExcerptQuery, ftsExpression, parseExcerptQuery } from '../../contracts/corpus/excerpts-query.ts';
import { sharedCorpusDatabase } from '../helpers/shared-fixture.ts';
import { dirname } from 'node:path';

let corpus: CorpusData;
let fts: SqliteDb;

interface Occ {
  phrase: string;
  band: string | null;
  status: string;
  p: number | null;
  exact: boolean;
}
interface Row {
  id: number;
  key: string;
  year: number | null;
  occ: Occ[];
}
let rows: Map<number, Row>;

beforeAll(async () => {
  const path = await sharedCorpusDatabase();
  corpus = (await CorpusData.open(dirname(dirname(path))))!;
  fts = await openReadOnly(path);
  rows = new Map();
  for (const r of fts.selectArrays('SELECT e.id, e.key, a.year FROM excerpts e JOIN articles a ON a.id = e.article'))
    rows.set(Number(r[0]), { id: Number(r[0]), key: String(r[1]), year: r[2] === null ? null : Number(r[2]), occ: [] });
  for (const o of fts.selectArrays('SELECT excerpt, phrase, band, status, p_value, p_exact FROM occurrences'))
    rows.get(Number(o[0]))!.occ.push({
      phrase: String(o[1]),
      band: o[2] === null ? null : String(o[2]),
      status: String(o[3]),
      p: o[4] === null ? null : Number(o[4]),
      exact: o[5] === 1,
    });
});
afterAll(() => {
  corpus?.close();
  fts?.close();
});

/** One occurrence passes the phrase, band, status and p filters (an empty list allows any value). */
function occPasses(o: Occ, q: ExcerptQuery): boolean {
  if (q.phrase !== null && o.phrase !== q.phrase) return false;
  if (q.bands.length > 0 && (o.band === null || !(q.bands as string[]).includes(o.band))) return false;
  if (q.statuses.length > 0 && !(q.statuses as string[]).includes(o.status)) return false;
  if (q.p_min !== null || q.p_max !== null) {
    if (o.p === null || !o.exact) return false;
    if (o.p < (q.p_min ?? 0) || o.p > (q.p_max ?? 1)) return false;
  }
  return true;
}

function rowPasses(r: Row, q: ExcerptQuery): boolean {
  if (q.year_from !== null || q.year_to !== null) {
    if (r.year === null || r.year < (q.year_from ?? -Infinity) || r.year > (q.year_to ?? Infinity)) return false;
  }
  return r.occ.some((o) => occPasses(o, q));
}

/** Missing keys last, ties by id. */
function byKey(list: Row[], key: (r: Row) => number | null, dir: 1 | -1): Row[] {
  return [...list].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if ((x === null) !== (y === null)) return x === null ? 1 : -1;
    return (x === null || y === null ? 0 : dir * (x - y)) || a.id - b.id;
  });
}

/** The oracle's whole answer: the excerpt keys passing, in the query's order. */
function expected(q: ExcerptQuery): string[] {
  // Without q: every excerpt, by id (the listing's relevance is article order).
  const matched =
    q.terms.length === 0
      ? [...rows.keys()].sort((a, b) => a - b)
      : fts.selectValues('SELECT rowid FROM excerpts_fts WHERE excerpts_fts MATCH ? ORDER BY bm25(excerpts_fts), rowid', [ftsExpression(q.terms)]).map(Number);
  let list = matched.map((id) => rows.get(id)!).filter((r) => rowPasses(r, q));
  // A p key over the verified occurrences when only verified ones are listed, else over all (excerpt-index-data.ts).
  const verifiedOnly = q.statuses.length === 1 && q.statuses[0] === 'verified';
  const ps = (r: Row) => r.occ.filter((o) => o.p !== null && (!verifiedOnly || o.status === 'verified')).map((o) => o.p!);
  if (q.sort === 'article') list.sort((a, b) => a.id - b.id);
  else if (q.sort === 'p_asc') list = byKey(list, (r) => (ps(r).length ? Math.min(...ps(r)) : null), 1);
  else if (q.sort === 'p_desc') list = byKey(list, (r) => (ps(r).length ? Math.max(...ps(r)) : null), -1);
  else if (q.sort === 'year_desc') list = byKey(list, (r) => r.year, -1);
  return list.map((r) => r.key);
}

/** Search terms of every kind, drawn from the database: the commonest words, mid and rare ones, pairs, phrases, prefixes. */
function searches(): string[] {
  const terms = fts.selectValues('SELECT term FROM search_terms WHERE length(term) >= 3 ORDER BY docs DESC, term').map(String);
  const words = terms.filter((t) => /^[a-z]+$/.test(t));
  const common = words.slice(0, 4);
  const mid = words.slice(Math.floor(words.length / 3), Math.floor(words.length / 3) + 3);
  const rare = words.slice(-2);
  const texts = fts.selectValues('SELECT text FROM excerpts ORDER BY id LIMIT 40').map(String);
  const pairs = texts.slice(0, 4).map((t) => {
    const w = t.toLowerCase().match(/[a-z]{3,}/g) ?? [];
    return `"${w.slice(1, 3).join(' ')}"`;
  });
  return [
    ...common,
    ...mid,
    ...rare,
    `${common[0]} ${common[1]}`,
    `${common[2]} ${mid[0]}`,
    ...pairs,
    '"marginally significant"',
    `${common[0]!.slice(0, 3)}*`,
    `${mid[1]!.slice(0, 4)}*`,
  ];
}

const FILTERS = [
  '',
  'band=0.05-0.06',
  'band=ns&band=%3E0.10',
  'status=rejected',
  'status=verified&status=rejected&status=unverified&status=indeterminate',
  'phrase=marginally%20significant',
  'phrase=marginally%20significant&band=ns&band=0.05-0.06&status=verified&status=rejected',
  'phrase=marginally%20significant&status=rejected&status=unverified&status=indeterminate',
  'year_from=2015&year_to=2020',
  'p_min=0.06&p_max=0.08',
];
const SORTS = ['relevance', 'article', 'p_asc', 'p_desc', 'year_desc'];

function ask(qs: string): { total: number; keys: string[]; query: ExcerptQuery } {
  const query = parseExcerptQuery(`/corpus/api/v1/excerpts?${qs}`, corpus.phrases);
  const res = corpus.listExcerpts(query);
  return { total: res.meta.total, keys: res.results.map((r) => r.id), query };
}

/** Compares page 1, 2 and the last (and one past it) at 7 per page, and every excerpt at 100 per page. */
function compare(q: string, filter: string, sort: string): number {
  const base = `${q === '' ? '' : `q=${encodeURIComponent(q)}&`}${filter ? `${filter}&` : ''}sort=${sort}`;
  const first = ask(`${base}&per_page=7`);
  const want = expected(first.query);
  const label = `${base}`;
  expect(first.total, `total ${label}`).toBe(want.length);
  const pages = Math.ceil(want.length / 7);
  for (const page of [1, 2, pages, pages + 1]) {
    if (page < 1) continue;
    expect(ask(`${base}&per_page=7&page=${page}`).keys, `page ${page} of ${label}`).toEqual(want.slice((page - 1) * 7, page * 7));
  }
  const all: string[] = [];
  for (let page = 1; page <= Math.max(1, Math.ceil(want.length / 100)); page++) all.push(...ask(`${base}&per_page=100&page=${page}`).keys);
  expect(all, `every excerpt of ${label}`).toEqual(want);
  return want.length;
}

describe('/excerpts with q against a scan of the rows and FTS5', () => {
  it('gives the exact total and page for every kind of search, filter and sort, first asked and cached', () => {
    const qs = searches();
    let nonEmpty = 0;
    let compared = 0;
    for (const round of [0, 1]) {
      // Round 0: relevance first (the groups and their histogram made first); round 1: keyed sorts first.
      (corpus as unknown as { searches: { clear(): void } }).searches.clear();
      const sorts = round === 0 ? SORTS : [...SORTS].reverse();
      for (const q of qs)
        for (const filter of FILTERS)
          for (const sort of sorts) {
            if (compare(q, filter, sort) > 0) nonEmpty++;
            compared++;
          }
    }
    expect(compared).toBe(2 * qs.length * FILTERS.length * SORTS.length);
    // The searches must exercise something: most of them find excerpts.
    expect(nonEmpty).toBeGreaterThan(compared / 2);
  });
});

describe('/excerpts with phrase= and no q against a scan of the rows', () => {
  it('gives the exact total and page for every phrase under band, status, year and p filters in every order', () => {
    // Issue 21 session 22: a phrase's own list is paged through its per-excerpt pair bits and counted from their
    // histogram; with a year or p range it is scanned; other orders walk the order and take the histogram's total.
    const phrases = fts.selectValues('SELECT DISTINCT phrase FROM occurrences ORDER BY phrase').map(String);
    expect(phrases.length).toBeGreaterThan(3);
    const extra = [
      '',
      'band=ns',
      'band=0.05-0.06&band=%3E0.10',
      'status=rejected',
      'status=verified&status=unverified&band=none',
      'year_from=2015',
      'p_max=0.07',
    ];
    let nonEmpty = 0;
    for (const phrase of phrases)
      for (const filter of extra)
        for (const sort of ['article', 'p_asc', 'year_desc'])
          if (compare('', `phrase=${encodeURIComponent(phrase)}${filter ? `&${filter}` : ''}`, sort) > 0) nonEmpty++;
    expect(nonEmpty).toBeGreaterThan(phrases.length * 3);
  });
});

describe('/excerpts deep pages without q against a scan of the rows', () => {
  it('skips whole blocks by their mask counts and lands on the same page in every order', () => {
    // Issue 21 session 22: blocks of 64 here (4,096 in the server) so the fixture has many.
    const index = ExcerptIndex.load(fts, 64);
    const keyOf = (i: number) => rows.get(i + 1)!.key;
    let pages = 0;
    for (const filter of ['', 'band=ns', 'band=0.05-0.06&band=%3E0.10', 'status=rejected', 'status=verified&status=unverified&band=none'])
      for (const sort of ['article', 'p_asc', 'p_desc', 'year_desc'] as const) {
        const query = parseExcerptQuery(`/corpus/api/v1/excerpts?${filter}&sort=${sort}`, corpus.phrases);
        const want = expected(query);
        const f = occurrenceFilter(-1, query.bands, query.statuses, query);
        for (const per of [7, 25, 100])
          for (let offset = 0; offset <= want.length + per; offset += per * 3 + 1) {
            const got = index.page(f, sort, offset, per);
            expect(got.total, `${filter} ${sort} total`).toBe(want.length);
            expect(got.indexes.map(keyOf), `${filter} ${sort} offset ${offset}`).toEqual(want.slice(offset, offset + per));
            pages++;
          }
      }
    expect(pages).toBeGreaterThan(100);
  });
});

describe("relevance pages from the keys' heads", () => {
  it('are those of a plain sort by score, whether the heads suffice or run out (heads of 1 to 8 rows)', () => {
    // Issue 21 session 22: a first page is collected from the first rows of each bm25 key when they suffice, else
    // by a pass; tiny heads here make both happen. The oracle sorts every excerpt by its bm25 (ties by id).
    const n = rows.size;
    const docs = Int32Array.from({ length: n }, (_, i) => i);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const freqs = [Int32Array.from(docs, () => 1 + (next() % 7 === 0 ? 1 : 0)), Int32Array.from(docs, () => 1 + (next() % 5 === 0 ? 1 : 0))];
    const sizes = corpus.search.sizes;
    let pages = 0;
    // Equal IDFs make keys of one score (f = 1, 2 and 2, 1), so a group has several heads.
    for (const [phrases, idfs] of [
      [1, [0.9]],
      [2, [0.9, 1.7]],
      [2, [1.3, 1.3]],
    ] as const) {
      const m = { docs, freqs: freqs.slice(0, phrases), idfs: [...idfs] };
      const score = (d: number) =>
        bm25(
          m.idfs,
          m.freqs.map((f) => f[d]!),
          sizes.size[d]!,
          sizes.avgdl,
        );
      for (const width of [1, 3, 8]) {
        const ranked = bm25Ranked(m, sizes, corpus.index.codeTags(), width);
        expect(ranked.heads).not.toBeNull();
        for (const filter of ['', 'band=ns', 'status=rejected&status=verified', 'phrase=marginally%20significant']) {
          const query = parseExcerptQuery(`/corpus/api/v1/excerpts?${filter}`, corpus.phrases);
          const f = occurrenceFilter(query.phrase === null ? -1 : corpus.phrases.indexOf(query.phrase), query.bands, query.statuses, query);
          const want = [...docs].filter((d) => rowPasses(rows.get(d + 1)!, query)).sort((a, b) => score(a) - score(b) || a - b);
          for (const per of [1, 2, 5, 25])
            for (let offset = 0; offset < want.length + per; offset += per * 7 + 3) {
              const got = corpus.index.pageRanked(docs, ranked, f, offset, per);
              expect(got.total).toBe(want.length);
              expect(got.indexes, `${phrases} phrases, heads of ${width}, ${filter}, offset ${offset}`).toEqual(want.slice(offset, offset + per));
              pages++;
            }
        }
      }
    }
    expect(pages).toBeGreaterThan(50);
  });
});
