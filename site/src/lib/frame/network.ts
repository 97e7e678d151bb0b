/**
 * The collaboration network page (`/frame/network`) over `GET /frame/api/v1/network`: the answer's types, the
 * page's links and the author search. The page's query string is the API's (`author_id`, checked by the
 * API's parser); the search box adds `_author`, a parameter every API ignores (it starts with `_`), which the
 * page alone reads to list researchers from `/facets/author` for readers without JavaScript.
 */
import type { z } from 'zod';
import type { networkResponse } from '../../../../contracts/frame/responses.ts';
import { FRAME_API, withQuery } from '../paths.ts';
import type { NetworkEdge } from './network-layout.ts';

export const NETWORK_PAGE = '/frame/network';
export const NETWORK_API = `${FRAME_API}/network`;
export const AUTHOR_FACET_API = `${FRAME_API}/facets/author`;
/** The search box's field: ignored by the API (leading `_`), read by the page. */
export const SEARCH_PARAM = '_author';

export type NetworkAnswer = z.infer<typeof networkResponse>;

/**
 * The construction rules every answer states (`meta`). The response schema leaves `meta` open beyond the
 * snapshot; these are the fields docs/api-frame.md documents for GET /network.
 */
export interface NetworkRules {
  nodes: string;
  edges: string;
  weight: string;
  overview: string;
  ego: string;
  author_layer_release: string;
  density_guard: { max_ca_authors: number; works_excluded: number; works_included: number; rule: string };
  ca_authors: number;
  ca_edges: number;
  available: boolean;
}
export const rulesOf = (answer: NetworkAnswer): NetworkRules => answer.meta as unknown as NetworkRules;

/** An author typeahead result (`/facets/author`). */
export interface AuthorHit {
  id: string;
  name: string;
  ca_works: number;
}

/** The page of a researcher's neighbourhood. */
export const neighbourhoodHref = (authorId: string): string => withQuery(NETWORK_PAGE, { author_id: authorId });

/** The API call of the page: its own query string, as it came. */
export const networkApiPath = (search: string): string => `${NETWORK_API}${search}`;

/** The API path a reader can open to see the same data (without the page's own `_` parameters). */
export function networkJsonHref(authorId: string | undefined): string {
  return withQuery(NETWORK_API, { author_id: authorId });
}

/** The ties of the neighbourhood's researcher (the spokes), in the API's order: strongest first. */
export function spokesOf(edges: readonly NetworkEdge[], center: string): { other: string; edge: NetworkEdge }[] {
  return edges.filter((e) => e.a === center || e.b === center).map((edge) => ({ other: edge.a === center ? edge.b : edge.a, edge }));
}

/**
 * The author search's error in the page's words: the page sends the name typed in its field (`_author`) to
 * `/facets/author` as `q`, so the API's message names `q`, a parameter the reader never saw. The field's own
 * name replaces it (the status and code stay the API's).
 */
export function authorSearchError<B extends { message: string; details?: { parameter?: string; message: string }[] }>(body: B): B {
  const words = (s: string) => s.replace(/"q"/g, '"name"').replace(/(^|: )q /g, '$1the name ');
  return {
    ...body,
    message: words(body.message),
    ...(body.details ? { details: body.details.map((d) => ({ ...d, parameter: d.parameter === 'q' ? 'name' : d.parameter, message: words(d.message) })) } : {}),
  };
}
