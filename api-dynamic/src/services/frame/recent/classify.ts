/**
 * Classifies a catalogue work into the frame's four routes with the frame's rules (research/metacan.md §5):
 *   - aff: an authorship institution with country code CA, or an authorship whose countries include CA
 *     (the second catches unresolved raw affiliations);
 *   - fund: a funder id (funders[].id, awards[].funder_id, or the older grants[].funder) in the build's pinned
 *     list of Canadian funders;
 *   - venue: the primary source id in the build's pinned list of Canadian sources;
 *   - about: the tiered about-Canada lexicon over the title, the restored abstract and the keywords.
 * The result is the recent layer's item without provenance (the sync adds it), or null when no route matches.
 */
import { ABOUT_CANADA_VERSION, aboutCanada } from '../../../../../contracts/frame/about-canada.ts';
import type { RecentWork } from '../../../../../contracts/frame/recent.ts';
import { ROUTES } from '../../../../../contracts/frame/vocab.ts';
import { bareDoi, bareNumber, type CatalogueWork, restoreAbstract, shortId } from './catalogue.ts';

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

export type ClassifiedWork = Omit<RecentWork, 'provenance'>;

const isCa = (code: string | null | undefined) => (code ?? '').toUpperCase() === 'CA';

function distinct(values: (string | null | undefined)[]): string[] {
  const out = new Set<string>();
  for (const v of values) if (v && v.trim() !== '') out.add(v.trim());
  return [...out];
}

export function classifyWork(w: CatalogueWork, rules: RouteRules): ClassifiedWork | null {
  const abstract = restoreAbstract(w.abstract_inverted_index);
  const title = (w.title ?? w.display_name ?? '').trim();
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

  const source = w.primary_location?.source ?? null;
  const venueId = shortId(source?.id);
  const venue = venueId !== null && rules.sourceIds.has(venueId);

  const about = aboutCanada([title, abstract, ...keywords]);
  const flags = { aff, fund: caFunderIds.length > 0, venue, about: about.about };
  const routes = ROUTES.filter((r) => flags[r]);
  if (routes.length === 0) return null;

  const date = w.publication_date;
  return {
    id: shortId(w.id)!,
    doi: bareDoi(w.doi),
    title,
    publication_date: date,
    year: w.publication_year ?? Number(date.slice(0, 4)),
    lang: w.language ? w.language.toLowerCase() : null,
    type: w.type ?? 'other',
    venue: source?.display_name ?? null,
    venue_id: venueId,
    topic: w.primary_topic?.display_name ?? null,
    field: w.primary_topic?.field?.display_name ?? null,
    cited_by: w.cited_by_count ?? 0,
    is_retracted: w.is_retracted ?? false,
    has_abstract: abstract !== null,
    pmid: bareNumber(w.ids?.pmid),
    pmcid: bareNumber(w.ids?.pmcid, 'PMC'),
    routes: [...routes],
    route_flags: { ...flags, invisible_to_affiliation: !aff },
    route_evidence: { ca_institutions: caInstitutions, ca_funder_ids: caFunderIds, about_terms: about.terms },
    ca_institutions: caInstitutions,
    funders: funderNames,
    keywords,
    authors,
  };
}
