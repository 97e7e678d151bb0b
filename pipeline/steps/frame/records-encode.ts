/**
 * Step 3b's unit of work, run in worker threads: read one id range of works from the frame database (each
 * worker opens it read-only), build each work's item (the work record without meta) and CSV export row, and
 * deflate both against the build's dictionaries. The main thread only hands out ranges and writes what comes
 * back, in range order, so the files do not depend on the number of threads.
 */
import { encodeRecord } from '../../../contracts/frame/cohort-index.ts';
import { exportRow } from '../../../contracts/frame/export-columns.ts';
import { type AuthorshipRow, type LabelRow, type WorkRow, workItem, workRowSql } from '../../../contracts/frame/work-record.ts';
import { type Duck, lit } from '../../lib/duckdb.ts';

export interface WorkParts {
  row: WorkRow;
  authors: AuthorshipRow[];
  labels: LabelRow[];
}

export interface EncodeTask {
  /** Works with lo ≤ id < hi (hi null: to the end). */
  lo: string;
  hi: string | null;
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

function byWork<T extends { work_id: string }>(items: T[]): Map<string, Omit<T, 'work_id'>[]> {
  const m = new Map<string, Omit<T, 'work_id'>[]>();
  for (const { work_id, ...rest } of items) {
    const l = m.get(work_id);
    if (l) l.push(rest);
    else m.set(work_id, [rest]);
  }
  return m;
}

/** The works matched by `where(column)` with their authorships and direct labels, in id order. */
export async function readWorks(duck: Duck, where: (column: string) => string): Promise<WorkParts[]> {
  const rows = await duck.all(workRowSql(where));
  const authors = await duck.all<AuthorshipRow & { work_id: string }>(
    `SELECT a.work_id, a.author_id AS id, au.name, au.orcid, a.position::INTEGER AS position, a.is_ca
     FROM authorships a JOIN authors au ON au.id = a.author_id WHERE ${where('a.work_id')} ORDER BY a.work_id, a.position`,
  );
  const labels = await duck.all<LabelRow & { work_id: string }>(`SELECT * FROM direct_labels WHERE ${where('work_id')} ORDER BY work_id, model`);
  const authorsOf = byWork(authors);
  const labelsOf = byWork(labels);
  return rows.map((row) => ({
    row,
    authors: (authorsOf.get(row.id as string) ?? []) as AuthorshipRow[],
    labels: (labelsOf.get(row.id as string) ?? []) as LabelRow[],
  }));
}

export const rangeWhere = (lo: string, hi: string | null) => (col: string) => `${col} >= ${lit(lo)}${hi ? ` AND ${col} < ${lit(hi)}` : ''}`;

/** A work's item JSON and export row (also used on the main thread for the dictionaries). */
export function itemAndRow(w: WorkParts): [item: string, csv: string] {
  const o = workItem(w.row, w.authors, w.labels);
  return [JSON.stringify(o), exportRow(o)];
}

export async function encodeRange(duck: Duck, task: EncodeTask): Promise<EncodeResult> {
  const rd = Buffer.from(task.recordDictionary);
  const ed = Buffer.from(task.exportDictionary);
  const out: EncodeResult = { rows: [], ids: [], records: [], exports: [], items: task.withItems ? [] : null };
  for (const w of await readWorks(duck, rangeWhere(task.lo, task.hi))) {
    const [item, csv] = itemAndRow(w);
    out.rows.push(w.row.cohort_row as number);
    out.ids.push(w.row.id as string);
    out.records.push(encodeRecord(item, rd));
    out.exports.push(encodeRecord(csv, ed));
    out.items?.push(item);
  }
  return out;
}
