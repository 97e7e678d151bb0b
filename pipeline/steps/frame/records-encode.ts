/**
 * Step 3b's unit of work, run in worker threads: read one id range of works from the frame database (each
 * worker opens it read-only) and pack each work's values into the work store (contracts/frame/work-store.ts),
 * and, for the optional static per-work documents, serialize its item. The main thread only hands out ranges
 * and writes what comes back, in range order, so the files do not depend on the number of threads.
 */
import { readFileSync } from 'node:fs';
import { idNumber } from '../../../contracts/frame/cohort-index.ts';
import { ByteWriter, encodeWork, type SymbolCodes, symbolCodes, type SymbolTables } from '../../../contracts/frame/work-store.ts';
import { type AuthorshipRow, type LabelRow, type WorkRow, workRowSql } from '../../../contracts/frame/work-record.ts';
import { workItemJson } from '../../../contracts/frame/work-serialize.ts';
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
  /** The build's symbol tables (a JSON file, read once per worker). */
  symbolsPath: string;
  /** Also return each item's JSON (for the per-work documents). */
  withItems: boolean;
}

export interface EncodeResult {
  rows: number[];
  ids: string[];
  /** The packed rows, one after the other, with each one's length. */
  packed: Uint8Array;
  lengths: number[];
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

/** Numeric value of an id the store keeps as a number: it must print back to the same id. */
export function storedId(id: string, prefix: 'W' | 'A'): number {
  const n = idNumber(id);
  if (`${prefix}${n}` !== id) throw new Error(`work store: id ${JSON.stringify(id)} is not ${prefix} followed by a number without leading zeros`);
  return n;
}

/** Packs one work (also used by the tests, against the database's own rows). */
export function packWork(w: ByteWriter, parts: WorkParts, codes: SymbolCodes): void {
  storedId(parts.row.id as string, 'W');
  encodeWork(
    w,
    parts.row,
    parts.authors.map((a) => ({ author: storedId(a.id, 'A'), position: a.position, is_ca: a.is_ca })),
    parts.labels,
    codes,
  );
}

let cached: { path: string; codes: SymbolCodes } | null = null;

export async function encodeRange(duck: Duck, task: EncodeTask): Promise<EncodeResult> {
  // A worker serves one build's ranges: the symbol codes are read once.
  if (cached?.path !== task.symbolsPath)
    cached = { path: task.symbolsPath, codes: symbolCodes(JSON.parse(readFileSync(task.symbolsPath, 'utf8')) as SymbolTables) };
  const codes = cached.codes;
  const w = new ByteWriter();
  const out: EncodeResult = { rows: [], ids: [], packed: new Uint8Array(0), lengths: [], items: task.withItems ? [] : null };
  for (const parts of await readWorks(duck, rangeWhere(task.lo, task.hi))) {
    const start = w.length;
    packWork(w, parts, codes);
    out.rows.push(parts.row.cohort_row as number);
    out.ids.push(parts.row.id as string);
    out.lengths.push(w.length - start);
    out.items?.push(workItemJson(parts));
  }
  out.packed = w.slice(0);
  return out;
}
