/**
 * Bad-input fixtures: a small generated snapshot, made once per test file, and `mutate`, which copies a
 * snapshot to a fresh temporary directory, lets a test edit its files, and then (by default) brings
 * manifest.json back in line with the edited files (bytes, sha256 and rows), so that the edit is caught by the
 * row or cross-table checks rather than by the checksum check.
 *
 * Line numbers are those of the file as a text editor shows them: the header is line 1, the first row line 2.
 * Snapshot CSV cells never hold line breaks, so a line is a row.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll } from 'vitest';
import type { SnapshotManifest } from '../../contracts/frame/snapshot.ts';
import { generateSnapshot } from '../../pipeline/generate/snapshot.ts';
import { sha256File } from '../../pipeline/lib/hash.ts';
import { silentProgress } from '../../pipeline/lib/progress.ts';

export const BASE_WORKS = 3_000;
export const BASE_SEED = 7;

const created: string[] = [];

/** A fresh temporary directory, removed by removeTempDirs(). */
export function freshTempDir(prefix = 'snapshot'): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  created.push(dir);
  return dir;
}

/** Removes every directory made by freshTempDir() and mutate() in this test file. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Generates the base snapshot (3,000 works, seed 7, one thread) into `<root>/base`. */
export async function generateBaseSnapshot(root: string, options: { works?: number; seed?: number } = {}): Promise<string> {
  const out = join(root, 'base');
  await generateSnapshot({
    works: options.works ?? BASE_WORKS,
    seed: options.seed ?? BASE_SEED,
    out,
    name: 'bad-input',
    releaseDate: '2026-06-24',
    buildDate: '2026-07-12',
    threads: 1,
    progress: silentProgress,
  });
  return out;
}

/**
 * Registers hooks that generate the base snapshot once (beforeAll) and remove every temporary directory
 * (afterAll). Call at the top level of a test file; read `.dir` inside tests.
 */
export function useBaseSnapshot(options: { works?: number; seed?: number } = {}): {
  readonly dir: string;
  mutate<T>(edit: (s: SnapshotEditor) => T | Promise<T>, options?: MutateOptions): Promise<Mutant<T>>;
} {
  let dir = '';
  beforeAll(async () => {
    dir = await generateBaseSnapshot(freshTempDir('base-snapshot'), options);
  });
  afterAll(removeTempDirs);
  const baseDir = () => {
    if (!dir) throw new Error('the base snapshot is made in beforeAll; use it inside a test');
    return dir;
  };
  return {
    get dir() {
      return baseDir();
    },
    mutate: (edit, mutateOptions) => mutate(baseDir(), edit, mutateOptions),
  };
}

/** Quotes a cell when RFC 4180 requires it. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Splits one CSV line into its cells. */
export function csvCells(line: string): string[] {
  const records = parse(line, { relax_column_count: true }) as string[][];
  return records[0] ?? [];
}

type Json = Record<string, unknown>;
interface FileEntry {
  file: string;
  bytes: number;
  sha256: string;
  rows?: number;
}

/** Where an edit was made: 1-based line (header = 1) and column (0 when the edit concerns the whole line). */
export interface Where {
  file: string;
  line: number;
  column: number;
}

/** Edits the files of a copied snapshot. Lines are 1-based and the header is line 1. */
export class SnapshotEditor {
  private readonly files = new Map<string, { lines: string[]; trailingNewline: boolean }>();
  /** Files written or removed through this editor. */
  readonly touched = new Set<string>();
  readonly manifestEdits: ((manifest: SnapshotManifest) => void)[] = [];

  constructor(readonly dir: string) {}

  path(file: string): string {
    return join(this.dir, file);
  }

  private load(file: string) {
    let f = this.files.get(file);
    if (!f) {
      const parts = readFileSync(this.path(file), 'utf8').split('\n');
      const trailingNewline = parts[parts.length - 1] === '';
      if (trailingNewline) parts.pop();
      f = { lines: parts, trailingNewline };
      this.files.set(file, f);
    }
    return f;
  }

  private check(file: string, line: number): void {
    const n = this.lineCount(file);
    if (!Number.isInteger(line) || line < 1 || line > n) throw new Error(`${file} has lines 1..${n}, not ${line}`);
  }

  /** The number of the last line (the header is line 1, so this is rows + 1). */
  lineCount(file: string): number {
    return this.load(file).lines.length;
  }

  line(file: string, line: number): string {
    this.check(file, line);
    return this.load(file).lines[line - 1]!;
  }

  header(file: string): string[] {
    return csvCells(this.line(file, 1));
  }

  /** 1-based position of a column in the header. */
  columnOf(file: string, column: string): number {
    const k = this.header(file).indexOf(column);
    if (k < 0) throw new Error(`${file} has no column ${column}`);
    return k + 1;
  }

  cells(file: string, line: number): string[] {
    return csvCells(this.line(file, line));
  }

  /** The cells of one line keyed by the header's column names. */
  row(file: string, line: number): Record<string, string> {
    const names = this.header(file);
    const cells = this.cells(file, line);
    return Object.fromEntries(names.map((n, k) => [n, cells[k] ?? '']));
  }

  cell(file: string, line: number, column: string): string {
    return this.cells(file, line)[this.columnOf(file, column) - 1] ?? '';
  }

  /** Every row of a file keyed by column name, read afresh: `rows(file)[k]` is line k + 2. */
  rows(file: string): Record<string, string>[] {
    const names = this.header(file);
    return this.load(file)
      .lines.slice(1)
      .map((line) => {
        const cells = csvCells(line);
        return Object.fromEntries(names.map((n, k) => [n, cells[k] ?? '']));
      });
  }

  /** The first row line at or after `from` whose row satisfies `test`. */
  findLine(file: string, test: (row: Record<string, string>, line: number) => boolean, from = 2): number {
    const rows = this.rows(file);
    for (let n = Math.max(2, from); n <= rows.length + 1; n++) if (test(rows[n - 2]!, n)) return n;
    throw new Error(`no line of ${file} from ${from} matches`);
  }

  setLine(file: string, line: number, text: string): Where {
    this.check(file, line);
    this.load(file).lines[line - 1] = text;
    this.touched.add(file);
    return { file, line, column: 0 };
  }

  /** Sets several cells of one line; returns where the first of them is. */
  setCells(file: string, line: number, values: Record<string, string>): Where {
    const cells = this.cells(file, line);
    const columns = Object.keys(values).map((c) => this.columnOf(file, c));
    for (const [column, value] of Object.entries(values)) cells[this.columnOf(file, column) - 1] = value;
    this.setLine(file, line, cells.map(csvCell).join(','));
    return { file, line, column: columns[0] ?? 0 };
  }

  setCell(file: string, line: number, column: string, value: string): Where {
    return this.setCells(file, line, { [column]: value });
  }

  /** Removes the last `n` cells of a line. */
  dropCells(file: string, line: number, n = 1): Where {
    return this.setLine(file, line, this.cells(file, line).slice(0, -n).map(csvCell).join(','));
  }

  /** Deletes a line; the lines after it move up by one. */
  deleteLine(file: string, line: number): string {
    const text = this.line(file, line);
    this.load(file).lines.splice(line - 1, 1);
    this.touched.add(file);
    return text;
  }

  appendLine(file: string, text: string): Where {
    this.load(file).lines.push(text);
    this.touched.add(file);
    return { file, line: this.lineCount(file), column: 0 };
  }

  renameColumn(file: string, from: string, to: string): Where {
    const names = this.header(file);
    const column = this.columnOf(file, from);
    names[column - 1] = to;
    this.setLine(file, 1, names.map(csvCell).join(','));
    return { file, line: 1, column };
  }

  /** Replaces a whole file (any file, the manifest included). */
  writeText(file: string, text: string): void {
    this.files.delete(file);
    writeFileSync(this.path(file), text);
    this.touched.add(file);
  }

  /** Replaces a whole file with raw bytes (for encoding damage). */
  writeBytes(file: string, bytes: Buffer): void {
    this.files.delete(file);
    writeFileSync(this.path(file), bytes);
    this.touched.add(file);
  }

  editJson(file: string, edit: (value: Json) => unknown): void {
    const value = JSON.parse(readFileSync(this.path(file), 'utf8')) as Json;
    const result = edit(value);
    this.writeText(file, `${JSON.stringify(result === undefined ? value : result, null, 2)}\n`);
  }

  remove(file: string): void {
    this.files.delete(file);
    rmSync(this.path(file), { force: true });
    this.touched.add(file);
  }

  /** Edits manifest.json after its entries have been recomputed (to state something false on purpose). */
  editManifest(edit: (manifest: SnapshotManifest) => void): void {
    this.manifestEdits.push(edit);
  }

  /** Writes the edited CSV files back. */
  flush(): void {
    for (const [file, { lines, trailingNewline }] of this.files) {
      if (this.touched.has(file)) writeFileSync(this.path(file), lines.join('\n') + (trailingNewline ? '\n' : ''));
    }
  }
}

export interface MutateOptions {
  /** Recompute bytes, sha256 and rows of the edited files in manifest.json (default true). */
  fixManifest?: boolean;
  /** Directory to copy into (default: a fresh temporary directory, removed by removeTempDirs()). */
  into?: string;
}

/** Rows of a CSV text: its lines minus the header (a final line without a line break counts). */
function countRows(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return Math.max(0, lines - 1);
}

export interface Mutant<T> {
  /** The edited copy of the snapshot. */
  dir: string;
  /** What the edit function returned (typically where the damage is). */
  result: T;
}

/**
 * Copies the snapshot in `srcDir` to a fresh directory, applies `edit`, and unless `fixManifest` is false
 * updates manifest.json for every edited file it lists. A manifest the edit replaced or removed is left alone.
 */
export async function mutate<T>(srcDir: string, edit: (s: SnapshotEditor) => T | Promise<T>, options: MutateOptions = {}): Promise<Mutant<T>> {
  const dir = options.into ?? join(freshTempDir('snapshot-mutant'), 'snapshot');
  cpSync(srcDir, dir, { recursive: true });
  const editor = new SnapshotEditor(dir);
  const result = await edit(editor);
  editor.flush();

  const manifestPath = join(dir, 'manifest.json');
  if (editor.touched.has('manifest.json') || !existsSync(manifestPath)) {
    if (editor.manifestEdits.length > 0) throw new Error('editManifest() cannot be combined with replacing manifest.json');
    return { dir, result };
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as SnapshotManifest & Json;
  if (options.fixManifest ?? true) {
    const entries = [
      ...Object.values((manifest.tables ?? {}) as Record<string, FileEntry>),
      ...Object.values((manifest.documents ?? {}) as Record<string, FileEntry>),
    ];
    for (const entry of entries) {
      const path = join(dir, entry.file);
      if (!editor.touched.has(entry.file) || !existsSync(path)) continue;
      const bytes = readFileSync(path);
      entry.bytes = bytes.length;
      entry.sha256 = await sha256File(path);
      if (entry.rows !== undefined) entry.rows = countRows(bytes.toString('utf8'));
    }
  }
  for (const e of editor.manifestEdits) e(manifest);
  if ((options.fixManifest ?? true) || editor.manifestEdits.length > 0) writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, result };
}
