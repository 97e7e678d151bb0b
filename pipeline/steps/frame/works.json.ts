/**
 * Step 3b: the work records, built by the same serializer the server uses (contracts/frame/work-record.ts):
 * always into the cohort index's record blob (`frame/cohort/records.bin`, one item per work found by row),
 * and, when asked, also as one JSON document per work at `frame/api/v1/works/<id>.json` for static hosting.
 * Works are read in id order, in chunks, so memory stays flat.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { SnapshotRef } from '../../../contracts/frame/snapshot-ref.ts';
import { workRecordMeta, workRecordText } from '../../../contracts/frame/work-record.ts';
import { blob, COHORT_DIR, EXPORT_ROW_DICTIONARY, file, RECORD_DICTIONARY } from '../../../contracts/frame/cohort-index.ts';
import { WorkerPool } from '../../lib/worker-pool.ts';
import { type EncodeResult, type EncodeTask, encodeRange, itemAndRow, readWorks } from './records-encode.ts';
import type { Duck } from '../../lib/duckdb.ts';
import type { Progress } from '../../lib/progress.ts';
import { sha256Text } from '../../lib/hash.ts';

/**
 * A blob of deflated texts found by row (layout: contracts/frame/cohort-index.ts). The first texts written
 * (in id order) become the compression dictionary: deterministic, and typical of the rest.
 */
class BlobWriter {
  private readonly fd: number;
  private offsets = new Float64Array(0);
  private pos = 0;
  private dictionary: Buffer | null = null;
  constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly dictionaryFile: string,
  ) {
    this.fd = openSync(join(dir, blob(name).bin), 'w');
  }
  allocate(rows: number): void {
    this.offsets = new Float64Array(rows * 2);
  }
  /** Sets the dictionary from the first texts of the build and writes it out. */
  setDictionary(firstTexts: readonly string[]): Buffer {
    this.dictionary = Buffer.from(firstTexts.slice(0, 4).join(''), 'utf8');
    writeFileSync(join(this.dir, this.dictionaryFile), this.dictionary);
    return this.dictionary;
  }
  /** Appends texts already deflated against the dictionary, in any row order. */
  add(rows: readonly number[], encoded: readonly Uint8Array[]): void {
    for (const [k, bytes] of encoded.entries()) {
      this.offsets[rows[k]! * 2] = this.pos;
      this.offsets[rows[k]! * 2 + 1] = bytes.length;
      this.pos += bytes.length;
    }
    writeSync(this.fd, Buffer.concat(encoded));
  }
  private closed = false;
  /** Releases the file on the failure path (the build's temporary directory is removed anyway). */
  closeQuietly(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
  close(): void {
    this.closed = true;
    // An empty frame still gets its (empty) dictionary file, so the index loads.
    if (!this.dictionary) writeFileSync(join(this.dir, this.dictionaryFile), '');
    closeSync(this.fd);
    writeFileSync(join(this.dir, blob(this.name).offsets), new Uint8Array(this.offsets.buffer));
  }
}

export const WORKS_DIR = 'frame/api/v1/works';

const CHUNK = 20_000;

/**
 * Writes the record blob and, with `documents`, every work document plus, line by line as it goes (4.3M
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
): Promise<{ index: string | null; count: number }> {
  if (documents) mkdirSync(join(outDir, WORKS_DIR), { recursive: true });
  mkdirSync(join(outDir, COHORT_DIR), { recursive: true });
  const records = new BlobWriter(join(outDir, COHORT_DIR), file.records, RECORD_DICTIONARY);
  const exportRows = new BlobWriter(join(outDir, COHORT_DIR), file.exportRows, EXPORT_ROW_DICTIONARY);
  const metaJson = JSON.stringify(workRecordMeta(snapshot));
  const [{ n } = { n: 0 }] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM works');
  // Chunk boundaries: every CHUNK-th id, so each chunk is one range scan.
  const bounds = (
    await duck.all<{ id: string }>(
      `SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM works) WHERE k % ${CHUNK} = 0 ORDER BY id`,
    )
  ).map((r) => r.id);
  records.allocate(n);
  exportRows.allocate(n);
  const index = documents ? `${WORKS_DIR}.sha256` : null;
  const fd = index ? openSync(join(outDir, index), 'w') : -1;
  let count = 0;
  let done = 0;
  const threads = threadOption ?? (n > 200_000 ? availableParallelism() : 0);
  const pool = threads > 0 ? new WorkerPool<EncodeTask & { dbPath: string }, EncodeResult>(new URL('./records-worker.ts', import.meta.url), threads) : null;
  const encode = (task: EncodeTask): Promise<EncodeResult> => (pool ? pool.run({ ...task, dbPath }) : encodeRange(duck, task));
  const write = (r: EncodeResult) => {
    records.add(r.rows, r.records);
    exportRows.add(r.rows, r.exports);
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
  progress.start(documents ? 'work records and documents' : 'work records', n);
  // Ranges go to the workers a few at a time; results are written in range order.
  const window: Promise<EncodeResult>[] = [];
  try {
    if (bounds.length > 0) {
      // The first works of the build (in id order) are the compression dictionaries.
      const first = (await readWorks(duck, (col) => `${col} IN (SELECT id FROM works ORDER BY id LIMIT 4)`)).map(itemAndRow);
      const recordDictionary = records.setDictionary(first.map((x) => x[0]));
      const exportDictionary = exportRows.setDictionary(first.map((x) => x[1]));
      for (let c = 0; c < bounds.length; c++) {
        window.push(encode({ lo: bounds[c]!, hi: bounds[c + 1] ?? null, recordDictionary, exportDictionary, withItems: documents }));
        if (window.length > Math.max(1, threads)) write(await window.shift()!);
      }
      while (window.length > 0) write(await window.shift()!);
    }
    records.close();
    exportRows.close();
  } catch (err) {
    // Let the ranges still running settle (their results are dropped), and release the files.
    await Promise.allSettled(window);
    records.closeQuietly();
    exportRows.closeQuietly();
    throw err;
  } finally {
    await pool?.close();
    if (fd >= 0) closeSync(fd);
  }
  progress.stop();
  return { index, count };
}
