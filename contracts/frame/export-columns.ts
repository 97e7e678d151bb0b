/**
 * The cohort export's CSV columns, each computed from a work item (contracts/frame/work-record.ts), so the
 * CSV carries what the JSON export does: every work column, direct labels, the full prediction, legacy scores
 * and the per-row status fields. Lists are `;`-joined; nested data is compact JSON; null is an empty cell.
 */
type Item = Record<string, unknown>;
type Obj = Record<string, unknown> | null;

const o = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : null);
const join = (v: unknown) => (Array.isArray(v) ? v.join(';') : v);
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export const EXPORT_COLUMNS: readonly [name: string, get: (it: Item) => unknown][] = [
  ['id', (it) => it.id],
  ['doi', (it) => it.doi],
  ['title', (it) => it.title],
  ['year', (it) => it.year],
  ['lang', (it) => it.lang],
  ['type', (it) => it.type],
  ['venue', (it) => it.venue],
  ['topic', (it) => it.topic],
  ['field', (it) => it.field],
  ['cited_by', (it) => it.cited_by],
  ['is_retracted', (it) => it.is_retracted],
  ['has_abstract', (it) => it.has_abstract],
  ['route_ca_aff', (it) => o(it.route_flags)?.aff],
  ['route_ca_fund', (it) => o(it.route_flags)?.fund],
  ['route_ca_venue', (it) => o(it.route_flags)?.venue],
  ['route_about_ca', (it) => o(it.route_flags)?.about],
  ['routes', (it) => join(it.routes)],
  ['ca_institutions', (it) => join(it.ca_institutions)],
  ['funders', (it) => join(it.funders)],
  ['keywords', (it) => join(it.keywords)],
  ['authors', (it) => (Array.isArray(it.authors) ? it.authors.map((a: { name: string }) => a.name).join(';') : null)],
  ['authors_json', (it) => json(it.authors)],
  ['retraction_nature', (it) => o(it.retraction)?.nature],
  ['retraction_reason', (it) => o(it.retraction)?.reason],
  ['retraction_date', (it) => o(it.retraction)?.date],
  ['retraction_openalex_flagged', (it) => o(it.retraction)?.openalex_flagged],
  ['screen_n_in', (it) => o(it.screen)?.n_in],
  ['screen_stratum', (it) => o(it.screen)?.stratum],
  ['screen_weight', (it) => o(it.screen)?.weight],
  ['label_models', (it) => (Array.isArray(it.labels) ? it.labels.map((l: { model: string }) => l.model).join(';') : null)],
  ['label_agreement', (it) => it.label_agreement],
  [
    'label_categories_union',
    (it) => (Array.isArray(it.labels) ? [...new Set(it.labels.flatMap((l: { categories: string[] }) => l.categories))].sort().join(';') : null),
  ],
  ['label_status', (it) => (Array.isArray(it.labels) && it.labels.length > 0 ? (it.labels[0] as { status: string }).status : null)],
  ['labels_json', (it) => (Array.isArray(it.labels) && it.labels.length > 0 ? json(it.labels) : null)],
  ['prediction_model_version', (it) => o(it.prediction)?.model_version],
  ['prediction_candidate_categories', (it) => join(o(it.prediction)?.candidate_categories)],
  ['prediction_consensus_categories', (it) => join(o(it.prediction)?.consensus_categories)],
  ['prediction_study_design_candidate', (it) => o(it.prediction)?.study_design_candidate],
  ['prediction_study_design_consensus', (it) => o(it.prediction)?.study_design_consensus],
  ['prediction_teacher_disagreement_score', (it) => o(it.prediction)?.teacher_disagreement_score],
  ['prediction_threshold_uncertainty_score', (it) => o(it.prediction)?.threshold_uncertainty_score],
  ['prediction_status', (it) => o(it.prediction)?.prediction_status],
  ['prediction_json', (it) => json(it.prediction)],
  ['score_model_a', (it) => o(it.machine_scores)?.score_model_a],
  ['score_model_b', (it) => o(it.machine_scores)?.score_model_b],
  ['score_spread', (it) => o(it.machine_scores)?.score_spread],
  ['validation_status', (it) => o(it.machine_scores)?.validation_status],
];

/**
 * A cell as text: formula-injection guard (DECISIONS.md §4) — a cell starting with `=`, `+`, `-`, `@`, tab or
 * CR gets a leading `'`, so spreadsheets show it as text instead of evaluating it. Numbers are not cells a
 * user typed, so negative numbers stay numbers.
 */
export function exportCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const s = String(value);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/**
 * One RFC 4180 CSV line (LF-terminated): a cell is quoted when it holds `"`, `,`, CR or LF, with inner quotes
 * doubled. The pipeline writes every work's export row with it once, so an export only concatenates stored
 * rows. (csv-stringify, which the project tried first, took 57 µs per 48-column row here: 5.7 s of a
 * 100,000-row export on its own; the tests read the output back with csv-parse.)
 */
export function csvLine(cells: readonly string[]): string {
  let out = '';
  for (let k = 0; k < cells.length; k++) out += (k > 0 ? ',' : '') + csvField(cells[k]!);
  return `${out}\n`;
}

/** One cell as csvLine writes it: quoted when it holds `"`, `,`, CR or LF, inner quotes doubled. */
export function csvField(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** The export row of a work item. */
export function exportRow(item: Record<string, unknown>): string {
  return csvLine(EXPORT_COLUMNS.map(([, get]) => exportCell(get(item))));
}

export const EXPORT_HEADER = csvLine(EXPORT_COLUMNS.map(([name]) => name));
