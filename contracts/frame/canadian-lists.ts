/**
 * `frame/canadian-lists.json` in a build: the pinned lists behind routes CA-FUND and CA-VENUE
 * (research/metacan.md §5), copied by the pipeline from the snapshot's canadian_funders.csv and
 * canadian_sources.csv. Whatever classifies works after the frame was built (the recent layer's sync) reads
 * them from here, so it applies the frame's own rules, and stamps its results with `route_version`.
 *
 * Both lists are sorted by id (code-unit order, as DuckDB's `ORDER BY id`), each id once. `route_version` is
 * the first 12 hex digits of the SHA-256 of `stableStringify({ funders, sources })`: it changes exactly
 * when an entry of either list does.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { stableStringify } from '../common/stable-json.ts';
import { idPattern, type IdLetter } from './snapshot-cells.ts';

/** Path of the file below the build directory. */
export const CANADIAN_LISTS_FILE = 'frame/canadian-lists.json';

const entrySchema = (letter: IdLetter, what: string) =>
  z
    .object({
      id: z.string().regex(idPattern(letter), `a ${what} id: ${letter} followed by digits`),
      name: z.string().min(1),
    })
    .strict();

export const canadianFunderSchema = entrySchema('F', 'funder');
export const canadianSourceSchema = entrySchema('S', 'source');
export type CanadianListEntry = z.infer<typeof canadianFunderSchema>;

/** Code-unit order of ids (the order of both lists). */
export const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The route version of two lists: the first 12 hex of sha256 over their stable JSON (lists as given). */
export function canadianRouteVersion(lists: { funders: readonly CanadianListEntry[]; sources: readonly CanadianListEntry[] }): string {
  const text = stableStringify({ funders: lists.funders, sources: lists.sources });
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

const sortedUnique = (list: readonly { id: string }[]): boolean => list.every((e, k) => k === 0 || byId(list[k - 1]!, e) < 0);

export const canadianListsSchema = z
  .object({
    route_version: z.string().regex(/^[0-9a-f]{12}$/, '12 lower-case hex digits'),
    funders: z.array(canadianFunderSchema),
    sources: z.array(canadianSourceSchema),
  })
  .strict()
  .superRefine((doc, ctx) => {
    for (const key of ['funders', 'sources'] as const)
      if (!sortedUnique(doc[key])) ctx.addIssue({ code: 'custom', path: [key], message: 'must be sorted by id, each id once' });
    const expected = canadianRouteVersion(doc);
    if (doc.route_version !== expected)
      ctx.addIssue({
        code: 'custom',
        path: ['route_version'],
        message: `must be ${expected}, the version of the two lists`,
      });
  });
export type CanadianLists = z.infer<typeof canadianListsSchema>;

/** The document for two lists in any order: sorted by id and stamped with its route version. */
export function canadianListsDocument(funders: readonly CanadianListEntry[], sources: readonly CanadianListEntry[]): CanadianLists {
  const lists = {
    funders: funders.map(({ id, name }) => ({ id, name })).sort(byId),
    sources: sources.map(({ id, name }) => ({ id, name })).sort(byId),
  };
  return canadianListsSchema.parse({ route_version: canadianRouteVersion(lists), ...lists });
}
