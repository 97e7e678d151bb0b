/**
 * Addresses built from a cohort's canonical query string (the API's `meta.query` or a permalink's `query`):
 * its export, and the builder page. No server-only imports, so the builder script uses the same functions as
 * the pages.
 */
import type { ExportFormat, Sort } from '../../../../contracts/frame/cohort-query.ts';
import { FRAME_API } from '../paths.ts';

/** A query string plus more parameters (the canonical filters extended for another surface). */
function extend(query: string, extra: Record<string, string | undefined>): string {
  const q = new URLSearchParams(query);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) q.set(k, v);
  return q.toString();
}

/** The API's export of a cohort in a sort order (`cited`, the default, is left out), from a retained `snapshot` if given. */
export function exportUrl(query: string, sort: Sort, format: ExportFormat, snapshot?: string): string {
  return `${FRAME_API}/cohort/export?${extend(query, { sort: sort === 'cited' ? undefined : sort, format, snapshot })}`;
}

/** The builder's address for a cohort. */
export function builderUrl(query: string): string {
  return `/frame/cohort${query ? `?${query}` : ''}`;
}
