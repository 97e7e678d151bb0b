/**
 * The frame's admission rules (research/metacan.md §5): the recent layer's sync (api-dynamic) classifies newly
 * published works with them; the snapshot builder runs the same rules as DuckDB SQL (pipeline/openalex/rules-sql.ts),
 * held to these record by record by test/pipeline/openalex/rules-sql.test.ts.
 *   - aff: an authorship institution with country code CA, or an authorship whose countries include CA
 *     (the second catches unresolved raw affiliations);
 *   - fund: a funder id (funders[].id, awards[].funder_id, or the older grants[].funder) in the pinned list of
 *     Canadian funders;
 *   - venue: the primary source id (primary_location.source, or the older host_venue) in the pinned list of
 *     Canadian sources;
 *   - about: the tiered about-Canada lexicon over the title, the restored abstract and the keywords.
 * The frozen frame adds the harvest filter: publication year 2000–2025 and a title (frameAdmits).
 */
import { ABOUT_CANADA_VERSION, aboutCanada } from './about-canada.ts';
import { bareDoi, restoreAbstract, shortId, type SnapshotWork } from './catalogue-work.ts';
import { ROUTES } from './vocab.ts';

/** Bumped whenever a rule of this module changes (with the lexicon's and the lists' versions it names a classification). */
export const ROUTE_RULES_VERSION = 'routes-1';

/** The harvest window of the frozen frame (publication years, inclusive). */
export const FRAME_YEARS = { from: 2000, to: 2025 } as const;

export interface RouteRules {
  funderIds: ReadonlySet<string>;
  sourceIds: ReadonlySet<string>;
  /** Stamped on every stored work: which lists and which lexicon classified it. */
  routeVersion: string;
}

/** Route rules from the build's pinned lists (their own version) and the lexicon version. */
export function routeRules(lists: { funders: { id: string }[]; sources: { id: string }[]; route_version: string }): RouteRules {
  return {
    funderIds: new Set(lists.funders.map((f) => f.id)),
    sourceIds: new Set(lists.sources.map((s) => s.id)),
    routeVersion: `lists-${lists.route_version}+${ABOUT_CANADA_VERSION}`,
  };
}

const isCa = (code: string | null | undefined) => (code ?? '').toUpperCase() === 'CA';

function distinct(values: (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const v of values) if (v && v.trim() !== '') out.add(v.trim());
  return [...out];
}

/** A work as the rules see it: its routes with their evidence and the frame's fields, whatever its date. */
export interface RoutedWork {
  id: string;
  doi: string | null;
  title: string;
  year: number | null;
  lang: string | null;
  type: string;
  venue: string | null;
  venue_id: string | null;
  topic: string | null;
  field: string | null;
  cited_by: number;
  is_retracted: boolean;
  has_abstract: boolean;
  routes: (typeof ROUTES)[number][];
  route_flags: { aff: boolean; fund: boolean; venue: boolean; about: boolean; invisible_to_affiliation: boolean };
  route_evidence: { ca_institutions: string[]; ca_funder_ids: string[]; about_terms: { term: string; tier: 'A' | 'B' | 'C' }[] };
  ca_institutions: string[];
  funders: string[];
  keywords: string[];
  authors: {
    id: string | null;
    name: string;
    orcid: string | null;
    position: number;
    is_ca: boolean;
    institutions: { id: string | null; name: string; ror: string | null; country_code: string | null }[];
  }[];
}

/** The title the rules read: `title`, else `display_name`, trimmed ('' when neither). */
export function workTitle(w: { title?: unknown; display_name?: unknown }): string {
  const t = typeof w.title === 'string' ? w.title : typeof w.display_name === 'string' ? w.display_name : '';
  return t.trim();
}

/** The publication year the rules read: `publication_year`, else the year of `publication_date`. */
export function workYear(w: { publication_year?: unknown; publication_date?: unknown }): number | null {
  if (typeof w.publication_year === 'number' && Number.isInteger(w.publication_year)) return w.publication_year;
  if (typeof w.publication_date === 'string' && /^\d{4}/.test(w.publication_date)) return Number(w.publication_date.slice(0, 4));
  return null;
}

/** The harvest window alone (year and title), for readers that skip most records before parsing them fully. */
export function inHarvestWindow(w: { title?: unknown; display_name?: unknown; publication_year?: unknown; publication_date?: unknown }): boolean {
  const year = workYear(w);
  return year !== null && year >= FRAME_YEARS.from && year <= FRAME_YEARS.to && workTitle(w) !== '';
}

/** The work's routes and fields under the rules; `routes` is empty when no route admits it. */
export function routeWork(w: SnapshotWork, rules: RouteRules): RoutedWork {
  const abstract = restoreAbstract(w.abstract_inverted_index);
  const title = workTitle(w);
  const keywords = distinct((w.keywords ?? []).map((k) => k.display_name));

  const authors = (w.authorships ?? []).map((a, i) => {
    const institutions = (a.institutions ?? []).map((inst) => ({
      id: shortId(inst.id),
      name: inst.display_name ?? '',
      ror: inst.ror ?? null,
      country_code: inst.country_code ? inst.country_code.toUpperCase() : null,
    }));
    const is_ca = institutions.some((inst) => isCa(inst.country_code)) || (a.countries ?? []).some(isCa);
    return { id: shortId(a.author?.id), name: a.author?.display_name ?? '', orcid: a.author?.orcid ?? null, position: i + 1, is_ca, institutions };
  });
  const caInstitutions = distinct(authors.flatMap((a) => a.institutions.filter((i) => isCa(i.country_code)).map((i) => i.name)));
  const aff = authors.some((a) => a.is_ca);

  const funderIds = distinct([
    ...(w.funders ?? []).map((f) => shortId(f.id)),
    ...(w.awards ?? []).map((a) => shortId(a.funder_id)),
    ...(w.grants ?? []).map((g) => shortId(g.funder)),
  ]);
  const caFunderIds = funderIds.filter((id) => rules.funderIds.has(id));
  const funderNames = distinct([
    ...(w.funders ?? []).map((f) => f.display_name),
    ...(w.awards ?? []).map((a) => a.funder_display_name),
    ...(w.grants ?? []).map((g) => g.funder_display_name),
  ]);

  // Schema drift: records before the 2023 rewrite name their venue in host_venue.
  const source = w.primary_location?.source ?? (w.host_venue?.id ? w.host_venue : null);
  const venueId = shortId(source?.id);
  const venue = venueId !== null && rules.sourceIds.has(venueId);

  const about = aboutCanada([title, abstract, ...keywords]);
  const flags = { aff, fund: caFunderIds.length > 0, venue, about: about.about };
  return {
    id: shortId(w.id)!,
    doi: bareDoi(w.doi),
    title,
    year: workYear(w),
    lang: w.language ? w.language.toLowerCase() : null,
    type: w.type ?? 'other',
    venue: source?.display_name ?? null,
    venue_id: venueId,
    topic: w.primary_topic?.display_name ?? null,
    field: w.primary_topic?.field?.display_name ?? null,
    cited_by: w.cited_by_count ?? 0,
    is_retracted: w.is_retracted ?? false,
    has_abstract: abstract !== null,
    routes: ROUTES.filter((r) => flags[r]),
    route_flags: { ...flags, invisible_to_affiliation: !aff },
    route_evidence: { ca_institutions: caInstitutions, ca_funder_ids: caFunderIds, about_terms: about.terms },
    ca_institutions: caInstitutions,
    funders: funderNames,
    keywords,
    authors,
  };
}

/**
 * Record types that are not publications: the 2023 snapshot carried funded-project records as works of type
 * `grant` (the 2026 schema moved them to the awards entity). They never enter the frame (docs/decisions.md).
 */
export const NOT_PUBLICATION_TYPES: ReadonlySet<string> = new Set(['grant']);

/** The frozen frame's harvest filter: a publication with a title, a publication year 2000–2025 and at least one route. */
export function frameAdmits(w: Pick<RoutedWork, 'title' | 'year' | 'routes' | 'type'>): boolean {
  return inHarvestWindow({ title: w.title, publication_year: w.year }) && !NOT_PUBLICATION_TYPES.has(w.type) && w.routes.length > 0;
}
