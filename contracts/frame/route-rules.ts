/**
 * The frame's admission rules (research/metacan.md §5), run as DuckDB SQL (contracts/frame/rules-sql.ts) by the
 * snapshot builder and by the recent layer's sync; the JavaScript oracle the SQL is held to is
 * test/helpers/frame-rules-js.ts. This module keeps their versions, the window and the lists:
 *   - aff: an authorship institution with country code CA, or an authorship whose countries include CA
 *     (the second catches unresolved raw affiliations);
 *   - fund: a funder id (funders[].id, awards[].funder_id, or the older grants[].funder) in the pinned list of
 *     Canadian funders;
 *   - venue: the primary source id (primary_location.source, or the older host_venue) in the pinned list of
 *     Canadian sources;
 *   - about: the tiered about-Canada lexicon over the title, the restored abstract and the keywords.
 * The frozen frame adds the harvest filter: publication year 2000–2025 and a title, and leaves out records that
 * are not publications (type `grant`).
 */
import { ABOUT_CANADA_VERSION } from './about-canada.ts';

/** Bumped whenever a rule changes (contracts/frame/rules-sql.ts; with the lexicon's and the lists' versions it names a classification). */
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
