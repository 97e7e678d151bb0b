/**
 * Maps one partition file of the works snapshot to its checkpoint directory, with the frame rules run by
 * DuckDB (contracts/frame/rules-sql.ts):
 *   works.parquet        updated, line, <works.csv columns>   admitted works
 *   authorships.parquet  line, work_id, author_id, position, is_ca, name, orcid
 *   ids.parquet          id, updated, line                    every valid work id (newer versions decide)
 *   stats.json           counts, the first bad lines, the file's sha256: written last, so it marks the partition done.
 * `line` is the record's ordinal among the file's non-blank lines. Nothing is dropped silently: DuckDB reads
 * a JSON Lines file strictly (a malformed line fails the read), and the rows it read are checked against the
 * snapshot manifest's record count. A file that fails, comes up short, or holds records the rules call bad
 * is re-read line by line in JavaScript (badLine), which names each bad line with its reason; the rules then
 * run on a copy with those lines blanked.
 */
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { shortId, snapshotWorkSchema } from '../../contracts/frame/catalogue-work.ts';
import { inHarvestWindow } from '../../contracts/frame/route-rules.ts';
import { writeFileAtomicSync } from '../../contracts/common/local-files.ts';
import { lit, openDuck, type Duck } from '../lib/duckdb.ts';
import { sha256File } from '../lib/hash.ts';
import { linesOf, type PartitionFile } from './layout.ts';
import { jsonSource, parquetSource, registerRules, type RuleLists, rulesSql } from '../../contracts/frame/rules-sql.ts';

export const BAD_SAMPLES = 50;

export interface PartitionStats {
  rel: string;
  bytes: number;
  sha256: string;
  /** Records (non-empty lines or Parquet rows) read. */
  records: number;
  admitted: number;
  /** Why records were not admitted. */
  skipped: Record<'window' | 'xpac' | 'not-publication' | 'no-route', number>;
  bad: number;
  badSamples: { file: string; line: number; reason: string }[];
  /** Cells the format could not hold, left empty or clipped (counted per kind). */
  notes: Record<string, number>;
  /** The fingerprint of the options the partition was read with (a checkpoint is reused only under the same). */
  fingerprint: string;
}

/** Why a JSON Lines record is bad (the rules cannot read it), else null: the reader behind report.json's lines. */
function badLine(text: string, excludeXpac: boolean): string | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return `malformed JSON: ${(err as Error).message.slice(0, 120)}`;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'not a JSON object';
  const rec = raw as Record<string, unknown>;
  if (typeof rec.id !== 'string' || !/^(https:\/\/openalex\.org\/)?W[1-9]\d{0,14}$/i.test(rec.id.trim()))
    return rec.id === undefined || rec.id === null ? 'record without an id' : `not a work id: ${String(rec.id).slice(0, 60)}`;
  // The record schema is checked where the rules read the record: inside the harvest window.
  if ((excludeXpac && rec.is_xpac === true) || !inHarvestWindow(rec)) return null;
  const parsed = snapshotWorkSchema.safeParse(rec);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${shortId(rec.id)}: ${issue.path.join('.') || 'record'}: ${issue.message}`;
}

interface Scan {
  records: number;
  bad: { ordinal: number | null; line: number; reason: string }[];
}

/**
 * Reads a JSON Lines file line by line: its records, and each bad one with its line and reason (a file that
 * cannot be read to its end is one more bad record, after the lines read). `copy`: writes the non-blank
 * lines there, one a line, a bad one as `{}`, a good one re-serialized (a key given twice keeps its last
 * value, as JSON.parse reads it), so that DuckDB's row ordinals are the records'.
 */
async function scanLines(path: string, excludeXpac: boolean, copy: string | null): Promise<Scan> {
  const scan: Scan = { records: 0, bad: [] };
  const out = copy ? openSync(copy, 'w') : null;
  let line = 0;
  try {
    for await (const l of linesOf(path)) {
      line++;
      if (l.trim() === '') continue;
      scan.records++;
      const reason = badLine(l, excludeXpac);
      if (reason !== null) scan.bad.push({ ordinal: scan.records, line, reason });
      if (out !== null) writeSync(out, reason === null ? `${JSON.stringify(JSON.parse(l))}\n` : '{}\n');
    }
  } catch (err) {
    scan.bad.push({ ordinal: null, line: line + 1, reason: `unreadable ${path.endsWith('.gz') ? 'gzip' : 'file'}: ${(err as Error).message.slice(0, 200)}` });
  } finally {
    if (out !== null) closeSync(out);
  }
  return scan;
}

/** Runs the rules over `source` into table v; the error message when DuckDB cannot read it. */
async function runRules(duck: Duck, source: string, lists: RuleLists, lazyIndex: boolean, onShare?: (share: number) => void): Promise<string | null> {
  const timer = onShare
    ? setInterval(() => {
        const p = duck.connection.progress.percentage;
        if (p > 0) onShare(Math.min(1, p / 100));
      }, 200)
    : undefined;
  return failure(duck.run(`CREATE OR REPLACE TABLE v AS ${rulesSql(source, lists, lazyIndex)}`)).finally(() => clearInterval(timer));
}

/** The message of the error `work` fails with, else null. */
const failure = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (err: Error) => err.message,
  );

/**
 * A DuckDB instance (one thread) with the rules registered, to map partitions one after another: an instance
 * opened and closed per partition left the resident memory growing with the partitions read.
 */
export async function openRulesDuck(): Promise<Duck> {
  const duck = await openDuck(':memory:', { threads: '1', memory_limit: '512MB', preserve_insertion_order: 'true' });
  await registerRules(duck);
  return duck;
}

/**
 * Maps a partition into `dir` (replacing what was there) with `duck` (openRulesDuck) and returns its stats (also
 * written as stats.json). `onBytes` hears how far the partition is (bytes of the file: hashed, then the share
 * DuckDB reports done).
 */
export async function readPartition(
  file: PartitionFile,
  dir: string,
  o: RuleLists & { fingerprint: string },
  duck: Duck,
  onBytes?: (bytes: number) => void,
): Promise<PartitionStats> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Hashing reads the whole file: the first tenth of the bar, the rules the rest.
  const sha256 = await sha256File(file.path, (b) => onBytes?.(Math.round(b * 0.1)));
  const onShare = (share: number) => onBytes?.(Math.round(file.bytes * (0.1 + 0.9 * share)));
  await duck.run(`SET temp_directory = ${lit(join(dir, 'duckdb-tmp'))}`);
  try {
    const stats: PartitionStats = {
      rel: file.rel,
      bytes: file.bytes,
      sha256,
      records: 0,
      admitted: 0,
      skipped: { window: 0, xpac: 0, 'not-publication': 0, 'no-route': 0 },
      bad: 0,
      badSamples: [],
      notes: {},
      fingerprint: o.fingerprint,
    };
    const bad = (line: number, reason: string) => {
      stats.bad++;
      if (stats.badSamples.length < BAD_SAMPLES) stats.badSamples.push({ file: file.rel, line, reason });
    };
    let scan: Scan | null = null;
    if (file.format === 'parquet') {
      let failed: string | null;
      try {
        const described = await duck.all<{ column_name: string; column_type: string }>(
          `DESCRIBE SELECT * FROM read_parquet(${lit(file.path)}, hive_partitioning = false)`,
        );
        const present = new Map(described.map((r) => [r.column_name, r.column_type]));
        // Nested columns are cast by name; a file whose types do not cast goes through JSON.
        const viaJson = (await failure(duck.run(`SELECT * FROM ${parquetSource(file.path, present)} LIMIT 0`))) !== null;
        failed = await runRules(duck, parquetSource(file.path, present, viaJson), o, true, onShare);
      } catch (err) {
        failed = (err as Error).message;
      }
      if (failed !== null) {
        bad(1, `unreadable Parquet: ${failed.slice(0, 200)}`);
        writeFileSync(join(dir, 'empty.jsonl'), '');
        await runRules(duck, jsonSource(join(dir, 'empty.jsonl')), o, false);
      }
    } else {
      const failed = await runRules(duck, jsonSource(file.path), o, false, onShare);
      if (failed !== null) {
        // Malformed JSON, a value of a shape the columns cannot hold, a damaged gzip, a huge line: read line by line.
        const copy = join(dir, 'readable.jsonl');
        scan = await scanLines(file.path, o.excludeXpac, copy);
        const again = await runRules(duck, jsonSource(copy, true), o, false);
        if (again !== null) throw new Error(`${file.rel}: DuckDB cannot read the lines JavaScript reads: ${again.slice(0, 300)}`);
        rmSync(copy);
      }
    }
    const [count] = await duck.all<{ rows: number; bad: number }>(`SELECT count(*)::INTEGER AS rows, count(*) FILTER (why = 'bad')::INTEGER AS bad FROM v`);
    stats.records = count!.rows;
    // Rows the rules call bad, or fewer rows than the manifest lists: the JavaScript reader names the lines.
    if (file.format === 'jsonl' && scan === null && (count!.bad > 0 || (file.manifestRecords !== null && count!.rows !== file.manifestRecords))) {
      scan = await scanLines(file.path, o.excludeXpac, null);
      if (scan.records !== count!.rows) throw new Error(`${file.rel}: DuckDB read ${count!.rows} records, the file holds ${scan.records}`);
    }
    const ordinals = scan?.bad.flatMap((b) => b.ordinal ?? []) ?? [];
    if (ordinals.length > 0)
      await duck.run(`UPDATE v SET why = 'bad', work = NULL, auths = NULL, notes = NULL WHERE line IN (SELECT unnest([${ordinals.join(', ')}]))`);
    for (const b of scan?.bad ?? []) bad(b.line, b.reason);
    // Rows the SQL calls bad that the JavaScript reader took (a value of the wrong type) are bad too, never admitted.
    for (const r of await duck.all<{ line: number }>(
      `SELECT line::INTEGER AS line FROM v WHERE why = 'bad' AND NOT list_contains([${ordinals.join(', ')}]::BIGINT[], line) ORDER BY line`,
    ))
      bad(scan ? 0 : r.line, scan ? 'a value of the wrong type' : 'unreadable record');
    for (const r of await duck.all<{ why: keyof PartitionStats['skipped'] | 'in'; n: number }>(
      `SELECT why, count(*)::INTEGER AS n FROM v WHERE why <> 'bad' GROUP BY why`,
    )) {
      if (r.why === 'in') stats.admitted = r.n;
      else stats.skipped[r.why] = r.n;
    }
    for (const r of await duck.all<{ note: string; n: number }>(
      `SELECT note, count(*)::INTEGER AS n FROM (SELECT unnest(notes) AS note FROM v WHERE why = 'in') GROUP BY note ORDER BY note`,
    ))
      stats.notes[r.note] = r.n;
    await duck.run(`COPY (SELECT id, updated, line FROM v WHERE why <> 'bad') TO ${lit(join(dir, 'ids.parquet'))} (FORMAT parquet)`);
    await duck.run(`COPY (SELECT updated, line, unnest(work) FROM v WHERE why = 'in') TO ${lit(join(dir, 'works.parquet'))} (FORMAT parquet)`);
    await duck.run(`COPY (SELECT line, id AS work_id, a.author_id, a.position, a.is_ca, a.name, a.orcid FROM (SELECT line, id, unnest(auths) AS a FROM v WHERE why = 'in'))
      TO ${lit(join(dir, 'authorships.parquet'))} (FORMAT parquet)`);
    if (file.manifestRecords !== null && stats.records !== file.manifestRecords)
      bad(stats.records, `the file holds ${stats.records} records, the snapshot manifest says ${file.manifestRecords}`);
    onBytes?.(file.bytes);
    writeFileAtomicSync(join(dir, 'stats.json'), JSON.stringify(stats));
    return stats;
  } finally {
    await duck.run('DROP TABLE IF EXISTS v');
    rmSync(join(dir, 'duckdb-tmp'), { recursive: true, force: true });
  }
}
