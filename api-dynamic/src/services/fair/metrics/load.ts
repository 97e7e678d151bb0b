/**
 * The metric definition files (metrics_v0.8.json, metrics_v0.5.json, metrics_v0.7_software.json), validated by the zod schema in
 * contracts/fair/metrics.ts when this module loads, and the rule for naming a version in a request:
 * `metrics_v0.8`, `0.8` and `metrics_v0.8.yaml` all select the same file (fair.md §1.1); likewise
 * `metrics_v0.7_software`, `0.7_software` and `metrics_v0.7_software.yaml`.
 */
import { metricFileSchema, type MetricFile } from '../../../../../contracts/fair/metrics.ts';
import { UnknownMetricVersionError } from '../engine/errors.ts';
import v05 from './metrics_v0.5.json' with { type: 'json' };
import v07software from './metrics_v0.7_software.json' with { type: 'json' };
import v08 from './metrics_v0.8.json' with { type: 'json' };

/** Every metric file the engine has, by canonical version name. */
export const METRIC_FILES: ReadonlyMap<string, MetricFile> = new Map(
  [metricFileSchema.parse(v08), metricFileSchema.parse(v05), metricFileSchema.parse(v07software)].map((file) => [file.version, file]),
);

/** Canonical names of the accepted versions: the data versions newest first, then the software version. */
export const METRIC_VERSIONS: readonly string[] = [...METRIC_FILES.keys()];

/** The canonical version a request names, or null when it names none we have. */
export function canonicalMetricVersion(requested: string): string | null {
  const match = /^(?:metrics_v)?([0-9]+\.[0-9]+(?:_software)?)(?:\.ya?ml|\.json)?$/i.exec(requested.trim());
  if (!match) return null;
  const name = `metrics_v${match[1]!.toLowerCase()}`;
  return METRIC_FILES.has(name) ? name : null;
}

/** The metric file a request names. @throws UnknownMetricVersionError listing the accepted versions. */
export function metricFile(requested: string): MetricFile {
  const name = canonicalMetricVersion(requested);
  if (!name) throw new UnknownMetricVersionError(requested, METRIC_VERSIONS);
  return METRIC_FILES.get(name)!;
}
