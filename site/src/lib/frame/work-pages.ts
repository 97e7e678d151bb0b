/**
 * Which work pages are prerendered, and their data, at build time: the most cited works (ties by id), up to
 * SITE_WORK_PAGES of them, with their records read from the build's cohort index through the server's own
 * serializer (the same bytes as GET /works/{id}; the pipeline no longer writes per-work documents by default).
 * Every other work is server-rendered on request from the API (site/src/pages/frame/works/[...id].astro), so a
 * bounded build still has a page for all 4.3M works.
 */
import { join } from 'node:path';
import type { z } from 'zod';
import { CohortIndex } from '../../../../api-dynamic/src/services/frame/cohort/cohort-index.ts';
import type { workResponse } from '../../../../contracts/frame/responses.ts';
import type { ScreenModel } from '../../../../contracts/frame/vocab.ts';
import { workRecordMeta, workRecordText } from '../../../../contracts/frame/work-record.ts';
import { buildOutputDir, currentManifest } from '../build-output.ts';
import type { Verdict } from './screening.ts';

type Record_ = z.infer<typeof workResponse>;
/**
 * The work record. The schema spreads the screen's three models in from a list (Object.fromEntries), so
 * z.infer cannot name them; they are restated here.
 */
export type WorkRecord = Omit<Record_, 'screen'> & {
  screen: (NonNullable<Record_['screen']> & Record<ScreenModel, Verdict>) | null;
};

/**
 * Default number of static work pages. Measured on the 20,000-work sample (2 shared cores): every work
 * prerendered makes `astro build` take 31–68 s instead of 4–7 s and writes 390 MB, for pages the server
 * renders in about 2 ms anyway; so by default only the 1,000 most cited are static (docs/site-cohort.md).
 */
export const DEFAULT_WORK_PAGES = 1_000;

/**
 * The SITE_WORK_PAGES setting, read when the site is built: a whole number ≥ 0 (0: no static work page), or
 * `all`. Anything else stops the build with a message rather than silently building another number.
 */
export function workPageLimit(value = process.env.SITE_WORK_PAGES): number {
  if (value === undefined || value.trim() === '') return DEFAULT_WORK_PAGES;
  if (value.trim() === 'all') return Number.POSITIVE_INFINITY;
  if (!/^\d+$/.test(value.trim())) throw new Error(`SITE_WORK_PAGES must be a whole number or "all", not "${value}"`);
  return Number(value.trim());
}

let index: CohortIndex | null | undefined;
/** The current build's cohort index, loaded once per site build (null without a build). */
function cohort(): CohortIndex | null {
  if (index === undefined) {
    const dir = join(buildOutputDir(), 'current');
    index = CohortIndex.exists(dir) ? CohortIndex.load(dir) : null;
  }
  return index;
}

const byNumber = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Ids of the works to prerender: the first of the cohort index's cited order (cited desc, ties by id). */
export function staticWorkIds(limit = workPageLimit()): string[] {
  const ix = cohort();
  if (!ix || limit === 0) return [];
  const rows = ix.orders.cited.subarray(0, Math.min(limit, ix.rows));
  return Array.from(rows, (r) => `W${ix.col.id[r]}`).sort(byNumber);
}

/** Which authors of a prerendered work the collaboration network has (CohortIndex.inNetwork). */
export function networkAuthors(work: WorkRecord): ReadonlySet<string> {
  const ix = cohort();
  return new Set(ix ? work.authors.map((a) => a.id).filter((id) => ix.inNetwork(id)) : []);
}

/** The work record of a prerendered page (the bytes GET /works/{id} answers). */
export function workDocument(id: string): WorkRecord {
  const ix = cohort();
  const manifest = currentManifest();
  const row = ix ? ix.rowOfWork(id) : -1;
  if (!ix || !manifest || row < 0) throw new Error(`no work ${id} in this build`);
  const { manifest_sha256: _, ...snapshot } = manifest.snapshot;
  return JSON.parse(workRecordText(JSON.stringify(workRecordMeta(snapshot)), ix.record(row))) as WorkRecord;
}
