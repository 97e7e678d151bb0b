/**
 * What the cohort builder shows from a `/cohort` answer: its type (from the response schema the API is tested
 * against). Its paging links are the site's one pager (lib/pagination.ts).
 */
import type { z } from 'zod';
import type { byFieldResponse, cohortResponse, permalinkChangesResponse, permalinkResponse, snapshotsResponse } from '../../../../contracts/frame/responses.ts';

export type CohortAnswer = z.infer<typeof cohortResponse>;
export type CohortMeta = CohortAnswer['meta'];
export type ByField = z.infer<typeof byFieldResponse>;
export type Permalink = z.infer<typeof permalinkResponse>;
export type PermalinkChanges = z.infer<typeof permalinkChangesResponse>;
export type SnapshotList = z.infer<typeof snapshotsResponse>;
