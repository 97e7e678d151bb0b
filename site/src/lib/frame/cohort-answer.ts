/**
 * What the cohort builder shows from a `/cohort` answer: its type (from the response schema the API is tested
 * against) and the paging links, which follow the API's rules: offset pages up to result 10,000, then the
 * `meta.next_cursor` the API returned.
 */
import type { z } from 'zod';
import { MAX_OFFSET_RESULTS } from '../../../../contracts/frame/cohort-query.ts';
import type { byFieldResponse, cohortResponse, permalinkChangesResponse, permalinkResponse, snapshotsResponse } from '../../../../contracts/frame/responses.ts';
import { pageLink } from './cohort-form.ts';

export type CohortAnswer = z.infer<typeof cohortResponse>;
export type CohortMeta = CohortAnswer['meta'];
export type CohortWork = CohortAnswer['results'][number];
export type ByField = z.infer<typeof byFieldResponse>;
export type Permalink = z.infer<typeof permalinkResponse>;
export type PermalinkChanges = z.infer<typeof permalinkChangesResponse>;
export type SnapshotList = z.infer<typeof snapshotsResponse>;

export interface Pager {
  /** Links, null when there is no such page. */
  first: string | null;
  prev: string | null;
  next: string | null;
  /** 1-based positions of the rows shown; null when the page was reached with a cursor (no offset). */
  from: number | null;
  to: number | null;
}

export function pager(url: URL, answer: CohortAnswer): Pager {
  const { page, per_page, total, next_cursor } = answer.meta;
  const shown = answer.results.length;
  if (page === null) {
    return {
      first: pageLink(url, { page: null, cursor: null }),
      prev: null,
      next: next_cursor ? pageLink(url, { page: null, cursor: next_cursor }) : null,
      from: null,
      to: null,
    };
  }
  const from = shown === 0 ? 0 : (page - 1) * per_page + 1;
  const more = page * per_page < total;
  let next: string | null = null;
  if (more && (page + 1) * per_page <= MAX_OFFSET_RESULTS) next = pageLink(url, { page: String(page + 1), cursor: null });
  else if (more && next_cursor) next = pageLink(url, { page: null, cursor: next_cursor });
  return {
    first: page > 2 ? pageLink(url, { page: null, cursor: null }) : null,
    prev: page > 1 ? pageLink(url, { page: page === 2 ? null : String(page - 1), cursor: null }) : null,
    next,
    from,
    to: from === 0 ? 0 : from + shown - 1,
  };
}
