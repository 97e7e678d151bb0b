/**
 * A build's corpus, open for queries: the sqlite database (read-only, in memory), the excerpt index, the
 * search index and the lexicon's phrases. Loaded with the build (build-store.ts) and closed with it. `listExcerpts` is the one function behind `/corpus/api/v1/excerpts` and the site's excerpt browser.
 *
 * A search's candidates (which excerpts match `q`, by id or by bm25) come from the search index
 * (search-index.ts), which answers as FTS5 would in a few milliseconds where FTS5 in sqlite-wasm took up to
 * half a second for a common word; they are kept in a small LRU per search, so the next page, or the same
 * search with other filters, costs only the filter pass. FTS5 still gives the page's highlights.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { CORPUS_DB_FILE, CORPUS_DB_VERSION } from '../../../../contracts/corpus/database.ts';
import type { ArticleRef, ExcerptDoc, OccurrenceDoc } from '../../../../contracts/corpus/documents.ts';
import { type ExcerptQuery, ftsExpression } from '../../../../contracts/corpus/excerpts-query.ts';
import type { ExcerptItem, ExcerptPage } from '../../../../contracts/corpus/responses.ts';
import type { Band, OccurrenceStatus, Section } from '../../../../contracts/corpus/vocab.ts';
import { ExcerptIndex, occurrenceFilter } from './excerpt-index.ts';
import type { RankedGroups } from './bm25.ts';
import { SearchIndex } from './search-index.ts';
import { excerptsTokenizeClause } from './search-tokens.ts';
import { openReadOnly, type SqliteDb } from './sqlite.ts';

const HL_OPEN = '\u0001';
const HL_CLOSE = '\u0002';

/** Plain text and the ranges between highlight markers (what FTS5's highlight() returns, parsed). */
export function highlightRanges(marked: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let pos = 0;
  let open = -1;
  for (const ch of marked) {
    if (ch === HL_OPEN) open = pos;
    else if (ch === HL_CLOSE) {
      if (open >= 0) out.push({ start: open, end: pos });
      open = -1;
    } else pos += ch.length;
  }
  return out;
}

/**
 * The search cache holds at most this many 4-byte entries in all (candidate ids, bm25 groups, histograms,
 * bitset words: 128 MiB): a common word at 5M excerpts keeps millions of entries, so a smaller cache would
 * hold only a handful of searches.
 */
const SEARCH_CACHE_IDS = 32_000_000;

/**
 * A search's candidates as 0-based excerpt indexes in id order, and what later pages of it reuse, each made when
 * first needed: their bm25 groups (bm25.ts: per candidate the rank of its score; the relevance order is by
 * group, then id) with how many of each group carry each mask code (`tagCounts`), how many carry each code in
 * all (ExcerptIndex.codeCounts; both give the totals under band and status filters) and a bit per excerpt (ExcerptIndex.memberBits, for keyed orders).
 */
interface Candidates {
  byId: Int32Array;
  ranked: RankedGroups | null;
  codes: Int32Array | null;
  members: Uint32Array | null;
}

export class CorpusData {
  private pageIndexReady = false;
  private readonly searches = new LRUCache<string, Candidates>({
    maxSize: SEARCH_CACHE_IDS,
    sizeCalculation: (c) =>
      1 +
      c.byId.length +
      (c.ranked?.group?.length ?? 0) +
      (c.ranked?.keyGroup?.length ?? 0) +
      (c.ranked?.tagCounts?.length ?? 0) +
      (c.codes?.length ?? 0) +
      (c.members?.length ?? 0),
  });

  private constructor(
    private readonly db: SqliteDb,
    readonly index: ExcerptIndex,
    readonly search: SearchIndex,
    /** The lexicon's canonical phrases (the values `phrase=` accepts), in lexicon order. */
    readonly phrases: readonly string[],
    readonly lexiconVersion: string,
    readonly snapshot: string,
  ) {}

  /** Opens `<build>/corpus/corpus.sqlite`; null when the build has no corpus database. */
  static async open(buildDir: string): Promise<CorpusData | null> {
    const path = join(buildDir, CORPUS_DB_FILE);
    if (!existsSync(path)) return null;
    const db = await openReadOnly(path);
    try {
      const info = new Map(db.selectArrays('SELECT key, value FROM info').map(([k, v]) => [String(k), String(v)]));
      if (info.get('schema_version') !== CORPUS_DB_VERSION)
        throw new Error(`${path} has schema version ${info.get('schema_version')}; this server reads ${CORPUS_DB_VERSION}: rebuild`);
      const phrases = JSON.parse(info.get('phrases') ?? '[]') as string[];
      const index = ExcerptIndex.load(db);
      const search = SearchIndex.load(db);
      search.useTags(index.codeTags());
      return new CorpusData(db, index, search, phrases, info.get('lexicon_version') ?? '', info.get('snapshot') ?? '');
    } catch (err) {
      db.close();
      throw err;
    }
  }

  close(): void {
    this.db.close();
  }

  /**
   * Excerpt indexes (0-based) whose text matches the terms, in id order, with their bm25 groups when `relevance`.
   * Cached per match expression; the groups are added when a relevance page first needs them (a later
   * `sort=article` of the same search costs nothing more, nor the next page).
   */
  private candidates(query: ExcerptQuery, relevance: boolean): Candidates {
    const expression = ftsExpression(query.terms);
    let cached = this.searches.get(expression);
    if (cached === undefined || (relevance && cached.ranked === null)) {
      const match = this.search.match(query.terms);
      // The groups and their mask-code histogram in one pass (bm25.ts, tags).
      const ranked = relevance ? this.search.relevanceGroups(match, this.index.codeTags()) : null;
      cached = { byId: match.docs, ranked, codes: cached?.codes ?? null, members: cached?.members ?? null };
      this.searches.set(expression, cached);
    }
    // The histogram in all (any order but relevance's groups).
    if (!relevance && cached.codes === null) {
      cached.codes = this.index.codeCounts(cached.byId);
      this.searches.set(expression, cached); // again, so the cache counts its size
    }
    return cached;
  }

  /**
   * A temporary full-text table (in the connection's temp schema, not the read-only database) holding only the
   * excerpts `list`, tokenized as `excerpts_fts` is; returns its name.
   */
  private pageIndex(list: string): string {
    if (!this.pageIndexReady) {
      this.db.exec(`CREATE VIRTUAL TABLE temp.page_fts USING fts5(text${excerptsTokenizeClause(this.db)})`);
      this.pageIndexReady = true;
    }
    this.db.exec('DELETE FROM temp.page_fts');
    this.db.exec(`INSERT INTO temp.page_fts (rowid, text) SELECT id, text FROM excerpts WHERE id IN (${list})`);
    return 'page_fts';
  }

  /** Answers one excerpt query: exact total, the page's items in order. */
  listExcerpts(query: ExcerptQuery): ExcerptPage {
    const filter = occurrenceFilter(query.phrase === null ? -1 : this.phrases.indexOf(query.phrase), query.bands, query.statuses, query);
    const offset = (query.page - 1) * query.per_page;
    let total: number;
    let indexes: number[];
    if (query.terms.length === 0) {
      ({ total, indexes } = this.index.page(filter, query.sort === 'relevance' ? 'article' : query.sort, offset, query.per_page));
    } else if (query.sort === 'relevance') {
      const { byId, ranked } = this.candidates(query, true);
      ({ total, indexes } = this.index.pageRanked(byId, ranked!, filter, offset, query.per_page));
    } else if (query.sort === 'article') {
      const { byId, codes } = this.candidates(query, false);
      ({ total, indexes } = this.index.pageList(byId, filter, offset, query.per_page, codes));
    } else {
      const c = this.candidates(query, false);
      const members = () => {
        if (c.members === null) {
          c.members = this.index.memberBits(c.byId);
          this.searches.set(ftsExpression(query.terms), c);
        }
        return c.members;
      };
      ({ total, indexes } = this.index.pageSorted(c.byId, filter, query.sort, offset, query.per_page, c.codes, members));
    }
    return {
      meta: {
        total,
        page: query.page,
        per_page: query.per_page,
        pages: Math.ceil(total / query.per_page),
        query: {
          phrase: query.phrase,
          band: query.bands,
          status: query.statuses,
          q: query.q,
          year_from: query.year_from,
          year_to: query.year_to,
          p_min: query.p_min,
          p_max: query.p_max,
          sort: query.sort,
        },
      },
      results: this.items(indexes, query),
    };
  }

  /** The page's rows, in the given order, with their occurrences and highlights. */
  private items(indexes: readonly number[], query: ExcerptQuery): ExcerptItem[] {
    if (indexes.length === 0) return [];
    const ids = indexes.map((i) => i + 1);
    const list = ids.join(',');
    const rows = new Map<number, ExcerptItem>();
    // The article of each row comes with it (a quarter of a million article objects kept in the JS heap would
    // cost a second of start-up and make every full garbage collection slower).
    for (const r of this.db.selectObjects(
      `SELECT e.id, e.key, e.section, e.section_title, e.label, e.paragraph, e.sentence, e.text, e.also_in,
              a.pmcid, a.id_kind, a.pmid, a.doi, a.title, a.journal, a.year
       FROM excerpts e JOIN articles a ON a.id = e.article WHERE e.id IN (${list})`,
    )) {
      const doc: ExcerptDoc = {
        id: String(r.key),
        section: r.section as Section,
        section_title: String(r.section_title),
        label: (r.label as string | null) ?? null,
        paragraph: Number(r.paragraph),
        sentence: Number(r.sentence),
        text: String(r.text),
        also_in: JSON.parse(String(r.also_in)) as Section[],
        occurrences: [],
      };
      const article: ArticleRef = {
        pmcid: String(r.pmcid),
        id_kind: r.id_kind === 'generated' ? 'generated' : 'pmcid',
        pmid: (r.pmid as string | null) ?? null,
        doi: (r.doi as string | null) ?? null,
        title: (r.title as string | null) ?? null,
        journal: (r.journal as string | null) ?? null,
        year: r.year === null || r.year === undefined ? null : Number(r.year),
      };
      rows.set(Number(r.id), { ...doc, article, highlights: [] });
    }
    for (const o of this.db.selectObjects(
      `SELECT excerpt, phrase, start, "end", status, band, at_threshold, inequality, p_text, p_start, p_end, p_operator, p_value, p_exact
       FROM occurrences WHERE excerpt IN (${list}) ORDER BY excerpt, ordinal`,
    )) {
      const occ: OccurrenceDoc = {
        phrase: String(o.phrase),
        start: Number(o.start),
        end: Number(o.end),
        status: o.status as OccurrenceStatus,
        band: (o.band as Band | null) ?? null,
        at_threshold: o.at_threshold === 1,
        inequality: (o.inequality as OccurrenceDoc['inequality']) ?? null,
        p:
          o.p_text === null
            ? null
            : {
                text: String(o.p_text),
                start: Number(o.p_start),
                end: Number(o.p_end),
                operator: o.p_operator as NonNullable<OccurrenceDoc['p']>['operator'],
                value: o.p_value === null ? null : Number(o.p_value),
                exact: o.p_exact === 1,
              },
      };
      rows.get(Number(o.excerpt))!.occurrences.push(occ);
    }
    if (query.terms.length > 0) {
      // A prefix term makes FTS5 merge the posting lists of every word with that prefix, whatever the rowid
      // constraint (~100 ms for a common prefix on 1M sentences); the page's own texts, indexed alone with the
      // same tokenizer, give the same highlights in a millisecond.
      const table = query.terms.some((t) => t.prefix) ? this.pageIndex(list) : 'excerpts_fts';
      const st = this.db.prepare(`SELECT rowid, highlight(${table}, 0, char(1), char(2)) FROM ${table} WHERE ${table} MATCH ? AND rowid IN (${list})`);
      try {
        st.bind([ftsExpression(query.terms)]);
        while (st.step()) rows.get(st.getInt(0)!)!.highlights = highlightRanges(st.getString(1)!);
      } finally {
        st.finalize();
      }
    }
    return ids.map((id) => rows.get(id)!);
  }
}
