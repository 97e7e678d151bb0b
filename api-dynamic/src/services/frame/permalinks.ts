/**
 * Permalinks: a cohort's canonical filters stored under their hash (DECISIONS.md §4), write-once in the state
 * store, so minting is idempotent and replicas sharing Redis agree. A permalink also keeps the numbers it was
 * minted with (total and both covers, on the snapshot it was minted on): those are the numbers a paper cites.
 * When resolved, the counts are computed again on the build being served and, while it is retained, on the
 * snapshot it was minted on, and set beside the cited ones.
 */
import { z } from 'zod';
import { type CohortFilters, filtersToQuery, HASH_PATTERN, parseCohortQuery, queryHash } from '../../../../contracts/frame/cohort-query.ts';
import type { PermalinkView } from '../../../../contracts/frame/responses.ts';
import { cohortCounts } from './cohort/answers.ts';
import type { Build } from '../build-store.ts';
import type { StateStore } from '../state/store.ts';

const NAMESPACE = 'permalinks';

const countsSchema = z.object({
  total: z.number().int().min(0),
  direct_labels_cover: z.number().int().min(0),
  predictions_cover: z.number().int().min(0),
});
export type CohortCounts = z.infer<typeof countsSchema>;

const recordSchema = z.object({
  hash: z.string(),
  filters: z.record(z.string(), z.unknown()),
  /** Canonical query string: parsed again with the one parser when resolved. */
  query: z.string(),
  /** Snapshot id the permalink was minted on (part of the hash). */
  snapshot: z.string(),
  created_at: z.string(),
  /** The counts on `snapshot` at minting. Absent in permalinks minted before they were kept. */
  cited: countsSchema.optional(),
});
export type PermalinkRecord = z.infer<typeof recordSchema>;

/** Access to the builds a permalink may be counted on (the frame's Snapshots service). */
export interface RetainedAccess {
  /** Whether `id` is a retained (not the served) snapshot here. */
  isRetained(id: string): boolean;
  /** Runs fn on the retained build of `id`. */
  useRetained<T>(id: string, fn: (build: Build) => T | Promise<T>): Promise<T>;
}

const fmt = (n: number) => n.toLocaleString('en');

const sameCounts = (a: CohortCounts, b: CohortCounts) =>
  a.total === b.total && a.direct_labels_cover === b.direct_labels_cover && a.predictions_cover === b.predictions_cover;

export class Permalinks {
  constructor(private readonly state: StateStore) {}

  /** Mints the permalink of `filters` on `build`, recording the cohort's counts there (idempotent: the first record stays). */
  async mint(filters: CohortFilters, build: Build): Promise<{ record: PermalinkRecord; created: boolean }> {
    const hash = queryHash(filters, build.snapshotId);
    const fresh: PermalinkRecord = {
      hash,
      filters: { ...filters },
      query: filtersToQuery(filters),
      snapshot: build.snapshotId,
      created_at: new Date().toISOString(),
      cited: cohortCounts(build, filters),
    };
    const { value, created } = await this.state.putIfAbsent(NAMESPACE, hash, JSON.stringify(fresh));
    return { record: recordSchema.parse(JSON.parse(value)), created };
  }

  async get(hash: string): Promise<PermalinkRecord | null> {
    if (!HASH_PATTERN.test(hash)) return null;
    const value = await this.state.get(NAMESPACE, hash);
    return value === null ? null : recordSchema.parse(JSON.parse(value));
  }

  /** The record's filters, parsed again by the one parser (so counts are exactly what /cohort answers). */
  filtersOf(record: PermalinkRecord): CohortFilters {
    return parseCohortQuery(`/?${record.query}`, 'permalink').filters;
  }

  /**
   * A minted permalink with its counts on `build` (the served one) and on the snapshot it was minted on while
   * that is retained; null when the hash is unknown or malformed. Used by GET /permalink/{hash} and /q/{hash}.
   */
  async resolve(hash: string, build: Build, retained: RetainedAccess, url: (path: string) => string): Promise<PermalinkView | null> {
    const record = await this.get(hash);
    if (!record) return null;
    const filters = this.filtersOf(record);
    const minted = record.snapshot === build.snapshotId ? 'served' : retained.isRetained(record.snapshot) ? 'retained' : 'gone';
    const onMinted = minted === 'retained' ? await retained.useRetained(record.snapshot, (b) => cohortCounts(b, filters)) : null;
    return this.view(record, cohortCounts(build, filters), build, url, minted, onMinted);
  }

  /** The response body: links, the canonical filters, the counts now, the cited numbers, and how they compare. */
  view(
    record: PermalinkRecord,
    counts: CohortCounts,
    build: Build,
    url: (path: string) => string,
    minted: 'served' | 'retained' | 'gone' = 'served',
    onMinted: CohortCounts | null = null,
  ): PermalinkView {
    const served = build.snapshotId;
    const cited = record.cited;
    const A = record.snapshot;
    const onMintedNow = minted === 'served' ? counts : onMinted;
    const withSnapshot = `snapshot=${encodeURIComponent(A)}${record.query ? `&${record.query}` : ''}`;
    return {
      hash: record.hash,
      url: url(`/q/${record.hash}`),
      api: url(`/api/v1/permalink/${record.hash}`),
      cohort: url(`/api/v1/cohort${record.query ? `?${record.query}` : ''}`),
      filters: record.filters as PermalinkView['filters'],
      query: record.query,
      snapshot: A,
      created_at: record.created_at,
      counted_on: served,
      total: counts.total,
      direct_labels_cover: counts.direct_labels_cover,
      predictions_cover: counts.predictions_cover,
      cited: cited
        ? { snapshot: A, recorded: true, ...cited }
        : { snapshot: A, recorded: false, total: null, direct_labels_cover: null, predictions_cover: null },
      comparison: compare(cited, counts, A, served, minted),
      minted_snapshot: {
        id: A,
        status: minted,
        message:
          minted === 'served'
            ? `Snapshot ${A}, on which this permalink was minted, is the one being served.`
            : minted === 'retained'
              ? `Snapshot ${A}, on which this permalink was minted, is retained by this service: the cohort can still be answered on it with snapshot=${A}.`
              : `Snapshot ${A}, on which this permalink was minted, is no longer kept by this service; the cited numbers are what it gave.`,
        cohort: minted === 'gone' ? null : url(`/api/v1/cohort${minted === 'served' ? (record.query ? `?${record.query}` : '') : `?${withSnapshot}`}`),
        changes: minted === 'retained' ? url(`/api/v1/permalink/${record.hash}/changes`) : null,
        total: onMintedNow?.total ?? null,
        direct_labels_cover: onMintedNow?.direct_labels_cover ?? null,
        predictions_cover: onMintedNow?.predictions_cover ?? null,
      },
    };
  }
}

/** Whether the counts now are the cited ones, in words that say why not. */
function compare(
  cited: CohortCounts | undefined,
  now: CohortCounts,
  minted: string,
  served: string,
  status: 'served' | 'retained' | 'gone',
): PermalinkView['comparison'] {
  if (!cited)
    return {
      status: 'not_recorded',
      message: `The numbers at minting were not recorded (this permalink was minted before permalinks kept them). The counts shown are those of snapshot ${served}${
        minted === served ? ', on which it was minted' : `; it was minted on snapshot ${minted}`
      }.`,
    };
  if (sameCounts(cited, now))
    return {
      status: 'same',
      message:
        minted === served
          ? `The counts are the cited numbers: snapshot ${served}, on which the permalink was minted, is being served.`
          : `The counts on snapshot ${served}, being served now, equal the cited numbers from snapshot ${minted}.`,
    };
  const what = (['total', 'direct_labels_cover', 'predictions_cover'] as const)
    .filter((k) => cited[k] !== now[k])
    .map((k) => `${k} ${fmt(cited[k])} → ${fmt(now[k])}`)
    .join(', ');
  return {
    status: 'differs',
    message:
      minted === served
        ? `The counts differ from the cited numbers (${what}) on the same snapshot ${served}.`
        : `The counts differ from the cited numbers (${what}) because a different snapshot is served: the permalink was minted on ${minted}, the counts shown are on ${served}. ${
            status === 'retained'
              ? `Snapshot ${minted} is retained: ask for snapshot=${minted} to reproduce the cited numbers, and see what changed.`
              : `Snapshot ${minted} is no longer kept by this service.`
          }`,
  };
}
