/**
 * Step 1 of the pipeline: checks a frame snapshot before anything is built from it: the manifest, every
 * file's size and checksum, every CSV header and every row (zod), and the two JSON documents. Cross-table
 * rules (unique keys, references) are checked after loading, in ./frame.duckdb.ts.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { z } from 'zod';
import { findingsSchema, predictionsReportSchema } from '../../../contracts/frame/documents.ts';
import { type SnapshotManifest, snapshotManifestSchema, TABLE_NAMES, TABLES, type TableName } from '../../../contracts/frame/snapshot.ts';
import { sha256File } from '../../lib/hash.ts';
import type { Progress } from '../../lib/progress.ts';
import { WorkerPool } from '../../lib/worker-pool.ts';
import { type RangeResult, type RangeTask, validateRange } from './validate-rows.ts';

/** One problem with the input, printed as `file:line:column — reason` (line and column 0 when not applicable). */
export interface InputProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

export const MAX_REPORTED = 50;

export function formatProblem(p: InputProblem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file;
  return `${where} — ${p.message}`;
}

/** Thrown when the input is invalid; carries the first problems and how many there were in all. */
export class InvalidSnapshotError extends Error {
  constructor(
    readonly problems: InputProblem[],
    readonly total: number,
  ) {
    super(`the snapshot is invalid: ${total} problem${total === 1 ? '' : 's'}`);
    this.name = 'InvalidSnapshotError';
  }

  report(): string {
    const lines = this.problems.slice(0, MAX_REPORTED).map(formatProblem);
    if (this.total > lines.length) lines.push(`… and ${this.total - lines.length} more`);
    return lines.join('\n');
  }
}

/** A problem with a whole file (no line or column). */
export const fileProblem = (file: string, message: string): InputProblem => ({ file, line: 0, column: 0, message });
/** An invalid snapshot, for one problem with a whole file. */
export const fileError = (file: string, message: string) => new InvalidSnapshotError([fileProblem(file, message)], 1);

const zodProblems = (file: string, error: z.ZodError): InputProblem[] =>
  error.issues.map((i) => fileProblem(file, `${i.path.join('.') || '(root)'}: ${i.message}`));

function readJson(dir: string, file: string): { value?: unknown; problem?: InputProblem } {
  const path = join(dir, file);
  if (!existsSync(path)) return { problem: fileProblem(file, 'file is missing') };
  try {
    return { value: JSON.parse(readFileSync(path, 'utf8')) };
  } catch (err) {
    return { problem: fileProblem(file, `not valid JSON: ${(err as Error).message}`) };
  }
}

/** Reads and checks the manifest; throws InvalidSnapshotError when it is unusable. */
export function readManifest(dir: string): SnapshotManifest {
  const { value, problem } = readJson(dir, 'manifest.json');
  if (problem) throw new InvalidSnapshotError([problem], 1);
  const parsed = snapshotManifestSchema.safeParse(value);
  if (!parsed.success) {
    const problems = zodProblems('manifest.json', parsed.error);
    throw new InvalidSnapshotError(problems, problems.length);
  }
  for (const t of TABLE_NAMES) {
    if (parsed.data.tables[t].file !== TABLES[t].file) throw fileError('manifest.json', `tables.${t}.file must be ${TABLES[t].file}`);
  }
  return parsed.data;
}

/** Splits a file into ranges of whole lines of about `target` bytes. */
function splitLines(path: string, size: number, target: number): [number, number][] {
  const parts = Math.max(1, Math.ceil(size / target));
  const cuts = [0];
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(1 << 16);
  for (let k = 1; k < parts; k++) {
    let pos = Math.floor((size * k) / parts);
    if (pos <= cuts[cuts.length - 1]!) continue;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) {
        pos = size;
        break;
      }
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) {
        pos += nl + 1;
        break;
      }
      pos += n;
    }
    if (pos < size) cuts.push(pos);
  }
  closeSync(fd);
  cuts.push(size);
  return cuts.slice(0, -1).map((s, k) => [s, cuts[k + 1]!]);
}

export interface ValidationSummary {
  manifest: SnapshotManifest;
  rows: Record<TableName, number>;
}

export interface ValidateOptions {
  progress: Progress;
  /** Worker threads for row checks; 0 checks in this thread. Default: cores when the input is large. */
  threads?: number;
}

/** Validates the whole snapshot in `dir`. Resolves with row counts, or rejects with InvalidSnapshotError. */
export async function validateSnapshot(dir: string, options: ValidateOptions): Promise<ValidationSummary> {
  const { progress } = options;
  const manifest = readManifest(dir);
  const problems: InputProblem[] = [];
  let total = 0;
  const add = (p: InputProblem) => {
    total++;
    if (problems.length < MAX_REPORTED) problems.push(p);
  };

  // Files: presence, size and checksum, as the manifest lists them.
  const entries = [...TABLE_NAMES.map((t) => manifest.tables[t]), manifest.documents.findings, manifest.documents.predictions_report];
  const totalBytes = entries.reduce((s, e) => s + e.bytes, 0);
  progress.start('checksums', totalBytes);
  let hashed = 0;
  const limit = pLimit(2);
  await Promise.all(
    entries.map((e) =>
      limit(async () => {
        const path = join(dir, e.file);
        if (!existsSync(path)) return add(fileProblem(e.file, 'file listed in manifest.json is missing'));
        const size = statSync(path).size;
        if (size !== e.bytes) add(fileProblem(e.file, `size is ${size} bytes; manifest.json says ${e.bytes}`));
        else {
          const sum = await sha256File(path);
          if (sum !== e.sha256) add(fileProblem(e.file, `sha256 is ${sum}; manifest.json says ${e.sha256}`));
        }
        hashed += e.bytes;
        progress.update(hashed);
      }),
    ),
  );
  progress.stop();
  if (total > 0) throw new InvalidSnapshotError(problems, total);

  // Documents.
  const docs: [string, z.ZodType][] = [
    [manifest.documents.findings.file, findingsSchema],
    [manifest.documents.predictions_report.file, predictionsReportSchema],
  ];
  for (const [file, schema] of docs) {
    const { value, problem } = readJson(dir, file);
    if (problem) add(problem);
    else {
      const parsed = schema.safeParse(value);
      if (!parsed.success) for (const p of zodProblems(file, parsed.error)) add(p);
    }
  }

  // Rows: every table, split into line-aligned ranges checked in parallel.
  const csvBytes = TABLE_NAMES.reduce((s, t) => s + manifest.tables[t].bytes, 0);
  const threads = options.threads ?? (csvBytes > 64 << 20 ? Math.min(4, availableParallelism()) : 0);
  const pool = threads > 0 ? new WorkerPool<RangeTask, RangeResult>(new URL('./validate-worker.ts', import.meta.url), threads) : null;
  const run = (task: RangeTask) => (pool ? pool.run(task) : validateRange(task));
  const rowLimit = pLimit(Math.max(1, threads));
  const rows = {} as Record<TableName, number>;
  progress.start('validate rows', csvBytes);
  let checked = 0;
  try {
    const perTable = await Promise.all(
      TABLE_NAMES.map(async (t) => {
        const path = join(dir, TABLES[t].file);
        const ranges = splitLines(path, manifest.tables[t].bytes, 96 << 20);
        return Promise.all(
          ranges.map(([start, end]) =>
            rowLimit(async () => {
              const r = await run({
                table: t,
                path,
                start,
                end,
                first: start === 0,
                maxProblems: MAX_REPORTED,
              });
              checked += end - start;
              progress.update(checked);
              return r;
            }),
          ),
        );
      }),
    );
    // Problems are added in table order, whatever order the ranges finished in, so the report is stable.
    for (const [k, t] of TABLE_NAMES.entries()) {
      const results = perTable[k]!;
      let lineOffset = 0;
      let count = 0;
      for (const r of results) {
        for (const p of r.problems) add({ file: TABLES[t].file, line: p.line + lineOffset, column: p.column, message: p.message });
        total += r.problemCount - r.problems.length;
        lineOffset += r.lines;
        count += r.rows;
      }
      rows[t] = count;
      if (!results.some((r) => r.aborted) && count !== manifest.tables[t].rows)
        add(fileProblem(TABLES[t].file, `has ${count} rows; manifest.json says ${manifest.tables[t].rows}`));
    }
  } finally {
    progress.stop();
    await pool?.close();
  }
  if (total > 0) throw new InvalidSnapshotError(problems, total);
  return { manifest, rows };
}
