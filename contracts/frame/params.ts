/** Query schemas of the frame routes that have no bigger parser of their own (see ./screened.ts). */
import { z } from 'zod';
import { queryOnlyTrue } from '../common/query.ts';
import { snapshotId, whole } from './cohort-query.ts';

export { noParams } from '../common/query.ts';

export const workQuerySchema = z.object({
  abstract: queryOnlyTrue('abstract takes only the value 1 (include the abstract)')
    .optional()
    .meta({ description: 'Include the abstract, fetched live from the upstream catalogue (or taken from the screening record).', examples: [true] }),
  snapshot: snapshotId
    .optional()
    .meta({ description: "Answer from this retained snapshot (as the cohort routes' snapshot=).", examples: ['sample-0123456789ab'] }),
});

/** `/permalink/{hash}/changes`: how many works of each list to show (the first page, by work id). */
export const changesQuerySchema = z.object({
  per_page: whole(1, 100)
    .optional()
    .meta({ description: 'Works shown in each list (entered, left), the first by work id.', default: 25, examples: [10] }),
});

export const WORK_ID = /^W[1-9][0-9]{0,14}$/;

export const networkQuerySchema = z.object({
  author_id: z
    .string()
    .regex(/^A[1-9][0-9]{0,14}$/, 'author_id must be A followed by digits, e.g. A5000000012')
    .optional()
    .meta({ description: "A researcher's id: answers with their neighbourhood instead of the overview.", examples: ['A5000000012'] }),
});

/** Typeahead facets (`/facets/venue|topic|author`): q, at least 2 characters after trimming (DECISIONS.md §4). */
export const facetQuerySchema = z.object({
  q: z
    .string({ error: 'q is required: the text to look up, at least 2 characters' })
    .transform((s) => s.trim())
    .pipe(z.string().min(2, 'q must have at least 2 characters (after trimming)').max(200, 'q must contain at most 200 characters'))
    .meta({ description: 'The text to look up: at least 2 characters after trimming, at most 200. Up to 12 suggestions.', examples: ['jo'] }),
});
