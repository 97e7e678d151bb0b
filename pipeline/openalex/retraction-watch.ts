/**
 * The Retraction Watch database as Crossref publishes it (retraction_watch.csv, 20 columns from `Record ID`
 * to `Notes`), keyed by the lower-cased DOI of the original paper, the key the frame joins works on
 * (research/metacan.md §1.2). A DOI with several notices keeps its latest (by RetractionDate, then Record
 * ID), so a reinstatement after a retraction is the state shown. A nature outside the four states is kept as
 * unspecified (empty).
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { bareDoi } from '../../contracts/frame/catalogue-work.ts';
import { RETRACTION_STATES } from '../../contracts/frame/vocab.ts';
import { BuildError } from './layout.ts';

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

export async function readRetractionWatch(path: string) {
  const notices = new Map<string, { nature: string; reason: string; date: string; order: string }>();
  let rows = 0;
  const parser = createReadStream(path).pipe(parse({ columns: true, bom: true, relax_quotes: true, skip_empty_lines: true }));
  for await (const row of parser as AsyncIterable<Record<string, string>>) {
    const missing = rows++ === 0 ? NEEDED.filter((c) => !(c in row)) : [];
    if (missing.length > 0) throw new BuildError(`${path}: not the Retraction Watch CSV (columns ${missing.join(', ')} missing)`);
    const doi = (bareDoi(row.OriginalPaperDOI) ?? '').toLowerCase();
    if (!/^10\.\S+\/\S+$/.test(doi)) continue;
    const nature = STATES.get(clean(row.RetractionNature, 64).toLowerCase()) ?? '';
    const notice = {
      nature,
      reason: clean(row.Reason, 4000),
      date: clean(row.RetractionDate, 32),
      // The latest notice wins: by date, then record id.
      order: `${sortableDate(row.RetractionDate ?? '')}|${(row['Record ID'] ?? '').padStart(10, '0')}`,
    };
    const prev = notices.get(doi);
    if (!prev || notice.order > prev.order) notices.set(doi, notice);
  }
  return { notices, rows };
}
