/**
 * Step 2 of the pipeline: loads the validated snapshot into the frame database (a DuckDB file), checks the
 * rules that span rows and tables (unique keys, references, one prediction per work, consistent flags), and
 * builds the derived tables the query services need: denormalised filter columns on `works`, the title-term
 * table for search, venue and topic facets, and author totals. The pinned Canadian funder and source lists
 * are loaded as they are.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { type SnapshotManifest, TABLE_NAMES, TABLES, type TableName } from '../../../contracts/frame/snapshot.ts';
import { MAX_CA_AUTHORS } from '../../../contracts/frame/network.ts';
import { CATEGORY_ORDER } from '../../../contracts/frame/vocab.ts';
import { type Duck, lit, openDuck, registerTermsFunction, termsListSql } from '../../lib/duckdb.ts';
import { PhaseTimer } from '../../lib/phase-timer.ts';
import type { Progress } from '../../lib/progress.ts';
import { fileError, fileProblem, type InputProblem, InvalidSnapshotError, MAX_REPORTED } from './validate.ts';

/** Bit k of a category mask is CATEGORY_ORDER[k]. */
export const maskSql = (column: string) =>
  `(${CATEGORY_ORDER.map((c, k) => `(CASE WHEN list_contains(string_split(coalesce(${column}, ''), ';'), ${lit(c)}) THEN ${1 << k} ELSE 0 END)`).join(' + ')})::USMALLINT`;

function readCsvSql(dir: string, table: TableName): string {
  const spec = TABLES[table];
  const columns = spec.columns.map((c) => `${lit(c.name)}: ${lit(c.duck)}`).join(', ');
  return `read_csv(${lit(join(dir, spec.file))}, header = true, delim = ',', quote = '"', escape = '"', auto_detect = false, strict_mode = true, columns = {${columns}})`;
}

/**
 * A rule across rows or tables. `sql` selects the offending key values (no LIMIT); the reporter finds their
 * lines by reading the file again (only when something is wrong) and points at `column`.
 */
interface CrossCheck {
  table: TableName;
  /** Columns whose values identify an offending row (the SELECT list of `sql`, in order). */
  keys: string[];
  /** The column the problem is about. */
  column: string;
  sql: string;
  message: (v: string[]) => string;
  /** When several rows share the key, which of them are wrong (default: all; duplicates: all but the first). */
  rowIsWrong?: (cells: Record<string, string>) => boolean;
  duplicate?: boolean;
}

function crossChecks(): CrossCheck[] {
  const checks: CrossCheck[] = [];
  for (const t of TABLE_NAMES) {
    const spec = TABLES[t];
    const key = spec.key.join(', ');
    checks.push({
      table: t,
      keys: [...spec.key],
      column: spec.key[0]!,
      sql: `SELECT ${spec.key.map((k) => `${k}::VARCHAR`).join(', ')} FROM s_${t} GROUP BY ${key} HAVING count(*) > 1 ORDER BY ${key}`,
      message: (v) => `duplicate ${spec.key.join(' + ')} ${v.join(' + ')}: each must appear once`,
      duplicate: true,
    });
    for (const ref of spec.refs) {
      checks.push({
        table: t,
        keys: [ref.column],
        column: ref.column,
        sql: `SELECT DISTINCT x.${ref.column} FROM s_${t} x ANTI JOIN s_${ref.table} y ON x.${ref.column} = y.${ref.target} ORDER BY 1`,
        message: (v) => `${ref.column} ${v[0]} does not name a row of ${TABLES[ref.table].file}`,
      });
    }
    if (spec.everyWork) {
      checks.push({
        table: 'works',
        keys: ['id'],
        column: 'id',
        // An empty table is a snapshot without that layer (one built from the upstream without labels).
        sql: `SELECT w.id FROM s_works w ANTI JOIN s_${t} x ON x.work_id = w.id WHERE EXISTS (SELECT 1 FROM s_${t}) ORDER BY 1`,
        message: (v) => `work ${v[0]} has no row in ${spec.file}; every work needs exactly one`,
      });
    }
  }
  checks.push({
    table: 'retractions',
    keys: ['work_id'],
    column: 'openalex_flagged',
    sql: 'SELECT r.work_id FROM s_retractions r JOIN s_works w ON w.id = r.work_id WHERE r.openalex_flagged <> w.is_retracted ORDER BY 1',
    message: (v) => `openalex_flagged of ${v[0]} disagrees with is_retracted in works.csv`,
  });
  checks.push({
    table: 'authorships',
    keys: ['work_id'],
    column: 'is_ca',
    sql: 'SELECT DISTINCT a.work_id FROM s_authorships a JOIN s_works w ON w.id = a.work_id WHERE a.is_ca AND NOT w.route_ca_aff ORDER BY 1',
    message: (v) => `work ${v[0]} has a Canadian-affiliated authorship (is_ca true) but route_ca_aff is false in works.csv`,
    rowIsWrong: (cells) => cells.is_ca === 'true',
  });
  checks.push({
    table: 'screened',
    keys: ['work_id'],
    column: 'weight',
    sql: `SELECT s.work_id FROM s_screened s JOIN (SELECT stratum, max(stratum_n) AS pop, count(*) AS n FROM s_screened GROUP BY stratum) g USING (stratum)
          WHERE s.stratum_n <> g.pop OR abs(s.weight - g.pop / g.n) > 1e-5 * s.weight ORDER BY 1`,
    message: (v) => `screened row ${v[0]}: stratum_n must be the same for the whole stratum and weight must be stratum_n / rows sampled in the stratum`,
  });
  return checks;
}

/** Finds the lines of the offending rows (only called when a check found something). */
async function locate(dir: string, check: CrossCheck, values: string[][]): Promise<InputProblem[]> {
  const spec = TABLES[check.table];
  const names = spec.columns.map((c) => c.name);
  const idx = check.keys.map((c) => names.indexOf(c));
  const column = names.indexOf(check.column) + 1;
  const wanted = new Map(values.map((vals) => [vals.join('\u0000'), vals]));
  const seen = new Set<string>();
  const found: InputProblem[] = [];
  const file = createReadStream(join(dir, spec.file));
  const parser = file.pipe(parse({ from_line: 2, relax_column_count: true, info: true }));
  // Leaving the loop early destroys the parser; close the file with it.
  parser.once('close', () => file.destroy());
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    const key = idx.map((i) => record[i] ?? '').join('\u0000');
    const vals = wanted.get(key);
    if (!vals) continue;
    const first = !seen.has(key);
    seen.add(key);
    if (check.duplicate && first) continue;
    if (check.rowIsWrong && !check.rowIsWrong(Object.fromEntries(names.map((n, i) => [n, record[i] ?? ''])))) continue;
    found.push({ file: spec.file, line: info.lines, column, message: check.message(vals) });
    if (found.length >= MAX_REPORTED) break;
  }
  if (found.length === 0) for (const vals of values) found.push(fileProblem(spec.file, check.message(vals)));
  return found;
}

export async function buildFrameDatabase(
  dir: string,
  dbPath: string,
  manifest: SnapshotManifest,
  progress: Progress,
  tempDir: string,
  timer: PhaseTimer = new PhaseTimer(progress),
): Promise<void> {
  const duck = await openDuck(dbPath, {
    threads: '2',
    memory_limit: '1500MB',
    temp_directory: tempDir,
    preserve_insertion_order: 'true',
  });
  try {
    await timer.time('frame database load', () => loadAndCheck(duck, dir, manifest, progress));
    await timer.time('derived tables', () => deriveTables(duck, progress));
  } finally {
    duck.close();
  }
}

/** Loads every snapshot table into a staging table (s_ prefix) and checks the rules across rows and tables. */
async function loadAndCheck(duck: Duck, dir: string, manifest: SnapshotManifest, progress: Progress): Promise<void> {
  progress.start('load tables', TABLE_NAMES.length);
  for (const [k, t] of TABLE_NAMES.entries()) {
    try {
      await duck.run(`CREATE TABLE s_${t} AS SELECT * FROM ${readCsvSql(dir, t)}`);
    } catch (err) {
      // The row checks passed, so this is something they do not look at (an encoding problem, say):
      // still a problem with the input, reported as such rather than as a crash.
      throw fileError(TABLES[t].file, `could not be loaded: ${(err as Error).message.split('\n')[0]}`);
    }
    progress.update(k + 1);
  }
  progress.stop();
  for (const t of TABLE_NAMES) {
    const [row] = await duck.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM s_${t}`);
    if (row!.n !== manifest.tables[t].rows) throw fileError(TABLES[t].file, `loaded ${row!.n} rows, expected ${manifest.tables[t].rows}`);
  }

  // Rules across rows and tables.
  progress.log('checking keys and references');
  const problems: InputProblem[] = [];
  let total = 0;
  for (const check of crossChecks()) {
    const [{ n } = { n: 0 }] = await duck.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (${check.sql})`);
    if (n === 0) continue;
    // Count every offending key; report the lines of the first ones.
    total += n;
    if (problems.length >= MAX_REPORTED) continue;
    const rows = await duck.all<Record<string, unknown>>(`${check.sql} LIMIT ${MAX_REPORTED}`);
    problems.push(
      ...(await locate(
        dir,
        check,
        rows.map((r) => Object.values(r).map(String)),
      )),
    );
  }
  if (total > 0) throw new InvalidSnapshotError(problems.slice(0, MAX_REPORTED), Math.max(total, Math.min(problems.length, MAX_REPORTED)));
}

/**
 * Makes table `t` from its staging table `s_t` sorted by `key`. A snapshot usually lists rows in key order
 * already (the generator and the OpenAlex builder write them so): then the staging table, stored in file
 * order, is renamed instead of copied through a sort of every column (the predictions alone are 0.7 GB at
 * 1M works). The check reads only the key columns. A null key counts as out of order (ORDER BY puts nulls last).
 */
export async function keepSorted(duck: Duck, t: TableName, key: string[]): Promise<'renamed' | 'sorted'> {
  const outOfOrder = (i: number): string =>
    i === key.length - 1 ? `p${i} > ${key[i]}` : `p${i} > ${key[i]} OR (p${i} = ${key[i]} AND (${outOfOrder(i + 1)}))`;
  const [{ n } = { n: 1 }] = await duck.all<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM (
       SELECT ${key.join(', ')}, ${key.map((k, i) => `lag(${k}) OVER w AS p${i}`).join(', ')} FROM s_${t} WINDOW w AS (ORDER BY rowid))
     WHERE ${key.map((k) => `${k} IS NULL`).join(' OR ')} OR ${outOfOrder(0)}`,
  );
  if (n === 0) {
    await duck.run(`ALTER TABLE s_${t} RENAME TO ${t}`);
    return 'renamed';
  }
  await duck.run(`CREATE TABLE ${t} AS SELECT * FROM s_${t} ORDER BY ${key.join(', ')}`);
  return 'sorted';
}

async function deriveTables(duck: Duck, progress: Progress): Promise<void> {
  registerTermsFunction(duck);
  const steps: [string, string][] = [
    [
      'works',
      `CREATE TABLE works AS
       SELECT w.*,
              -- Row number in numeric id order (ids have no leading zeros): the cohort index's row.
              (row_number() OVER (ORDER BY length(w.id), w.id) - 1)::INTEGER AS cohort_row,
              p.work_id IS NOT NULL AS predicted,
              coalesce(p.cand_mask, 0)::USMALLINT AS pred_candidate_mask,
              coalesce(p.cons_mask, 0)::USMALLINT AS pred_consensus_mask,
              p.study_design_candidate AS pred_design_candidate,
              p.study_design_consensus AS pred_design_consensus,
              s.n_in::TINYINT AS screen_n_in,
              coalesce(l.models, 0)::TINYINT AS direct_label_models
       FROM s_works w
       LEFT JOIN (SELECT work_id, ${maskSql('candidate_categories')} AS cand_mask, ${maskSql('consensus_categories')} AS cons_mask,
                         study_design_candidate, study_design_consensus FROM s_predictions) p ON p.work_id = w.id
       LEFT JOIN s_screened s ON s.work_id = w.id
       LEFT JOIN (SELECT work_id, count(*) AS models FROM s_direct_labels GROUP BY work_id) l ON l.work_id = w.id
       ORDER BY w.id`,
    ],
    ['recent_works', 'CREATE TABLE recent_works AS SELECT * FROM s_recent_works ORDER BY publication_date DESC, cited_by DESC, id'],
    [
      'authors',
      `CREATE TABLE authors AS
       SELECT a.*, coalesce(c.works, 0)::INTEGER AS works, coalesce(c.ca_works, 0)::INTEGER AS ca_works
       FROM s_authors a
       LEFT JOIN (SELECT author_id, count(DISTINCT work_id) AS works, count(DISTINCT work_id) FILTER (WHERE is_ca) AS ca_works
                  FROM s_authorships GROUP BY author_id) c ON c.author_id = a.id
       ORDER BY a.id`,
    ],
    [
      'title_terms',
      // Unsorted: the cohort index numbers the terms and sorts (term code, row) pairs itself. By the work's
      // cohort row, not its id: the cohort index then joins and counts 43M integers, not 43M id strings.
      `CREATE TABLE title_terms AS
       SELECT term, cohort_row AS row FROM (
         SELECT cohort_row, unnest(${termsListSql('title')}) AS term FROM works)
       WHERE term <> ''`,
    ],
    [
      'facet_venue',
      'CREATE TABLE facet_venue AS SELECT venue AS value, count(*)::INTEGER AS works FROM s_works WHERE venue IS NOT NULL GROUP BY venue ORDER BY works DESC, value',
    ],
    [
      'facet_topic',
      'CREATE TABLE facet_topic AS SELECT topic AS value, count(*)::INTEGER AS works FROM s_works WHERE topic IS NOT NULL GROUP BY topic ORDER BY works DESC, value',
    ],
    // The collaboration network. Weights are summed as exact decimals so the result does not depend on the
    // order parallel threads add them in (a double sum can differ in its last bits between runs).
    [
      'ca_work_authors',
      `CREATE TABLE ca_work_authors AS
       SELECT a.work_id, a.author_id, n.n_authors FROM s_authorships a
       JOIN (SELECT work_id, count(*) AS n_authors, count(*) FILTER (WHERE is_ca) AS n_ca FROM s_authorships GROUP BY work_id) n USING (work_id)
       WHERE a.is_ca AND n.n_ca <= ${MAX_CA_AUTHORS} AND n.n_authors >= 2`,
    ],
    [
      'ca_edge_meta',
      `CREATE TABLE ca_edge_meta AS
       SELECT ${MAX_CA_AUTHORS}::INTEGER AS max_ca_authors,
              count(*) FILTER (WHERE n_ca > ${MAX_CA_AUTHORS})::INTEGER AS works_excluded,
              count(*) FILTER (WHERE n_ca BETWEEN 2 AND ${MAX_CA_AUTHORS})::INTEGER AS works_included
       FROM (SELECT work_id, count(*) FILTER (WHERE is_ca) AS n_ca FROM s_authorships GROUP BY work_id)`,
    ],
    [
      'ca_neighbours',
      `CREATE TABLE ca_neighbours AS
       WITH e AS (
         SELECT x.author_id AS a, y.author_id AS b, count(*)::INTEGER AS shared_works,
                sum((1.0 / (x.n_authors - 1))::DECIMAL(18, 12)) AS weight
         FROM ca_work_authors x JOIN ca_work_authors y ON x.work_id = y.work_id AND x.author_id < y.author_id
         GROUP BY 1, 2)
       SELECT author, other, shared_works, round(weight, 9)::DOUBLE AS weight FROM (
         SELECT a AS author, b AS other, shared_works, weight FROM e UNION ALL SELECT b, a, shared_works, weight FROM e)
       ORDER BY author, weight DESC, shared_works DESC, other`,
    ],
  ];
  // Tables kept as they are in the snapshot, sorted by their key (later steps read them in key ranges).
  // The pinned lists of routes CA-FUND and CA-VENUE are among them (./canadian-lists.json.ts).
  const sorted: [TableName, string[]][] = [
    ['predictions', ['work_id']],
    ['direct_labels', ['work_id', 'model']],
    ['screened', ['work_id']],
    ['retractions', ['work_id']],
    ['legacy_scores', ['work_id']],
    ['authorships', ['work_id', 'position']],
    ['canadian_funders', ['id']],
    ['canadian_sources', ['id']],
  ];
  const timings: string[] = [];
  const timed = async (name: string, sql: string) => {
    const started = performance.now();
    await duck.run(sql);
    timings.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  progress.start('derive tables', steps.length + sorted.length);
  for (const [k, [name, sql]] of steps.entries()) {
    await timed(name, sql);
    progress.update(k + 1);
  }
  // After the steps above, which read the staging tables.
  for (const [k, [t, key]] of sorted.entries()) {
    const started = performance.now();
    const how = await keepSorted(duck, t, key);
    timings.push(`${t} ${((performance.now() - started) / 1000).toFixed(1)} s (${how})`);
    progress.update(steps.length + k + 1);
  }
  progress.stop();
  for (const t of TABLE_NAMES) await duck.run(`DROP TABLE IF EXISTS s_${t}`);
  await duck.run('DROP TABLE ca_work_authors');
  // No index: every later read scans sorted columns with zone maps, by id range or whole (the work store's
  // range queries plan sequential scans and hash joins with or without one), and keys were checked unique
  // above. A works (id) index would cost build time and be read by nothing (docs/decisions.md).
  await timed('checkpoint', 'CHECKPOINT');
  progress.log(`derived tables: ${timings.join(', ')}`);
}
