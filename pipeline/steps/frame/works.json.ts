/**
 * Step 3b: the work records, built by the same serializer the server uses (contracts/frame/work-record.ts):
 * always into the cohort index's record blob (`frame/cohort/records.bin`, one item per work found by row),
 * and, when asked, also as one JSON document per work at `frame/api/v1/works/<id>.json` for static hosting.
 * Works are read in id order, in chunks, so memory stays flat.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotRef } from '../../../contracts/frame/snapshot-ref.ts';
import {
  type AuthorshipRow,
  type LabelRow,
  workItem,
  workRecordMeta,
  workRecordText,
  workRowSql,
} from '../../../contracts/frame/work-record.ts';
import { blob, COHORT_DIR, encodeRecord, file, RECORD_DICTIONARY } from '../../../contracts/frame/cohort-index.ts';
import { type Duck, lit } from '../../lib/duckdb.ts';
import type { Progress } from '../../lib/progress.ts';
import { sha256Text } from '../../lib/hash.ts';

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
): Promise<{ index: string | null; count: number }> {
  if (documents) mkdirSync(join(outDir, WORKS_DIR), { recursive: true });
  mkdirSync(join(outDir, COHORT_DIR), { recursive: true });
  const records = blob(file.records);
  const recordsFd = openSync(join(outDir, COHORT_DIR, records.bin), 'w');
  const metaJson = JSON.stringify(workRecordMeta(snapshot));
  const [{ n } = { n: 0 }] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM works');
  // Chunk boundaries: every CHUNK-th id, so each chunk is one range scan.
  const bounds = (
    await duck.all<{ id: string }>(
      `SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM works) WHERE k % ${CHUNK} = 0 ORDER BY id`,
    )
  ).map((r) => r.id);
  const offsets = new Float64Array(n * 2);
  let pos = 0;
  const index = documents ? `${WORKS_DIR}.sha256` : null;
  const fd = index ? openSync(join(outDir, index), 'w') : -1;
  let count = 0;
  let done = 0;
  let dictionary: Buffer | undefined;
  progress.start(documents ? 'work records and documents' : 'work records', n);
  for (let c = 0; c < bounds.length; c++) {
    const lo = bounds[c]!;
    const hi = bounds[c + 1];
    const where = (col: string) => `${col} >= ${lit(lo)}${hi ? ` AND ${col} < ${lit(hi)}` : ''}`;
    const rows = await duck.all(workRowSql(where));
    const authors = await duck.all<AuthorshipRow & { work_id: string }>(
      `SELECT a.work_id, a.author_id AS id, au.name, au.orcid, a.position::INTEGER AS position, a.is_ca
       FROM authorships a JOIN authors au ON au.id = a.author_id WHERE ${where('a.work_id')} ORDER BY a.work_id, a.position`,
    );
    const labels = await duck.all<LabelRow & { work_id: string }>(
      `SELECT * FROM direct_labels WHERE ${where('work_id')} ORDER BY work_id, model`,
    );
    const byWork = <T extends { work_id: string }>(items: T[]) => {
      const m = new Map<string, T[]>();
      for (const it of items) {
        const l = m.get(it.work_id);
        if (l) l.push(it);
        else m.set(it.work_id, [it]);
      }
      return m;
    };
    const authorsOf = byWork(authors);
    const labelsOf = byWork(labels);
    const parts: Buffer[] = [];
    const items = rows.map((r) => JSON.stringify(workItem(r, authorsOf.get(r.id as string) ?? [], labelsOf.get(r.id as string) ?? [])));
    if (!dictionary) {
      // The first records (in id order) are the compression dictionary: deterministic, and typical.
      dictionary = Buffer.from(items.slice(0, 4).join(''), 'utf8');
      writeFileSync(join(outDir, COHORT_DIR, RECORD_DICTIONARY), dictionary);
    }
    for (const [k, r] of rows.entries()) {
      const id = r.id as string;
      const item = items[k]!;
      const bytes = encodeRecord(item, dictionary);
      const row = r.cohort_row as number;
      offsets[row * 2] = pos;
      offsets[row * 2 + 1] = bytes.length;
      pos += bytes.length;
      parts.push(bytes);
      if (documents) {
        const text = workRecordText(metaJson, item);
        const rel = `${WORKS_DIR}/${id}.json`;
        writeFileSync(join(outDir, rel), text);
        writeSync(fd, `${sha256Text(text)}  ${rel}\n`);
        count++;
      }
    }
    writeSync(recordsFd, Buffer.concat(parts));
    done += rows.length;
    progress.update(done);
  }
  progress.stop();
  closeSync(recordsFd);
  writeFileSync(join(outDir, COHORT_DIR, records.offsets), new Uint8Array(offsets.buffer));
  if (fd >= 0) closeSync(fd);
  return { index, count };
}
