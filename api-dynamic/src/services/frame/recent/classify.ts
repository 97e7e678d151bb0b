/**
 * Classifies a catalogue work into the frame's four routes with the frame's own rules
 * (contracts/frame/route-rules.ts, shared with the snapshot builder). The result is the recent layer's item
 * without provenance (the sync adds it), or null when no route matches.
 */
import type { RecentWork } from '../../../../../contracts/frame/recent.ts';
import { routeWork, type RouteRules } from '../../../../../contracts/frame/route-rules.ts';
import { bareNumber, type CatalogueWork } from './catalogue.ts';

export { routeRules, type RouteRules } from '../../../../../contracts/frame/route-rules.ts';

export type ClassifiedWork = Omit<RecentWork, 'provenance'>;

export function classifyWork(w: CatalogueWork, rules: RouteRules): ClassifiedWork | null {
  const routed = routeWork(w, rules);
  if (routed.routes.length === 0) return null;
  const date = w.publication_date;
  return {
    ...routed,
    publication_date: date,
    year: routed.year ?? Number(date.slice(0, 4)),
    pmid: bareNumber(w.ids?.pmid),
    pmcid: bareNumber(w.ids?.pmcid, 'PMC'),
  };
}
