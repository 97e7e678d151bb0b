/**
 * Step 3b's unit of work, run in worker threads: read one id range of works from the frame database (each
 * worker opens it read-only) and pack each work's values into the work store (contracts/frame/work-store.ts),
 * and, for the optional static per-work documents, serialize its item. The main thread only hands out ranges
 * and writes what comes back, in range order, so the files do not depend on the number of threads.
 */
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { idNumber } from '../../../contracts/frame/cohort-index.ts';
import { AuthorTable } from '../../../contracts/frame/author-table.ts';
import {
  decodeWork,
  encodeWork,
  fieldPosition,
  type FieldKind,
  type StoredAuthorship,
  type SymbolCodes,
  symbolCodes,
  type SymbolTables,
  WORK_FIELDS,
} from '../../../contracts/frame/work-store.ts';
import { ByteBuffer } from '../../../contracts/common/bytes.ts';
import { type LabelRow, workRowSql } from '../../../contracts/frame/work-record.ts';
import { workItemJson } from '../../../contracts/frame/work-serialize.ts';
import { type Duck, forEachChunk, lit } from '../../lib/duckdb.ts';

export interface EncodeTask {
  /** Works with lo ≤ id < hi (hi null: to the end). */
  lo: string;
  hi: string | null;
  /** The build's symbol tables (a JSON file in the cohort index directory, read once per worker). */
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

export function byWork<T extends { work_id: string }>(items: T[]): Map<string, Omit<T, 'work_id'>[]> {
  const m = new Map<string, Omit<T, 'work_id'>[]>();
  for (const { work_id, ...rest } of items) {
    const l = m.get(work_id);
    if (l) l.push(rest);
    else m.set(work_id, [rest]);
  }
  return m;
}

export const rangeWhere = (lo: string, hi: string | null) => (col: string) => `${col} >= ${lit(lo)}${hi ? ` AND ${col} < ${lit(hi)}` : ''}`;

/** Numeric value of an id the store keeps as a number: it must print back to the same id. */
export function storedId(id: string, prefix: 'W' | 'A'): number {
  const n = idNumber(id);
  if (`${prefix}${n}` !== id) throw new Error(`work store: id ${JSON.stringify(id)} is not ${prefix} followed by a number without leading zeros`);
  return n;
}

let cached: { path: string; tables: SymbolTables; codes: SymbolCodes; authors: AuthorTable | null } | null = null;

/** The kinds whose values are text in the database: sent together as one length-prefixed blob per work. */
const TEXT_KINDS = new Set<FieldKind>(['text', 'words', 'prefixed', 'sym', 'symlist', 'numlist']);
const TEXT_FIELDS = WORK_FIELDS.filter((f) => TEXT_KINDS.has(f.kind)).map((f) => f.field);
const VALUE_FIELDS = WORK_FIELDS.filter((f) => !TEXT_KINDS.has(f.kind) && f.kind !== 'self').map((f) => f.field);
/** Where each read value goes in the work's values (encodeWork's order). */
const TEXT_AT = TEXT_FIELDS.map(fieldPosition);
const VALUE_AT = VALUE_FIELDS.map(fieldPosition);
const RETRACTED_AT = fieldPosition('retraction_work_id');

/**
 * SQL giving, per work of the range in id order: cohort_row, the non-text values as columns, whether it has a
 * retraction, and every text value in one blob (`-` for null, else `<bytes>:<UTF-8>`). The node client
 * converts a value at a time, with a cost per value: one blob a work instead of some 45 strings makes reading
 * a range about twice as fast (docs/benchmarks.md). The blob is one `concat` of the parts, encoded
 * once: a chain of 45 `||` copied the growing blob at every step (30% of DuckDB's time on this query).
 */
function packedRowSql(where: (column: string) => string): string {
  const blob = `encode(concat(${TEXT_FIELDS.map((f) => `CASE WHEN ${f} IS NULL THEN '-' ELSE strlen(${f})::VARCHAR || ':' || ${f} END`).join(', ')}))`;
  return `SELECT cohort_row::INTEGER AS cohort_row, id, retraction_work_id IS NOT NULL AS retracted, ${VALUE_FIELDS.join(', ')}, ${blob} AS texts
    FROM (${workRowSql(where)})`;
}

/**
 * Reads the text values of one work's blob into its values (by position). A blob of ASCII bytes only (most
 * works) is decoded once and cut with string slices, where its byte offsets are character offsets; any other
 * is decoded a value at a time. (A Buffer decode has a fixed cost of a call into C++: some 45 a work were
 * most of this function's time.)
 */
function unpackTexts(bytes: Uint8Array, values: unknown[]): void {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = isAscii(b);
  const text = ascii ? b.toString('latin1') : '';
  let at = 0;
  for (const k of TEXT_AT) {
    if (b[at] === 45) {
      values[k] = null;
      at++;
      continue;
    }
    let n = 0;
    while (b[at] !== 58) n = n * 10 + (b[at++]! - 48);
    at++;
    values[k] = ascii ? text.slice(at, at + n) : b.toString('utf8', at, at + n);
    at += n;
  }
  if (at !== b.length) throw new Error('work store: a packed text row did not read to its end');
}

export async function encodeRange(duck: Duck, task: EncodeTask): Promise<EncodeResult> {
  // A worker serves one build's ranges: the symbol codes are read once.
  if (cached?.path !== task.symbolsPath) {
    const tables = JSON.parse(readFileSync(task.symbolsPath, 'utf8')) as SymbolTables;
    // The per-work documents are decoded from the packed rows, with the cohort index's author table (same dir).
    cached = { path: task.symbolsPath, tables, codes: symbolCodes(tables), authors: task.withItems ? AuthorTable.load(dirname(task.symbolsPath)) : null };
  }
  const { codes, tables, authors: people } = cached;
  const where = rangeWhere(task.lo, task.hi);
  // Authorships (numeric author ids: the cohort index checked every id prints back) and labels, by work row.
  const authorsOf = new Map<number, StoredAuthorship[]>();
  await forEachChunk(
    duck,
    `SELECT w.cohort_row::INTEGER, CAST(substr(a.author_id, 2) AS DOUBLE), a.position::INTEGER, a.is_ca
     FROM authorships a JOIN works w ON w.id = a.work_id WHERE ${where('a.work_id')} AND ${where('w.id')} ORDER BY a.work_id, a.position`,
    (cols, n) => {
      const [rows, ids, positions, flags] = cols as [ArrayLike<number>, ArrayLike<number>, ArrayLike<number | null>, ArrayLike<boolean | null>];
      for (let i = 0; i < n; i++) {
        const a = { author: ids[i]!, position: positions[i]!, is_ca: flags[i]! };
        const l = authorsOf.get(rows[i]!);
        if (l) l.push(a);
        else authorsOf.set(rows[i]!, [a]);
      }
    },
  );
  const labelsOf = byWork(await duck.all<LabelRow & { work_id: string }>(`SELECT * FROM direct_labels WHERE ${where('work_id')} ORDER BY work_id, model`));
  const w = new ByteBuffer();
  const out: EncodeResult = { rows: [], ids: [], packed: new Uint8Array(0), lengths: [], items: task.withItems ? [] : null };
  const noAuthors: StoredAuthorship[] = [];
  await forEachChunk(duck, packedRowSql(where), (cols, n) => {
    const [rowCol, idCol, retractedCol] = cols as [ArrayLike<number>, ArrayLike<string>, ArrayLike<boolean>];
    for (let i = 0; i < n; i++) {
      const id = idCol[i]!;
      const values = new Array<unknown>(WORK_FIELDS.length);
      for (let k = 0; k < VALUE_AT.length; k++) values[VALUE_AT[k]!] = cols[3 + k]![i];
      const texts = cols[3 + VALUE_FIELDS.length]![i] as Uint8Array | { bytes: Uint8Array };
      unpackTexts(texts instanceof Uint8Array ? texts : texts.bytes, values);
      values[RETRACTED_AT] = retractedCol[i] ? id : null;
      storedId(id, 'W');
      const authors = authorsOf.get(rowCol[i]!) ?? noAuthors;
      const labels = (labelsOf.get(id) ?? []) as LabelRow[];
      const start = w.length;
      encodeWork(w, id, values, authors, labels, codes);
      out.rows.push(rowCol[i]!);
      out.ids.push(id);
      out.lengths.push(w.length - start);
      if (out.items) out.items.push(workItemJson(decodeWork(w.slice(start), id, tables, people!)));
    }
  });
  out.packed = w.slice(0);
  return out;
}
