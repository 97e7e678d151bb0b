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
import { createReadStream, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { snapshotWorkSchema } from '../../contracts/frame/catalogue-work.ts';
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

/** Parquet rows as JSON texts, through DuckDB (the work record's nested columns become the API's JSON shape). */
async function* parquetRows(path: string): AsyncGenerator<string> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: '512MB' });
  const con = await instance.connect();
  try {
    const source = `read_parquet('${path.replaceAll("'", "''")}')`;
    // Only the columns the rules and the tables read: the rest of a work record is never decoded.
    const present = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjectsJS().map((r) => String(r.column_name));
    const wanted = present.filter((c) => RECORD_COLUMNS.has(c)).map((c) => `"${c.replaceAll('"', '""')}"`);
    const result = await con.stream(`SELECT to_json(struct_pack(${wanted.map((c) => `${c} := ${c}`).join(', ')}))::VARCHAR FROM ${source}`);
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const col = chunk.getColumnVector(0);
      for (let i = 0; i < chunk.rowCount; i++) yield col.getItem(i) as string;
    }
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

/**
 * Calls `onLine` for each line of a text stream, split as readline splits (\n, \r\n or a lone \r), without
 * readline's per-line events: at 10 kB a record, splitting was a tenth of the builder's time.
 */
async function eachLine(text: AsyncIterable<string>, onLine: (line: string) => void): Promise<void> {
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
      for await (const text of parquetRows(file.path)) {
        line++;
        let raw: unknown;
        try {
          raw = JSON.parse(text);
          const rec = raw as Record<string, unknown>;
          // Parquet may carry the inverted index as a JSON string.
          if (typeof rec.abstract_inverted_index === 'string') rec.abstract_inverted_index = JSON.parse(rec.abstract_inverted_index);
        } catch (err) {
          raw = err as Error;
        }
        take(raw instanceof Error ? { kind: 'bad', reason: `unreadable row: ${raw.message.slice(0, 120)}` } : readRecord(raw, o), line);
        if ((line & 4095) === 0 && file.manifestRecords) onBytes?.(Math.min(file.bytes, Math.round((file.bytes * line) / file.manifestRecords)));
      }
    } catch (err) {
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
  writeFileSync(join(dir, 'stats.json.tmp'), JSON.stringify(stats));
  renameSync(join(dir, 'stats.json.tmp'), join(dir, 'stats.json'));
  return stats;
}
