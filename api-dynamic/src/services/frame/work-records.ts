/**
 * Work records: the cohort index's work store holds every work's values (contracts/frame/work-store.ts), so a
 * record is one positioned read and the item serializer (contracts/frame/work-serialize.ts, the same as for
 * pages, exports and the optional per-work documents), with this build's `meta` block in front.
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
