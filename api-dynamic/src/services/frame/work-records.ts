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
  workRowSql,
} from '../../../../contracts/frame/work-record.ts';
import { lit } from '../../../../contracts/common/sql.ts';
import type { Build } from '../build-store.ts';

async function rows<T>(build: Build, sql: string): Promise<T[]> {
  const reader = await build.db!.runAndReadAll(sql);
  return reader.getRowObjectsJS() as T[];
}

/** The work record's JSON text, or null when the frame has no such work. `id` must already be validated. */
export async function workRecordText(build: Build, id: string): Promise<string | null> {
  // The precomputed document when there is one; otherwise (no documents built, or the file went missing)
  // the same serializer over the database, so a missing file never turns a real work into a 404.
  const file = join(build.dir, build.manifest.work_documents.directory, `${id}.json`);
  if (build.manifest.work_documents.count > 0 && existsSync(file)) return readFileSync(file, 'utf8');
  if (!build.db) return null;
  const [row] = await rows<Record<string, unknown>>(build, workRowSql(`w.id = ${lit(id)}`));
  if (!row) return null;
  const authors = await rows<AuthorshipRow>(
    build,
    `SELECT a.author_id AS id, au.name, au.orcid, a.position::INTEGER AS position, a.is_ca FROM authorships a JOIN authors au ON au.id = a.author_id
     WHERE a.work_id = ${lit(id)} ORDER BY a.position`,
  );
  const labels = await rows<LabelRow>(
    build,
    `SELECT * EXCLUDE (work_id) FROM direct_labels WHERE work_id = ${lit(id)} ORDER BY model`,
  );
  const { manifest_sha256: _, ...snapshot } = build.manifest.snapshot;
  return JSON.stringify(workRecord(row, authors, labels, snapshot));
}
