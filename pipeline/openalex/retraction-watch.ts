/**
 * The Retraction Watch database as Crossref publishes it (retraction_watch.csv, 20 columns from `Record ID`
 * to `Notes`), keyed by the lower-cased DOI of the original paper, the key the frame joins works on
 * (research/metacan.md §1.2). A DOI with several notices keeps its latest (by RetractionDate, then Record
 * ID), so a reinstatement after a retraction is the state shown. A nature outside the four states is kept as
 * unspecified (empty).
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { RETRACTION_STATES } from '../../contracts/frame/vocab.ts';

export interface RetractionNotice {
  nature: string;
  reason: string;
  date: string;
  /** Sortable form of the date (YYYY-MM-DD) and the record id, to pick the latest notice. */
  order: string;
}

export class RetractionWatchError extends Error {
  override name = 'RetractionWatchError';
}

const NEEDED = ['OriginalPaperDOI', 'RetractionNature', 'Reason', 'RetractionDate'];
const STATES = new Map(RETRACTION_STATES.map((s) => [s.toLowerCase(), s]));

/** `9/27/2023 0:00` → `2023-09-27` (empty when unreadable). */
function sortableDate(raw: string): string {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(raw.trim());
  if (m) return `${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(raw.trim());
  return iso ? iso[1]! : '';
}

const clean = (s: string | undefined, max: number) => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, max).trim();

export function bareDoiKey(doi: string): string {
  return doi
    .trim()
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .replace(/^doi:/i, '')
    .toLowerCase();
}

export async function readRetractionWatch(path: string): Promise<{ notices: Map<string, RetractionNotice>; rows: number }> {
  const notices = new Map<string, RetractionNotice>();
  let rows = 0;
  const parser = createReadStream(path).pipe(parse({ columns: true, bom: true, relax_quotes: true, skip_empty_lines: true }));
  let checked = false;
  for await (const row of parser as AsyncIterable<Record<string, string>>) {
    if (!checked) {
      const missing = NEEDED.filter((c) => !(c in row));
      if (missing.length > 0) throw new RetractionWatchError(`${path}: not the Retraction Watch CSV (columns ${missing.join(', ')} missing)`);
      checked = true;
    }
    rows++;
    const doi = bareDoiKey(row.OriginalPaperDOI ?? '');
    if (!/^10\.\S+\/\S+$/.test(doi)) continue;
    const nature = STATES.get(clean(row.RetractionNature, 64).toLowerCase()) ?? '';
    const notice: RetractionNotice = {
      nature,
      reason: clean(row.Reason, 4000),
      date: clean(row.RetractionDate, 32),
      order: `${sortableDate(row.RetractionDate ?? '')}|${(row['Record ID'] ?? '').padStart(10, '0')}`,
    };
    const prev = notices.get(doi);
    if (!prev || notice.order > prev.order) notices.set(doi, notice);
  }
  return { notices, rows };
}
