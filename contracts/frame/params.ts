/** Query schemas of the frame routes that have no bigger parser of their own (see ./screened.ts). */
import { z } from 'zod';
import { snapshotId, whole } from './cohort-query.ts';

export { noParams } from '../common/query.ts';

export const workQuerySchema = z.object({
  /** `1`: include the abstract, fetched live from the upstream catalogue (or the screening record). */
  abstract: z.literal('1', { error: 'abstract takes only the value 1 (include the abstract)' }).optional(),
  /** Answer from this retained snapshot (as the cohort routes' `snapshot=`). */
  snapshot: snapshotId.optional(),
});

/** `/permalink/{hash}/changes`: how many works of each list to show (the first page, by work id). */
export const changesQuerySchema = z.object({
  per_page: whole(1, 100).optional(),
});

export const WORK_ID = /^W[1-9][0-9]{0,14}$/;

export const networkQuerySchema = z.object({
  /** A researcher's id: answers with their neighbourhood instead of the overview. */
  author_id: z.string().regex(/^A[1-9][0-9]{0,14}$/, 'author_id must be A followed by digits, e.g. A5000000012').optional(),
});

/** Typeahead facets (`/facets/venue|topic|author`): q, at least 2 characters after trimming (DECISIONS.md §4). */
export const facetQuerySchema = z.object({
  q: z
    .string({ error: 'q is required: the text to look up, at least 2 characters' })
    .transform((s) => s.trim())
    .pipe(z.string().min(2, 'q must have at least 2 characters (after trimming)').max(200, 'q must contain at most 200 characters')),
});
