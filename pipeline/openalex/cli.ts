/**
 * `npm run snapshot:from-openalex -- --works DIR --out DIR [options]`
 * Builds a frame snapshot (snapshots/README.md) from an OpenAlex works snapshot; see docs/openalex-builder.md.
 */
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { terminalProgress } from '../lib/progress.ts';
import { BuildError, buildFromOpenAlex } from './build.ts';

const HELP = `Usage: npm run snapshot:from-openalex -- --works DIR --out DIR [options]

Builds a Research Cohort frame snapshot (the format of snapshots/README.md, synthetic: false) from an
OpenAlex works snapshot, in the legacy layout (data/works/updated_date=…/part_NNN.gz + manifest), the 2026
layout (data/jsonl/works/… or data/parquet/works/… + manifest.json + deleted_ids.csv) or a flat directory
of .jsonl / .jsonl.gz files. Then: npm run pipeline -- --snapshot OUT --out BUILD.

Frame: publication year 2000-2025, a title, and at least one route (aff, fund, venue, about).

Options:
  --works DIR                the snapshot root (holding data/), its works folder, or a flat folder (required)
  --out DIR                  the snapshot directory to write; replaced only when complete (required)
  --name NAME                snapshot name in the manifest (default: the directory name)
  --format jsonl|parquet     which copy to read when the 2026 layout holds both
  --allow-incomplete         build from the files present when the manifest lists missing ones (named in
                             the manifest's provenance); default: refuse
  --exclude-xpac             leave out works of the expansion corpus (is_xpac: true); default: included,
                             as in the snapshot the original frame was built from
  --funders DIR              the snapshot's funder entities: Canadian funders = country_code CA
  --sources DIR              the snapshot's source entities: Canadian sources = country_code CA
  --canadian-funders FILE    pinned list of Canadian funders as CSV (id,name) instead of --funders
  --canadian-sources FILE    pinned list of Canadian sources as CSV (id,name) instead of --sources
  --retraction-watch FILE    the Retraction Watch CSV as Crossref publishes it (joined on the DOI)
  --labels FILE              direct_labels.csv in the snapshot format (default: an empty table)
  --predictions FILE         predictions.csv in the snapshot format (default: an empty table)
  --predictions-report FILE  predictions-report.json for --predictions
  --screened FILE            screened.csv in the snapshot format (default: an empty table)
  --legacy-scores FILE       legacy_scores.csv in the snapshot format (default: an empty table)
  --max-bad-lines P          largest share of bad records tolerated, in percent (default 0.1)
  --threads N                partitions mapped at once, one DuckDB thread each (default: cores, at most 8)
  --work-dir DIR             checkpoints (default OUT.work); a rerun resumes from them
  --release DATE             OpenAlex release date YYYY-MM-DD (default: the manifest's date, else the
                             latest updated_date partition)
  --built DATE               build date YYYY-MM-DD (default: today, UTC)
  --memory-limit SIZE        DuckDB memory limit for the merge (default 1GB)
  --map-partition K          only map the K-th partition file (layout order, from 0) into its checkpoint
                             under the work directory, then stop: one task of an array job
  --merge-only               only build the snapshot from the checkpoints of every partition (refused when
                             one is missing); give the same lists and options as the map tasks
  -h, --help                 show this help
`;

function fail(msg: string): never {
  process.stderr.write(`snapshot:from-openalex: ${msg}\n\n${HELP}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      works: { type: 'string' },
      out: { type: 'string' },
      name: { type: 'string' },
      format: { type: 'string' },
      'allow-incomplete': { type: 'boolean', default: false },
      'exclude-xpac': { type: 'boolean', default: false },
      funders: { type: 'string' },
      sources: { type: 'string' },
      'canadian-funders': { type: 'string' },
      'canadian-sources': { type: 'string' },
      'retraction-watch': { type: 'string' },
      labels: { type: 'string' },
      predictions: { type: 'string' },
      'predictions-report': { type: 'string' },
      screened: { type: 'string' },
      'legacy-scores': { type: 'string' },
      'max-bad-lines': { type: 'string', default: '0.1' },
      threads: { type: 'string' },
      'work-dir': { type: 'string' },
      release: { type: 'string' },
      built: { type: 'string' },
      'memory-limit': { type: 'string', default: '1GB' },
      'map-partition': { type: 'string' },
      'merge-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  fail((err as Error).message);
}
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
if (!values.works) fail('--works DIR is required');
if (!values.out) fail('--out DIR is required');
if (values.format !== undefined && values.format !== 'jsonl' && values.format !== 'parquet') fail(`--format must be jsonl or parquet, got ${values.format}`);
if (values.funders && values['canadian-funders']) fail('give --funders DIR or --canadian-funders FILE, not both');
if (values.sources && values['canadian-sources']) fail('give --sources DIR or --canadian-sources FILE, not both');
const maxBad = Number(values['max-bad-lines']);
if (!Number.isFinite(maxBad) || maxBad < 0 || maxBad > 100) fail('--max-bad-lines must be a percentage from 0 through 100');
const threads = values.threads ? Number(values.threads) : Math.min(8, availableParallelism());
if (!Number.isInteger(threads) || threads < 1 || threads > 64) fail('--threads must be a whole number from 1 through 64');
for (const d of [values.release, values.built]) if (d !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(d)) fail(`dates must be YYYY-MM-DD, got ${d}`);
if (!/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i.test(values['memory-limit']!)) fail('--memory-limit must be a size such as 512MB or 2GB');
const mapPartition = values['map-partition'] === undefined ? undefined : Number(values['map-partition']);
if (mapPartition !== undefined && !(Number.isInteger(mapPartition) && mapPartition >= 0))
  fail(`--map-partition must be a whole number from 0, got ${values['map-partition']}`);
if (mapPartition !== undefined && values['merge-only']) fail('give --map-partition K or --merge-only, not both');
const out = resolve(values.out!);
const name = values.name ?? basename(out);
if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(name)) fail(`--name must be a lower-case slug, got ${name}`);
const abs = (p: string | undefined) => (p === undefined ? undefined : resolve(p));
const listSpec = (dir: string | undefined, csv: string | undefined) => (dir ? { dir: resolve(dir) } : csv ? { csv: resolve(csv) } : undefined);

try {
  await buildFromOpenAlex({
    works: resolve(values.works!),
    out,
    name,
    format: values.format as 'jsonl' | 'parquet' | undefined,
    allowIncomplete: values['allow-incomplete']!,
    excludeXpac: values['exclude-xpac']!,
    funders: listSpec(values.funders, values['canadian-funders']),
    sources: listSpec(values.sources, values['canadian-sources']),
    retractionWatch: abs(values['retraction-watch']),
    labels: {
      direct_labels: abs(values.labels),
      predictions: abs(values.predictions),
      screened: abs(values.screened),
      legacy_scores: abs(values['legacy-scores']),
    },
    predictionsReport: abs(values['predictions-report']),
    maxBadFraction: maxBad / 100,
    threads,
    workDir: abs(values['work-dir']),
    releaseDate: values.release,
    buildDate: values.built ?? new Date().toISOString().slice(0, 10),
    memoryLimit: values['memory-limit']!,
    progress: terminalProgress(),
    step: mapPartition !== undefined ? { map: mapPartition } : values['merge-only'] ? 'merge' : undefined,
  });
} catch (err) {
  if (err instanceof BuildError) {
    process.stderr.write(`snapshot:from-openalex: ${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
