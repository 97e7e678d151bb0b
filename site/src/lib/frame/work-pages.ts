/**
 * Which work pages are prerendered, and their data, at build time. The pipeline may write one JSON document
 * per work (build-output/current/frame/api/v1/works/W….json, the same bytes as GET /works/{id}); each becomes a
 * static page, up to SITE_WORK_PAGES of them (the most cited first, ties by id). Every other work is
 * server-rendered on request from the API (site/src/pages/frame/works/[...id].astro), so a bounded build
 * still has a page for all 4.3M works.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { workResponse } from '../../../../contracts/frame/responses.ts';
import { buildOutputDir, currentManifest } from '../build-output.ts';

type Record_ = z.infer<typeof workResponse>;
/** One model's verdict in the three-model screen. */
export interface ScreenVerdict {
  tier: string;
  genre: string | null;
  about_ca: boolean;
  confidence: string;
  reasons: string | null;
}
/**
 * The work record. The schema spreads the screen's three models in from a list (Object.fromEntries), so
 * z.infer cannot name them; they are restated here.
 */
export type WorkRecord = Omit<Record_, 'screen'> & {
  screen: (NonNullable<Record_['screen']> & Record<'model_a' | 'model_b' | 'model_c', ScreenVerdict>) | null;
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

function worksDir(): string | null {
  const manifest = currentManifest();
  if (!manifest || manifest.work_documents.count === 0) return null;
  const dir = join(buildOutputDir(), 'current', manifest.work_documents.directory);
  return existsSync(dir) ? dir : null;
}

const ID_FILE = /^(W[1-9][0-9]{0,14})\.json$/;
const byNumber = (a: string, b: string) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0);

/** The work document's `cited_by`, read without parsing the whole record (it comes before the long fields). */
function citedBy(file: string): number {
  const m = /"cited_by":(\d+)/.exec(readFileSync(file, 'utf8').slice(0, 4096));
  return m ? Number(m[1]) : 0;
}

/** Ids of the works to prerender: every work document when they fit the limit, else the most cited. */
export function staticWorkIds(limit = workPageLimit()): string[] {
  const dir = worksDir();
  if (!dir || limit === 0) return [];
  const ids = readdirSync(dir)
    .map((f) => ID_FILE.exec(f)?.[1])
    .filter((id): id is string => id !== undefined)
    .sort(byNumber);
  if (ids.length <= limit) return ids;
  const cited = new Map(ids.map((id) => [id, citedBy(join(dir, `${id}.json`))]));
  return ids
    .sort((a, b) => cited.get(b)! - cited.get(a)! || byNumber(a, b))
    .slice(0, limit)
    .sort(byNumber);
}

/** The work record of a prerendered page (the pipeline's document). */
export function workDocument(id: string): WorkRecord {
  const dir = worksDir();
  if (!dir) throw new Error('no work documents in this build');
  return JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as WorkRecord;
}
