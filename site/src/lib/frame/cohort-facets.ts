/**
 * The cohort builder's facet sidebar: for each facet of `/cohort/facets` (type, language, field, year, route,
 * topic, venue), the values of the current cohort with their counts, each a link to the builder with that
 * filter added (or, when it is the filter already set, a link that removes it). Links are built from the API's
 * canonical query (`meta.query`), so a facet link never contradicts a synonym in the page's own address.
 */
import type { z } from 'zod';
import { type CohortFacet, DEFAULT_PER_PAGE } from '../../../../contracts/frame/cohort-query.ts';
import type { cohortFacetsResponse } from '../../../../contracts/frame/responses.ts';
import { ROUTE_LABEL, ROUTES } from '../../../../contracts/frame/vocab.ts';
import type { CohortMeta } from './cohort-answer.ts';
import { languageName } from './cohort-words.ts';

export type FacetAnswer = z.infer<typeof cohortFacetsResponse>;

/** The facets in the order the sidebar shows them, with their headings. */
export const SIDEBAR_FACETS: readonly { facet: CohortFacet; title: string }[] = [
  { facet: 'type', title: 'Type' },
  { facet: 'lang', title: 'Language' },
  { facet: 'field', title: 'Field' },
  { facet: 'year', title: 'Year' },
  { facet: 'route', title: 'Route' },
  { facet: 'topic', title: 'Topic' },
  { facet: 'venue', title: 'Venue' },
];

/** Values shown before the rest fold into a disclosure. */
export const FACET_VALUES_SHOWN = 8;

export interface FacetValue {
  label: string;
  works: number;
  /** The builder with this value's filter added (or removed when `selected`); null for "no value". */
  href: string | null;
  selected: boolean;
}

type Filters = Record<string, unknown>;

/** The filter parameters a facet value sets (null: the value cannot be a filter, e.g. works without a year). */
function filterOf(facet: CohortFacet, value: string | number | null): Record<string, string> | null {
  if (value === null) return null;
  if (facet === 'year') return { year_from: String(value), year_to: String(value) };
  // Route values are the four routes and no_aff; as the canonical boolean filters they never contradict.
  if (facet === 'route') return value === 'no_aff' ? { route_aff: '0' } : { [`route_${value}`]: '1' };
  return { [facet]: String(value) };
}

function isSelected(facet: CohortFacet, value: string | number | null, f: Filters): boolean {
  if (value === null) return false;
  if (facet === 'year') return f.year_from === value && f.year_to === value;
  if (facet === 'route') return value === 'no_aff' ? f.route_aff === false : f[`route_${value}`] === true;
  if (facet === 'lang') return typeof f.lang === 'string' && f.lang.toLowerCase() === String(value).toLowerCase();
  return f[facet] === value;
}

function labelOf(facet: CohortFacet, value: string | number | null): string {
  if (value === null) return facet === 'year' ? 'no year' : 'none';
  if (facet === 'lang') return `${languageName(String(value))} (${value})`;
  if (facet === 'route') return value === 'no_aff' ? 'No Canadian affiliation' : (ROUTE_LABEL[value as (typeof ROUTES)[number]] ?? String(value));
  return String(value);
}

/** The builder's address for the cohort's canonical query with some parameters changed (null removes one). */
export function cohortLink(meta: Pick<CohortMeta, 'query' | 'sort' | 'per_page'>, changes: Record<string, string | null>): string {
  const q = new URLSearchParams(meta.query);
  if (meta.sort !== 'cited') q.set('sort', meta.sort);
  if (meta.per_page !== DEFAULT_PER_PAGE) q.set('per_page', String(meta.per_page));
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) q.delete(k);
    else q.set(k, v);
  }
  const s = q.toString();
  return `/frame/cohort${s ? `?${s}` : ''}`;
}

/** The values of one facet answer as the sidebar lists them (years newest first). */
export function facetValues(facet: CohortFacet, answer: FacetAnswer, meta: Pick<CohortMeta, 'query' | 'sort' | 'per_page' | 'filters'>): FacetValue[] {
  const filters = meta.filters as Filters;
  const rows = facet === 'year' ? [...answer.results].reverse() : answer.results;
  return rows
    .filter((r) => r.works > 0)
    .map((r) => {
      const set = filterOf(facet, r.value);
      const selected = isSelected(facet, r.value, filters);
      let href: string | null = null;
      if (set) href = cohortLink(meta, selected ? Object.fromEntries(Object.keys(set).map((k) => [k, null])) : set);
      return { label: labelOf(facet, r.value), works: r.works, href, selected };
    });
}
