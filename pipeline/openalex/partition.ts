/**
 * Reads one partition file of the works snapshot, streaming (one line or one Parquet row batch at a time),
 * and writes what the frame keeps of it into part files of a checkpoint directory:
 *   works.part        updated,line,<works.csv columns>   admitted works
 *   authorships.part  line,work_id,author_id,position,is_ca,name,orcid
 *   ids.part          id,updated,line                    every valid work id (newer versions decide)
 *   stats.json        counts, the first bad lines, the file's sha256: written last, so it marks the partition done.
 * Runs in a worker thread (worker.ts) or inline.
 */
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { snapshotWorkSchema } from '../../contracts/frame/catalogue-work.ts';
import { FRAME_YEARS, inHarvestWindow } from '../../contracts/frame/route-rules.ts';
import { writeFileAtomicSync } from '../../contracts/common/local-files.ts';
import { CsvFileWriter } from '../lib/csv-writer.ts';
import type { PartitionFile } from './layout.ts';
import { AUTHORSHIPS_PART_COLUMNS, type LineResult, type ReadOptions, readLine, readRecord, type SkipReason, WORKS_PART_COLUMNS } from './record.ts';

export const BAD_SAMPLES = 50;

export interface BadLine {
  file: string;
  line: number;
  reason: string;
}

export interface PartitionStats {
  rel: string;
  bytes: number;
  sha256: string;
  /** Records (non-empty lines or Parquet rows) read. */
  records: number;
  admitted: number;
  skipped: Record<SkipReason, number>;
  bad: number;
  badSamples: BadLine[];
  /** Cells the format could not hold, left empty or clipped (counted per kind). */
  notes: Record<string, number>;
  manifestRecords: number | null;
  /** The fingerprint of the options the partition was read with (a checkpoint is reused only under the same). */
  fingerprint: string;
}

class PartWriters {
  readonly works: CsvFileWriter;
  readonly authorships: CsvFileWriter;
  readonly ids: CsvFileWriter;
  constructor(dir: string) {
    this.works = new CsvFileWriter(join(dir, 'works.part'), WORKS_PART_COLUMNS);
    this.authorships = new CsvFileWriter(join(dir, 'authorships.part'), ['line', ...AUTHORSHIPS_PART_COLUMNS]);
    this.ids = new CsvFileWriter(join(dir, 'ids.part'), ['id', 'updated', 'line']);
  }
  close() {
    this.works.close();
    this.authorships.close();
    this.ids.close();
  }
}

/** The top-level fields of a work record that the frame reads (snapshotWorkSchema's keys). */
const RECORD_COLUMNS = new Set(Object.keys(snapshotWorkSchema.shape));
/**
 * The fields readRecord looks at before the harvest window (id, updated_date, is_xpac, and inHarvestWindow's
 * year and title): enough to decide every record the window rejects.
 */
const HEAD_COLUMNS = ['id', 'updated_date', 'is_xpac', 'publication_year', 'publication_date', 'title', 'display_name'];

const quoted = (c: string) => `"${c.replaceAll('"', '""')}"`;

/**
 * A SQL test true for every row whose year inHarvestWindow may accept (publication_year, or the first four
 * characters of publication_date, within the window). It is a superset by construction: JavaScript then
 * applies the one rule (contracts/frame/route-rules.ts) to every row exactly, and this test only spares
 * DuckDB from turning the rows the window rejects into JSON (two thirds of the generated snapshot).
 */
function mayBeInWindow(present: Set<string>): string {
  const text = (c: string) => (present.has(c) ? `json_extract_string(to_json(${quoted(c)}), '$')` : 'NULL');
  const { from, to } = FRAME_YEARS;
  return `(coalesce(try_cast(${text('publication_year')} AS DOUBLE) BETWEEN ${from} AND ${to}, false) OR coalesce(try_cast(left(${text('publication_date')}, 4) AS INTEGER) BETWEEN ${from} AND ${to}, false))`;
}

/**
 * Parquet rows through DuckDB as two JSON texts each: the head (HEAD_COLUMNS), and the record with every
 * field the rules and the tables read — the latter only for rows the window may admit, null for the rest.
 * Only those columns are decoded, and their nested structs only down to the keys the schema knows (pruned).
 */
export async function* parquetRows(path: string): AsyncGenerator<[string, string | null]> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '512MB' });
  const con = await instance.connect();
  try {
    const source = `read_parquet('${path.replaceAll("'", "''")}')`;
    // Only the columns the rules and the tables read: the rest of a work record is never decoded.
    const present = new Set((await con.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjectsJS().map((r) => String(r.column_name)));
    const pack = (cols: string[], cut: boolean) =>
      `to_json(struct_pack(${cols.map((c) => `${quoted(c)} := ${(cut && pruned(defOf(snapshotWorkSchema.shape[c as keyof typeof snapshotWorkSchema.shape]), quoted(c))) || quoted(c)}`).join(', ')}))::VARCHAR`;
    const head = HEAD_COLUMNS.filter((c) => present.has(c));
    const wanted = [...present].filter((c) => RECORD_COLUMNS.has(c));
    const select = (cut: boolean) => `SELECT ${head.length > 0 ? pack(head, false) : "'{}'"}, CASE WHEN ${mayBeInWindow(present)} THEN ${pack(wanted, cut)} END FROM ${source}`;
    // The nested columns cut to the keys the schema knows, unless the file's structs lack one of them (the
    // cut query does not bind): then whole.
    let cut = true;
    await con.run(`${select(true)} LIMIT 0`).catch(() => (cut = false));
    const result = await con.stream(select(cut));
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const heads = chunk.getColumnVector(0);
      const records = chunk.getColumnVector(1);
      for (let i = 0; i < chunk.rowCount; i++) yield [heads.getItem(i) as string, records.getItem(i) as string | null];
    }
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

/** zod's definition of a schema (zod 4 keeps it on `_zod.def`). */
type ZodDef = { type: string; shape?: Record<string, { _zod: { def: ZodDef } }>; element?: { _zod: { def: ZodDef } }; innerType?: { _zod: { def: ZodDef } } };
const defOf = (schema: unknown) => (schema as { _zod: { def: ZodDef } })._zod.def;

/**
 * A Parquet (struct) expression cut down to the keys the record schema knows, recursively (the schema's
 * objects are loose, so the keys it does not know are never read: leaving them out cannot change what the
 * rules see, only how much JSON there is to parse). Null: keep the value whole.
 */
function pruned(def: ZodDef, expr: string, depth = 0): string | null {
  if (def.type === 'optional' || def.type === 'nullable') return pruned(def.innerType!._zod.def, expr, depth);
  if (def.type === 'array' && def.element) {
    const inner = pruned(def.element._zod.def, `x${depth}`, depth + 1);
    return inner === null ? null : `list_transform(${expr}, x${depth} -> ${inner})`;
  }
  if (def.type === 'object' && def.shape) {
    const fields = Object.entries(def.shape).map(([k, v]) => `${quoted(k)} := ${pruned(v._zod.def, `struct_extract(${expr}, '${k}')`, depth) ?? `struct_extract(${expr}, '${k}')`}`);
    return `CASE WHEN ${expr} IS NULL THEN NULL ELSE struct_pack(${fields.join(', ')}) END`;
  }
  return null;
}

/** A row the SQL window test left out but the rule admits: a bug of mayBeInWindow, never a bad input row. */
class WindowPrefilterError extends Error {}

/**
 * Calls `onLine` for each line of a text stream, split as readline splits (\n, \r\n or a lone \r), without
 * readline's per-line events: at 10 kB a record, splitting was a tenth of the builder's time.
 */
export async function eachLine(text: AsyncIterable<string>, onLine: (line: string) => void): Promise<void> {
  const emit = (piece: string) => {
    const t = piece.endsWith('\r') ? piece.slice(0, -1) : piece;
    if (!t.includes('\r')) onLine(t);
    else for (const part of t.split('\r')) onLine(part);
  };
  let rest = '';
  for await (const chunk of text) {
    const buf = rest === '' ? chunk : rest + chunk;
    let start = 0;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', start)) {
      emit(buf.slice(start, nl));
      start = nl + 1;
    }
    rest = buf.slice(start);
  }
  if (rest !== '') emit(rest);
}

/**
 * Reads a partition into `dir` (replacing what was there) and returns its stats (also written as stats.json).
 * `onBytes` hears how many bytes of the file are read so far (about once a MiB; for Parquet, estimated
 * from the rows read and the snapshot manifest's record count), so a progress bar moves within a partition.
 */
export async function readPartition(file: PartitionFile, dir: string, o: ReadOptions & { fingerprint: string }, onBytes?: (bytes: number) => void): Promise<PartitionStats> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const out = new PartWriters(dir);
  const stats: PartitionStats = {
    rel: file.rel,
    bytes: file.bytes,
    sha256: '',
    records: 0,
    admitted: 0,
    skipped: { window: 0, xpac: 0, 'not-publication': 0, 'no-route': 0 },
    bad: 0,
    badSamples: [],
    notes: {},
    manifestRecords: file.manifestRecords,
    fingerprint: o.fingerprint,
  };
  const bad = (line: number, reason: string) => {
    stats.bad++;
    if (stats.badSamples.length < BAD_SAMPLES) stats.badSamples.push({ file: file.rel, line, reason });
  };
  const take = (r: LineResult, line: number) => {
    stats.records++;
    if (r.kind === 'bad') return bad(line, r.reason);
    out.ids.line(`${r.id},${r.updated},${line}`);
    if (r.kind === 'out') {
      stats.skipped[r.why]++;
      return;
    }
    stats.admitted++;
    out.works.line(`${r.updated},${line},${r.work}`);
    for (const a of r.authorships) out.authorships.line(`${line},${a}`);
    for (const n of r.notes) stats.notes[n] = (stats.notes[n] ?? 0) + 1;
  };

  const hash = createHash('sha256');
  let line = 0;
  if (file.format === 'parquet') {
    // The Parquet file is hashed on its own (DuckDB reads it by path).
    for await (const chunk of createReadStream(file.path, { highWaterMark: 4 << 20 })) hash.update(chunk as Buffer);
    try {
      for await (const [head, text] of parquetRows(file.path)) {
        line++;
        let raw: unknown;
        try {
          raw = JSON.parse(text ?? head);
          const rec = raw as Record<string, unknown>;
          if (text === null && inHarvestWindow(rec)) throw new WindowPrefilterError(`${file.rel} row ${line}: the SQL window test left out a row the window admits`);
          // Parquet may carry the inverted index as a JSON string.
          if (typeof rec.abstract_inverted_index === 'string') rec.abstract_inverted_index = JSON.parse(rec.abstract_inverted_index);
        } catch (err) {
          if (err instanceof WindowPrefilterError) throw err;
          raw = err as Error;
        }
        take(raw instanceof Error ? { kind: 'bad', reason: `unreadable row: ${raw.message.slice(0, 120)}` } : readRecord(raw, o), line);
        if ((line & 4095) === 0 && file.manifestRecords) onBytes?.(Math.min(file.bytes, Math.round((file.bytes * line) / file.manifestRecords)));
      }
    } catch (err) {
      if (err instanceof WindowPrefilterError) throw err;
      bad(line + 1, `unreadable Parquet: ${(err as Error).message.slice(0, 200)}`);
    }
  } else {
    const input = createReadStream(file.path, { highWaterMark: 1 << 20 });
    let read = 0;
    input.on('data', (chunk) => {
      hash.update(chunk as Buffer);
      read += chunk.length;
      onBytes?.(read);
    });
    const gz = /\.gz$/.test(file.path);
    const text = gz ? input.pipe(createGunzip()) : input;
    // A read error of the file is not passed down a pipe: end the text with it.
    if (gz) input.on('error', (err) => text.destroy(err));
    text.setEncoding('utf8');
    try {
      await eachLine(text, (l) => {
        line++;
        if (l.trim() !== '') take(readLine(l, o), line);
      });
    } catch (err) {
      bad(line + 1, `unreadable ${gz ? 'gzip' : 'file'}: ${(err as Error).message.slice(0, 200)}`);
    }
  }
  out.close();
  stats.sha256 = hash.digest('hex');
  if (file.manifestRecords !== null && stats.records !== file.manifestRecords)
    bad(line, `the file holds ${stats.records} records, the snapshot manifest says ${file.manifestRecords}`);
  writeFileAtomicSync(join(dir, 'stats.json'), JSON.stringify(stats));
  return stats;
}
