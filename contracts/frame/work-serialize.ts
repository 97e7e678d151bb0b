/**
 * The serializers of a stored work (work-store.ts): the work item's JSON text (the work record without `meta`,
 * and a cohort page's or JSON export's item) and its CSV export line, written straight from the decoded values
 * instead of building the item object and stringifying it: a page of 25 items and a 100,000-row export are
 * served at the speed of reading the rows (docs/benchmarks.md, issue 24). Symbols arrive as codes and numbers as
 * their printed text, and every symbol's JSON and CSV text is made once per build (SymbolTexts), so an item costs
 * mostly string concatenation.
 *
 * workItem (work-record.ts) stays the readable definition of the shape, and exportRow (export-columns.ts) of
 * the CSV line: the tests compare these serializers with them, byte for byte, on every work of the fixture
 * builds, on generated values of every kind and on the reference OpenAlex records.
 */
import { csvField, exportCell } from './export-columns.ts';
import { CATEGORY_ORDER, ROUTES, SCREEN_MODELS } from './vocab.ts';
import { type AuthorshipRow, DIRECT_LABEL_STATUS, type LabelRow, labelAgreement, list, MACHINE_SCORES_NOTE } from './work-record.ts';
import { type DecodedNumber, type DecodedWork, fieldPosition, type SymbolTables, WORK_FIELDS } from './work-store.ts';

export type StoredWork = DecodedWork;

/** What one symbol table's values print as, each made on first use and kept (tables hold at most ~100k values). */
class SymbolTexts {
  private readonly jsonOf: string[] = [];
  private readonly cellOf: string[] = [];
  private readonly listJsonOf: string[] = [];
  constructor(private readonly values: readonly string[]) {}
  value(code: number): string | null {
    return code === 0 ? null : this.values[code - 1]!;
  }
  /** JSON of the value as workItem passes it on (code 0: null). */
  json(code: number): string {
    return code === 0 ? 'null' : (this.jsonOf[code] ??= JSON.stringify(this.values[code - 1]));
  }
  /** JSON of the value read through str() (work-record.ts): an empty string is null. */
  strJson(code: number): string {
    return code === 0 || this.values[code - 1] === '' ? 'null' : this.json(code);
  }
  /** JSON of the value read as a `;`-separated list (list()). */
  listJson(code: number): string {
    return (this.listJsonOf[code] ??= strsJson(list(this.value(code), ';')));
  }
  /** The CSV cell, quoted as csvLine quotes it (exportCell gives the same empty cell for null and ''). */
  cell(code: number): string {
    return code === 0 ? '' : (this.cellOf[code] ??= csvField(exportCell(this.values[code - 1])));
  }
}

/** Per build (its symbol tables), the SymbolTexts of each work field by position (none for fields without a table). */
const textsByTables = new WeakMap<SymbolTables, (SymbolTexts | undefined)[]>();
function symbolTexts(tables: SymbolTables): (SymbolTexts | undefined)[] {
  let t = textsByTables.get(tables);
  if (!t) {
    t = WORK_FIELDS.map(({ field, kind }) => (kind === 'sym' || kind === 'symlist' ? new SymbolTexts(tables[field] ?? []) : undefined));
    textsByTables.set(tables, t);
  }
  return t;
}

// ---- JSON of values ----

/** JSON of a plain value as JSON.stringify writes it inside an object or array (undefined as null: never met here). */
function j(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v);
}
/** JSON of a text read through str(): an empty text is null. */
const strJson = (v: unknown): string => (v === null || v === undefined || v === '' ? 'null' : JSON.stringify(v));
/** JSON of a decoded number: its text, or the raw double's JSON. */
const numJson = (v: DecodedNumber): string => (typeof v === 'string' ? v : j(v));
function strsJson(xs: readonly unknown[]): string {
  let out = '[';
  for (let k = 0; k < xs.length; k++) out += (k > 0 ? ',' : '') + j(xs[k]);
  return `${out}]`;
}
/** JSON of a decoded number list as scores() reads it: the texts, the raw text's numbers, or [] for null. */
function numsJson(v: unknown): string {
  if (Array.isArray(v)) return `[${(v as string[]).join(',')}]`;
  return strsJson(list(v, ';').map(Number));
}
/** JSON of a symbol list's codes (null: []). */
function codesJson(t: SymbolTexts, codes: unknown): string {
  if (codes === null) return '[]';
  const cs = codes as number[];
  let out = '[';
  for (let k = 0; k < cs.length; k++) out += (k > 0 ? ',' : '') + t.json(cs[k]!);
  return `${out}]`;
}

// ---- CSV cells ----

/** A cell of a value (exportCell), quoted as csvLine quotes it. */
const c = (v: unknown): string => csvField(exportCell(v));
/** A cell of a decoded number: its text (numbers are never prefixed or quoted), or the raw double's. */
const numCell = (v: DecodedNumber): string => (typeof v === 'string' ? v : c(v));
/**
 * A cell of JSON text that starts with `[` or `{` (authorships, labels, prediction): exportCell leaves such a
 * text as it is (no formula prefix), and the serializers escape CR and LF, so it is quoted exactly when it holds
 * `"` or `,`. Skips c()'s two regular expressions on the row's longest cells.
 */
const jsonCell = (json: string): string => (json.includes('"') || json.includes(',') ? `"${json.replaceAll('"', '""')}"` : json);
/** A cell of an integer or boolean (or null): printed as exportCell prints it, never quoted. */
const plainCell = (v: unknown): string => (v === null ? '' : String(v));
/** A cell of a symbol list's values joined by `;` (null: empty). */
function codesCell(t: SymbolTexts, codes: unknown): string {
  if (codes === null) return '';
  return c((codes as number[]).map((code) => t.value(code)).join(';'));
}

// ---- field positions ----

const F = {
  doi: fieldPosition('doi'),
  title: fieldPosition('title'),
  year: fieldPosition('year'),
  lang: fieldPosition('lang'),
  type: fieldPosition('type'),
  venue: fieldPosition('venue'),
  topic: fieldPosition('topic'),
  field: fieldPosition('field'),
  citedBy: fieldPosition('cited_by'),
  isRetracted: fieldPosition('is_retracted'),
  hasAbstract: fieldPosition('has_abstract'),
  aff: fieldPosition('route_ca_aff'),
  fund: fieldPosition('route_ca_fund'),
  venueRoute: fieldPosition('route_ca_venue'),
  about: fieldPosition('route_about_ca'),
  institutions: fieldPosition('ca_institutions'),
  funders: fieldPosition('funders'),
  keywords: fieldPosition('keywords'),
  retracted: fieldPosition('retraction_work_id'),
  nature: fieldPosition('nature'),
  reason: fieldPosition('reason'),
  retractionDate: fieldPosition('retraction_date'),
  flagged: fieldPosition('openalex_flagged'),
  stratum: fieldPosition('stratum'),
  nIn: fieldPosition('n_in'),
  stratumN: fieldPosition('stratum_n'),
  weight: fieldPosition('weight'),
  modelVersion: fieldPosition('model_version'),
  candidate: fieldPosition('candidate_categories'),
  consensus: fieldPosition('consensus_categories'),
  scoresCodex: fieldPosition('category_scores_codex'),
  scoresGemma: fieldPosition('category_scores_gemma'),
  studyDesignCandidate: fieldPosition('study_design_candidate'),
  studyDesignConsensus: fieldPosition('study_design_consensus'),
  disagreement: fieldPosition('teacher_disagreement_score'),
  uncertainty: fieldPosition('threshold_uncertainty_score'),
  predictionStatus: fieldPosition('prediction_status'),
  scoreA: fieldPosition('score_model_a'),
  scoreB: fieldPosition('score_model_b'),
  spread: fieldPosition('score_spread'),
  validation: fieldPosition('validation_status'),
};

const HEADS = ['domain', 'study_design', 'genre'] as const;
const PREDICTION_KEYS = {
  about: (['about_ca_system', 'about_ca_topic'] as const).map((h) => ({
    json: [`${h}_candidate`, `${h}_consensus`, `${h}_score_codex`, `${h}_score_gemma`].map((k) => `,"${k}":`),
    candidate: fieldPosition(`${h}_candidate`),
    consensus: fieldPosition(`${h}_consensus`),
    codex: fieldPosition(`${h}_score_codex`),
    gemma: fieldPosition(`${h}_score_gemma`),
  })),
  heads: HEADS.map((h) => ({
    json: [`${h}_scores_codex`, `${h}_scores_gemma`].map((k) => `,"${k}":`),
    scoresCodex: fieldPosition(`${h}_scores_codex`),
    scoresGemma: fieldPosition(`${h}_scores_gemma`),
    picks: (['codex', 'gemma', 'candidate', 'consensus'] as const).map((k) => ({ json: `,"${h}_${k}":`, at: fieldPosition(`${h}_${k}`) })),
  })),
};

const SCREEN_KEYS = SCREEN_MODELS.map((m) => ({
  json: `,"${m}":{"tier":`,
  tier: fieldPosition(`${m}_tier`),
  genre: fieldPosition(`${m}_genre`),
  aboutCa: fieldPosition(`${m}_about_ca`),
  confidence: fieldPosition(`${m}_confidence`),
  reason: fieldPosition(`${m}_reason`),
}));

const CATEGORY_ORDER_JSON = JSON.stringify(CATEGORY_ORDER);
const LABEL_STATUS_JSON = JSON.stringify(DIRECT_LABEL_STATUS);
const NOTE_JSON = JSON.stringify(MACHINE_SCORES_NOTE);

// ---- parts ----

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
      `${k > 0 ? ',' : ''}{"model":${j(l.model)},"categories":${strsJson(list(l.categories, ';'))},"domain":${j(l.domain)},` +
      `"study_design":${j(l.study_design)},"genre":${j(l.genre)},"about_ca_system":${j(l.about_ca_system)},` +
      `"about_ca_topic":${j(l.about_ca_topic)},"confidence":${j(l.confidence)},"status":${LABEL_STATUS_JSON}}`;
  }
  return `${out}]`;
}

const sym = (v: unknown[], at: number) => v[at] as number;
/** Whether a group's gate has a value: a symbol's code is 0 for null, any other kind is null. */
const present = (v: unknown[], at: number) => (WORK_FIELDS[at]!.kind === 'sym' ? v[at] !== 0 : v[at] !== null);

/** The prediction object's JSON (null when the work has no prediction). */
function predictionJson(v: unknown[], t: (SymbolTexts | undefined)[]): string {
  if (!present(v, F.modelVersion)) return 'null';
  let out =
    `{"model_version":${t[F.modelVersion]!.json(sym(v, F.modelVersion))},"category_order":${CATEGORY_ORDER_JSON},` +
    `"candidate_categories":${t[F.candidate]!.listJson(sym(v, F.candidate))},"consensus_categories":${t[F.consensus]!.listJson(sym(v, F.consensus))},` +
    `"category_scores_codex":${numsJson(v[F.scoresCodex])},"category_scores_gemma":${numsJson(v[F.scoresGemma])}`;
  for (const k of PREDICTION_KEYS.about)
    out +=
      `${k.json[0]}${j(v[k.candidate])}${k.json[1]}${j(v[k.consensus])}` +
      `${k.json[2]}${numJson(v[k.codex] as DecodedNumber)}${k.json[3]}${numJson(v[k.gemma] as DecodedNumber)}`;
  for (const h of PREDICTION_KEYS.heads) {
    out += `${h.json[0]}${numsJson(v[h.scoresCodex])}${h.json[1]}${numsJson(v[h.scoresGemma])}`;
    for (const p of h.picks) out += p.json + t[p.at]!.strJson(sym(v, p.at));
  }
  return (
    `${out},"teacher_disagreement_score":${numJson(v[F.disagreement] as DecodedNumber)},` +
    `"threshold_uncertainty_score":${numJson(v[F.uncertainty] as DecodedNumber)},"prediction_status":${t[F.predictionStatus]!.json(sym(v, F.predictionStatus))}}`
  );
}

function screenJson(v: unknown[], t: (SymbolTexts | undefined)[]): string {
  if (!present(v, F.stratum)) return 'null';
  let out =
    `{"n_in":${j(v[F.nIn])},"stratum":${t[F.stratum]!.json(sym(v, F.stratum))},"stratum_n":${j(v[F.stratumN])},` +
    `"weight":${numJson(v[F.weight] as DecodedNumber)}`;
  for (const m of SCREEN_KEYS)
    out +=
      `${m.json}${t[m.tier]!.json(sym(v, m.tier))},"genre":${t[m.genre]!.strJson(sym(v, m.genre))},"about_ca":${j(v[m.aboutCa])},` +
      `"confidence":${t[m.confidence]!.json(sym(v, m.confidence))},"reasons":${strJson(v[m.reason])}}`;
  return `${out}}`;
}

const ROUTE_FLAGS = [F.aff, F.fund, F.venueRoute, F.about];
const routesOf = (v: unknown[]) => ROUTES.filter((_, k) => v[ROUTE_FLAGS[k]!] === true);

/** The work item's JSON text: the same bytes as JSON.stringify(workItem(...)). */
export function workItemJson(w: StoredWork): string {
  const v = w.values;
  const t = symbolTexts(w.tables);
  const retraction = present(v, F.retracted)
    ? `{"nature":${t[F.nature]!.strJson(sym(v, F.nature))},"reason":${strJson(v[F.reason])},"date":${t[F.retractionDate]!.strJson(sym(v, F.retractionDate))},"openalex_flagged":${j(v[F.flagged])}}`
    : 'null';
  const machine = present(v, F.scoreA)
    ? `{"provisional":true,"score_model_a":${numJson(v[F.scoreA] as DecodedNumber)},"score_model_b":${numJson(v[F.scoreB] as DecodedNumber)},` +
      `"score_spread":${numJson(v[F.spread] as DecodedNumber)},"validation_status":${t[F.validation]!.json(sym(v, F.validation))},"note":${NOTE_JSON}}`
    : 'null';
  return (
    `{"id":${j(w.id)},"doi":${strJson(v[F.doi])},"title":${j(v[F.title])},"year":${j(v[F.year])},"lang":${t[F.lang]!.strJson(sym(v, F.lang))},` +
    `"type":${t[F.type]!.json(sym(v, F.type))},"venue":${t[F.venue]!.strJson(sym(v, F.venue))},"topic":${t[F.topic]!.strJson(sym(v, F.topic))},` +
    `"field":${t[F.field]!.strJson(sym(v, F.field))},"cited_by":${j(v[F.citedBy])},` +
    `"is_retracted":${j(v[F.isRetracted])},"has_abstract":${j(v[F.hasAbstract])},"routes":${strsJson(routesOf(v))},` +
    `"route_flags":{"aff":${j(v[F.aff])},"fund":${j(v[F.fund])},"venue":${j(v[F.venueRoute])},"about":${j(v[F.about])},"invisible_to_affiliation":${j(v[F.aff] !== true)}},` +
    `"ca_institutions":${codesJson(t[F.institutions]!, v[F.institutions])},"funders":${codesJson(t[F.funders]!, v[F.funders])},"keywords":${codesJson(t[F.keywords]!, v[F.keywords])},` +
    `"authors":${authorsJson(w.authors)},"retraction":${retraction},"screen":${screenJson(v, t)},"labels":${labelsJson(w.labels)},` +
    `"label_agreement":${j(labelAgreement(w.labels))},"prediction":${predictionJson(v, t)},"machine_scores":${machine}}`
  );
}

/** The work's CSV export line: the same bytes as exportRow(workItem(...)) (columns: export-columns.ts). */
export function workCsvLine(w: StoredWork): string {
  const v = w.values;
  const t = symbolTexts(w.tables);
  const ret = present(v, F.retracted);
  const screened = present(v, F.stratum);
  const predicted = present(v, F.modelVersion);
  const scored = present(v, F.scoreA);
  const labels = w.labels;
  const categories = labels.length === 0 ? '' : [...new Set(labels.flatMap((l) => list(l.categories, ';')))].sort().join(';');
  const num = (at: number) => numCell(v[at] as DecodedNumber);
  const cells = [
    c(w.id),
    c(v[F.doi] === '' ? null : v[F.doi]),
    c(v[F.title]),
    plainCell(v[F.year]),
    t[F.lang]!.cell(sym(v, F.lang)),
    t[F.type]!.cell(sym(v, F.type)),
    t[F.venue]!.cell(sym(v, F.venue)),
    t[F.topic]!.cell(sym(v, F.topic)),
    t[F.field]!.cell(sym(v, F.field)),
    plainCell(v[F.citedBy]),
    plainCell(v[F.isRetracted]),
    plainCell(v[F.hasAbstract]),
    plainCell(v[F.aff]),
    plainCell(v[F.fund]),
    plainCell(v[F.venueRoute]),
    plainCell(v[F.about]),
    c(routesOf(v).join(';')),
    codesCell(t[F.institutions]!, v[F.institutions]),
    codesCell(t[F.funders]!, v[F.funders]),
    codesCell(t[F.keywords]!, v[F.keywords]),
    c(w.authors.map((a) => a.name).join(';')),
    jsonCell(authorsJson(w.authors)),
    ret ? t[F.nature]!.cell(sym(v, F.nature)) : '',
    ret ? c(v[F.reason] === '' ? null : v[F.reason]) : '',
    ret ? t[F.retractionDate]!.cell(sym(v, F.retractionDate)) : '',
    ret ? plainCell(v[F.flagged]) : '',
    screened ? plainCell(v[F.nIn]) : '',
    screened ? t[F.stratum]!.cell(sym(v, F.stratum)) : '',
    screened ? num(F.weight) : '',
    c(labels.map((l) => l.model).join(';')),
    c(labelAgreement(labels)),
    c(categories),
    labels.length > 0 ? c(DIRECT_LABEL_STATUS) : '',
    labels.length > 0 ? jsonCell(labelsJson(labels)) : '',
    predicted ? t[F.modelVersion]!.cell(sym(v, F.modelVersion)) : '',
    predicted ? t[F.candidate]!.cell(sym(v, F.candidate)) : '',
    predicted ? t[F.consensus]!.cell(sym(v, F.consensus)) : '',
    predicted ? t[F.studyDesignCandidate]!.cell(sym(v, F.studyDesignCandidate)) : '',
    predicted ? t[F.studyDesignConsensus]!.cell(sym(v, F.studyDesignConsensus)) : '',
    predicted ? num(F.disagreement) : '',
    predicted ? num(F.uncertainty) : '',
    predicted ? t[F.predictionStatus]!.cell(sym(v, F.predictionStatus)) : '',
    predicted ? jsonCell(predictionJson(v, t)) : '',
    scored ? num(F.scoreA) : '',
    scored ? num(F.scoreB) : '',
    scored ? num(F.spread) : '',
    scored ? t[F.validation]!.cell(sym(v, F.validation)) : '',
  ];
  return `${cells.join(',')}\n`;
}
