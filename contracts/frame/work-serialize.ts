/**
 * The serializers of a stored work (work-store.ts): the work item's JSON text (the work record without `meta`,
 * and a cohort page's or JSON export's item) and its CSV export line, written straight from the decoded
 * values with the JSON of every key, constant and symbol computed once, instead of building the item object
 * and stringifying it: a page of 25 items and a 100,000-row export are served at the speed of reading the
 * rows (docs/benchmarks.md, issue 24).
 *
 * workItem (work-record.ts) stays the readable definition of the shape, and exportRow (export-columns.ts) of
 * the CSV line: the tests compare these serializers with them, byte for byte, on every work of the fixture
 * builds and of the reference OpenAlex records.
 */
import { csvLine, exportCell } from './export-columns.ts';
import { CATEGORY_ORDER, ROUTES, SCREEN_MODELS } from './vocab.ts';
import {
  type AuthorshipRow,
  DIRECT_LABEL_STATUS,
  type LabelRow,
  labelAgreement,
  list,
  MACHINE_SCORES_NOTE,
  num,
  scores,
  str,
  type WorkRow,
} from './work-record.ts';

export interface StoredWork {
  row: WorkRow;
  authors: AuthorshipRow[];
  labels: LabelRow[];
}

/**
 * The JSON of numbers and short strings already written, kept: scores take a few thousand values and symbols
 * a few thousand strings, and printing a double costs several times a lookup. Bounded, so unique values
 * (titles, DOIs) cannot grow it without end.
 */
const numberJson = new Map<number, string>();
const stringJson = new Map<string, string>();
const CACHE_LIMIT = 100_000;
const CACHED_STRING_LENGTH = 48;

/** JSON of a value as JSON.stringify writes it inside an object or array (undefined as null: never met here). */
function j(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') {
    let s = numberJson.get(v);
    if (s === undefined) {
      s = Number.isFinite(v) ? String(v) : 'null';
      if (numberJson.size < CACHE_LIMIT) numberJson.set(v, s);
    }
    return s;
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string' && v.length <= CACHED_STRING_LENGTH) {
    let s = stringJson.get(v);
    if (s === undefined) {
      s = JSON.stringify(v);
      if (stringJson.size < CACHE_LIMIT) stringJson.set(v, s);
    }
    return s;
  }
  return JSON.stringify(v);
}
const jNums = (xs: readonly number[]): string => {
  let out = '[';
  for (let k = 0; k < xs.length; k++) out += (k > 0 ? ',' : '') + j(xs[k]);
  return `${out}]`;
};
const jStrs = (xs: readonly unknown[]): string => {
  let out = '[';
  for (let k = 0; k < xs.length; k++) out += (k > 0 ? ',' : '') + j(xs[k]);
  return `${out}]`;
};

const CATEGORY_ORDER_JSON = JSON.stringify(CATEGORY_ORDER);
const LABEL_STATUS_JSON = JSON.stringify(DIRECT_LABEL_STATUS);
const NOTE_JSON = JSON.stringify(MACHINE_SCORES_NOTE);

export function authorsJson(authors: readonly AuthorshipRow[]): string {
  let out = '[';
  for (let k = 0; k < authors.length; k++) {
    const a = authors[k]!;
    out += `${k > 0 ? ',' : ''}{"id":${j(a.id)},"name":${j(a.name)},"orcid":${j(a.orcid ?? null)},"position":${j(a.position)},"is_ca":${j(a.is_ca)}}`;
  }
  return `${out}]`;
}

export function labelsJson(labels: readonly LabelRow[]): string {
  let out = '[';
  for (let k = 0; k < labels.length; k++) {
    const l = labels[k]!;
    out +=
      `${k > 0 ? ',' : ''}{"model":${j(l.model)},"categories":${jStrs(list(l.categories, ';'))},"domain":${j(l.domain)},` +
      `"study_design":${j(l.study_design)},"genre":${j(l.genre)},"about_ca_system":${j(l.about_ca_system)},` +
      `"about_ca_topic":${j(l.about_ca_topic)},"confidence":${j(l.confidence)},"status":${LABEL_STATUS_JSON}}`;
  }
  return `${out}]`;
}

const HEADS = ['domain', 'study_design', 'genre'] as const;
const PREDICTION_KEYS = {
  about: (['about_ca_system', 'about_ca_topic'] as const).map((h) => ({
    candidate: `${h}_candidate`,
    consensus: `${h}_consensus`,
    codex: `${h}_score_codex`,
    gemma: `${h}_score_gemma`,
  })),
  heads: HEADS.map((h) => ({
    scoresCodex: `${h}_scores_codex`,
    scoresGemma: `${h}_scores_gemma`,
    picks: (['codex', 'gemma', 'candidate', 'consensus'] as const).map((k) => `${h}_${k}`),
  })),
};

/** The prediction object's JSON (null when the work has no prediction). */
export function predictionJson(r: WorkRow): string {
  if (r.model_version === null || r.model_version === undefined) return 'null';
  let out =
    `{"model_version":${j(r.model_version)},"category_order":${CATEGORY_ORDER_JSON},` +
    `"candidate_categories":${jStrs(list(r.candidate_categories, ';'))},"consensus_categories":${jStrs(list(r.consensus_categories, ';'))},` +
    `"category_scores_codex":${jNums(scores(r.category_scores_codex))},"category_scores_gemma":${jNums(scores(r.category_scores_gemma))}`;
  for (const k of PREDICTION_KEYS.about)
    out += `,"${k.candidate}":${j(r[k.candidate])},"${k.consensus}":${j(r[k.consensus])},"${k.codex}":${j(num(r[k.codex]))},"${k.gemma}":${j(num(r[k.gemma]))}`;
  for (const h of PREDICTION_KEYS.heads) {
    out += `,"${h.scoresCodex}":${jNums(scores(r[h.scoresCodex]))},"${h.scoresGemma}":${jNums(scores(r[h.scoresGemma]))}`;
    for (const p of h.picks) out += `,"${p}":${j(str(r[p]))}`;
  }
  return `${out},"teacher_disagreement_score":${j(num(r.teacher_disagreement_score))},"threshold_uncertainty_score":${j(num(r.threshold_uncertainty_score))},"prediction_status":${j(r.prediction_status)}}`;
}

const SCREEN_KEYS = SCREEN_MODELS.map((m) => ({
  name: m,
  tier: `${m}_tier`,
  genre: `${m}_genre`,
  aboutCa: `${m}_about_ca`,
  confidence: `${m}_confidence`,
  reason: `${m}_reason`,
}));

function screenJson(r: WorkRow): string {
  if (r.stratum === null || r.stratum === undefined) return 'null';
  let out = `{"n_in":${j(num(r.n_in))},"stratum":${j(r.stratum)},"stratum_n":${j(num(r.stratum_n))},"weight":${j(num(r.weight))}`;
  for (const m of SCREEN_KEYS)
    out += `,"${m.name}":{"tier":${j(r[m.tier])},"genre":${j(str(r[m.genre]))},"about_ca":${j(r[m.aboutCa])},"confidence":${j(r[m.confidence])},"reasons":${j(str(r[m.reason]))}}`;
  return `${out}}`;
}

const hasRetraction = (r: WorkRow) => r.retraction_work_id !== null && r.retraction_work_id !== undefined;
const hasScores = (r: WorkRow) => r.score_model_a !== null && r.score_model_a !== undefined;
const routesOf = (r: WorkRow) => {
  const flags = [r.route_ca_aff, r.route_ca_fund, r.route_ca_venue, r.route_about_ca];
  return ROUTES.filter((_, k) => flags[k] === true);
};

/** The work item's JSON text: the same bytes as JSON.stringify(workItem(...)). */
export function workItemJson(w: StoredWork): string {
  const r = w.row;
  const retraction = hasRetraction(r)
    ? `{"nature":${j(str(r.nature))},"reason":${j(str(r.reason))},"date":${j(str(r.retraction_date))},"openalex_flagged":${j(r.openalex_flagged)}}`
    : 'null';
  const machine = hasScores(r)
    ? `{"provisional":true,"score_model_a":${j(num(r.score_model_a))},"score_model_b":${j(num(r.score_model_b))},"score_spread":${j(num(r.score_spread))},"validation_status":${j(r.validation_status)},"note":${NOTE_JSON}}`
    : 'null';
  return (
    `{"id":${j(r.id)},"doi":${j(str(r.doi))},"title":${j(r.title)},"year":${j(num(r.year))},"lang":${j(str(r.lang))},"type":${j(r.type)},` +
    `"venue":${j(str(r.venue))},"topic":${j(str(r.topic))},"field":${j(str(r.field))},"cited_by":${j(num(r.cited_by))},` +
    `"is_retracted":${j(r.is_retracted)},"has_abstract":${j(r.has_abstract)},"routes":${jStrs(routesOf(r))},` +
    `"route_flags":{"aff":${j(r.route_ca_aff)},"fund":${j(r.route_ca_fund)},"venue":${j(r.route_ca_venue)},"about":${j(r.route_about_ca)},"invisible_to_affiliation":${j(r.route_ca_aff !== true)}},` +
    `"ca_institutions":${jStrs(list(r.ca_institutions, '; '))},"funders":${jStrs(list(r.funders, '; '))},"keywords":${jStrs(list(r.keywords, '; '))},` +
    `"authors":${authorsJson(w.authors)},"retraction":${retraction},"screen":${screenJson(r)},"labels":${labelsJson(w.labels)},` +
    `"label_agreement":${j(labelAgreement(w.labels))},"prediction":${predictionJson(r)},"machine_scores":${machine}}`
  );
}

/** The work's CSV export line: the same bytes as exportRow(workItem(...)) (columns: export-columns.ts). */
export function workCsvLine(w: StoredWork): string {
  const r = w.row;
  const c = exportCell;
  const joined = (v: readonly unknown[]) => c(v.join(';'));
  const ret = hasRetraction(r);
  const screened = r.stratum !== null && r.stratum !== undefined;
  const predicted = r.model_version !== null && r.model_version !== undefined;
  const scored = hasScores(r);
  const labels = w.labels;
  const categories = [...new Set(labels.flatMap((l) => list(l.categories, ';')))].sort();
  return csvLine([
    c(r.id),
    c(str(r.doi)),
    c(r.title),
    c(num(r.year)),
    c(str(r.lang)),
    c(r.type),
    c(str(r.venue)),
    c(str(r.topic)),
    c(str(r.field)),
    c(num(r.cited_by)),
    c(r.is_retracted),
    c(r.has_abstract),
    c(r.route_ca_aff),
    c(r.route_ca_fund),
    c(r.route_ca_venue),
    c(r.route_about_ca),
    joined(routesOf(r)),
    joined(list(r.ca_institutions, '; ')),
    joined(list(r.funders, '; ')),
    joined(list(r.keywords, '; ')),
    joined(w.authors.map((a) => a.name)),
    c(authorsJson(w.authors)),
    ret ? c(str(r.nature)) : '',
    ret ? c(str(r.reason)) : '',
    ret ? c(str(r.retraction_date)) : '',
    ret ? c(r.openalex_flagged) : '',
    screened ? c(num(r.n_in)) : '',
    screened ? c(r.stratum) : '',
    screened ? c(num(r.weight)) : '',
    joined(labels.map((l) => l.model)),
    c(labelAgreement(labels)),
    c(categories.join(';')),
    labels.length > 0 ? c(DIRECT_LABEL_STATUS) : '',
    labels.length > 0 ? c(labelsJson(labels)) : '',
    predicted ? c(r.model_version) : '',
    predicted ? joined(list(r.candidate_categories, ';')) : '',
    predicted ? joined(list(r.consensus_categories, ';')) : '',
    predicted ? c(str(r.study_design_candidate)) : '',
    predicted ? c(str(r.study_design_consensus)) : '',
    predicted ? c(num(r.teacher_disagreement_score)) : '',
    predicted ? c(num(r.threshold_uncertainty_score)) : '',
    predicted ? c(r.prediction_status) : '',
    predicted ? c(predictionJson(r)) : '',
    scored ? c(num(r.score_model_a)) : '',
    scored ? c(num(r.score_model_b)) : '',
    scored ? c(num(r.score_spread)) : '',
    scored ? c(r.validation_status) : '',
  ]);
}
