/**
 * Work records: the pipeline stored every work's item in the cohort index's record blob (the same serializer
 * as the per-work documents, contracts/frame/work-record.ts), so a record is one positioned read and one
 * inflate, with this build's `meta` block in front.
 */
import { workRecordMeta, workRecordText as joinRecord } from '../../../../contracts/frame/work-record.ts';
import type { Build } from '../build-store.ts';

const metas = new WeakMap<Build, string>();

/** The work record's JSON text, or null when the frame has no such work. `id` must already be validated. */
export function workRecordText(build: Build, id: string): string | null {
  const row = build.cohort.rowOfWork(id);
  if (row < 0) return null;
  let meta = metas.get(build);
  if (meta === undefined) {
    meta = JSON.stringify(workRecordMeta(build.snapshotRef));
    metas.set(build, meta);
  }
  return joinRecord(meta, build.cohort.record(row));
}
