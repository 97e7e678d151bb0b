/**
 * Finds the work files of an OpenAlex works snapshot on disk, in any of the layouts it has been distributed
 * in (../shared/reference/openalex/snapshot-format.md):
 *   - legacy (until 2025): `data/works/updated_date=YYYY-MM-DD/part_NNN.gz` with `data/works/manifest`
 *     (Redshift format, `entries[]`) and merged ids in `data/merged_ids/works/*.csv.gz`;
 *   - 2026: `data/jsonl/works/updated_date=…/part_NNNN.gz` or `data/parquet/works/…/part_NNNN.parquet` with
 *     `manifest.json` (`files[]`) and `deleted_ids.csv`;
 *   - a flat directory of `.jsonl` / `.jsonl.gz` files (no manifest; records' own `updated_date` decide).
 * The manifest is written last by OpenAlex, so a manifest naming files that are absent (or of another size)
 * means an incomplete download: refused, naming the files, unless the operator allows it.
 */
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, gunzipSync } from 'node:zlib';
import { z } from 'zod';

type LayoutName = 'legacy' | 'jsonl-2026' | 'parquet-2026' | 'flat';

export interface PartitionFile {
  /** Absolute path. */
  path: string;
  /** Path below the works directory (stable name in checkpoints, reports and the manifest). */
  rel: string;
  /** The partition's `updated_date` from its directory name; null in a flat directory. */
  updatedDate: string | null;
  format: 'jsonl' | 'parquet';
  bytes: number;
  /** The snapshot manifest's record count for this file, when it has a manifest. */
  manifestRecords: number | null;
}

/** Input or options the builder refuses: the command prints the message and exits with status 1. */
export class BuildError extends Error {
  override name = 'BuildError';
}

const entries = z.array(z.object({ url: z.string(), meta: z.object({ content_length: z.number(), record_count: z.number() }).loose() }).loose());
/** A legacy manifest in the shape of a 2026 one (it states no date). */
const legacyManifestSchema = z
  .object({ entries, meta: z.object({ record_count: z.number() }).loose().optional() })
  .loose()
  .transform((m) => ({ files: m.entries, record_count: m.meta?.record_count, date: undefined as string | undefined }));
const manifest2026Schema = z.object({ date: z.string().optional(), record_count: z.number().optional(), files: entries }).loose();

const DATE_DIR = /updated_date=(\d{4}-\d{2}-\d{2})/;
const JSONL = /\.(gz|jsonl|jsonl\.gz|json\.gz|ndjson|ndjson\.gz)$/;

/** The files below `dir` whose name `keep` takes, sorted by path. */
export function walk(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The lines of a text file, gzipped when its name ends in .gz, split as readline splits (\n, \r\n or a lone \r). */
export function linesOf(path: string): AsyncIterable<string> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  const text = path.endsWith('.gz') ? input.pipe(createGunzip()) : input;
  if (text !== input) input.on('error', (err) => text.destroy(err));
  return createInterface({ input: text, crlfDelay: Infinity });
}

/** The works directory and layout of what the operator pointed at (a snapshot root or the works folder). */
function locate(dir: string, format: 'jsonl' | 'parquet' | undefined): { layout: LayoutName; worksDir: string } {
  const candidates: { layout: LayoutName; worksDir: string }[] = [];
  const add = (layout: LayoutName, worksDir: string) => existsSync(worksDir) && candidates.push({ layout, worksDir });
  if (existsSync(join(dir, 'manifest.json'))) {
    const parquet = walk(dir, (n) => n.endsWith('.parquet')).length > 0;
    add(parquet ? 'parquet-2026' : 'jsonl-2026', dir);
  } else if (existsSync(join(dir, 'manifest')) || readdirSync(dir).some((n) => DATE_DIR.test(n))) add('legacy', dir);
  else {
    add('jsonl-2026', join(dir, 'data', 'jsonl', 'works'));
    add('parquet-2026', join(dir, 'data', 'parquet', 'works'));
    add('legacy', join(dir, 'data', 'works'));
  }
  const wanted = format
    ? candidates.filter((c) => c.layout === (format === 'parquet' ? 'parquet-2026' : 'jsonl-2026') || (format === 'jsonl' && c.layout === 'legacy'))
    : candidates;
  if (wanted.length > 1)
    throw new BuildError(`${dir} holds the works snapshot in ${wanted.map((c) => c.layout).join(' and ')}: choose one with --format jsonl|parquet`);
  if (wanted.length === 1) return wanted[0]!;
  if (candidates.length > 0) throw new BuildError(`${dir} holds no ${format} works snapshot (found ${candidates.map((c) => c.layout).join(', ')})`);
  return { layout: 'flat', worksDir: dir };
}

/** `s3://openalex/data/jsonl/works/updated_date=…/part_0000.gz` → `updated_date=…/part_0000.gz`. */
function relFromUrl(url: string): string {
  const at = url.indexOf('/works/');
  return at >= 0 ? url.slice(at + '/works/'.length) : url.replace(/^.*\//, '');
}

/**
 * The layout, its works directory, the manifest's release date (2026 `date`) and record count, the partition
 * files in partition order (by updated_date, then path), the files not read (listed but absent or of another
 * size, when allowed; present but not listed) and the files holding deleted or merged-away work ids.
 */
export function findWorks(dir: string, o: { format?: 'jsonl' | 'parquet' | undefined; allowIncomplete?: boolean } = {}) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new BuildError(`--works ${dir}: no such directory`);
  const { layout, worksDir } = locate(dir, o.format);
  const isData = layout === 'parquet-2026' ? (n: string) => n.endsWith('.parquet') : (n: string) => JSONL.test(n) && !n.endsWith('.csv.gz');
  const onDisk = walk(worksDir, isData).filter((p) => !relative(worksDir, p).startsWith('merged_ids'));
  let manifestDate: string | null = null;
  let manifestRecords: number | null = null;
  let listed: { rel: string; bytes: number; records: number }[] | null = null;
  const manifest = join(worksDir, layout === 'legacy' ? 'manifest' : 'manifest.json');
  if (layout !== 'flat' && !existsSync(manifest) && !o.allowIncomplete)
    throw new BuildError(
      `${manifest} is missing: OpenAlex writes the manifest last, so the download is incomplete (or pass --allow-incomplete to read the files present)`,
    );
  if (layout !== 'flat' && existsSync(manifest)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(manifest, 'utf8'));
    } catch (err) {
      throw new BuildError(`${manifest} is not JSON: ${(err as Error).message}`);
    }
    const m = (layout === 'legacy' ? legacyManifestSchema : manifest2026Schema).safeParse(json);
    if (!m.success)
      throw new BuildError(`${manifest} is not a works ${layout === 'legacy' ? 'manifest (entries[]' : 'manifest.json (files[]'} with url and meta)`);
    listed = m.data.files.map((e) => ({ rel: relFromUrl(e.url), bytes: e.meta.content_length, records: e.meta.record_count }));
    manifestDate = m.data.date && /^\d{4}-\d{2}-\d{2}/.test(m.data.date) ? m.data.date.slice(0, 10) : null;
    manifestRecords = m.data.record_count ?? null;
  }

  const missing: string[] = [];
  let files: PartitionFile[];
  const fileOf = (path: string, rel: string, records: number | null): PartitionFile => ({
    path,
    rel,
    updatedDate: DATE_DIR.exec(rel)?.[1] ?? null,
    format: path.endsWith('.parquet') ? 'parquet' : 'jsonl',
    bytes: statSync(path).size,
    manifestRecords: records,
  });
  if (listed) {
    files = [];
    for (const e of listed) {
      const path = join(worksDir, e.rel);
      if (!existsSync(path)) missing.push(`${e.rel} (absent)`);
      else if (statSync(path).size !== e.bytes) missing.push(`${e.rel} (${statSync(path).size} bytes, the manifest says ${e.bytes})`);
      else files.push(fileOf(path, e.rel, e.records));
    }
    if (missing.length > 0 && !o.allowIncomplete) {
      const shown = missing.slice(0, 20).join('\n  ');
      throw new BuildError(
        `the download is incomplete: ${missing.length} of ${listed.length} files the manifest lists are missing or truncated:\n  ${shown}${missing.length > 20 ? `\n  … and ${missing.length - 20} more` : ''}\n(pass --allow-incomplete to build from the files present)`,
      );
    }
    const known = new Set(listed.map((e) => e.rel));
    // Files the manifest does not list are left-overs of an older sync (records that moved on): never read.
    for (const r of onDisk.map((p) => relative(worksDir, p))) if (!known.has(r)) missing.push(`${r} (not in the manifest: ignored)`);
  } else files = onDisk.map((p) => fileOf(p, relative(worksDir, p), null));
  files.sort((a, b) => ((a.updatedDate ?? '') + a.rel < (b.updatedDate ?? '') + b.rel ? -1 : 1));
  if (files.length === 0) throw new BuildError(`${worksDir} holds no works files (${layout} layout)`);

  const deletionFiles: string[] = [];
  if (existsSync(join(worksDir, 'deleted_ids.csv'))) deletionFiles.push(join(worksDir, 'deleted_ids.csv'));
  const merged = join(worksDir, '..', 'merged_ids', 'works');
  if (layout === 'legacy' && existsSync(merged)) deletionFiles.push(...walk(merged, (n) => /\.csv(\.gz)?$/.test(n)));
  return { layout, worksDir, manifestDate, manifestRecords, files, missing, deletionFiles };
}

/**
 * The work ids a deletion file names: `deleted_ids.csv` (`work_id,deleted_date`, full URLs) or a legacy
 * merged-ids file (`merge_date,id,merge_into_id`, bare ids; the merged-away `id` is deleted).
 */
export function readDeletedIds(path: string): string[] {
  const raw = readFileSync(path);
  const [head, ...rows] = (path.endsWith('.gz') ? gunzipSync(raw) : raw)
    .toString('utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  if (head === undefined) return [];
  const names = head.split(',').map((h) => h.trim().toLowerCase());
  const col = names.includes('work_id') ? names.indexOf('work_id') : names.indexOf('id');
  if (col < 0) throw new BuildError(`${path}: expected a work_id or id column, found ${names.join(', ')}`);
  return rows.flatMap((line) => {
    const digits = /W(\d+)/i.exec(line.split(',')[col] ?? '')?.[1];
    return digits ? [`W${digits}`] : [];
  });
}
