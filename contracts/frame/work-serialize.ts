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
  /** By dialect (JSON_TEXT, CSV_TEXT): the value's JSON, and its JSON as a `;`-separated list. */
  private readonly jsonOf: [string[], string[]] = [[], []];
  private readonly listJsonOf: [string[], string[]] = [[], []];
  private readonly cellOf: string[] = [];
  constructor(private readonly values: readonly string[]) {}
  value(code: number): string | null {
    return code === 0 ? null : this.values[code - 1]!;
  }
  /** JSON of the value as workItem passes it on (code 0: null). */
  json(d: Dialect, code: number): string {
    return code === 0 ? 'null' : (this.jsonOf[d.at][code] ??= d.str(this.values[code - 1]!));
  }
  /** JSON of the value read through str() (work-record.ts): an empty string is null. */
  strJson(d: Dialect, code: number): string {
    return code === 0 || this.values[code - 1] === '' ? 'null' : this.json(d, code);
  }
  /** JSON of the value read as a `;`-separated list (list()). */
  listJson(d: Dialect, code: number): string {
    return (this.listJsonOf[d.at][code] ??= strsJson(d, list(this.value(code), ';')));
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
/** JSON text with every `"` doubled, as it stands inside a quoted CSV cell. */
const doubleQuotes = (json: string): string => json.replaceAll('"', '""');

/**
 * How the JSON of the record's nested parts (authors, labels, prediction) is written: as JSON (the work item),
 * or as the inside of the quoted CSV cell that holds that JSON in an export line, every `"` already doubled.
 * The CSV form is written as the JSON is built, from constant fragments made once per dialect, instead of
 * doubling the quotes of a finished ~1 KB text per row (15% of an export's CPU; docs/benchmarks.md, issue 24).
 */
interface Dialect {
  /** Index of the dialect's caches. */
  at: 0 | 1;
  /** A constant fragment of JSON text in this dialect. */
  lit: (json: string) => string;
  /** A string's JSON in this dialect. */
  str: (v: string) => string;
}
const JSON_TEXT: Dialect = { at: 0, lit: (json) => json, str: (v) => JSON.stringify(v) };
const CSV_TEXT: Dialect = {
  at: 1,
  lit: doubleQuotes,
  str: (v) => {
    // A string's JSON starts and ends with `"` and holds any other `"` escaped as `\"`: without one, only the
    // two ends double.
    const json = JSON.stringify(v);
    return json.indexOf('"', 1) === json.length - 1 ? `"${json}"` : doubleQuotes(json);
  },
};
/** j() in a dialect. */
const dj = (d: Dialect, v: unknown): string => (typeof v === 'string' ? d.str(v) : j(v));

/** JSON of a text read through str(): an empty text is null. */
const strJson = (v: unknown): string => (v === null || v === undefined || v === '' ? 'null' : JSON.stringify(v));
/** A decoded number list: its JSON text already (work-store.ts; no quotes in either dialect). */
const numList = (v: unknown): string => v as string;
/** JSON of a decoded number: its text, or the raw double's JSON. */
const numJson = (v: DecodedNumber): string => (typeof v === 'string' ? v : j(v));
function strsJson(d: Dialect, xs: readonly unknown[]): string {
  let out = '[';
  for (let k = 0; k < xs.length; k++) out += (k > 0 ? ',' : '') + dj(d, xs[k]);
  return `${out}]`;
}
/** JSON of a symbol list's codes (null: []). */
function codesJson(t: SymbolTexts, codes: unknown): string {
  if (codes === null) return '[]';
  const cs = codes as number[];
  let out = '[';
  for (let k = 0; k < cs.length; k++) out += (k > 0 ? ',' : '') + t.json(JSON_TEXT, cs[k]!);
  return `${out}]`;
}

// ---- CSV cells ----

/** A cell of a value (exportCell), quoted as csvLine quotes it. */
const c = (v: unknown): string => csvField(exportCell(v));
/** A cell of a decoded number: its text (numbers are never prefixed or quoted), or the raw double's. */
const numCell = (v: DecodedNumber): string => (typeof v === 'string' ? v : c(v));
/**
 * The cell of a JSON part already written in CSV_TEXT (authors, labels, prediction): exportCell leaves a text
 * that starts with `[` or `{` as it is (no formula prefix), the serializers escape CR and LF, and the part is
 * an object or a non-empty list of objects, whose keys are quoted: so the cell is quoted, its quotes doubled
 * already. An empty list (`[]`) is the one form without quotes or commas. Decided from the shape, not by
 * searching the text, which would flatten the freshly concatenated string once more per cell.
 */
const jsonCell = (csvJson: string, empty: boolean): string => (empty ? csvJson : `"${csvJson}"`);
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

/** The constant fragments of the nested parts' JSON, in one dialect. */
function fragments(lit: (json: string) => string) {
  return {
    author: ['{"id":', ',"name":', ',"orcid":', ',"position":', ',"is_ca":'].map(lit),
    label: ['{"model":', ',"categories":', ',"domain":', ',"study_design":', ',"genre":', ',"about_ca_system":', ',"about_ca_topic":', ',"confidence":'].map(lit),
    labelEnd: lit(`,"status":${JSON.stringify(DIRECT_LABEL_STATUS)}}`),
    predictionHead: ['{"model_version":', `,"category_order":${JSON.stringify(CATEGORY_ORDER)},"candidate_categories":`, ',"consensus_categories":', ',"category_scores_codex":', ',"category_scores_gemma":'].map(lit),
    about: (['about_ca_system', 'about_ca_topic'] as const).map((h) => ({
      json: [`${h}_candidate`, `${h}_consensus`, `${h}_score_codex`, `${h}_score_gemma`].map((k) => lit(`,"${k}":`)),
      candidate: fieldPosition(`${h}_candidate`),
      consensus: fieldPosition(`${h}_consensus`),
      codex: fieldPosition(`${h}_score_codex`),
      gemma: fieldPosition(`${h}_score_gemma`),
    })),
    heads: HEADS.map((h) => ({
      json: [`${h}_scores_codex`, `${h}_scores_gemma`].map((k) => lit(`,"${k}":`)),
      scoresCodex: fieldPosition(`${h}_scores_codex`),
      scoresGemma: fieldPosition(`${h}_scores_gemma`),
      picks: (['codex', 'gemma', 'candidate', 'consensus'] as const).map((k) => ({ json: lit(`,"${h}_${k}":`), at: fieldPosition(`${h}_${k}`) })),
    })),
    predictionTail: [',"teacher_disagreement_score":', ',"threshold_uncertainty_score":', ',"prediction_status":'].map(lit),
  };
}
const FRAGMENTS = [fragments(JSON_TEXT.lit), fragments(CSV_TEXT.lit)] as const;

const SCREEN_KEYS = SCREEN_MODELS.map((m) => ({
  json: `,"${m}":{"tier":`,
  tier: fieldPosition(`${m}_tier`),
  genre: fieldPosition(`${m}_genre`),
  aboutCa: fieldPosition(`${m}_about_ca`),
  confidence: fieldPosition(`${m}_confidence`),
  reason: fieldPosition(`${m}_reason`),
}));

const NOTE_JSON = JSON.stringify(MACHINE_SCORES_NOTE);

// ---- parts ----

function authorsJson(d: Dialect, authors: readonly AuthorshipRow[]): string {
  const f = FRAGMENTS[d.at].author;
  let out = '[';
  for (let k = 0; k < authors.length; k++) {
    const a = authors[k]!;
    out += `${k > 0 ? ',' : ''}${f[0]}${dj(d, a.id)}${f[1]}${dj(d, a.name)}${f[2]}${dj(d, a.orcid ?? null)}${f[3]}${j(a.position)}${f[4]}${j(a.is_ca)}}`;
  }
  return `${out}]`;
}

function labelsJson(d: Dialect, labels: readonly LabelRow[]): string {
  const { label: f, labelEnd } = FRAGMENTS[d.at];
  let out = '[';
  for (let k = 0; k < labels.length; k++) {
    const l = labels[k]!;
    out +=
      `${k > 0 ? ',' : ''}${f[0]}${dj(d, l.model)}${f[1]}${strsJson(d, list(l.categories, ';'))}${f[2]}${dj(d, l.domain)}` +
      `${f[3]}${dj(d, l.study_design)}${f[4]}${dj(d, l.genre)}${f[5]}${dj(d, l.about_ca_system)}` +
      `${f[6]}${dj(d, l.about_ca_topic)}${f[7]}${dj(d, l.confidence)}${labelEnd}`;
  }
  return `${out}]`;
}

const sym = (v: unknown[], at: number) => v[at] as number;
/** Whether a group's gate has a value: a symbol's code is 0 for null, any other kind is null. */
const present = (v: unknown[], at: number) => (WORK_FIELDS[at]!.kind === 'sym' ? v[at] !== 0 : v[at] !== null);

/** The prediction object's JSON (null when the work has no prediction). */
function predictionJson(d: Dialect, v: unknown[], t: (SymbolTexts | undefined)[]): string {
  if (!present(v, F.modelVersion)) return 'null';
  const { predictionHead: f, about, heads, predictionTail: e } = FRAGMENTS[d.at];
  let out =
    `${f[0]}${t[F.modelVersion]!.json(d, sym(v, F.modelVersion))}${f[1]}${t[F.candidate]!.listJson(d, sym(v, F.candidate))}` +
    `${f[2]}${t[F.consensus]!.listJson(d, sym(v, F.consensus))}${f[3]}${numList(v[F.scoresCodex])}${f[4]}${numList(v[F.scoresGemma])}`;
  for (const k of about)
    out +=
      `${k.json[0]}${dj(d, v[k.candidate])}${k.json[1]}${dj(d, v[k.consensus])}` +
      `${k.json[2]}${numJson(v[k.codex] as DecodedNumber)}${k.json[3]}${numJson(v[k.gemma] as DecodedNumber)}`;
  for (const h of heads) {
    out += `${h.json[0]}${numList(v[h.scoresCodex])}${h.json[1]}${numList(v[h.scoresGemma])}`;
    for (const p of h.picks) out += p.json + t[p.at]!.strJson(d, sym(v, p.at));
  }
  return (
    `${out}${e[0]}${numJson(v[F.disagreement] as DecodedNumber)}${e[1]}${numJson(v[F.uncertainty] as DecodedNumber)}` +
    `${e[2]}${t[F.predictionStatus]!.json(d, sym(v, F.predictionStatus))}}`
  );
}

function screenJson(v: unknown[], t: (SymbolTexts | undefined)[]): string {
  if (!present(v, F.stratum)) return 'null';
  let out =
    `{"n_in":${j(v[F.nIn])},"stratum":${t[F.stratum]!.json(JSON_TEXT, sym(v, F.stratum))},"stratum_n":${j(v[F.stratumN])},` +
    `"weight":${numJson(v[F.weight] as DecodedNumber)}`;
  for (const m of SCREEN_KEYS)
    out +=
      `${m.json}${t[m.tier]!.json(JSON_TEXT, sym(v, m.tier))},"genre":${t[m.genre]!.strJson(JSON_TEXT, sym(v, m.genre))},"about_ca":${j(v[m.aboutCa])},` +
      `"confidence":${t[m.confidence]!.json(JSON_TEXT, sym(v, m.confidence))},"reasons":${strJson(v[m.reason])}}`;
  return `${out}}`;
}

const ROUTE_FLAGS = [F.aff, F.fund, F.venueRoute, F.about];
const routesOf = (v: unknown[]) => ROUTES.filter((_, k) => v[ROUTE_FLAGS[k]!] === true);

/** The work item's JSON text: the same bytes as JSON.stringify(workItem(...)). */
export function workItemJson(w: StoredWork): string {
  const v = w.values;
  const t = symbolTexts(w.tables);
  const d = JSON_TEXT;
  const retraction = present(v, F.retracted)
    ? `{"nature":${t[F.nature]!.strJson(d, sym(v, F.nature))},"reason":${strJson(v[F.reason])},"date":${t[F.retractionDate]!.strJson(d, sym(v, F.retractionDate))},"openalex_flagged":${j(v[F.flagged])}}`
    : 'null';
  const machine = present(v, F.scoreA)
    ? `{"provisional":true,"score_model_a":${numJson(v[F.scoreA] as DecodedNumber)},"score_model_b":${numJson(v[F.scoreB] as DecodedNumber)},` +
      `"score_spread":${numJson(v[F.spread] as DecodedNumber)},"validation_status":${t[F.validation]!.json(d, sym(v, F.validation))},"note":${NOTE_JSON}}`
    : 'null';
  return (
    `{"id":${j(w.id)},"doi":${strJson(v[F.doi])},"title":${j(v[F.title])},"year":${j(v[F.year])},"lang":${t[F.lang]!.strJson(d, sym(v, F.lang))},` +
    `"type":${t[F.type]!.json(d, sym(v, F.type))},"venue":${t[F.venue]!.strJson(d, sym(v, F.venue))},"topic":${t[F.topic]!.strJson(d, sym(v, F.topic))},` +
    `"field":${t[F.field]!.strJson(d, sym(v, F.field))},"cited_by":${j(v[F.citedBy])},` +
    `"is_retracted":${j(v[F.isRetracted])},"has_abstract":${j(v[F.hasAbstract])},"routes":${strsJson(d, routesOf(v))},` +
    `"route_flags":{"aff":${j(v[F.aff])},"fund":${j(v[F.fund])},"venue":${j(v[F.venueRoute])},"about":${j(v[F.about])},"invisible_to_affiliation":${j(v[F.aff] !== true)}},` +
    `"ca_institutions":${codesJson(t[F.institutions]!, v[F.institutions])},"funders":${codesJson(t[F.funders]!, v[F.funders])},"keywords":${codesJson(t[F.keywords]!, v[F.keywords])},` +
    `"authors":${authorsJson(d, w.authors)},"retraction":${retraction},"screen":${screenJson(v, t)},"labels":${labelsJson(d, w.labels)},` +
    `"label_agreement":${j(labelAgreement(w.labels))},"prediction":${predictionJson(d, v, t)},"machine_scores":${machine}}`
  );
}

/**
 * The work's CSV export line: the same bytes as exportRow(workItem(...)) (columns: export-columns.ts), written
 * as one string in column order, each group of columns empty when its gate is.
 */
export function workCsvLine(w: StoredWork): string {
  const v = w.values;
  const t = symbolTexts(w.tables);
  const labels = w.labels;
  const num = (at: number) => numCell(v[at] as DecodedNumber);
  let line =
    `${c(w.id)},${c(v[F.doi] === '' ? null : v[F.doi])},${c(v[F.title])},${plainCell(v[F.year])},${t[F.lang]!.cell(sym(v, F.lang))},` +
    `${t[F.type]!.cell(sym(v, F.type))},${t[F.venue]!.cell(sym(v, F.venue))},${t[F.topic]!.cell(sym(v, F.topic))},${t[F.field]!.cell(sym(v, F.field))},` +
    `${plainCell(v[F.citedBy])},${plainCell(v[F.isRetracted])},${plainCell(v[F.hasAbstract])},` +
    `${plainCell(v[F.aff])},${plainCell(v[F.fund])},${plainCell(v[F.venueRoute])},${plainCell(v[F.about])},${c(routesOf(v).join(';'))},` +
    `${codesCell(t[F.institutions]!, v[F.institutions])},${codesCell(t[F.funders]!, v[F.funders])},${codesCell(t[F.keywords]!, v[F.keywords])},` +
    `${c(w.authors.map((a) => a.name).join(';'))},${jsonCell(authorsJson(CSV_TEXT, w.authors), w.authors.length === 0)},`;
  line += present(v, F.retracted)
    ? `${t[F.nature]!.cell(sym(v, F.nature))},${c(v[F.reason] === '' ? null : v[F.reason])},${t[F.retractionDate]!.cell(sym(v, F.retractionDate))},${plainCell(v[F.flagged])},`
    : ',,,,';
  line += present(v, F.stratum) ? `${plainCell(v[F.nIn])},${t[F.stratum]!.cell(sym(v, F.stratum))},${num(F.weight)},` : ',,,';
  if (labels.length === 0) line += ',,,,,';
  else {
    const categories = [...new Set(labels.flatMap((l) => list(l.categories, ';')))].sort().join(';');
    line +=
      `${c(labels.map((l) => l.model).join(';'))},${c(labelAgreement(labels))},${c(categories)},` +
      `${c(DIRECT_LABEL_STATUS)},${jsonCell(labelsJson(CSV_TEXT, labels), false)},`;
  }
  line += present(v, F.modelVersion)
    ? `${t[F.modelVersion]!.cell(sym(v, F.modelVersion))},${t[F.candidate]!.cell(sym(v, F.candidate))},${t[F.consensus]!.cell(sym(v, F.consensus))},` +
      `${t[F.studyDesignCandidate]!.cell(sym(v, F.studyDesignCandidate))},${t[F.studyDesignConsensus]!.cell(sym(v, F.studyDesignConsensus))},` +
      `${num(F.disagreement)},${num(F.uncertainty)},${t[F.predictionStatus]!.cell(sym(v, F.predictionStatus))},${jsonCell(predictionJson(CSV_TEXT, v, t), false)},`
    : ',,,,,,,,,';
  line += present(v, F.scoreA) ? `${num(F.scoreA)},${num(F.scoreB)},${num(F.spread)},${t[F.validation]!.cell(sym(v, F.validation))}\n` : ',,,\n';
  return line;
}
