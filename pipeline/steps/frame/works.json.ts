/**
 * Step 3b: the work store (contracts/frame/work-store.ts): every work's values packed once into
 * `frame/cohort/works.bin`, found by row, from which the server serializes records, page items and export rows;
 * and, when asked, one JSON document per work at `frame/api/v1/works/<id>.json` for static hosting, made by the
 * same serializer. Works are read in id order, in chunks, so memory stays flat.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { SnapshotRef } from '../../../contracts/frame/snapshot-ref.ts';
import { workRecordMeta, workRecordText } from '../../../contracts/frame/work-record.ts';
import { COHORT_DIR, file, narrowName } from '../../../contracts/frame/cohort-index.ts';
import { PREFIX_SEPARATOR, symbolFields, SYMLIST_SEPARATOR, type SymbolTables, WORD_SEPARATOR } from '../../../contracts/frame/work-store.ts';
import { WorkerPool } from '../../lib/worker-pool.ts';
import { type EncodeResult, type EncodeTask, encodeRange } from './records-encode.ts';
import { type Duck, lit } from '../../lib/duckdb.ts';
import type { Progress } from '../../lib/progress.ts';
import { sha256Text } from '../../lib/hash.ts';

/** At most this many frequent title tokens (or DOI prefixes) are interned: a bound on the server's memory. */
const MAX_OPTIONAL_SYMBOLS = 1 << 18;

/** The tables a work's values come from, in the precedence of workRowSql (the first holding a column wins). */
const WORK_TABLES = ['works', 'predictions', 'screened', 'retractions', 'legacy_scores'] as const;

/** Every symbol table of the store: the distinct values of each interned field (list elements for lists). */
export async function readSymbolTables(duck: Duck): Promise<SymbolTables> {
  const columns = await duck.all<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_name IN ('direct_labels', ${WORK_TABLES.map((t) => `'${t}'`).join(', ')})`,
  );
  const tableOf = (field: string, label: boolean): string => {
    const candidates = label ? ['direct_labels'] : WORK_TABLES;
    const t = candidates.find((c) => columns.some((r) => r.table_name === c && r.column_name === field));
    if (!t) throw new Error(`work store: no table of the frame database has the column ${field}`);
    return t;
  };
  const tables: SymbolTables = {};
  for (const f of symbolFields()) {
    const from = tableOf(f.field, f.label);
    let sql: string;
    if (f.kind === 'words' || f.kind === 'prefixed') {
      // Optional tables: the tokens (prefixes) that repeat, most frequent first so they get the shortest codes.
      const value =
        f.kind === 'words'
          ? `unnest(string_split(${f.field}, ${lit(WORD_SEPARATOR)}))`
          : `substr(${f.field}, 1, instr(${f.field}, ${lit(PREFIX_SEPARATOR)}) - 1)`;
      const where = f.kind === 'prefixed' ? ` AND instr(${f.field}, ${lit(PREFIX_SEPARATOR)}) > 0` : '';
      sql = `SELECT v FROM (SELECT ${value} AS v FROM ${from} WHERE ${f.field} IS NOT NULL${where})
             GROUP BY v HAVING count(*) > 1 ORDER BY count(*) DESC, v LIMIT ${MAX_OPTIONAL_SYMBOLS}`;
    } else {
      const value = f.kind === 'symlist' ? `unnest(string_split(${f.field}, ${lit(SYMLIST_SEPARATOR)}))` : f.field;
      sql = `SELECT DISTINCT ${value} AS v FROM ${from} WHERE ${f.field} IS NOT NULL ORDER BY v`;
    }
    tables[f.table] = (await duck.all<{ v: string }>(sql)).map((r) => r.v);
  }
  return tables;
}

/** The store's packed rows, written in any order, with each row's start and length. */
class StoreWriter {
  private readonly fd: number;
  private readonly start: Float64Array;
  private readonly length: Uint32Array;
  private pos = 0;
  private closed = false;
  constructor(
    private readonly dir: string,
    rows: number,
  ) {
    this.fd = openSync(join(dir, file.works), 'w');
    this.start = new Float64Array(rows);
    this.length = new Uint32Array(rows);
  }
  add(r: EncodeResult): void {
    let at = this.pos;
    r.rows.forEach((row, k) => {
      this.start[row] = at;
      this.length[row] = r.lengths[k]!;
      at += r.lengths[k]!;
    });
    writeSync(this.fd, r.packed);
    this.pos += r.packed.byteLength;
  }
  /** Releases the file on the failure path (the build's temporary directory is removed anyway). */
  closeQuietly(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
  close(): void {
    this.closeQuietly();
    // Rows packed in row order (ids of one length: id order is numeric order) need no start file: the reader
    // sums the lengths (34 MB less at 4.3M works).
    let inOrder = true;
    for (let r = 0, at = 0; r < this.length.length && inOrder; at += this.length[r]!, r++) inOrder = this.start[r] === at;
    if (!inOrder) writeFileSync(join(this.dir, file.workStart), new Uint8Array(this.start.buffer));
    const longest = this.length.reduce((m, n) => Math.max(m, n), 0);
    const lengthName = narrowName(file.workLength, longest);
    const lengths = lengthName === file.workLength.u16 ? Uint16Array.from(this.length) : this.length;
    writeFileSync(join(this.dir, lengthName), new Uint8Array(lengths.buffer, lengths.byteOffset, lengths.byteLength));
  }
}

export const WORKS_DIR = 'frame/api/v1/works';

const CHUNK = 20_000;

/**
 * Writes the work store and, with `documents`, every work document plus, line by line as it goes (4.3M
 * entries would not fit comfortably in memory), the index `<WORKS_DIR>.sha256` in `sha256sum` format.
 * Returns the index path and the number of documents.
 */
export async function writeWorkRecords(
  duck: Duck,
  outDir: string,
  snapshot: SnapshotRef,
  progress: Progress,
  documents: boolean,
  /** The frame database's path, which worker threads open read-only. */
  dbPath: string,
  /** Worker threads that read and encode records; 0 works in this thread. Default: the cores when the frame is large. */
  threadOption?: number,
  /** Works per range (tests use small ranges to check that several ranges in one thread do not interleave). */
  chunk = CHUNK,
): Promise<{ index: string | null; count: number }> {
  if (documents) mkdirSync(join(outDir, WORKS_DIR), { recursive: true });
  mkdirSync(join(outDir, COHORT_DIR), { recursive: true });
  const dir = join(outDir, COHORT_DIR);
  const symbolsPath = join(dir, file.workSymbols);
  writeFileSync(symbolsPath, JSON.stringify(await readSymbolTables(duck)));
  const metaJson = JSON.stringify(workRecordMeta(snapshot));
  const [{ n } = { n: 0 }] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM works');
  // Chunk boundaries: every CHUNK-th id, so each chunk is one range scan.
  const bounds = (
    await duck.all<{ id: string }>(`SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM works) WHERE k % ${chunk} = 0 ORDER BY id`)
  ).map((r) => r.id);
  const store = new StoreWriter(dir, n);
  const index = documents ? `${WORKS_DIR}.sha256` : null;
  const fd = index ? openSync(join(outDir, index), 'w') : -1;
  let count = 0;
  let done = 0;
  const threads = threadOption ?? (n > 200_000 ? availableParallelism() : 0);
  const pool = threads > 0 ? new WorkerPool<EncodeTask & { dbPath: string }, EncodeResult>(new URL('./records-worker.ts', import.meta.url), threads) : null;
  const encode = (task: EncodeTask): Promise<EncodeResult> => (pool ? pool.run({ ...task, dbPath }) : encodeRange(duck, task));
  const write = (r: EncodeResult) => {
    store.add(r);
    if (documents)
      r.ids.forEach((id, k) => {
        const text = workRecordText(metaJson, r.items![k]!);
        const rel = `${WORKS_DIR}/${id}.json`;
        writeFileSync(join(outDir, rel), text);
        writeSync(fd, `${sha256Text(text)}  ${rel}\n`);
        count++;
      });
    done += r.rows.length;
    progress.update(done);
  };
  progress.start(documents ? 'work store and documents' : 'work store', n);
  // Ranges go to the workers a few at a time; results are written in range order.
  const window: Promise<EncodeResult>[] = [];
  try {
    for (let c = 0; c < bounds.length; c++) {
      window.push(encode({ lo: bounds[c]!, hi: bounds[c + 1] ?? null, symbolsPath, withItems: documents }));
      // In this thread the ranges share one connection, whose streamed results must not interleave: one at a time.
      if (window.length > (pool ? threads : 0)) write(await window.shift()!);
    }
    while (window.length > 0) write(await window.shift()!);
    store.close();
  } catch (err) {
    // Let the ranges still running settle (their results are dropped), and release the files.
    await Promise.allSettled(window);
    store.closeQuietly();
    throw err;
  } finally {
    await pool?.close();
    if (fd >= 0) closeSync(fd);
  }
  progress.stop();
  return { index, count };
}
