/**
 * The frame rules in JavaScript, one record at a time: the rules before they moved to DuckDB SQL
 * (contracts/frame/rules-sql.ts), kept as the oracle the differential tests compare the SQL with: the builder's
 * every record's decision and cells (test/pipeline/openalex/rules-sql.test.ts), the recent layer's every item
 * (test/api-dynamic/recent-classify.test.ts). routeWork gives a work's routes with their evidence; readLine
 * turns a line into the CSV cells that pass the snapshot's own cell parsers (contracts/frame/snapshot.ts);
 * classifyRecent into the recent layer's item.
 */
import { ABOUT_CANADA_LEXICON, type AboutCanadaTier } from '../../contracts/frame/about-canada.ts';
import {
  bareDoi,
  bareNumber,
  type CatalogueWork,
  restoreAbstract,
  shortId,
  snapshotWorkSchema,
  type SnapshotWork,
} from '../../contracts/frame/catalogue-work.ts';
import type { RecentWork } from '../../contracts/frame/recent.ts';
import { inHarvestWindow, routeRules, type RouteRules, workTitle, workYear } from '../../contracts/frame/route-rules.ts';
import { textTerms } from '../../contracts/frame/title-terms.ts';
import { ROUTES } from '../../contracts/frame/vocab.ts';
import { csvCell } from '../../pipeline/lib/csv-writer.ts';

// ---- the about-Canada lexicon, matched term by term ----

/** First term → the entries starting with it (as term arrays), longest first, so "london ontario" beats "london". */
const BY_FIRST_TERM = (() => {
  const map = new Map<string, { terms: string[]; entry: string; tier: AboutCanadaTier }[]>();
  for (const { entry, tier } of ABOUT_CANADA_LEXICON) {
    const terms = entry.split(' ');
    const list = map.get(terms[0]!) ?? [];
    list.push({ terms, entry, tier });
    map.set(terms[0]!, list);
  }
  for (const list of map.values()) list.sort((a, b) => b.terms.length - a.terms.length);
  return map;
})();

interface AboutCanadaMatch {
  /** True when a Tier A or Tier B term occurs (Tier C only counts beside Tier A). */
  about: boolean;
  /** Distinct matched entries with their tier, in first-seen order. */
  terms: { term: string; tier: AboutCanadaTier }[];
}

/** Classifies a work by its texts (title, abstract, keywords): each text is matched separately, so a term never spans two texts. */
export function aboutCanada(texts: readonly (string | null | undefined)[]): AboutCanadaMatch {
  const found = new Map<string, AboutCanadaTier>();
  for (const text of texts) {
    if (!text) continue;
    const terms = textTerms(text);
    for (let i = 0; i < terms.length; i++) {
      const candidates = BY_FIRST_TERM.get(terms[i]!);
      if (!candidates) continue;
      const hit = candidates.find((c) => c.terms.every((t, k) => terms[i + k] === t));
      if (!hit) continue;
      if (!found.has(hit.entry)) found.set(hit.entry, hit.tier);
      i += hit.terms.length - 1;
    }
  }
  const tiers = new Set(found.values());
  return {
    about: tiers.has('A') || tiers.has('B'),
    terms: [...found].map(([term, tier]) => ({ term, tier })),
  };
}

// ---- the routes ----

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

/** The recent layer's item without provenance (what the sync stores), or null when no route matches. */
export function classifyRecent(w: CatalogueWork, rules: RouteRules): Omit<RecentWork, 'provenance'> | null {
  const routed = routeWork(w, rules);
  if (routed.routes.length === 0 || NOT_PUBLICATION_TYPES.has(routed.type)) return null;
  const date = w.publication_date;
  return {
    ...routed,
    publication_date: date,
    year: routed.year ?? Number(date.slice(0, 4)),
    pmid: bareNumber(w.ids?.pmid),
    pmcid: bareNumber(w.ids?.pmcid, 'PMC'),
  };
}

// ---- the builder's lines ----

export interface ReadOptions {
  rules: RouteRules;
  /** Leave out works of the expansion corpus (`is_xpac: true`). */
  excludeXpac: boolean;
}

/** Read options from the pinned lists (worker threads rebuild them from the task's plain data). */
export function readOptions(lists: { funders: { id: string }[]; sources: { id: string }[]; route_version: string }, excludeXpac: boolean): ReadOptions {
  return { rules: routeRules(lists), excludeXpac };
}

/** Why a record was not admitted, counted per partition. */
export type SkipReason = 'window' | 'xpac' | 'not-publication' | 'no-route';

export type LineResult =
  | { kind: 'bad'; reason: string }
  /** A valid work outside the frame: its id still counts for deduplication (a newer version may have lost its routes). */
  | { kind: 'out'; id: string; updated: string; why: SkipReason }
  | { kind: 'in'; id: string; updated: string; work: string; authorships: string[]; notes: string[] };

const DOI = /^10\.[0-9]{4,9}\/\S+$/;
const LANG = /^[a-z]{2,3}(-[a-z0-9]{1,8})?$/;
const TYPE = /^[a-z][a-z-]{0,31}$/;
const AUTHOR_ID = /^A[1-9][0-9]{0,14}$/;
const ORCID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

/** Text as the format holds it: one line, no padding, at most `max` characters. */
function clean(value: string | null | undefined, max: number): string {
  if (!value) return '';
  const t = value.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : t.slice(0, max).trimEnd();
}
const joined = (values: string[], max: number) =>
  clean(
    values
      .map((v) => clean(v, max))
      .filter((v) => v !== '')
      .join('; '),
    max,
  );

/** A record's own id as the frame writes it (`W` + digits), or null. */
function workIdOf(raw: Record<string, unknown>): string | null {
  if (typeof raw.id !== 'string' || !/^(https:\/\/openalex\.org\/)?W[1-9]\d{0,14}$/i.test(raw.id.trim())) return null;
  return shortId(raw.id);
}

/** Reads one line. Never throws: anything wrong with the line is a `bad` result with its reason. */
export function readLine(text: string, o: ReadOptions): LineResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { kind: 'bad', reason: `malformed JSON: ${(err as Error).message.slice(0, 120)}` };
  }
  return readRecord(raw, o);
}

export function readRecord(raw: unknown, o: ReadOptions): LineResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'bad', reason: 'not a JSON object' };
  const rec = raw as Record<string, unknown>;
  const id = workIdOf(rec);
  if (id === null)
    return { kind: 'bad', reason: rec.id === undefined || rec.id === null ? 'record without an id' : `not a work id: ${String(rec.id).slice(0, 60)}` };
  const updated = typeof rec.updated_date === 'string' ? rec.updated_date : '';
  if (o.excludeXpac && rec.is_xpac === true) return { kind: 'out', id, updated, why: 'xpac' };
  // Most of the snapshot is outside the window: skip those before the full parse.
  if (!inHarvestWindow(rec)) return { kind: 'out', id, updated, why: 'window' };
  const parsed = snapshotWorkSchema.safeParse(rec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { kind: 'bad', reason: `${id}: ${issue.path.join('.') || 'record'}: ${issue.message}` };
  }
  let routed: RoutedWork;
  try {
    routed = routeWork(parsed.data, o.rules);
  } catch (err) {
    return { kind: 'bad', reason: `${id}: cannot classify: ${(err as Error).message.slice(0, 120)}` };
  }
  if (!frameAdmits(routed)) return { kind: 'out', id, updated, why: NOT_PUBLICATION_TYPES.has(routed.type) ? 'not-publication' : 'no-route' };
  return { kind: 'in', id, updated, ...rowsOf(routed) };
}

/** The works.csv line and the authorship lines (`work_id,author_id,position,is_ca,name,orcid`) of an admitted work. */
export function rowsOf(w: RoutedWork): { work: string; authorships: string[]; notes: string[] } {
  const notes: string[] = [];
  let doi = clean(w.doi, 300);
  if (doi !== '' && !DOI.test(doi)) {
    notes.push('doi-unusable');
    doi = '';
  }
  let lang = (w.lang ?? '').trim().toLowerCase();
  if (lang !== '' && !LANG.test(lang)) {
    notes.push('lang-unusable');
    lang = '';
  }
  let type = (w.type ?? '').trim().toLowerCase();
  if (!TYPE.test(type)) {
    notes.push('type-unusable');
    type = 'other';
  }
  const title = clean(w.title, 2000);
  if (title.length < w.title.replace(/\s+/g, ' ').trim().length) notes.push('title-clipped');
  const f = w.route_flags;
  const cells = [
    w.id,
    doi,
    title,
    w.year === null ? '' : String(w.year),
    lang,
    type,
    clean(w.venue, 300),
    clean(w.topic, 300),
    clean(w.field, 300),
    String(Math.min(10_000_000, Math.max(0, Math.trunc(w.cited_by)))),
    String(w.is_retracted),
    String(w.has_abstract),
    String(f.aff),
    String(f.fund),
    String(f.venue),
    String(f.about),
    joined(w.ca_institutions, 20_000),
    joined(w.funders, 20_000),
    joined(w.keywords, 20_000),
  ];
  const authorships: string[] = [];
  for (const a of w.authors) {
    const name = clean(a.name, 300);
    if (a.id === null || !AUTHOR_ID.test(a.id) || name === '') {
      notes.push('authorship-without-author');
      continue;
    }
    const orcid = a.orcid ? (/(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\/?$/i.exec(a.orcid.trim())?.[1]?.toUpperCase() ?? '') : '';
    authorships.push([w.id, a.id, a.position, a.is_ca, csvCell(name), ORCID.test(orcid) ? orcid : ''].join(','));
  }
  return { work: cells.map(csvCell).join(','), authorships, notes };
}
