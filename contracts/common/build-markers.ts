/**
 * Names of the marker files a server leaves in a build directory while it serves from it, so the pipeline's
 * pruning leaves that build alone. Only the naming rule lives here (no I/O): api-dynamic writes and removes
 * the markers, pipeline/lib/build-dir.ts reads them.
 */
const PREFIX = '.serving-';
/** A server keeps an older build answerable (`snapshot=`) even while it is not loaded: RETAIN_SNAPSHOTS. */
const RETAINED_PREFIX = '.retained-';

export const servingMarker = (pid: number): string => `${PREFIX}${pid}`;
export const retainedMarker = (pid: number): string => `${RETAINED_PREFIX}${pid}`;

/** The pid a marker file name (serving or retained) carries, or null when the name is not a marker. */
export function markerPid(fileName: string): number | null {
  const prefix = fileName.startsWith(PREFIX) ? PREFIX : fileName.startsWith(RETAINED_PREFIX) ? RETAINED_PREFIX : null;
  if (prefix === null) return null;
  const pid = Number(fileName.slice(prefix.length));
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}
