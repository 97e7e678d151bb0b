/**
 * The oracle: plain TypeScript over the snapshot's CSV rows, independent of DuckDB and of the pipeline's
 * SQL. Tests compare the pipeline's output with what this computes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

export type Row = Record<string, string>;

export function readTable(snapshot: string, file: string): Row[] {
  return parse(readFileSync(join(snapshot, file)), { columns: true }) as Row[];
}

export const isTrue = (v: string | undefined) => v === 'true';
