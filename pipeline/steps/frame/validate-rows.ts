/**
 * Validates the rows of one byte range of a snapshot CSV file against its table's zod schema. Ranges start
 * at a line start; the first range holds the header. Runs in the main thread or in a worker.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { rowSchema, TABLES, type TableName } from '../../../contracts/frame/snapshot.ts';

export interface RangeTask {
  table: TableName;
  path: string;
  start: number;
  /** Exclusive end byte. */
  end: number;
  /** True for the range that starts at byte 0 (it holds the header). */
  first: boolean;
  /** Stop collecting problems after this many (counting goes on). */
  maxProblems: number;
}

export interface LocalProblem {
  /** Line within the range, 1-based. */
  line: number;
  /** Column, 1-based; 0 when the problem is with the whole line. */
  column: number;
  message: string;
}

export interface RangeResult {
  rows: number;
  /** Lines in the range (rows plus the header in the first range). */
  lines: number;
  problems: LocalProblem[];
  problemCount: number;
}

export async function validateRange(task: RangeTask): Promise<RangeResult> {
  const spec = TABLES[task.table];
  const names = spec.columns.map((c) => c.name);
  const schema = rowSchema(spec);
  const problems: LocalProblem[] = [];
  let problemCount = 0;
  const add = (p: LocalProblem) => {
    problemCount++;
    if (problems.length < task.maxProblems) problems.push(p);
  };
  let rows = 0;
  let lines = 0;
  let headerSeen = !task.first;
  if (task.end <= task.start) return { rows, lines, problems, problemCount };

  const parser = createReadStream(task.path, { start: task.start, end: task.end - 1, highWaterMark: 1 << 20 }).pipe(
    parse({ bom: task.first, relax_column_count: true, skip_records_with_error: true, info: true }),
  );
  parser.on('skip', (err: Error & { lines?: number }) => add({ line: err.lines ?? lines + 1, column: 0, message: `malformed CSV: ${err.message}` }));
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    lines = info.lines;
    if (!headerSeen) {
      headerSeen = true;
      const got = record.join(',');
      if (got !== names.join(',')) {
        add({ line: lines, column: 0, message: `header must be exactly "${names.join(',')}", got "${got}"` });
        // Without the right header every row would fail the same way: stop here.
        parser.destroy();
        break;
      }
      continue;
    }
    rows++;
    if (record.length !== names.length) {
      add({ line: lines, column: 0, message: `expected ${names.length} cells, found ${record.length}` });
      continue;
    }
    const obj: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) obj[names[i]!] = record[i]!;
    const result = schema.safeParse(obj);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const name = String(issue.path[0] ?? '');
        add({ line: lines, column: names.indexOf(name) + 1, message: `${name}: ${issue.message}` });
      }
    }
  }
  // A file whose last byte is not a line break still counts its final line.
  return { rows, lines, problems, problemCount };
}
