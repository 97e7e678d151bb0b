/**
 * The second phase: every partition's part files → the frame's tables. DuckDB (out of core, memory bounded)
 * decides which version of each admitted work wins: the one with the latest `updated_date` over every
 * partition that holds the id (admitted there or not; the partition order breaks ties, then the line), so a
 * work whose newer version lost its last route, or was deleted or merged away, leaves the frame. The winners
 * are streamed back in id order and written as the snapshot's CSV files.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { TABLES, type TableName } from '../../contracts/frame/snapshot.ts';
import { CsvFileWriter, csvCell } from '../lib/csv-writer.ts';
import { forEachChunk, lit, openDuck } from '../lib/duckdb.ts';

export interface MergeInput {
  /** Checkpoint directories of the partitions, in partition order. */
  parts: string[];
  deletedIds: Iterable<string>;
  /** Retraction Watch's notices by lower-cased DOI. */
  notices: Map<string, { nature: string; reason: string; date: string }> | null;
  workDir: string;
  outDir: string;
  memoryLimit: string;
  threads: number;
}

export type MergeResult = Awaited<ReturnType<typeof mergeParts>>;

type RouteCounts = Record<'works' | 'aff' | 'fund' | 'venue' | 'about' | 'noAbstract' | 'french' | 'withVenue' | 'retracted', number>;

export const header = (t: TableName) => TABLES[t].columns.map((c) => c.name);

/** Writes table `t` into `dir`, `fill` giving its lines (cells escaped with csvCell); returns its manifest entry. */
export async function writeTable(dir: string, t: TableName, fill: (w: CsvFileWriter) => unknown = () => undefined) {
  const w = new CsvFileWriter(join(dir, TABLES[t].file), header(t));
  await fill(w);
  return { file: TABLES[t].file, rows: w.rows, ...w.close() };
}

export async function mergeParts(m: MergeInput) {
  const duck = await openDuck(':memory:', {
    memory_limit: m.memoryLimit,
    threads: String(m.threads),
    temp_directory: join(m.workDir, 'duckdb-tmp'),
    preserve_insertion_order: 'false',
  });
  try {
    const deletedFile = join(m.workDir, 'deleted-ids.csv');
    writeFileSync(deletedFile, `id\n${[...m.deletedIds].join('\n')}\n`);
    await duck.run(`CREATE TABLE part_rank AS SELECT * FROM (VALUES ${m.parts.map((p, k) => `(${lit(p)}, ${k})`).join(', ') || "('', 0)"}) t(dir, rank)`);
    await duck.run(
      `CREATE TABLE deleted AS SELECT DISTINCT id FROM read_csv(${lit(deletedFile)}, header = true, columns = {'id': 'VARCHAR'}) WHERE id IS NOT NULL`,
    );
    const ranked = (name: string) =>
      `SELECT x.* EXCLUDE (filename), r.rank FROM read_parquet([${m.parts.map((p) => lit(join(p, name))).join(', ')}], filename = true) x JOIN part_rank r ON r.dir = parse_dirpath(x.filename)`;
    await duck.run(`CREATE TABLE fw AS ${ranked('works.parquet')}`);
    // The winning version of each admitted id: latest updated_date, then later partition, then later line.
    await duck.run(`CREATE TABLE win AS
      WITH i AS (${ranked('ids.parquet')}),
           k AS (SELECT id, rank, line, coalesce(updated, '') || '|' || lpad(rank::VARCHAR, 7, '0') || '|' || lpad(line::VARCHAR, 11, '0') AS version FROM i WHERE id IN (SELECT id FROM fw))
      SELECT id, max_by(rank, version) AS rank, max_by(line, version) AS line FROM k GROUP BY id`);
    await duck.run('CREATE VIEW won AS SELECT fw.*, fw.id IN (SELECT id FROM deleted) AS gone FROM fw JOIN win USING (id, rank, line)');
    await duck.run('CREATE TABLE works AS SELECT * EXCLUDE (gone) FROM won WHERE NOT gone');
    const flag = (c: string, value = 'true') => `count(*) FILTER (${c} = '${value}')::INTEGER`;
    const [tally] = await duck.all<RouteCounts & { fw: number; deleted: number }>(
      `SELECT count(*)::INTEGER AS works, ${flag('route_ca_aff')} AS aff, ${flag('route_ca_fund')} AS fund, ${flag('route_ca_venue')} AS venue,
        ${flag('route_about_ca')} AS about, count(*) FILTER (has_abstract IS DISTINCT FROM 'true')::INTEGER AS "noAbstract", ${flag('lang', 'fr')} AS french,
        count(*) FILTER (venue <> '')::INTEGER AS "withVenue", ${flag('is_retracted')} AS retracted,
        (SELECT count(*) FROM fw)::INTEGER AS fw, (SELECT count(*) FROM won WHERE gone)::INTEGER AS deleted FROM works`,
    );
    const { fw, deleted, ...counts } = tally!;
    await duck.run(`CREATE TABLE ap AS ${ranked('authorships.parquet')}`);
    await duck.run(`CREATE TABLE authorships AS SELECT ap.* FROM ap JOIN works w ON ap.work_id = w.id AND ap.rank = w.rank AND ap.line = w.line`);
    await duck.run(`CREATE TABLE authors AS SELECT author_id AS id, max_by(name, rank::BIGINT * 100000000000 + line::BIGINT) AS name,
      max_by(orcid, rank::BIGINT * 100000000000 + line::BIGINT) AS orcid FROM authorships GROUP BY author_id`);

    const csvRow = (row: (string | null)[]) => row.map((v) => csvCell(v ?? '')).join(',');
    /** Streams a query's rows (all VARCHAR) into table `t`, each as `each` writes it (by default its cells). */
    const stream = (t: TableName, sql: string, each = (row: (string | null)[], w: CsvFileWriter) => w.line(csvRow(row))) =>
      writeTable(m.outDir, t, (w) =>
        forEachChunk(duck, sql, (cols, n) => {
          for (let i = 0; i < n; i++)
            each(
              cols.map((c) => (c[i] ?? null) as string | null),
              w,
            );
        }),
      );

    const byNature: Record<string, number> = {};
    const worksCols = header('works');
    const [idAt, doiAt, flaggedAt] = ['id', 'doi', 'is_retracted'].map((c) => worksCols.indexOf(c));
    const retracted: string[] = [];
    const works = await stream('works', `SELECT ${worksCols.join(', ')} FROM works ORDER BY length(id), id`, (row, w) => {
      w.line(csvRow(row));
      // The DOI cell is bare, as Retraction Watch's keys are.
      const notice = row[doiAt!] ? m.notices?.get(row[doiAt!]!.toLowerCase()) : undefined;
      if (notice) {
        retracted.push([row[idAt!]!, notice.nature, notice.reason, notice.date, String(row[flaggedAt!] === 'true')].map(csvCell).join(','));
        byNature[notice.nature || 'Unspecified'] = (byNature[notice.nature || 'Unspecified'] ?? 0) + 1;
      }
    });
    const retractions = await writeTable(m.outDir, 'retractions', (r) => retracted.forEach((line) => r.line(line)));
    const authorships = await stream(
      'authorships',
      'SELECT work_id, author_id, position, is_ca FROM authorships ORDER BY length(work_id), work_id, position::INTEGER',
    );
    const authors = await stream('authors', 'SELECT id, name, orcid FROM authors ORDER BY length(id), id');
    return {
      counts,
      /** Admitted versions dropped because a newer version of the work exists. */
      superseded: fw - counts.works - deleted,
      /** Admitted works dropped because the work was deleted or merged away. */
      deleted,
      tables: { works, authorships, authors, retractions },
      retractionsByNature: byNature,
    };
  } finally {
    duck.close();
  }
}
