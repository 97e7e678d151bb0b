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
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, relative } from 'node:path';
import { z } from 'zod';

export type LayoutName = 'legacy' | 'jsonl-2026' | 'parquet-2026' | 'flat';

export interface PartitionFile {
  /** Absolute path. */
  path: string;
  /** Path below the works directory (stable name in checkpoints, reports and the manifest). */
  rel: string;
  /** The partition's `updated_date` from its directory name; null in a flat directory. */
  updatedDate: string | null;
  format: 'jsonl' | 'parquet';
  bytes: number;
  /** The snapshot manifest's record count and size for this file, when it has a manifest. */
  manifestRecords: number | null;
  manifestBytes: number | null;
}

export interface WorksLayout {
  layout: LayoutName;
  worksDir: string;
  /** The manifest file read, if any. */
  manifest: string | null;
  /** The release date the manifest states (2026 `date`), else null. */
  manifestDate: string | null;
  manifestRecords: number | null;
  /** In partition order: by updated_date, then path. */
  files: PartitionFile[];
  /** Files the manifest lists that are absent or of another size (empty unless allowed). */
  missing: string[];
  /** Files holding deleted or merged-away work ids. */
  deletionFiles: string[];
}

export class LayoutError extends Error {
  override name = 'LayoutError';
}

const legacyManifestSchema = z
  .object({
    entries: z.array(z.object({ url: z.string(), meta: z.object({ content_length: z.number(), record_count: z.number() }).loose() }).loose()),
    meta: z.object({ record_count: z.number() }).loose().optional(),
  })
  .loose();
const manifest2026Schema = z
  .object({
    date: z.string().optional(),
    record_count: z.number().optional(),
    files: z.array(z.object({ url: z.string(), meta: z.object({ content_length: z.number(), record_count: z.number() }).loose() }).loose()),
  })
  .loose();

const DATE_DIR = /updated_date=(\d{4}-\d{2}-\d{2})/;
const JSONL = /\.(gz|jsonl|jsonl\.gz|json\.gz|ndjson|ndjson\.gz)$/;

function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (e.isFile() && keep(e.name)) out.push(p);
  }
  return out;
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
    throw new LayoutError(`${dir} holds the works snapshot in ${wanted.map((c) => c.layout).join(' and ')}: choose one with --format jsonl|parquet`);
  if (wanted.length === 1) return wanted[0]!;
  if (candidates.length > 0) throw new LayoutError(`${dir} holds no ${format} works snapshot (found ${candidates.map((c) => c.layout).join(', ')})`);
  return { layout: 'flat', worksDir: dir };
}

/** `s3://openalex/data/jsonl/works/updated_date=…/part_0000.gz` → `updated_date=…/part_0000.gz`. */
function relFromUrl(url: string): string {
  const at = url.indexOf('/works/');
  return at >= 0 ? url.slice(at + '/works/'.length) : url.replace(/^.*\//, '');
}

export function findWorks(dir: string, o: { format?: 'jsonl' | 'parquet' | undefined; allowIncomplete?: boolean } = {}): WorksLayout {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new LayoutError(`--works ${dir}: no such directory`);
  const { layout, worksDir } = locate(dir, o.format);
  const isData = layout === 'parquet-2026' ? (n: string) => n.endsWith('.parquet') : (n: string) => JSONL.test(n) && !n.endsWith('.csv.gz');
  const onDisk = walk(worksDir, isData).filter((p) => !relative(worksDir, p).startsWith('merged_ids'));
  let manifest: string | null = null;
  let manifestDate: string | null = null;
  let manifestRecords: number | null = null;
  let listed: { rel: string; bytes: number; records: number }[] | null = null;

  if (layout === 'legacy' || layout === 'jsonl-2026' || layout === 'parquet-2026') {
    manifest = layout === 'legacy' ? join(worksDir, 'manifest') : join(worksDir, 'manifest.json');
    if (!existsSync(manifest)) {
      if (!o.allowIncomplete)
        throw new LayoutError(
          `${manifest} is missing: OpenAlex writes the manifest last, so the download is incomplete (or pass --allow-incomplete to read the files present)`,
        );
      manifest = null;
    } else {
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(manifest, 'utf8'));
      } catch (err) {
        throw new LayoutError(`${manifest} is not JSON: ${(err as Error).message}`);
      }
      if (layout === 'legacy') {
        const m = legacyManifestSchema.safeParse(json);
        if (!m.success) throw new LayoutError(`${manifest} is not a works manifest (entries[] with url and meta)`);
        listed = m.data.entries.map((e) => ({ rel: relFromUrl(e.url), bytes: e.meta.content_length, records: e.meta.record_count }));
        manifestRecords = m.data.meta?.record_count ?? null;
      } else {
        const m = manifest2026Schema.safeParse(json);
        if (!m.success) throw new LayoutError(`${manifest} is not a works manifest.json (files[] with url and meta)`);
        listed = m.data.files.map((e) => ({ rel: relFromUrl(e.url), bytes: e.meta.content_length, records: e.meta.record_count }));
        manifestDate = m.data.date && /^\d{4}-\d{2}-\d{2}/.test(m.data.date) ? m.data.date.slice(0, 10) : null;
        manifestRecords = m.data.record_count ?? null;
      }
    }
  }

  const missing: string[] = [];
  let files: PartitionFile[];
  const fileOf = (path: string, rel: string, records: number | null, mbytes: number | null): PartitionFile => ({
    path,
    rel,
    updatedDate: DATE_DIR.exec(rel)?.[1] ?? null,
    format: path.endsWith('.parquet') ? 'parquet' : 'jsonl',
    bytes: statSync(path).size,
    manifestRecords: records,
    manifestBytes: mbytes,
  });
  if (listed) {
    files = [];
    for (const e of listed) {
      const path = join(worksDir, e.rel);
      if (!existsSync(path)) missing.push(`${e.rel} (absent)`);
      else if (statSync(path).size !== e.bytes) missing.push(`${e.rel} (${statSync(path).size} bytes, the manifest says ${e.bytes})`);
      else files.push(fileOf(path, e.rel, e.records, e.bytes));
    }
    if (missing.length > 0 && !o.allowIncomplete) {
      const shown = missing.slice(0, 20).join('\n  ');
      throw new LayoutError(
        `the download is incomplete: ${missing.length} of ${listed.length} files the manifest lists are missing or truncated:\n  ${shown}${missing.length > 20 ? `\n  … and ${missing.length - 20} more` : ''}\n(pass --allow-incomplete to build from the files present)`,
      );
    }
    const known = new Set(listed.map((e) => e.rel));
    const extra = onDisk.map((p) => relative(worksDir, p)).filter((r) => !known.has(r));
    // Files the manifest does not list are left-overs of an older sync (records that moved on): never read.
    if (extra.length > 0) missing.push(...extra.map((r) => `${r} (not in the manifest: ignored)`));
  } else files = onDisk.map((p) => fileOf(p, relative(worksDir, p), null, null));
  files.sort((a, b) => ((a.updatedDate ?? '') + a.rel < (b.updatedDate ?? '') + b.rel ? -1 : 1));
  if (files.length === 0) throw new LayoutError(`${worksDir} holds no works files (${layout} layout)`);

  const deletionFiles: string[] = [];
  if (existsSync(join(worksDir, 'deleted_ids.csv'))) deletionFiles.push(join(worksDir, 'deleted_ids.csv'));
  const merged = join(worksDir, '..', 'merged_ids', 'works');
  if (layout === 'legacy' && existsSync(merged)) deletionFiles.push(...walk(merged, (n) => /\.csv(\.gz)?$/.test(n)));
  return { layout, worksDir, manifest, manifestDate, manifestRecords, files, missing, deletionFiles };
}

/**
 * The work ids a deletion file names: `deleted_ids.csv` (`work_id,deleted_date`, full URLs) or a legacy
 * merged-ids file (`merge_date,id,merge_into_id`, bare ids; the merged-away `id` is deleted).
 */
export function readDeletedIds(path: string): string[] {
  const raw = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) return [];
  const header = lines[0]!.split(',').map((h) => h.trim().toLowerCase());
  const col = header.indexOf('work_id') >= 0 ? header.indexOf('work_id') : header.indexOf('id');
  if (col < 0) throw new LayoutError(`${path}: expected a work_id or id column, found ${header.join(', ')}`);
  const out: string[] = [];
  for (const line of lines.slice(1)) {
    const m = /W\d+/i.exec(line.split(',')[col] ?? '');
    if (m) out.push(`W${m[0].slice(1)}`);
  }
  return out;
}
