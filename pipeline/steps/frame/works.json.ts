/**
 * Step 3b: one JSON document per work at `frame/api/v1/works/<id>.json`, built by the same serializer the
 * server uses (contracts/frame/work-record.ts). Works are read in id order, in chunks, so memory stays flat.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotRef } from '../../../contracts/frame/snapshot-ref.ts';
import {
  type AuthorshipRow,
  type LabelRow,
  workRecord,
  workRowSql,
} from '../../../contracts/frame/work-record.ts';
import { type Duck, lit } from '../../lib/duckdb.ts';
import type { Progress } from '../../lib/progress.ts';
import { sha256Text } from '../../lib/hash.ts';

export const WORKS_DIR = 'frame/api/v1/works';
const CHUNK = 20_000;

/**
 * Writes every work document and, line by line as it goes (4.3M entries would not fit comfortably in
 * memory), the index `<WORKS_DIR>.sha256` in `sha256sum` format. Returns the index path and the count.
 */
export async function writeWorkDocuments(
  duck: Duck,
  outDir: string,
  snapshot: SnapshotRef,
  progress: Progress,
): Promise<{ index: string; count: number }> {
  mkdirSync(join(outDir, WORKS_DIR), { recursive: true });
  const [{ n } = { n: 0 }] = await duck.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM works');
  // Chunk boundaries: every CHUNK-th id, so each chunk is one range scan.
  const bounds = (
    await duck.all<{ id: string }>(
      `SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM works) WHERE k % ${CHUNK} = 0 ORDER BY id`,
    )
  ).map((r) => r.id);
  const index = `${WORKS_DIR}.sha256`;
  const fd = openSync(join(outDir, index), 'w');
  let count = 0;
  progress.start('work documents', n);
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
    for (const r of rows) {
      const id = r.id as string;
      const text = JSON.stringify(workRecord(r, authorsOf.get(id) ?? [], labelsOf.get(id) ?? [], snapshot));
      const rel = `${WORKS_DIR}/${id}.json`;
      writeFileSync(join(outDir, rel), text);
      writeSync(fd, `${sha256Text(text)}  ${rel}\n`);
      count++;
    }
    progress.update(count);
  }
  progress.stop();
  closeSync(fd);
  return { index, count };
}
