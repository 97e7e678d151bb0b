/**
 * The frame snapshot format: one CSV file per table plus two JSON documents and a manifest. Every table is
 * required (the manifest lists each one).
 * Every column is declared once here, with its parser, its DuckDB type and its meaning; the pipeline's
 * validator, the DuckDB loader, the generator and snapshots/README.md are all derived from these specs.
 *
 * CSV dialect: RFC 4180, UTF-8, comma-separated, `"`-quoted, LF line ends, header row first, no line
 * breaks inside cells. Booleans are `true`/`false`; an empty cell is null where a column allows it.
 */
import { z } from 'zod';
import {
  Bad,
  bool,
  cellCheck,
  type CellSchema,
  count,
  decimal,
  exactly,
  int,
  isoDate,
  oneOf,
  prefixedId,
  required,
  scores,
  setOf,
  text,
} from './snapshot-cells.ts';
import {
  CATEGORY_ORDER,
  CONFIDENCES,
  DESIGNS,
  DOMAINS,
  GENRES,
  IN_SCOPE_TIERS,
  LEGACY_VALIDATION_STATUS,
  PREDICTION_STATUS,
  RETRACTION_STATES,
  SCREEN_MODELS,
  STRATA,
  TIERS,
} from './vocab.ts';

export type DuckType = 'VARCHAR' | 'BOOLEAN' | 'INTEGER' | 'BIGINT' | 'DOUBLE' | 'DATE';

export interface ColumnSpec {
  name: string;
  cell: CellSchema<unknown>;
  duck: DuckType;
  doc: string;
}

export interface RowProblem {
  column: string;
  message: string;
}

export interface TableSpec {
  name: TableName;
  file: string;
  doc: string;
  columns: readonly ColumnSpec[];
  /** Columns whose combined value is unique per row. */
  key: readonly string[];
  /** Columns that must name a row of another table. */
  refs: readonly { column: string; table: TableName; target: string }[];
  /** True when the table has exactly one row per work of the frame (or no rows: a snapshot without that layer). */
  everyWork?: boolean;
  /** Rules that span several cells of one row. */
  rowRules?: (row: Record<string, unknown>) => RowProblem[];
}

export const TABLE_NAMES = [
  'works',
  'authors',
  'authorships',
  'direct_labels',
  'predictions',
  'screened',
  'retractions',
  'legacy_scores',
  'recent_works',
  'canadian_funders',
  'canadian_sources',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];

const col = (name: string, cell: CellSchema<unknown>, duck: DuckType, doc: string): ColumnSpec => ({
  name,
  cell,
  duck,
  doc,
});

const workId = (doc = 'work id, `W` + digits (OpenAlex id without its URL prefix)') => col('work_id', prefixedId('W'), 'VARCHAR', doc);
const DOI = /^10\.[0-9]{4,9}\/\S+$/;
// Lower case only: the query side folds `lang` to lower case, so a stored `zh-CN` could never be selected.
const LANG = /^[a-z]{2,3}(-[a-z0-9]{1,8})?$/;
const TYPE = /^[a-z][a-z-]{0,31}$/;

/** Bibliographic columns shared by the frame and the recent layer. */
const bibliographic = (): ColumnSpec[] => [
  col('doi', text(300, { pattern: DOI, hint: 'a DOI starting 10.' }), 'VARCHAR', 'DOI without `https://doi.org/`; empty when none'),
  col('title', text(2000, { required: true }), 'VARCHAR', 'title as in the catalogue'),
  col('year', int(1000, 9999, { nullable: true }), 'INTEGER', 'publication year; empty when unknown'),
  col(
    'lang',
    text(16, { pattern: LANG, hint: 'a lower-case language code such as en, fr or zh-cn' }),
    'VARCHAR',
    'language code (`en`, `fr`, …); empty when unknown',
  ),
  col(
    'type',
    text(32, { required: true, pattern: TYPE, hint: 'a lower-case work type such as article' }),
    'VARCHAR',
    'work type: `article`, `preprint`, `review`, `book-chapter`, `dissertation`, …',
  ),
  col('venue', text(300), 'VARCHAR', 'display name of the primary source; empty when none'),
  col('topic', text(300), 'VARCHAR', 'primary topic display name; empty when none'),
  col('field', text(300), 'VARCHAR', "the primary topic's field, e.g. `Medicine`; empty when none"),
  col('cited_by', count(0, 10_000_000), 'INTEGER', 'citation count'),
  col('is_retracted', bool, 'BOOLEAN', "the catalogue's retraction flag"),
  col('has_abstract', bool, 'BOOLEAN', 'whether the catalogue holds an abstract (the text itself is not stored)'),
  col('route_ca_aff', bool, 'BOOLEAN', 'admitted by a Canadian affiliation (route `aff`)'),
  col('route_ca_fund', bool, 'BOOLEAN', 'admitted by a Canadian funder (route `fund`)'),
  col('route_ca_venue', bool, 'BOOLEAN', 'admitted by a Canadian venue (route `venue`)'),
  col('route_about_ca', bool, 'BOOLEAN', 'admitted by the about-Canada lexicon (route `about`)'),
  col('ca_institutions', text(20_000), 'VARCHAR', "Canadian institution names joined with `'; '`"),
  col('funders', text(20_000), 'VARCHAR', "all funder names joined with `'; '`"),
  col('keywords', text(20_000), 'VARCHAR', "keyword names joined with `'; '`"),
];

const atLeastOneRoute = (row: Record<string, unknown>): RowProblem[] =>
  row.route_ca_aff || row.route_ca_fund || row.route_ca_venue || row.route_about_ca
    ? []
    : [
        {
          column: 'route_ca_aff',
          message: 'a work must be admitted by at least one route; all four are false',
        },
      ];

const works: TableSpec = {
  name: 'works',
  file: 'works.csv',
  doc: 'The frame: one row per work.',
  columns: [col('id', prefixedId('W'), 'VARCHAR', 'work id, `W` + digits'), ...bibliographic()],
  key: ['id'],
  refs: [],
  rowRules: atLeastOneRoute,
};

const authors: TableSpec = {
  name: 'authors',
  file: 'authors.csv',
  doc: 'Disambiguated authors of frame works (the author layer).',
  columns: [
    col('id', prefixedId('A'), 'VARCHAR', 'author id, `A` + digits'),
    col('name', text(300, { required: true }), 'VARCHAR', 'display name'),
    col(
      'orcid',
      text(19, { pattern: /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/, hint: 'an ORCID iD 0000-0000-0000-000X' }),
      'VARCHAR',
      'ORCID iD without URL; empty when none',
    ),
  ],
  key: ['id'],
  refs: [],
};

const authorships: TableSpec = {
  name: 'authorships',
  file: 'authorships.csv',
  doc: 'Who wrote which work, in byline order. `is_ca` belongs to the authorship, not to the person.',
  columns: [
    workId(),
    col('author_id', prefixedId('A'), 'VARCHAR', 'author id (authors.csv)'),
    col('position', count(1, 100_000), 'INTEGER', 'byline position, from 1'),
    col('is_ca', bool, 'BOOLEAN', 'this authorship carries a Canadian affiliation'),
  ],
  key: ['work_id', 'position'],
  refs: [
    { column: 'work_id', table: 'works', target: 'id' },
    { column: 'author_id', table: 'authors', target: 'id' },
  ],
};

const directLabels: TableSpec = {
  name: 'direct_labels',
  file: 'direct_labels.csv',
  doc: 'Sparse direct machine labels, at most one row per work and model. No row means unknown, never "no".',
  columns: [
    workId(),
    col('model', required(SCREEN_MODELS), 'VARCHAR', `labelling model: ${SCREEN_MODELS.join(', ')}`),
    col('categories', setOf(CATEGORY_ORDER), 'VARCHAR', `categories applied, \`;\`-joined in the order ${CATEGORY_ORDER.join(', ')}`),
    col('domain', oneOf(DOMAINS, { nullable: true }), 'VARCHAR', `domain: ${DOMAINS.join(', ')}; empty when none`),
    col('study_design', oneOf(DESIGNS, { nullable: true }), 'VARCHAR', `study design: ${DESIGNS.join(', ')}; empty when none`),
    col('genre', oneOf(GENRES, { nullable: true }), 'VARCHAR', `genre: ${GENRES.join(', ')}; empty when none`),
    col('about_ca_system', bool, 'BOOLEAN', 'the work is about the Canadian research system'),
    col('about_ca_topic', bool, 'BOOLEAN', 'the work is about a Canadian topic'),
    col('confidence', required(CONFIDENCES), 'VARCHAR', `model confidence: ${CONFIDENCES.join(', ')}`),
  ],
  key: ['work_id', 'model'],
  refs: [{ column: 'work_id', table: 'works', target: 'id' }],
};

const scoreCols = (head: string, n: number, what: string): ColumnSpec[] => [
  col(`${head}_scores_codex`, scores(n), 'VARCHAR', `${n} codex teacher scores over ${what}, \`;\`-joined`),
  col(`${head}_scores_gemma`, scores(n), 'VARCHAR', `${n} gemma teacher scores over ${what}, \`;\`-joined`),
];
const binaryHead = (head: string, doc: string): ColumnSpec[] => [
  col(`${head}_candidate`, bool, 'BOOLEAN', `${doc}: either teacher positive`),
  col(`${head}_consensus`, bool, 'BOOLEAN', `${doc}: both teachers positive`),
  col(`${head}_score_codex`, decimal(0, 1), 'DOUBLE', `${doc}: codex score`),
  col(`${head}_score_gemma`, decimal(0, 1), 'DOUBLE', `${doc}: gemma score`),
];
const categorical = (head: string, values: readonly string[], withScores: boolean): ColumnSpec[] => [
  ...(withScores ? scoreCols(head, values.length, `the ${head} values in order`) : []),
  col(`${head}_codex`, oneOf(values, { nullable: true }), 'VARCHAR', `${head} picked by the codex teacher`),
  col(`${head}_gemma`, oneOf(values, { nullable: true }), 'VARCHAR', `${head} picked by the gemma teacher`),
  col(`${head}_candidate`, oneOf(values, { nullable: true }), 'VARCHAR', `${head} with the highest mean teacher score`),
  col(`${head}_consensus`, oneOf(values, { nullable: true }), 'VARCHAR', `${head} when both teachers agree and the head passes its support gate; else empty`),
];

function predictionRules(row: Record<string, unknown>): RowProblem[] {
  const candidate = new Set(row.candidate_categories as string[]);
  const problems: RowProblem[] = [];
  for (const c of row.consensus_categories as string[]) {
    if (!candidate.has(c))
      problems.push({
        column: 'consensus_categories',
        message: `consensus ${c} is not in candidate_categories (consensus must be a subset)`,
      });
  }
  for (const head of ['about_ca_system', 'about_ca_topic']) {
    if (row[`${head}_consensus`] && !row[`${head}_candidate`])
      problems.push({ column: `${head}_consensus`, message: 'consensus true requires candidate true' });
  }
  return problems;
}

const predictions: TableSpec = {
  name: 'predictions',
  file: 'predictions.csv',
  doc: 'Teacher-distillation predictions, exactly one row per work. Candidate = union of the two teachers, consensus = intersection.',
  columns: [
    workId(),
    col('model_version', text(64, { required: true }), 'VARCHAR', 'prediction model release'),
    col('candidate_categories', setOf(CATEGORY_ORDER), 'VARCHAR', 'heads positive for either teacher, `;`-joined'),
    col('consensus_categories', setOf(CATEGORY_ORDER), 'VARCHAR', 'heads positive for both teachers, `;`-joined'),
    col('category_scores_codex', scores(CATEGORY_ORDER.length), 'VARCHAR', `${CATEGORY_ORDER.length} codex scores in the order ${CATEGORY_ORDER.join(', ')}`),
    col('category_scores_gemma', scores(CATEGORY_ORDER.length), 'VARCHAR', `${CATEGORY_ORDER.length} gemma scores, same order`),
    ...binaryHead('about_ca_system', 'about the Canadian research system'),
    ...binaryHead('about_ca_topic', 'about a Canadian topic'),
    ...categorical('domain', DOMAINS, true),
    ...categorical('study_design', DESIGNS, true),
    ...categorical('genre', GENRES, true),
    col('teacher_disagreement_score', decimal(0, 1), 'DOUBLE', 'how far the teachers disagree, 0..1'),
    col('threshold_uncertainty_score', decimal(0, 1), 'DOUBLE', 'how close the scores sit to the decision thresholds, 0..1'),
    col('prediction_status', exactly(PREDICTION_STATUS), 'VARCHAR', `always \`${PREDICTION_STATUS}\``),
  ],
  key: ['work_id'],
  refs: [{ column: 'work_id', table: 'works', target: 'id' }],
  everyWork: true,
  rowRules: predictionRules,
};

const screenModelCols = (m: string): ColumnSpec[] => [
  col(`${m}_tier`, required(TIERS), 'VARCHAR', `${m} tier: T1 core, T2 metaresearch, T3 adjacent (out of scope), OUT`),
  col(`${m}_genre`, text(48), 'VARCHAR', `${m} genre, raw free text (two vocabularies were in use; not comparable)`),
  col(`${m}_about_ca`, bool, 'BOOLEAN', `${m} judged the work about Canada`),
  col(`${m}_confidence`, required(CONFIDENCES), 'VARCHAR', `${m} confidence (not comparable across models)`),
  col(`${m}_reason`, text(4000), 'VARCHAR', `${m} stated reasons`),
];

function screenRules(row: Record<string, unknown>): RowProblem[] {
  const nIn = SCREEN_MODELS.filter((m) => IN_SCOPE_TIERS.has(row[`${m}_tier`] as string)).length;
  const problems: RowProblem[] = [];
  if (row.n_in !== nIn)
    problems.push({
      column: 'n_in',
      message: `must equal the number of models with tier T1 or T2 (${nIn}), got ${row.n_in}`,
    });
  if ((row.weight as number) * 1.000001 < 1) problems.push({ column: 'weight', message: 'a design weight is at least 1' });
  return problems;
}

const screened: TableSpec = {
  name: 'screened',
  file: 'screened.csv',
  doc: 'The stratified three-model screening sample with design weights.',
  columns: [
    workId(),
    col('stratum', required(STRATA), 'VARCHAR', `sampling stratum: ${STRATA.join(', ')}`),
    col('stratum_n', count(1, 100_000_000), 'INTEGER', 'population size of the stratum'),
    col('weight', decimal(1, 100_000_000), 'DOUBLE', 'design weight = inverse selection probability = stratum_n / sampled in stratum'),
    col('abstract', text(20_000), 'VARCHAR', 'abstract the models saw; empty when none'),
    col('n_in', count(0, 3), 'INTEGER', 'how many models put the work in scope (tier T1 or T2)'),
    ...SCREEN_MODELS.flatMap(screenModelCols),
  ],
  key: ['work_id'],
  refs: [{ column: 'work_id', table: 'works', target: 'id' }],
  rowRules: screenRules,
};

const retractions: TableSpec = {
  name: 'retractions',
  file: 'retractions.csv',
  doc: 'Retraction Watch records matched to frame works (the four-state retraction record).',
  columns: [
    workId(),
    col('nature', oneOf(RETRACTION_STATES, { nullable: true }), 'VARCHAR', `state: ${RETRACTION_STATES.join(', ')}; empty when unspecified`),
    col('reason', text(4000), 'VARCHAR', 'Retraction Watch reason strings'),
    col('retraction_date', text(32), 'VARCHAR', 'date as recorded (free text)'),
    col('openalex_flagged', bool, 'BOOLEAN', "the catalogue's flag for the same work (false: the catalogue missed it)"),
  ],
  key: ['work_id'],
  refs: [{ column: 'work_id', table: 'works', target: 'id' }],
};

function legacyRules(row: Record<string, unknown>): RowProblem[] {
  const spread = Math.abs((row.score_model_a as number) - (row.score_model_b as number));
  return Math.abs(spread - (row.score_spread as number)) > 1e-9
    ? [
        {
          column: 'score_spread',
          message: `must equal |score_model_a - score_model_b| = ${spread.toFixed(4)}`,
        },
      ]
    : [];
}

const legacyScores: TableSpec = {
  name: 'legacy_scores',
  file: 'legacy_scores.csv',
  doc: 'Provisional legacy scores, one row per work. They rank works; they never assert a category.',
  columns: [
    workId(),
    col('score_model_a', decimal(0, 1), 'DOUBLE', 'provisional score of model A'),
    col('score_model_b', decimal(0, 1), 'DOUBLE', 'provisional score of model B'),
    col('score_spread', decimal(0, 1), 'DOUBLE', '|score_model_a − score_model_b|'),
    col('validation_status', exactly(LEGACY_VALIDATION_STATUS), 'VARCHAR', `always \`${LEGACY_VALIDATION_STATUS}\``),
  ],
  key: ['work_id'],
  refs: [{ column: 'work_id', table: 'works', target: 'id' }],
  everyWork: true,
  rowRules: legacyRules,
};

const recentWorks: TableSpec = {
  name: 'recent_works',
  file: 'recent_works.csv',
  doc: 'The rolling recent layer as of the snapshot (kept apart from the frozen frame).',
  columns: [
    col('id', prefixedId('W'), 'VARCHAR', 'work id'),
    col('publication_date', isoDate, 'DATE', 'publication date YYYY-MM-DD'),
    ...bibliographic(),
    col('pmid', text(12, { pattern: /^[1-9][0-9]*$/, hint: 'a PubMed id' }), 'VARCHAR', 'PubMed id; empty when none'),
    col('pmcid', text(16, { pattern: /^PMC[1-9][0-9]*$/, hint: 'PMC followed by digits' }), 'VARCHAR', 'PubMed Central id; empty when none'),
  ],
  key: ['id'],
  refs: [],
  rowRules: atLeastOneRoute,
};

// The two pinned lists behind routes CA-FUND and CA-VENUE (research/metacan.md §5). They travel with the
// snapshot so that whatever classifies works later (the recent layer's sync) applies the frame's own rules;
// the pipeline copies them into the build as frame/canadian-lists.json (contracts/frame/canadian-lists.ts).
const canadianFunders: TableSpec = {
  name: 'canadian_funders',
  file: 'canadian_funders.csv',
  doc:
    "The catalogue's pinned list of funders it marks as Canadian (2,182 in the real frame). Route CA-FUND " +
    '(`route_ca_fund`): a work is admitted when one of its funder ids is in this list; the recent layer ' +
    'classifies newly published works with the same list.',
  columns: [
    col('id', prefixedId('F'), 'VARCHAR', 'funder id, `F` + digits (OpenAlex id without its URL prefix)'),
    col('name', text(300, { required: true }), 'VARCHAR', 'funder display name'),
  ],
  key: ['id'],
  refs: [],
};

const canadianSources: TableSpec = {
  name: 'canadian_sources',
  file: 'canadian_sources.csv',
  doc:
    "The catalogue's pinned list of Canadian sources (venues; 1,341 in the real frame). Route CA-VENUE " +
    "(`route_ca_venue`): a work is admitted when its primary source's id is in this list; the recent layer " +
    'classifies newly published works with the same list.',
  columns: [
    col('id', prefixedId('S'), 'VARCHAR', 'source id, `S` + digits (OpenAlex id without its URL prefix)'),
    col('name', text(300, { required: true }), 'VARCHAR', 'source display name, as in the `venue` column of works.csv and recent_works.csv'),
  ],
  key: ['id'],
  refs: [],
};

export const TABLES: Record<TableName, TableSpec> = {
  works,
  authors,
  authorships,
  direct_labels: directLabels,
  predictions,
  screened,
  retractions,
  legacy_scores: legacyScores,
  recent_works: recentWorks,
  canadian_funders: canadianFunders,
  canadian_sources: canadianSources,
};

/** The zod schema of one row of a table (cells keyed by column name), with its row rules. */
export function rowSchema(table: TableSpec) {
  const shape = Object.fromEntries(table.columns.map((c) => [c.name, c.cell]));
  const base = z.object(shape);
  const rules = table.rowRules;
  if (!rules) return base;
  return base.superRefine((row, ctx) => {
    for (const p of rules(row)) ctx.addIssue({ code: 'custom', path: [p.column], message: p.message });
  });
}

/**
 * A quick yes for a good row: true when every cell passes its cell's own check and the row passes the row
 * rules, with the values rowSchema would give them; false when anything fails, and then rowSchema (zod) says
 * what and where. The checks are the schemas' own functions (cellCheck), so no rule is written twice; a row
 * this accepts, rowSchema accepts too. Null when a column's schema was not made by cell(): use rowSchema.
 * (zod's per-cell machinery is about half of validating a row: docs/decisions.md has the measurement.)
 */
export function rowAcceptor(table: TableSpec): ((cells: readonly string[]) => boolean) | null {
  const cellChecks = table.columns.map((c) => cellCheck(c.cell));
  if (cellChecks.some((c) => c === undefined)) return null;
  const fns = cellChecks as ((raw: string) => unknown)[];
  const names = table.columns.map((c) => c.name);
  const rules = table.rowRules;
  // One object for every row (the rules read it and keep nothing): each call sets every key before the rules run.
  const row: Record<string, unknown> = Object.fromEntries(names.map((n) => [n, null]));
  return (cells) => {
    for (let i = 0; i < fns.length; i++) {
      const v = fns[i]!(cells[i]!);
      if (v instanceof Bad) return false;
      row[names[i]!] = v;
    }
    return !rules || rules(row).length === 0;
  };
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case hex SHA-256');
const fileEntry = z.object({ file: z.string().min(1), bytes: z.number().int().min(0), sha256 }).strict();

/**
 * Where a snapshot built from a real upstream came from (pipeline/openalex): the catalogue release and the
 * partitions read (with their sha256 and record counts), deletions applied, the Retraction Watch file, the
 * versions of the rules that admitted the works, and which machine-label tables the operator supplied.
 */
export const snapshotProvenanceSchema = z
  .object({
    builder: z.object({ name: z.string(), version: z.string() }).strict(),
    upstream: z
      .object({
        catalogue: z.string(),
        layout: z.enum(['legacy', 'jsonl-2026', 'parquet-2026', 'flat']),
        release_date: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .nullable(),
        manifest_records: z.number().int().min(0).nullable(),
        partitions_read: z.number().int().min(0),
        /** Files the upstream manifest lists that were absent (only with --allow-incomplete), first 100. */
        partitions_missing: z.array(z.string()),
        partitions_missing_count: z.number().int().min(0),
        records_read: z.number().int().min(0),
        bad_records: z.number().int().min(0),
        expansion_corpus: z.enum(['included', 'excluded']),
      })
      .strict(),
    partitions: z.array(
      z
        .object({
          file: z.string(),
          updated_date: z.string().nullable(),
          bytes: z.number().int().min(0),
          sha256,
          records: z.number().int().min(0),
          manifest_records: z.number().int().min(0).nullable(),
          admitted: z.number().int().min(0),
        })
        .strict(),
    ),
    deletions: z.object({ files: z.array(z.string()), ids: z.number().int().min(0), works_removed: z.number().int().min(0) }).strict(),
    superseded_versions: z.number().int().min(0),
    retraction_watch: z
      .object({ file: z.string(), sha256, rows: z.number().int().min(0) })
      .strict()
      .nullable(),
    rules: z
      .object({
        route_rules: z.string(),
        about_canada: z.string(),
        canadian_lists: z.string(),
        canadian_lists_from: z.string(),
        publication_years: z.string(),
      })
      .strict(),
    /** For direct_labels, predictions, screened and legacy_scores: the file the operator supplied, or null (an empty table). */
    label_tables: z.record(z.enum(['direct_labels', 'predictions', 'screened', 'legacy_scores']), z.string().nullable()),
  })
  .strict();
export type SnapshotProvenance = z.infer<typeof snapshotProvenanceSchema>;

/** `snapshots/<name>/manifest.json`. */
export const snapshotManifestSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'a lower-case slug'),
    title: z.string(),
    source: z.string().min(1),
    licence: z.string().min(1),
    release_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    build_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    author_layer_release: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /**
     * True when the rows were made up by a generator (pipeline/generate), false when they come from a real
     * upstream (the OpenAlex builder). Carried into the build, `meta` of every response and every page, so
     * synthetic data is never shown as real.
     */
    synthetic: z.boolean(),
    generator: z.object({ name: z.string(), version: z.string(), seed: z.number().int(), works: z.number().int() }).strict().optional(),
    /** For snapshots built from a real upstream: where the rows came from (see snapshotProvenanceSchema). */
    provenance: snapshotProvenanceSchema.optional(),
    /** Every table, exhaustively (zod's record over an enum requires each key). */
    tables: z.record(z.enum(TABLE_NAMES), fileEntry.extend({ rows: z.number().int().min(0) }).strict()),
    documents: z.object({ findings: fileEntry, predictions_report: fileEntry }).strict(),
  })
  .strict();
export type SnapshotManifest = z.infer<typeof snapshotManifestSchema>;
