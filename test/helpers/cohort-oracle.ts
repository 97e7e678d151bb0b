/**
 * The cohort oracle: the cohort semantics written out directly over the snapshot's CSV rows, so the engine
 * (DuckDB build, cohort index, cursors) can be checked against something that shares none of its code. It
 * reads only the CSV tables, the canonical filters (contracts/frame/cohort-query.ts) and titleTerms();
 * clarity beats speed here, except that each sort order of the whole frame is computed once and a cohort's
 * order is that list filtered, which is the same thing as sorting the cohort because every order is total.
 */
import type { CohortFacet, CohortFilters, Sort } from '../../contracts/frame/cohort-query.ts';
import { titleTerms } from '../../contracts/frame/title-terms.ts';
import { type Row, isTrue, readTable } from './oracle.ts';

export interface OracleWork {
  id: string;
  /** Number(id.slice(1)): the tie-break of every sort. */
  num: number;
  title: string;
  year: number | null;
  lang: string;
  type: string;
  field: string;
  topic: string;
  venue: string;
  cited_by: number;
  is_retracted: boolean;
  has_abstract: boolean;
  route_aff: boolean;
  route_fund: boolean;
  route_venue: boolean;
  route_about: boolean;
  titleTerms: Set<string>;
  /** Distinct title terms, capped at 255 (the relevance key). */
  termCount: number;
  authorIds: Set<string>;
  /** One term set per author of the work: an author query must be met by a single name. */
  authorNameTerms: Set<string>[];
  /** The work's direct_labels rows (one per model). */
  direct: { categories: Set<string>; design: string }[];
  prediction: { candidate: Set<string>; consensus: Set<string>; designCandidate: string; designConsensus: string } | null;
  /** screened.csv n_in, null when the work was not screened. */
  nIn: number | null;
}

export interface OracleCounts {
  total: number;
  direct_labels_cover: number;
  predictions_cover: number;
}

const splitSet = (cell: string | undefined) => new Set((cell ?? '').split(';').filter((s) => s !== ''));

/** Every term of a space-separated canonical search string. */
const terms = (s: string) => s.split(' ');

function groupBy(rows: Row[], key: string): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    const k = r[key]!;
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

export class CohortOracle {
  readonly works: OracleWork[];
  private readonly orders: Record<Sort, OracleWork[]>;

  constructor(snapshot: string) {
    const authorName = new Map(readTable(snapshot, 'authors.csv').map((a) => [a.id!, titleTerms(a.name!)]));
    const authorships = groupBy(readTable(snapshot, 'authorships.csv'), 'work_id');
    const direct = groupBy(readTable(snapshot, 'direct_labels.csv'), 'work_id');
    const predictions = new Map(readTable(snapshot, 'predictions.csv').map((p) => [p.work_id!, p]));
    const screened = new Map(readTable(snapshot, 'screened.csv').map((s) => [s.work_id!, Number(s.n_in)]));

    this.works = readTable(snapshot, 'works.csv').map((w): OracleWork => {
      const id = w.id!;
      const tt = titleTerms(w.title!);
      const ships = authorships.get(id) ?? [];
      const p = predictions.get(id);
      return {
        id,
        num: Number(id.slice(1)),
        title: w.title!,
        year: w.year === '' ? null : Number(w.year),
        lang: w.lang!,
        type: w.type!,
        field: w.field!,
        topic: w.topic!,
        venue: w.venue!,
        cited_by: Number(w.cited_by),
        is_retracted: isTrue(w.is_retracted),
        has_abstract: isTrue(w.has_abstract),
        route_aff: isTrue(w.route_ca_aff),
        route_fund: isTrue(w.route_ca_fund),
        route_venue: isTrue(w.route_ca_venue),
        route_about: isTrue(w.route_about_ca),
        titleTerms: new Set(tt),
        termCount: Math.min(tt.length, 255),
        authorIds: new Set(ships.map((s) => s.author_id!)),
        authorNameTerms: ships.map((s) => new Set(authorName.get(s.author_id!) ?? [])),
        direct: (direct.get(id) ?? []).map((d) => ({ categories: splitSet(d.categories), design: d.study_design! })),
        prediction: p
          ? {
              candidate: splitSet(p.candidate_categories),
              consensus: splitSet(p.consensus_categories),
              designCandidate: p.study_design_candidate!,
              designConsensus: p.study_design_consensus!,
            }
          : null,
        nIn: screened.get(id) ?? null,
      };
    });

    // Sort keys, each ending in the id so that every order is total.
    const byCited = (a: OracleWork, b: OracleWork) => b.cited_by - a.cited_by || a.num - b.num;
    const noYearLast = (a: OracleWork, b: OracleWork) => Number(a.year === null) - Number(b.year === null);
    this.orders = {
      cited: [...this.works].sort(byCited),
      year_desc: [...this.works].sort((a, b) => noYearLast(a, b) || (b.year ?? 0) - (a.year ?? 0) || byCited(a, b)),
      year_asc: [...this.works].sort((a, b) => noYearLast(a, b) || (a.year ?? 0) - (b.year ?? 0) || byCited(a, b)),
      relevance: [...this.works].sort((a, b) => a.termCount - b.termCount || byCited(a, b)),
    };
  }

  /** Whether one work belongs to the cohort described by canonical filters. */
  matches(w: OracleWork, f: CohortFilters): boolean {
    if (f.q !== undefined && !terms(f.q).every((t) => w.titleTerms.has(t))) return false;
    if (f.author !== undefined) {
      const want = terms(f.author);
      if (!w.authorNameTerms.some((name) => want.every((t) => name.has(t)))) return false;
    }
    if (f.author_id !== undefined && !w.authorIds.has(f.author_id)) return false;
    if (f.year_from !== undefined && (w.year === null || w.year < f.year_from)) return false;
    if (f.year_to !== undefined && (w.year === null || w.year > f.year_to)) return false;
    if (f.cited_min !== undefined && w.cited_by < f.cited_min) return false;
    // Exact text values: an empty cell is "no value", which no filter value equals.
    for (const k of ['lang', 'type', 'field', 'topic', 'venue'] as const) {
      const want = f[k];
      if (want !== undefined && (w[k] === '' || w[k] !== want)) return false;
    }
    for (const k of ['route_aff', 'route_fund', 'route_venue', 'route_about'] as const) {
      const want = f[k];
      if (want !== undefined && w[k] !== want) return false;
    }
    if (f.retracted !== undefined && w.is_retracted !== f.retracted) return false;
    if (f.abstract !== undefined && w.has_abstract !== (f.abstract === 'has')) return false;
    if (f.n_in !== undefined && w.nIn !== f.n_in) return false;
    if (f.labeled !== undefined && w.direct.length > 0 !== f.labeled) return false;
    if (
      f.category !== undefined &&
      !this.hasLabel(
        w,
        f,
        (cats) => cats.has(f.category!),
        (p) => (f.prediction_mode === 'consensus' ? p.consensus : p.candidate).has(f.category!),
      )
    )
      return false;
    if (
      f.design !== undefined &&
      !this.hasLabel(
        w,
        f,
        (_, design) => design === f.design,
        (p) => (f.prediction_mode === 'consensus' ? p.designConsensus : p.designCandidate) === f.design,
      )
    )
      return false;
    return true;
  }

  /** One label condition under the filters' label source: direct (any or all models) or predicted. */
  private hasLabel(
    w: OracleWork,
    f: CohortFilters,
    direct: (categories: Set<string>, design: string) => boolean,
    predicted: (p: NonNullable<OracleWork['prediction']>) => boolean,
  ): boolean {
    if (f.label_source === 'predicted') return w.prediction !== null && predicted(w.prediction);
    if (f.agreement === 'all') return w.direct.length > 0 && w.direct.every((d) => direct(d.categories, d.design));
    return w.direct.some((d) => direct(d.categories, d.design));
  }

  /** The cohort in the given order. */
  ordered(f: CohortFilters, sort: Sort = 'cited'): OracleWork[] {
    return this.orders[sort].filter((w) => this.matches(w, f));
  }

  /** Ids of one offset page. */
  page(f: CohortFilters, sort: Sort, page: number, perPage: number): string[] {
    return this.ordered(f, sort)
      .slice((page - 1) * perPage, page * perPage)
      .map((w) => w.id);
  }

  counts(f: CohortFilters): OracleCounts {
    const cohort = this.works.filter((w) => this.matches(w, f));
    return {
      total: cohort.length,
      direct_labels_cover: cohort.filter((w) => w.direct.length > 0).length,
      predictions_cover: cohort.filter((w) => w.prediction !== null).length,
    };
  }

  /**
   * Works per facet value within the cohort, keyed by String(value) with `null` for works without one. The
   * route facet counts each route's works (overlapping) plus `no_aff` (no Canadian affiliation), zeros included.
   */
  facet(f: CohortFilters, facet: CohortFacet): Map<string, number> {
    // The route facet always lists its five values, zero or not.
    const out = new Map<string, number>(facet === 'route' ? ['aff', 'fund', 'venue', 'about', 'no_aff'].map((r) => [r, 0]) : []);
    const add = (k: string) => out.set(k, (out.get(k) ?? 0) + 1);
    for (const w of this.works) {
      if (!this.matches(w, f)) continue;
      if (facet === 'route') {
        if (w.route_aff) add('aff');
        else add('no_aff');
        if (w.route_fund) add('fund');
        if (w.route_venue) add('venue');
        if (w.route_about) add('about');
      } else if (facet === 'year') add(w.year === null ? 'null' : String(w.year));
      else add(w[facet] === '' ? 'null' : w[facet]);
    }
    return out;
  }
}
