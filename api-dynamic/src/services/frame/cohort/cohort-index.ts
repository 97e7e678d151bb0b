/**
 * The cohort index in memory: the per-row columns and row permutations as typed arrays, the dictionaries as
 * maps, author names in memory, and the large lists (title postings, author works, the work store's packed
 * rows) left on disk and read by position when a query needs them, so memory stays proportional to the
 * frame's columns, not to its text.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  COHORT_DIR,
  COLUMNS,
  type ColumnName,
  type CohortIndexManifest,
  cohortIndexManifestSchema,
  type CsrName,
  DICTIONARIES,
  type DictionaryName,
  file,
  idNumber,
  isPackedCsr,
  type NarrowFile,
  ORDERS,
} from '../../../../../contracts/frame/cohort-index.ts';
import { type StoredWork, workCsvLine, workItemJson } from '../../../../../contracts/frame/work-serialize.ts';
import { AuthorTable } from '../../../../../contracts/frame/author-table.ts';
import { type Offsets, readArray, readOffsets, SortedSearch } from '../../../../../contracts/frame/typed-arrays.ts';
import { decodeWork, type SymbolTables } from '../../../../../contracts/frame/work-store.ts';
import { ByteReader, BytesError, type TypedArrayOf } from '../../../../../contracts/common/bytes.ts';
import { FilterBitsets } from './filter-bitsets.ts';

type ColumnArrays = { [K in ColumnName]: TypedArrayOf<(typeof COLUMNS)[K][0]> };
export type SortName = keyof typeof ORDERS;

/** The width in bytes of a narrow file (2 when its `.u16` form exists) and its path. */
function narrowFile(dir: string, f: NarrowFile): { width: 2 | 4; path: string } {
  return existsSync(join(dir, f.u16)) ? { width: 2, path: join(dir, f.u16) } : { width: 4, path: join(dir, f.u32) };
}
function readNarrow(dir: string, f: NarrowFile): Uint16Array | Uint32Array {
  const { width, path } = narrowFile(dir, f);
  return width === 2 ? readArray(path, 'u16') : readArray(path, 'u32');
}

/**
 * Reads byte ranges of a file by position (the OS page cache does the caching). The file must exist when the
 * index loads, but is opened on first read, so an index that fails to load leaves no descriptor open.
 */
class FileRanges {
  private fd: number | null = null;
  private readonly size: number;
  constructor(readonly path: string) {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error(`${path} is not a file`);
    this.size = stat.size;
  }
  read(start: number, length: number): Buffer {
    if (!(start >= 0 && length >= 0 && start + length <= this.size))
      throw new BytesError(this.path, start, `${length} bytes asked for; the file has ${this.size}`);
    const buf = Buffer.allocUnsafe(length);
    this.fd ??= openSync(this.path, 'r');
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buf, got, length - got, start + got);
      if (n === 0) throw new BytesError(this.path, start + got, `the file ends before the ${length} bytes its offsets say`);
      got += n;
    }
    return buf;
  }
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * `n` ascending values from their delta-varint coding (the first value as is, then each gap; contracts/common/bytes.ts
 * varints). Gaps below 128 take one byte, the common case in a list of thousands of rows. About 2 ns a value (0.9 ms
 * for a 400,000-value list): frequent author terms are therefore kept as bitsets (FilterBitsets.frequentAuthorTerm).
 * `source` and `base`: the file and the offset the bytes come from, for the BytesError damaged bytes end in.
 */
export function decodeDeltas(buf: Uint8Array, n: number, source = 'a packed list', base = 0): Uint32Array {
  const r = new ByteReader(buf, source, base);
  if (n > buf.length) r.fail(`${n} values cannot fit in ${buf.length} bytes`);
  const out = new Uint32Array(n);
  let v = 0;
  for (let i = 0; i < n; i++) {
    v += r.uvar();
    out[i] = v;
  }
  if (v > 0xffffffff) r.fail('a packed list value above 2^32');
  r.done();
  return out;
}

/**
 * Compressed sparse rows: ascending u32 values per key, offsets in memory, values on disk, either as u32 (read
 * by position) or delta-varint coded (PACKED_CSRS: read whole per key and decoded, about 1 ns a value).
 */
export class Csr {
  private readonly values: FileRanges;
  private constructor(
    /** Value index (u32) or byte (packed) of each key's first value, n + 1 (32 bits wide when they fit). */
    private readonly offsets: Offsets,
    valuesPath: string,
    /** Values per key when packed. */
    private readonly counts: Uint32Array | null,
  ) {
    this.values = new FileRanges(valuesPath);
  }
  static load(dir: string, name: CsrName): Csr {
    if (isPackedCsr(name)) {
      const offsets = readOffsets(join(dir, file.csrByteOffsets(name)));
      const counts = readArray(join(dir, file.csrCounts(name)), 'u32');
      if (counts.length !== offsets.length - 1) throw new Error(`${file.csrCounts(name)} has ${counts.length} keys, its offsets ${offsets.length - 1}`);
      return new Csr(offsets, join(dir, file.csrPackedValues(name)), counts);
    }
    return new Csr(readOffsets(join(dir, file.csrOffsets(name))), join(dir, file.csrValues(name)), null);
  }
  get keys(): number {
    return this.offsets.length - 1;
  }
  /** Position of a key's first value and the number of values (u32 lists only: they are read by position). */
  range(key: number): [start: number, count: number] {
    if (this.counts) throw new Error('a packed CSR is read whole per key');
    return [this.offsets[key]!, this.offsets[key + 1]! - this.offsets[key]!];
  }
  size(key: number): number {
    return this.counts ? this.counts[key]! : this.offsets[key + 1]! - this.offsets[key]!;
  }
  /** Bytes held in memory (the offsets and counts; the values stay on disk). */
  get bytes(): number {
    return this.offsets.byteLength + (this.counts?.byteLength ?? 0);
  }
  list(key: number): Uint32Array {
    const n = this.size(key);
    if (n === 0) return new Uint32Array(0);
    if (!this.counts) {
      const buf = this.values.read(this.offsets[key]! * 4, n * 4);
      return new Uint32Array(buf.buffer, buf.byteOffset, n);
    }
    const start = this.offsets[key]!;
    return decodeDeltas(this.values.read(start, this.offsets[key + 1]! - start), n, this.values.path, start);
  }
  close(): void {
    this.values.close();
  }
}

/** Most bytes between two rows read in one run (WorkStore.getMany), and most bytes of a run. */
const RUN_GAP = 16 * 1024;
const RUN_BYTES = 256 * 1024;
/** Rows read ahead together by CohortIndex.decodedRows. */
const READ_AHEAD = 32;

/**
 * The work store's packed rows (contracts/frame/work-store.ts): positions in memory, bytes on disk. Rows packed
 * in row order (every build so far) are held as n + 1 ascending starts, 32 bits wide while works.bin is under
 * 4 GiB (a row's length is the next start minus its own); a store with a start file keeps starts and lengths.
 */
class WorkStore {
  private constructor(
    private readonly start: Offsets,
    private readonly length: Uint16Array | Uint32Array | null,
    private readonly bin: FileRanges,
    readonly symbols: SymbolTables,
  ) {}
  static load(dir: string, rows: number): WorkStore {
    const length = readNarrow(dir, file.workLength);
    if (length.length !== rows) throw new Error(`the work store has ${length.length} rows, the index ${rows}`);
    const bin = new FileRanges(join(dir, file.works));
    const symbols = JSON.parse(readFileSync(join(dir, file.workSymbols), 'utf8')) as SymbolTables;
    if (existsSync(join(dir, file.workStart))) {
      const start = readArray(join(dir, file.workStart), 'f64');
      if (start.length !== rows) throw new Error(`the work store has ${start.length} row starts, the index ${rows}`);
      return new WorkStore(start, length, bin, symbols);
    }
    let total = 0;
    for (let r = 0; r < rows; r++) total += length[r]!;
    const start = total > 0xffffffff ? new Float64Array(rows + 1) : new Uint32Array(rows + 1);
    for (let r = 0; r < rows; r++) start[r + 1] = start[r]! + length[r]!;
    return new WorkStore(start, null, bin, symbols);
  }
  get bytes(): number {
    return this.start.byteLength + (this.length?.byteLength ?? 0);
  }
  /** The works file's path. */
  get path(): string {
    return this.bin.path;
  }
  /** Where a row starts in the works file. */
  startOf(row: number): number {
    return this.start[row]!;
  }
  get(row: number): Buffer {
    const start = this.start[row]!;
    return this.bin.read(start, this.end(row) - start);
  }
  private end(row: number): number {
    return this.length ? this.start[row]! + this.length[row]! : this.start[row + 1]!;
  }
  /**
   * The rows' bytes, in the order given. Rows that follow each other in the file with gaps of at most RUN_GAP
   * bytes come from one positioned read of up to RUN_BYTES: an export walks rows mostly ascending, and one read
   * costs about as much as copying 30 KB here (reads one row at a time would be a third of an export line's CPU;
   * docs/benchmarks.md). The buffers share the run's memory: decode them, don't keep them.
   */
  getMany(rows: readonly number[]): Buffer[] {
    const out = new Array<Buffer>(rows.length);
    for (let k = 0; k < rows.length;) {
      const first = k;
      const from = this.start[rows[k]!]!;
      let to = this.end(rows[k]!);
      for (k++; k < rows.length; k++) {
        const s = this.start[rows[k]!]!;
        const e = this.end(rows[k]!);
        if (s < to || s - to > RUN_GAP || e - from > RUN_BYTES) break;
        to = e;
      }
      const run = this.bin.read(from, to - from);
      for (let i = first; i < k; i++) out[i] = run.subarray(this.start[rows[i]!]! - from, this.end(rows[i]!) - from);
    }
    return out;
  }
  close(): void {
    this.bin.close();
  }
}

export interface Dictionary {
  values: string[];
  works: number[];
  /** value → code (1 + position). */
  code: Map<string, number>;
  /** Lower-cased values, for substring typeahead. */
  lower: string[];
  /** Codes by frame works desc, then value: the typeahead ranking. */
  ranked: Uint32Array;
}

export class CohortIndex {
  private constructor(
    readonly dir: string,
    readonly manifest: CohortIndexManifest,
    readonly col: ColumnArrays,
    readonly orders: Record<SortName, Uint32Array>,
    readonly dict: Record<DictionaryName, Dictionary>,
    readonly titleTerm: Map<string, number>,
    readonly authorTerm: Map<string, number>,
    /** Author-name terms sorted by code unit with their CSR keys, for prefix typeahead. */
    readonly authorTermsSorted: { term: string; key: number }[],
    readonly csr: Record<CsrName, Csr>,
    readonly authorCaWorks: Uint32Array,
    private readonly authors: AuthorTable,
    private readonly works: WorkStore,
    private readonly neighbourShared: { width: 2 | 4; ranges: FileRanges },
    private readonly neighbourWeight: FileRanges,
  ) {
    this.filters = new FilterBitsets(this);
    this.workIds = new SortedSearch(col.id);
  }
  /** Finds a work's row by numeric id (the id column is ascending). */
  private readonly workIds: SortedSearch;

  static exists(buildDir: string): boolean {
    return existsSync(join(buildDir, COHORT_DIR, file.manifest));
  }

  static load(buildDir: string): CohortIndex {
    const dir = join(buildDir, COHORT_DIR);
    const manifest = cohortIndexManifestSchema.parse(JSON.parse(readFileSync(join(dir, file.manifest), 'utf8')));
    const col = Object.fromEntries(
      (Object.keys(COLUMNS) as ColumnName[]).map((c) => {
        const a = readArray(join(dir, file.column(c)), COLUMNS[c][0]);
        if (a.length !== manifest.rows) throw new Error(`${file.column(c)} has ${a.length} rows, the index ${manifest.rows}`);
        return [c, a];
      }),
    ) as ColumnArrays;
    const orders = Object.fromEntries((Object.keys(ORDERS) as SortName[]).map((s) => [s, readArray(join(dir, file.order(s)), 'u32')])) as Record<
      SortName,
      Uint32Array
    >;
    const dict = Object.fromEntries(
      DICTIONARIES.map((d) => {
        const entries = manifest.dictionaries[d];
        const values = entries.map((e) => e[0]);
        const works = entries.map((e) => e[1]);
        const ranked = Uint32Array.from(values.keys(), (k) => k + 1).sort(
          (a, b) => works[b - 1]! - works[a - 1]! || (values[a - 1]! < values[b - 1]! ? -1 : values[a - 1]! > values[b - 1]! ? 1 : 0),
        );
        return [d, { values, works, code: new Map(values.map((v, k) => [v, k + 1])), lower: values.map((v) => v.toLowerCase()), ranked }];
      }),
    ) as Record<DictionaryName, Dictionary>;
    const csr = Object.fromEntries(
      (['title_terms', 'author_terms', 'author_term_works', 'author_works', 'ca_neighbours'] as const).map((n) => [n, Csr.load(dir, n)]),
    ) as Record<CsrName, Csr>;
    return new CohortIndex(
      dir,
      manifest,
      col,
      orders,
      dict,
      new Map(manifest.title_terms.map((t, k) => [t, k])),
      new Map(manifest.author_terms.map((t, k) => [t, k])),
      manifest.author_terms.map((term, key) => ({ term, key })).sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)),
      csr,
      readArray(join(dir, file.authorCaWorks), 'u32'),
      AuthorTable.load(dir),
      WorkStore.load(dir, manifest.rows),
      ((f) => ({ width: f.width, ranges: new FileRanges(f.path) }))(narrowFile(dir, file.neighbourShared)),
      new FileRanges(join(dir, file.neighbourWeight)),
    );
  }

  get rows(): number {
    return this.manifest.rows;
  }

  /**
   * Bytes this index holds in memory: columns, sort orders, offsets, author arrays, names and ORCIDs, the work
   * store's row positions and the filter bitsets (strings of the manifest's dictionaries not counted: small). What a retained
   * build's memory budget counts (RETAINED_MEMORY_MIB).
   */
  get bytes(): number {
    const arrays = [...Object.values(this.col), ...Object.values(this.orders), this.authorCaWorks];
    const held = this.authors.bytes + this.works.bytes;
    const csr = Object.values(this.csr).reduce((s, c) => s + c.bytes, 0);
    return arrays.reduce((s, a) => s + a.byteLength, 0) + held + csr + this.filters.bytes;
  }

  /** Per-value bitsets and row lists of the filters (filter-bitsets.ts). */
  readonly filters: FilterBitsets;

  /** A row's stored values. */
  private stored(row: number): StoredWork {
    return this.decoded(this.works.get(row), row);
  }
  private decoded(bytes: Buffer, row: number): StoredWork {
    return decodeWork(bytes, `W${this.col.id[row]}`, this.works.symbols, this.authors, this.works.path, this.works.startOf(row));
  }

  /** The work item JSON (the work record without `meta`) of a row. */
  record(row: number): string {
    return workItemJson(this.stored(row));
  }

  /** The CSV export line of a row (LF-terminated). */
  exportRow(row: number): string {
    return workCsvLine(this.stored(row));
  }

  /**
   * Each row the iterator gives, decoded, in its order, the rows read READ_AHEAD at a time (WorkStore.getMany):
   * what an export serializes. A decoded work's texts are read from its row when it is serialized (each run is
   * a fresh buffer, so a decoded work stays valid).
   */
  *decodedRows(rows: Iterator<number>): Generator<StoredWork> {
    for (;;) {
      const batch: number[] = [];
      for (let r = rows.next(); !r.done; r = rows.next()) if (batch.push(r.value) === READ_AHEAD) break;
      if (batch.length === 0) return;
      const bytes = this.works.getMany(batch);
      for (let k = 0; k < batch.length; k++) yield this.decoded(bytes[k]!, batch[k]!);
    }
  }

  /** A researcher's Canadian co-authors, strongest first: author rows, shared works and weights (parallel). */
  neighbours(authorRow: number, limit = Infinity): { rows: Uint32Array; shared: Uint32Array; weight: Float64Array } {
    const [start, total] = this.csr.ca_neighbours.range(authorRow);
    const n = Math.min(total, limit);
    const rows = this.csr.ca_neighbours.list(authorRow).subarray(0, n);
    if (n === 0) return { rows, shared: new Uint32Array(0), weight: new Float64Array(0) };
    const { width, ranges } = this.neighbourShared;
    const s = ranges.read(start * width, n * width);
    const w = this.neighbourWeight.read(start * 8, n * 8);
    // Copies: the read buffers may not be aligned for their element size.
    const shared = width === 2 ? Uint32Array.from(new Uint16Array(new Uint8Array(s).buffer)) : new Uint32Array(new Uint8Array(s).buffer);
    return { rows, shared, weight: new Float64Array(new Uint8Array(w).buffer) };
  }

  /** The numeric id of the author at a row (authors are in numeric id order). */
  authorId(authorRow: number): number {
    return this.authors.ids.at(authorRow);
  }

  authorName(authorRow: number): string {
    return this.authors.names.get(authorRow);
  }

  /** Row of a work id, or -1. */
  rowOfWork(id: string): number {
    return this.workIds.indexOf(idNumber(id));
  }

  /** Row of an author id, or -1. */
  rowOfAuthor(id: string): number {
    return this.authors.row(idNumber(id));
  }

  /** Whether the collaboration network has this author: one with at least one Canadian-affiliated work. */
  inNetwork(id: string): boolean {
    const row = this.rowOfAuthor(id);
    return row >= 0 && this.authorCaWorks[row]! > 0;
  }

  close(): void {
    for (const c of Object.values(this.csr)) c.close();
    this.works.close();
    this.neighbourShared.ranges.close();
    this.neighbourWeight.close();
  }
}
