/**
 * Names of the marker files a server leaves in a build directory while it serves from it, so the pipeline's
 * pruning leaves that build alone. Only the naming rule lives here (no I/O): api-dynamic writes and removes
 * the markers, pipeline/lib/build-dir.ts reads them.
 */
const PREFIX = '.serving-';

export const servingMarker = (pid: number): string => `${PREFIX}${pid}`;

/** The pid a marker file name carries, or null when the name is not a marker. */
export function markerPid(fileName: string): number | null {
  if (!fileName.startsWith(PREFIX)) return null;
  const pid = Number(fileName.slice(PREFIX.length));
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}
