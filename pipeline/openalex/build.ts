/**
 * Builds a frame snapshot in the project's own format (snapshots/README.md) from an OpenAlex works snapshot:
 *   1. find the partition files (layout.ts; an incomplete download is refused),
 *   2. map every partition, several at once, each into a checkpoint directory (partition.ts): a rerun after
 *      a crash or kill skips the partitions already done,
 *   3. merge: latest version of each work wins, deletions and merges applied (merge.ts),
 *   4. write the tables, the pinned Canadian lists, the two documents, report.json and the manifest
 *      (`synthetic: false`, with provenance), into a temporary directory renamed over `out` only when complete.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { stablePretty } from '../../contracts/common/stable-json.ts';
import { ABOUT_CANADA_VERSION } from '../../contracts/frame/about-canada.ts';
import { canadianListsDocument, type CanadianListEntry } from '../../contracts/frame/canadian-lists.ts';
import { FRAME_YEARS, ROUTE_RULES_VERSION } from '../../contracts/frame/route-rules.ts';
import { type SnapshotManifest, type SnapshotProvenance, TABLES } from '../../contracts/frame/snapshot.ts';
import { CATEGORY_ORDER } from '../../contracts/frame/vocab.ts';
import { csvCell } from '../lib/csv-writer.ts';
import { sha256File, sha256Text } from '../lib/hash.ts';
import type { Progress } from '../lib/progress.ts';
import { canadianEntities, listFromCsv } from './canadian-lists.ts';
import { BuildError, findWorks, type PartitionFile, readDeletedIds } from './layout.ts';
import { header, mergeParts, type MergeResult, writeTable } from './merge.ts';
import { BAD_SAMPLES, openRulesDuck, type PartitionStats, readPartition } from './partition.ts';
import { readRetractionWatch } from './retraction-watch.ts';
import type { RuleLists } from '../../contracts/frame/rules-sql.ts';
import { swapIntoPlace } from '../lib/swap-dir.ts';

export { BuildError };

/** 1: first release; 2: the rules run by DuckDB, checkpoints in Parquet. */
export const BUILDER_VERSION = '2';

export const LABEL_TABLES = ['direct_labels', 'predictions', 'screened', 'legacy_scores'] as const;
type LabelTable = (typeof LABEL_TABLES)[number];

export interface BuildOptions {
  works: string;
  out: string;
  name: string;
  format?: 'jsonl' | 'parquet' | undefined;
  allowIncomplete: boolean;
  excludeXpac: boolean;
  funders?: { dir: string } | { csv: string } | undefined;
  sources?: { dir: string } | { csv: string } | undefined;
  retractionWatch?: string | undefined;
  labels: Partial<Record<LabelTable, string | undefined>>;
  predictionsReport?: string | undefined;
  /** Largest share of bad records tolerated (0.001 = 0.1%). */
  maxBadFraction: number;
  threads: number;
  /** Checkpoints; default `<out>.work`. Kept after a failed run (a rerun resumes), removed after success. */
  workDir?: string | undefined;
  releaseDate?: string | undefined;
  buildDate: string;
  memoryLimit: string;
  progress: Progress;
  /**
   * One step of a run split across processes or machines: `{ map: k }` maps the k-th partition file (layout
   * order, from 0) into its checkpoint under the work directory and stops; `'merge'` builds the snapshot from
   * the checkpoints of every partition, refusing when one is missing. Default: both in one run.
   */
  step?: { map: number } | 'merge' | undefined;
}

async function listOf(spec: BuildOptions['funders'], letter: 'F' | 'S'): Promise<{ entries: CanadianListEntry[]; from: string }> {
  if (!spec) return { entries: [], from: 'none given: the route admits no work' };
  if ('dir' in spec) return { entries: await canadianEntities(spec.dir, letter), from: `entities with country_code CA in ${basename(spec.dir)}` };
  return { entries: listFromCsv(spec.csv, letter), from: `pinned CSV ${basename(spec.csv)}` };
}

/** Maps every partition without a checkpoint, `threads` at once (one DuckDB instance each); `mergeOnly`: refuses instead. */
async function readAll(
  files: PartitionFile[],
  workDir: string,
  rules: RuleLists & { fingerprint: string },
  threads: number,
  progress: Progress,
  mergeOnly = false,
): Promise<{ dir: string; stats: PartitionStats }[]> {
  const dirs = files.map((f) => join(workDir, 'parts', f.rel.replace(/[^A-Za-z0-9._=-]+/g, '_')));
  const results: ({ dir: string; stats: PartitionStats } | null)[] = files.map((f, k) => {
    const statsFile = join(dirs[k]!, 'stats.json');
    if (!existsSync(statsFile)) return null;
    const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as PartitionStats;
    return stats.fingerprint === rules.fingerprint && stats.bytes === f.bytes && stats.rel === f.rel ? { dir: dirs[k]!, stats } : null;
  });
  const resumed = results.filter((r) => r !== null).length;
  if (resumed > 0) progress.log(`resuming: ${resumed} of ${files.length} partitions already read (checkpoints in ${workDir})`);
  const todo = files.map((f, k) => k).filter((k) => results[k] === null);
  const unmapped = todo.map((k) => files[k]!.rel);
  if (mergeOnly && todo.length > 0)
    throw new BuildError(
      `${todo.length} of ${files.length} partitions have no checkpoint in ${workDir} (map them first, with the same lists and options): ${unmapped.slice(0, 10).join(', ')}`,
    );
  let done = files.reduce((s, f, k) => s + (results[k] ? f.bytes : 0), 0);
  // Bytes read of the partitions under way, so the bar moves within a long partition (not only between).
  const partial = new Map<number, number>();
  const show = () => progress.update([...partial.values()].reduce((s, b) => s + b, done));
  const total = files.reduce((s, f) => s + f.bytes, 0);
  progress.start('read partitions (bytes)', total);
  progress.update(done);
  // One DuckDB instance (one thread) per partition under way, each mapping one partition after another.
  const ducks = await Promise.all(Array.from({ length: Math.min(threads, todo.length) }, openRulesDuck));
  const slots = ducks.map(async (duck) => {
    for (let k = todo.shift(); k !== undefined; k = todo.shift()) {
      const file = files[k]!;
      const onBytes = (bytes: number) => {
        partial.set(k, Math.min(file.bytes, bytes));
        show();
      };
      results[k] = { dir: dirs[k]!, stats: await readPartition(file, dirs[k]!, rules, duck, onBytes).finally(() => partial.delete(k)) };
      done += file.bytes;
      show();
    }
  });
  try {
    // After a failure the other slots map on (their checkpoints serve the rerun); the first failure is thrown.
    await Promise.allSettled(slots);
    await Promise.all(slots);
  } finally {
    progress.stop();
    for (const duck of ducks) duck.close();
  }
  return results as { dir: string; stats: PartitionStats }[];
}

export type BuildReport = ReturnType<typeof reportOf>;

function reportOf(parts: PartitionStats[], maxBad: number, merge: MergeResult | null) {
  const records = parts.reduce((s, p) => s + p.records, 0);
  const bad = parts.reduce((s, p) => s + p.bad, 0);
  const sum = (pick: (p: PartitionStats) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const p of parts) for (const [k, v] of Object.entries(pick(p))) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  return {
    records,
    bad,
    bad_fraction: bad / Math.max(1, records),
    max_bad_fraction: maxBad,
    /** The first 50 bad records: file (below the works directory), line, reason. */
    first_bad: parts.flatMap((p) => p.badSamples).slice(0, BAD_SAMPLES),
    bad_by_file: Object.fromEntries(parts.filter((p) => p.bad > 0).map((p) => [p.rel, p.bad])),
    cells_adjusted: sum((p) => p.notes),
    skipped: sum((p) => p.skipped),
    admitted_versions: parts.reduce((s, p) => s + p.admitted, 0),
    superseded_versions: merge?.superseded ?? 0,
    deleted_works: merge?.deleted ?? 0,
    works: merge?.counts.works ?? 0,
  };
}

function writeJson(dir: string, file: string, value: unknown) {
  const text = stablePretty(value);
  writeFileSync(join(dir, file), text);
  return { file, bytes: Buffer.byteLength(text), sha256: sha256Text(text) };
}

/** An operator's label table: copied when its header is the table's; the pipeline validates its rows. */
async function labelTable(dir: string, t: LabelTable, source: string | undefined) {
  const file = TABLES[t].file;
  if (!source) return writeTable(dir, t);
  if (!existsSync(source)) throw new BuildError(`--${t.replace('_', '-')} ${source}: no such file`);
  const text = readFileSync(source, 'utf8');
  const first = text.slice(0, text.indexOf('\n') >>> 0);
  if (first.replace(/\r$/, '') !== header(t).join(','))
    throw new BuildError(`${source}: the header must be ${header(t).join(',')} (the ${file} format of snapshots/README.md)`);
  copyFileSync(source, join(dir, file));
  const rows = text.split('\n').filter((l) => l.trim() !== '').length - 1;
  return { file, rows, bytes: Buffer.byteLength(text), sha256: await sha256File(join(dir, file)) };
}

const pct = (a: number, b: number) => Math.round((1000 * a) / Math.max(1, b)) / 10;

function findingsOf(m: MergeResult, at: string, release: string | null): Record<string, unknown> {
  const c = m.counts;
  const noAff = c.works - c.aff;
  const f = (headline: string, values: Record<string, unknown>) => ({ headline, values, computed_at_utc: at });
  return {
    the_frame: f(`${c.works} works published 2000–2025 admitted by at least one of four Canadian routes (OpenAlex${release ? ` release ${release}` : ''}).`, {
      works: c.works,
      route_ca_aff: c.aff,
      route_ca_fund: c.fund,
      route_ca_venue: c.venue,
      route_about_ca: c.about,
      with_venue: c.withVenue,
    }),
    affiliation_gap: f(`${noAff} works (${pct(noAff, c.works)}%) have no Canadian affiliation and are invisible to an affiliation-only frame.`, {
      invisible_to_affiliation: noAff,
      pct: pct(noAff, c.works),
    }),
    abstract_cascade: f(`${c.noAbstract} works (${pct(c.noAbstract, c.works)}%) have no abstract.`, {
      no_abstract: c.noAbstract,
      pct: pct(c.noAbstract, c.works),
    }),
    language_gap: f(`${c.french} works (${pct(c.french, c.works)}%) are in French.`, { french: c.french, pct: pct(c.french, c.works) }),
    retraction_record: f(`${c.retracted} works carry the catalogue's retraction flag; ${m.tables.retractions.rows} are matched in Retraction Watch.`, {
      openalex_flagged: c.retracted,
      retraction_watch_matched: m.tables.retractions.rows,
      ...m.retractionsByNature,
    }),
  };
}

function emptyPredictionsReport(rows: number, at: string): Record<string, unknown> {
  return {
    predictions: {
      model_version: 'none',
      generated_at_utc: at,
      n_predictions: rows,
      prediction_status: rows === 0 ? 'no_predictions_in_snapshot' : 'machine_predicted_unvalidated',
      candidate_policy: rows === 0 ? 'none' : 'as supplied by the operator',
      consensus_policy: rows === 0 ? 'none' : 'as supplied by the operator',
      category_order: CATEGORY_ORDER,
      limitations: [
        rows === 0
          ? 'no predictions in this snapshot: it was built from OpenAlex without a predictions table'
          : 'predictions supplied by the operator without their model report',
      ],
    },
    model: { model_version: 'none', evaluation: {} },
  };
}

/** Builds the snapshot; with `step: { map }`, maps one partition and returns null. */
export async function buildFromOpenAlex(o: BuildOptions & { step: { map: number } }): Promise<null>;
export async function buildFromOpenAlex(o: BuildOptions): Promise<{ manifest: SnapshotManifest; report: BuildReport }>;
export async function buildFromOpenAlex(o: BuildOptions): Promise<{ manifest: SnapshotManifest; report: BuildReport } | null> {
  const started = performance.now();
  const layout = findWorks(o.works, { format: o.format, allowIncomplete: o.allowIncomplete });
  o.progress.log(
    `${layout.layout} layout: ${layout.files.length} works files in ${layout.worksDir}${layout.missing.length ? ` (${layout.missing.length} listed files not read)` : ''}`,
  );
  const funders = await listOf(o.funders, 'F');
  const sources = await listOf(o.sources, 'S');
  const lists = canadianListsDocument(funders.entries, sources.entries);
  o.progress.log(`pinned lists: ${lists.funders.length} Canadian funders, ${lists.sources.length} Canadian sources (route version ${lists.route_version})`);
  const step = o.step;
  if (step !== undefined && step !== 'merge' && !(Number.isInteger(step.map) && step.map >= 0 && step.map < layout.files.length))
    throw new BuildError(`--map-partition ${step.map}: the snapshot has ${layout.files.length} partition files (0 through ${layout.files.length - 1})`);

  const fingerprint = sha256Text(JSON.stringify([BUILDER_VERSION, ROUTE_RULES_VERSION, ABOUT_CANADA_VERSION, lists.route_version, o.excludeXpac])).slice(0, 16);
  const workDir = o.workDir ?? `${o.out}.work`;
  mkdirSync(workDir, { recursive: true });
  const rules = { funderIds: lists.funders.map((f) => f.id), sourceIds: lists.sources.map((s) => s.id), excludeXpac: o.excludeXpac, fingerprint };
  if (step !== undefined && step !== 'merge') {
    const [part] = await readAll([layout.files[step.map]!], workDir, rules, 1, o.progress);
    o.progress.log(
      `partition ${step.map} (${part!.stats.rel}): ${part!.stats.records} records, ${part!.stats.admitted} admitted, ${part!.stats.bad} bad → ${part!.dir}`,
    );
    return null;
  }
  const parts = await readAll(layout.files, workDir, rules, o.threads, o.progress, step === 'merge');
  const rw = o.retractionWatch ? await readRetractionWatch(o.retractionWatch) : null;
  const deleted = new Set(layout.deletionFiles.flatMap((f) => readDeletedIds(f)));
  const stats = parts.map((p) => p.stats);

  const pre = reportOf(stats, o.maxBadFraction, null);
  if (pre.bad_fraction > o.maxBadFraction) {
    const first = pre.first_bad.slice(0, 3).map((b) => `${b.file}:${b.line} ${b.reason}`);
    writeFileSync(join(workDir, 'report.json'), stablePretty(pre));
    throw new BuildError(
      `${pre.bad} of ${pre.records} records are bad (${(pre.bad_fraction * 100).toFixed(3)}%, more than --max-bad-lines ${(o.maxBadFraction * 100).toFixed(3)}%); ` +
        `see ${join(workDir, 'report.json')}. First: ${first.join('; ')}`,
    );
  }

  const tmp = `${o.out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    o.progress.log('merging partitions (latest version wins; deletions applied)');
    const merged = await mergeParts({
      parts: parts.map((p) => p.dir),
      deletedIds: deleted,
      notices: rw?.notices ?? null,
      workDir,
      outDir: tmp,
      memoryLimit: o.memoryLimit,
      threads: Math.max(1, o.threads),
    });
    const tables: Partial<SnapshotManifest['tables']> = {
      ...merged.tables,
      canadian_funders: await writeTable(tmp, 'canadian_funders', (w) => lists.funders.forEach((e) => w.line(`${e.id},${csvCell(e.name)}`))),
      canadian_sources: await writeTable(tmp, 'canadian_sources', (w) => lists.sources.forEach((e) => w.line(`${e.id},${csvCell(e.name)}`))),
      recent_works: await writeTable(tmp, 'recent_works'),
    };
    for (const t of LABEL_TABLES) tables[t] = await labelTable(tmp, t, o.labels[t]);

    const at = `${o.buildDate}T00:00:00Z`;
    const dates = layout.files.flatMap((f) => f.updatedDate ?? []).sort();
    const release = o.releaseDate ?? layout.manifestDate ?? dates.at(-1) ?? null;
    const predictionsReport = o.predictionsReport
      ? JSON.parse(readFileSync(o.predictionsReport, 'utf8'))
      : emptyPredictionsReport(tables.predictions!.rows, at);
    const documents = {
      findings: writeJson(tmp, 'findings.json', findingsOf(merged, at, release)),
      predictions_report: writeJson(tmp, 'predictions-report.json', predictionsReport),
    };
    const report = reportOf(stats, o.maxBadFraction, merged);
    const provenance: SnapshotProvenance = {
      builder: { name: 'pipeline/openalex', version: BUILDER_VERSION },
      upstream: {
        catalogue: 'OpenAlex works snapshot',
        layout: layout.layout,
        release_date: release,
        manifest_records: layout.manifestRecords,
        partitions_read: layout.files.length,
        partitions_missing: layout.missing.slice(0, 100),
        partitions_missing_count: layout.missing.length,
        records_read: report.records,
        bad_records: report.bad,
        expansion_corpus: o.excludeXpac ? 'excluded' : 'included',
      },
      partitions: layout.files.map((f, k) => ({
        file: f.rel,
        updated_date: f.updatedDate,
        bytes: f.bytes,
        sha256: stats[k]!.sha256,
        records: stats[k]!.records,
        manifest_records: f.manifestRecords,
        admitted: stats[k]!.admitted,
      })),
      deletions: { files: layout.deletionFiles.map((f) => basename(f)), ids: deleted.size, works_removed: merged.deleted },
      superseded_versions: merged.superseded,
      retraction_watch: o.retractionWatch && rw ? { file: basename(o.retractionWatch), sha256: await sha256File(o.retractionWatch), rows: rw.rows } : null,
      rules: {
        route_rules: ROUTE_RULES_VERSION,
        about_canada: ABOUT_CANADA_VERSION,
        canadian_lists: lists.route_version,
        canadian_lists_from: `funders: ${funders.from}; sources: ${sources.from}`,
        publication_years: `${FRAME_YEARS.from}-${FRAME_YEARS.to}`,
      },
      label_tables: Object.fromEntries(LABEL_TABLES.map((t) => [t, o.labels[t] ? basename(o.labels[t]) : null])) as SnapshotProvenance['label_tables'],
    };
    const manifest: SnapshotManifest = {
      name: o.name,
      title: `Canadian-relevance frame of ${merged.counts.works} works built from the OpenAlex works snapshot${release ? ` (${release})` : ''}`,
      source: `OpenAlex works snapshot (${layout.layout} layout, ${layout.files.length} partitions)${o.retractionWatch ? ' with the Retraction Watch database (Crossref)' : ''}`,
      licence: o.retractionWatch ? 'CC0-1.0 (OpenAlex); Retraction Watch Database, Crossref' : 'CC0-1.0 (OpenAlex)',
      release_date: release ?? o.buildDate,
      build_date: o.buildDate,
      author_layer_release: release ?? o.buildDate,
      synthetic: false,
      provenance,
      tables: tables as SnapshotManifest['tables'],
      documents,
    };
    writeFileSync(join(tmp, 'report.json'), stablePretty(report));
    writeFileSync(join(tmp, 'manifest.json'), stablePretty(manifest));

    swapIntoPlace(tmp, o.out);
    rmSync(workDir, { recursive: true, force: true });
    o.progress.log(
      `snapshot ${o.name}: ${merged.counts.works} works (aff ${merged.counts.aff}, fund ${merged.counts.fund}, venue ${merged.counts.venue}, about ${merged.counts.about}) ` +
        `from ${report.records} records, ${report.bad} bad, in ${((performance.now() - started) / 1000).toFixed(1)} s → ${o.out}`,
    );
    return { manifest, report };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
