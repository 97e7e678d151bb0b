/**
 * The second phase: every partition's part files → the frame's tables. DuckDB (out of core, memory bounded)
 * decides which version of each admitted work wins: the one with the latest `updated_date` over every
 * partition that holds the id (admitted there or not; the partition order breaks ties, then the line), so a
 * work whose newer version lost its last route, or was deleted or merged away, leaves the frame. The winners
 * are streamed back in id order and written as the snapshot's CSV files.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { TABLES } from '../../contracts/frame/snapshot.ts';
import { CsvFileWriter, csvCell } from '../lib/csv-writer.ts';
import { type Duck, lit, openDuck } from '../lib/duckdb.ts';
import { bareDoiKey, type RetractionNotice } from './retraction-watch.ts';

export interface MergeInput {
  /** Checkpoint directories of the partitions, in partition order. */
  parts: string[];
  deletedIds: Iterable<string>;
  notices: Map<string, RetractionNotice> | null;
  workDir: string;
  outDir: string;
  memoryLimit: string;
  threads: number;
}

export interface RouteCounts {
  works: number;
  aff: number;
  fund: number;
  venue: number;
  about: number;
  noAbstract: number;
  french: number;
  withVenue: number;
  retracted: number;
}

export interface MergeResult {
  counts: RouteCounts;
  /** Admitted versions dropped because a newer version of the work exists. */
  superseded: number;
  /** Admitted works dropped because the work was deleted or merged away. */
  deleted: number;
  tables: { works: TableFile; authorships: TableFile; authors: TableFile; retractions: TableFile };
  retractionsByNature: Record<string, number>;
}

export interface TableFile {
  file: string;
  rows: number;
  bytes: number;
  sha256: string;
}

const header = (t: keyof typeof TABLES) => TABLES[t].columns.map((c) => c.name);

/** Streams a query's rows (all VARCHAR) to `each`, chunk by chunk. */
async function eachRow(duck: Duck, sql: string, each: (row: (string | null)[]) => void): Promise<void> {
  const result = await duck.connection.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const cols = chunk.getColumns() as (string | null)[][];
    for (let i = 0; i < chunk.rowCount; i++) each(cols.map((c) => c[i] ?? null));
  }
}

export async function mergeParts(m: MergeInput): Promise<MergeResult> {
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
    const files = (name: string) => m.parts.map((p) => join(p, name));
    const ranked = (name: string) =>
      `SELECT x.* EXCLUDE (filename), r.rank FROM read_parquet([${files(name).map(lit).join(', ')}], filename = true) x JOIN part_rank r ON r.dir = parse_dirpath(x.filename)`;
    await duck.run(`CREATE TABLE fw AS ${ranked('works.parquet')}`);
    // The winning version of each admitted id: latest updated_date, then later partition, then later line.
    await duck.run(`CREATE TABLE win AS
      WITH i AS (${ranked('ids.parquet')}),
           k AS (SELECT id, rank, line, coalesce(updated, '') || '|' || lpad(rank::VARCHAR, 7, '0') || '|' || lpad(line::VARCHAR, 11, '0') AS version FROM i WHERE id IN (SELECT id FROM fw))
      SELECT id, max_by(rank, version) AS rank, max_by(line, version) AS line FROM k GROUP BY id`);
    await duck.run(
      `CREATE TABLE works AS SELECT fw.* FROM fw JOIN win ON fw.id = win.id AND fw.rank = win.rank AND fw.line = win.line WHERE fw.id NOT IN (SELECT id FROM deleted)`,
    );
    const [tally] = await duck.all<{ fw: number; won: number; deleted: number }>(
      `SELECT (SELECT count(*) FROM fw)::INTEGER AS fw, (SELECT count(*) FROM works)::INTEGER AS won,
              (SELECT count(*) FROM fw JOIN win ON fw.id = win.id AND fw.rank = win.rank AND fw.line = win.line WHERE fw.id IN (SELECT id FROM deleted))::INTEGER AS deleted`,
    );
    await duck.run(`CREATE TABLE ap AS ${ranked('authorships.parquet')}`);
    await duck.run(`CREATE TABLE authorships AS SELECT ap.* FROM ap JOIN works w ON ap.work_id = w.id AND ap.rank = w.rank AND ap.line = w.line`);
    await duck.run(`CREATE TABLE authors AS SELECT author_id AS id, max_by(name, rank::BIGINT * 100000000000 + line::BIGINT) AS name,
      max_by(orcid, rank::BIGINT * 100000000000 + line::BIGINT) AS orcid FROM authorships GROUP BY author_id`);

    const counts: RouteCounts = { works: 0, aff: 0, fund: 0, venue: 0, about: 0, noAbstract: 0, french: 0, withVenue: 0, retracted: 0 };
    const byNature: Record<string, number> = {};
    const worksCols = header('works');
    const w = new CsvFileWriter(join(m.outDir, TABLES.works.file), worksCols);
    const r = new CsvFileWriter(join(m.outDir, TABLES.retractions.file), header('retractions'));
    const at = (c: string) => worksCols.indexOf(c);
    await eachRow(duck, `SELECT ${worksCols.join(', ')} FROM works ORDER BY length(id), id`, (row) => {
      w.line(row.map((v) => csvCell(v ?? '')).join(','));
      counts.works++;
      if (row[at('route_ca_aff')] === 'true') counts.aff++;
      if (row[at('route_ca_fund')] === 'true') counts.fund++;
      if (row[at('route_ca_venue')] === 'true') counts.venue++;
      if (row[at('route_about_ca')] === 'true') counts.about++;
      if (row[at('has_abstract')] !== 'true') counts.noAbstract++;
      if (row[at('lang')] === 'fr') counts.french++;
      if (row[at('venue')]) counts.withVenue++;
      const flagged = row[at('is_retracted')] === 'true';
      if (flagged) counts.retracted++;
      const doi = row[at('doi')];
      const notice = doi && m.notices ? m.notices.get(bareDoiKey(doi)) : undefined;
      if (notice) {
        r.line([row[at('id')]!, notice.nature, notice.reason, notice.date, String(flagged)].map(csvCell).join(','));
        byNature[notice.nature || 'Unspecified'] = (byNature[notice.nature || 'Unspecified'] ?? 0) + 1;
      }
    });
    const closeAs = (t: keyof typeof TABLES, x: CsvFileWriter): TableFile => ({ file: TABLES[t].file, rows: x.rows, ...x.close() });
    const worksFile = closeAs('works', w);
    const retractionsFile = closeAs('retractions', r);

    const a = new CsvFileWriter(join(m.outDir, TABLES.authorships.file), header('authorships'));
    await eachRow(duck, 'SELECT work_id, author_id, position, is_ca FROM authorships ORDER BY length(work_id), work_id, position::INTEGER', (row) =>
      a.line(row.join(',')),
    );
    const p = new CsvFileWriter(join(m.outDir, TABLES.authors.file), header('authors'));
    await eachRow(duck, 'SELECT id, name, orcid FROM authors ORDER BY length(id), id', (row) => p.line(row.map((v) => csvCell(v ?? '')).join(',')));
    return {
      counts,
      superseded: tally!.fw - tally!.won - tally!.deleted,
      deleted: tally!.deleted,
      tables: { works: worksFile, authorships: closeAs('authorships', a), authors: closeAs('authors', p), retractions: retractionsFile },
      retractionsByNature: byNature,
    };
  } finally {
    duck.close();
  }
}
