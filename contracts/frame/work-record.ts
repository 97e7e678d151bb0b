/**
 * The work record served at `/frame/api/v1/works/{id}` and the work item of cohort pages and exports. The
 * pipeline serializes every work once with workItem() into the cohort index's record blob (and, optionally,
 * the static per-work documents); the server prepends the meta block with workRecordText(), so the bytes are
 * the same from either source.
 */
import type { SnapshotRef } from './snapshot-ref.ts';
import { CATEGORY_ORDER, DESIGNS, DOMAINS, GENRES, ROUTES, SCREEN_MODELS } from './vocab.ts';

/** A row of `works` joined 1:1 with predictions, screen, retraction and legacy scores (nulls when absent). */
export type WorkRow = Record<string, unknown>;
export interface AuthorshipRow {
  id: string;
  name: string;
  orcid: string | null;
  position: number;
  is_ca: boolean;
}
export interface LabelRow {
  model: string;
  categories: string | null;
  domain: string | null;
  study_design: string | null;
  genre: string | null;
  about_ca_system: boolean;
  about_ca_topic: boolean;
  confidence: string;
}

/**
 * A list column: a `sep`-joined string as the database holds it, or the list itself as the work store
 * (work-store.ts) decodes it.
 */
export const list = (v: unknown, sep: string): string[] => (Array.isArray(v) ? (v as string[]) : typeof v === 'string' && v !== '' ? v.split(sep) : []);
export const scores = (v: unknown): number[] => (Array.isArray(v) ? (v as number[]) : list(v, ';').map(Number));
export const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export const DIRECT_LABEL_STATUS = 'direct model label, unvalidated';
export const MACHINE_SCORES_NOTE = 'Legacy scores rank works; they never assert a category.';

/** `null` no labels, `single` one model, `agree` all models gave the same categories and design, else `split`. */
export function labelAgreement(labels: readonly LabelRow[]): 'single' | 'agree' | 'split' | null {
  if (labels.length === 0) return null;
  if (labels.length === 1) return 'single';
  const sig = (l: LabelRow) => `${l.categories ?? ''}|${l.study_design ?? ''}`;
  return labels.every((l) => sig(l) === sig(labels[0]!)) ? 'agree' : 'split';
}

export function predictionObject(r: WorkRow): Record<string, unknown> | null {
  if (r.model_version === null || r.model_version === undefined) return null;
  const out: Record<string, unknown> = {
    model_version: r.model_version,
    category_order: CATEGORY_ORDER,
    candidate_categories: list(r.candidate_categories, ';'),
    consensus_categories: list(r.consensus_categories, ';'),
    category_scores_codex: scores(r.category_scores_codex),
    category_scores_gemma: scores(r.category_scores_gemma),
  };
  for (const head of ['about_ca_system', 'about_ca_topic']) {
    for (const k of ['candidate', 'consensus']) out[`${head}_${k}`] = r[`${head}_${k}`];
    for (const t of ['codex', 'gemma']) out[`${head}_score_${t}`] = num(r[`${head}_score_${t}`]);
  }
  const heads: [string, readonly string[]][] = [
    ['domain', DOMAINS],
    ['study_design', DESIGNS],
    ['genre', GENRES],
  ];
  for (const [head] of heads) {
    out[`${head}_scores_codex`] = scores(r[`${head}_scores_codex`]);
    out[`${head}_scores_gemma`] = scores(r[`${head}_scores_gemma`]);
    for (const k of ['codex', 'gemma', 'candidate', 'consensus']) out[`${head}_${k}`] = str(r[`${head}_${k}`]);
  }
  out.teacher_disagreement_score = num(r.teacher_disagreement_score);
  out.threshold_uncertainty_score = num(r.threshold_uncertainty_score);
  out.prediction_status = r.prediction_status;
  return out;
}

/** The `meta` block of a work record. */
export function workRecordMeta(snapshot: SnapshotRef) {
  return {
    snapshot,
    direct_label_status: DIRECT_LABEL_STATUS,
    prediction_status: 'machine_predicted_unvalidated (teacher distillation; fidelity to machine teachers, not human accuracy)',
  };
}

/**
 * The JSON text of a work record: the meta block first, then the stored item's keys, so a stored item is
 * served without parsing it.
 */
export function workRecordText(metaJson: string, itemJson: string): string {
  return itemJson === '{}' ? `{"meta":${metaJson}}` : `{"meta":${metaJson},${itemJson.slice(1)}`;
}

/**
 * A work as cohort results, exports and the record carry it: every frame field, routes, authors, retraction,
 * screen, direct labels, the full prediction and the legacy scores. Key order is fixed here.
 */
export function workItem(r: WorkRow, authors: readonly AuthorshipRow[], labels: readonly LabelRow[]): Record<string, unknown> {
  const routeFlags = {
    aff: r.route_ca_aff,
    fund: r.route_ca_fund,
    venue: r.route_ca_venue,
    about: r.route_about_ca,
  };
  return {
    id: r.id,
    doi: str(r.doi),
    title: r.title,
    year: num(r.year),
    lang: str(r.lang),
    type: r.type,
    venue: str(r.venue),
    topic: str(r.topic),
    field: str(r.field),
    cited_by: num(r.cited_by),
    is_retracted: r.is_retracted,
    has_abstract: r.has_abstract,
    routes: ROUTES.filter((k) => routeFlags[k] === true),
    route_flags: { ...routeFlags, invisible_to_affiliation: r.route_ca_aff !== true },
    ca_institutions: list(r.ca_institutions, '; '),
    funders: list(r.funders, '; '),
    keywords: list(r.keywords, '; '),
    authors: authors.map((a) => ({
      id: a.id,
      name: a.name,
      orcid: a.orcid ?? null,
      position: a.position,
      is_ca: a.is_ca,
    })),
    retraction:
      r.retraction_work_id === null || r.retraction_work_id === undefined
        ? null
        : {
            nature: str(r.nature),
            reason: str(r.reason),
            date: str(r.retraction_date),
            openalex_flagged: r.openalex_flagged,
          },
    screen:
      r.stratum === null || r.stratum === undefined
        ? null
        : {
            n_in: num(r.n_in),
            stratum: r.stratum,
            stratum_n: num(r.stratum_n),
            weight: num(r.weight),
            ...Object.fromEntries(
              SCREEN_MODELS.map((m) => [
                m,
                {
                  tier: r[`${m}_tier`],
                  genre: str(r[`${m}_genre`]),
                  about_ca: r[`${m}_about_ca`],
                  confidence: r[`${m}_confidence`],
                  reasons: str(r[`${m}_reason`]),
                },
              ]),
            ),
          },
    labels: labels.map((l) => ({
      model: l.model,
      categories: list(l.categories, ';'),
      domain: l.domain,
      study_design: l.study_design,
      genre: l.genre,
      about_ca_system: l.about_ca_system,
      about_ca_topic: l.about_ca_topic,
      confidence: l.confidence,
      status: DIRECT_LABEL_STATUS,
    })),
    label_agreement: labelAgreement(labels),
    prediction: predictionObject(r),
    machine_scores:
      r.score_model_a === null || r.score_model_a === undefined
        ? null
        : {
            provisional: true,
            score_model_a: num(r.score_model_a),
            score_model_b: num(r.score_model_b),
            score_spread: num(r.score_spread),
            validation_status: r.validation_status,
            note: MACHINE_SCORES_NOTE,
          },
  };
}

/**
 * SQL that yields the WorkRow columns for the works selected by `where(column)` (DuckDB frame database).
 * The condition is applied to every table's own id column, so each scan uses that table's sort order (zone
 * maps) instead of joining the full tables.
 */
export function workRowSql(where: (column: string) => string): string {
  const part = (table: string) => `(SELECT * FROM ${table} WHERE ${where('work_id')})`;
  return `SELECT w.*, p.* EXCLUDE (work_id), s.* EXCLUDE (work_id), r.work_id AS retraction_work_id, r.nature, r.reason, r.retraction_date, r.openalex_flagged,
          ls.score_model_a, ls.score_model_b, ls.score_spread, ls.validation_status
   FROM (SELECT * FROM works WHERE ${where('id')}) w
   LEFT JOIN ${part('predictions')} p ON p.work_id = w.id
   LEFT JOIN ${part('screened')} s ON s.work_id = w.id
   LEFT JOIN ${part('retractions')} r ON r.work_id = w.id
   LEFT JOIN ${part('legacy_scores')} ls ON ls.work_id = w.id
   ORDER BY w.id`;
}
