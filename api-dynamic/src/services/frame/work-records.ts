/**
 * Work records: the pipeline's precomputed document when the build has one, otherwise the same serializer
 * over the frame database, so both paths give the same bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AuthorshipRow,
  type LabelRow,
  workRecord,
  workRecordMeta,
  workRecordText as joinRecord,
  workRowSql,
} from '../../../../contracts/frame/work-record.ts';
import { lit } from '../../../../contracts/common/sql.ts';
import type { Build } from '../build-store.ts';
import { rows } from './query.ts';


/** The work record's JSON text, or null when the frame has no such work. `id` must already be validated. */
const metas = new WeakMap<Build, string>();

export async function workRecordText(build: Build, id: string): Promise<string | null> {
  // The cohort index's record blob: one read by position and one inflate.
  if (build.cohort) {
    const row = build.cohort.rowOfWork(id);
    if (row < 0) return null;
    let meta = metas.get(build);
    if (meta === undefined) {
      meta = JSON.stringify(workRecordMeta(build.snapshotRef));
      metas.set(build, meta);
    }
    return joinRecord(meta, build.cohort.record(row));
  }
  // The precomputed document when there is one; otherwise (no documents built, or the file went missing)
  // the same serializer over the database, so a missing file never turns a real work into a 404.
  const file = join(build.dir, build.manifest.work_documents.directory, `${id}.json`);
  if (build.manifest.work_documents.count > 0 && existsSync(file)) return readFileSync(file, 'utf8');
  if (!build.db) return null;
  const [row] = await rows<Record<string, unknown>>(build, workRowSql((column) => `${column} = ${lit(id)}`));
  if (!row) return null;
  // Authorships of the work first (sorted by work id: zone maps), then their authors by a literal id list:
  // a join would scan every author.
  const byline = await rows<{ id: string; position: number; is_ca: boolean }>(
    build,
    `SELECT author_id AS id, position::INTEGER AS position, is_ca FROM authorships WHERE work_id = ${lit(id)} ORDER BY position`,
  );
  const people =
    byline.length === 0
      ? []
      : await rows<{ id: string; name: string; orcid: string | null }>(
          build,
          `SELECT id, name, orcid FROM authors WHERE id IN (${byline.map((a) => lit(a.id)).join(', ')})`,
        );
  const personOf = new Map(people.map((p) => [p.id, p]));
  const authors: AuthorshipRow[] = byline.map((a) => ({ ...a, name: personOf.get(a.id)!.name, orcid: personOf.get(a.id)!.orcid }));
  const labels = await rows<LabelRow>(
    build,
    `SELECT * EXCLUDE (work_id) FROM direct_labels WHERE work_id = ${lit(id)} ORDER BY model`,
  );
  const snapshot = build.snapshotRef;
  return JSON.stringify(workRecord(row, authors, labels, snapshot));
}
