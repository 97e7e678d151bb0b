/**
 * Permalinks: a cohort's canonical filters stored under their hash (DECISIONS.md §4), write-once in the state
 * store, so minting is idempotent and replicas sharing Redis agree. Counts are never stored: they are
 * recomputed on the build being served whenever a permalink is resolved.
 */
import { z } from 'zod';
import { type CohortFilters, filtersToQuery, HASH_PATTERN, parseCohortQuery, queryHash } from '../../../../contracts/frame/cohort-query.ts';
import type { PermalinkView } from '../../../../contracts/frame/responses.ts';
import { cohortCounts } from './cohort/answers.ts';
import type { Build } from '../build-store.ts';
import type { StateStore } from '../state/store.ts';

const NAMESPACE = 'permalinks';

const recordSchema = z.object({
  hash: z.string(),
  filters: z.record(z.string(), z.unknown()),
  /** Canonical query string: parsed again with the one parser when resolved. */
  query: z.string(),
  /** Snapshot id the permalink was minted on (part of the hash). */
  snapshot: z.string(),
  created_at: z.string(),
});
export type PermalinkRecord = z.infer<typeof recordSchema>;

export interface CohortCounts {
  total: number;
  direct_labels_cover: number;
  predictions_cover: number;
}

export class Permalinks {
  constructor(private readonly state: StateStore) {}

  async mint(filters: CohortFilters, snapshotId: string): Promise<{ record: PermalinkRecord; created: boolean }> {
    const hash = queryHash(filters, snapshotId);
    const fresh: PermalinkRecord = { hash, filters: { ...filters }, query: filtersToQuery(filters), snapshot: snapshotId, created_at: new Date().toISOString() };
    const { value, created } = await this.state.putIfAbsent(NAMESPACE, hash, JSON.stringify(fresh));
    return { record: recordSchema.parse(JSON.parse(value)), created };
  }

  async get(hash: string): Promise<PermalinkRecord | null> {
    const value = await this.state.get(NAMESPACE, hash);
    return value === null ? null : recordSchema.parse(JSON.parse(value));
  }

  /**
   * A minted permalink with its counts on `build` (null when the hash is unknown or malformed). The stored
   * query is parsed again by the one parser, so the counts are exactly what /cohort answers for it. Used by
   * GET /permalink/{hash} and the /q/{hash} page.
   */
  async resolve(hash: string, build: Build, url: (path: string) => string): Promise<PermalinkView | null> {
    if (!HASH_PATTERN.test(hash)) return null;
    const record = await this.get(hash);
    if (!record) return null;
    const q = parseCohortQuery(`/?${record.query}`, 'permalink');
    return this.view(record, cohortCounts(build, q.filters), build, url);
  }

  /** The response body: links, the canonical filters, and counts on the build being served. */
  view(record: PermalinkRecord, counts: CohortCounts, build: Build, url: (path: string) => string): PermalinkView {
    return {
      hash: record.hash,
      url: url(`/q/${record.hash}`),
      api: url(`/api/v1/permalink/${record.hash}`),
      cohort: url(`/api/v1/cohort${record.query ? `?${record.query}` : ''}`),
      filters: record.filters as PermalinkView['filters'],
      query: record.query,
      snapshot: record.snapshot,
      created_at: record.created_at,
      counted_on: build.snapshotId,
      total: counts.total,
      direct_labels_cover: counts.direct_labels_cover,
      predictions_cover: counts.predictions_cover,
    };
  }
}
