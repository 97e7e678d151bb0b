/**
 * The CPU half of step 3b, run in worker threads: builds each work's item (the work record without meta),
 * its CSV export row, and both deflated against the build's dictionaries. The main thread reads the next
 * chunk from DuckDB meanwhile and writes what comes back; the bytes do not depend on how work is split.
 */
import { encodeRecord } from '../../../contracts/frame/cohort-index.ts';
import { exportRow } from '../../../contracts/frame/export-columns.ts';
import { type AuthorshipRow, type LabelRow, type WorkRow, workItem } from '../../../contracts/frame/work-record.ts';

export interface EncodeTask {
  works: { row: WorkRow; authors: AuthorshipRow[]; labels: LabelRow[] }[];
  recordDictionary: Uint8Array;
  exportDictionary: Uint8Array;
  /** Also return each item's JSON (for the per-work documents). */
  withItems: boolean;
}

export interface EncodeResult {
  rows: number[];
  ids: string[];
  records: Uint8Array[];
  exports: Uint8Array[];
  items: string[] | null;
}

/** A work's item JSON and export row (also used on the main thread for the dictionaries). */
export function itemAndRow(w: EncodeTask['works'][number]): [item: string, csv: string] {
  const o = workItem(w.row, w.authors, w.labels);
  return [JSON.stringify(o), exportRow(o)];
}

export function encodeWorks(task: EncodeTask): EncodeResult {
  const rd = Buffer.from(task.recordDictionary);
  const ed = Buffer.from(task.exportDictionary);
  const out: EncodeResult = { rows: [], ids: [], records: [], exports: [], items: task.withItems ? [] : null };
  for (const w of task.works) {
    const [item, csv] = itemAndRow(w);
    out.rows.push(w.row.cohort_row as number);
    out.ids.push(w.row.id as string);
    out.records.push(encodeRecord(item, rd));
    out.exports.push(encodeRecord(csv, ed));
    out.items?.push(item);
  }
  return out;
}
