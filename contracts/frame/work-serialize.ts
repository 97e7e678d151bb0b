/**
 * The serializers of a stored work (work-store.ts): the work item's JSON (the work record without `meta`, a
 * cohort page's or JSON export's item, a static per-work document) and its CSV export line, written as bytes
 * straight from the decoded values into a ByteSink, instead of building the item object and stringifying it:
 * a page of 25 items and a 100,000-row export are served at the speed of reading the rows (docs/benchmarks.md
 * has the measurement). Texts arrive as the store's UTF-8 bytes and are copied escaped (byte-sink.ts), symbols as codes
 * whose JSON and CSV bytes are made once per build (SymbolTexts), numbers as their printed text: an export
 * never decodes a string to JavaScript nor encodes one back.
 *
 * workItem (work-record.ts) stays the readable definition of the shape, and exportRow (export-columns.ts) of
 * the CSV line: the tests compare these serializers with them, byte for byte, on every work of the fixture
 * builds, on generated values of every kind and on the reference OpenAlex records.
 */
import { ByteSink, utf8Bytes } from './byte-sink.ts';
import { csvField, exportCell } from './export-columns.ts';
import { CATEGORY_ORDER, ROUTES, SCREEN_MODELS } from './vocab.ts';
import { DIRECT_LABEL_STATUS, type LabelRow, labelAgreement, list, MACHINE_SCORES_NOTE } from './work-record.ts';
import {
  type DecodedAuthorship,
  type DecodedNumber,
  type DecodedWork,
  fieldPosition,
  type SymbolTables,
  WORK_FIELDS,
  writeNumberListJson,
  writeText,
} from './work-store.ts';

export type StoredWork = DecodedWork;

/** JSON text with every `"` doubled, as it stands inside a quoted CSV cell. */
const doubleQuotes = (json: string): string => json.replaceAll('"', '""');

/**
 * How the JSON of the record's nested parts (authors, labels, prediction) is written: as JSON (the work item),
 * or as the inside of the quoted CSV cell that holds that JSON in an export line, every `"` already doubled.
 * The CSV form is written as the JSON is built, from constant fragments made once per dialect, instead of
 * doubling the quotes of a finished ~1 KB text per row (docs/benchmarks.md).
 */
interface Dialect {
  /** Index of the dialect's caches. */
  at: 0 | 1;
  /** Whether `"` is written twice. */
  doubled: boolean;
  /** A string's JSON in this dialect. */
  str: (v: string) => string;
}
const JSON_TEXT: Dialect = { at: 0, doubled: false, str: (v) => JSON.stringify(v) };
const CSV_TEXT: Dialect = { at: 1, doubled: true, str: (v) => doubleQuotes(JSON.stringify(v)) };
/** A constant fragment of JSON as bytes, in each dialect. */
const lit = (json: string): [Uint8Array, Uint8Array] => [utf8Bytes(json), utf8Bytes(doubleQuotes(json))];

const NULL = 'null';
const QUOTE = 0x22;
const COMMA = 0x2c;

/** JSON of a plain value as JSON.stringify writes it inside an object or array (undefined as null: never met here). */
function j(v: unknown): string {
  if (v === null || v === undefined) return NULL;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : NULL;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return JSON.stringify(v);
}
/** j() in a dialect. */
const dj = (d: Dialect, v: unknown): string => (typeof v === 'string' ? d.str(v) : j(v));

/** What one symbol table's values print as, as bytes, each made on first use and kept (tables hold at most ~100k values). */
class SymbolTexts {
  /** By dialect (JSON_TEXT, CSV_TEXT): the value's JSON, and its JSON as a `;`-separated list. */
  private readonly jsonOf: [Uint8Array[], Uint8Array[]] = [[], []];
  private readonly listJsonOf: [Uint8Array[], Uint8Array[]] = [[], []];
  private readonly cellOf: Uint8Array[] = [];
  private readonly rawOf: Uint8Array[] = [];
  constructor(private readonly values: readonly string[]) {}
  value(code: number): string | null {
    return code === 0 ? null : this.values[code - 1]!;
  }
  /** JSON of the value as workItem passes it on (code 0: null). */
  json(d: Dialect, code: number): Uint8Array {
    return code === 0 ? NULL_BYTES : (this.jsonOf[d.at][code] ??= utf8Bytes(d.str(this.values[code - 1]!)));
  }
  /** JSON of the value read through str() (work-record.ts): an empty string is null. */
  strJson(d: Dialect, code: number): Uint8Array {
    return code === 0 || this.values[code - 1] === '' ? NULL_BYTES : this.json(d, code);
  }
  /** JSON of the value read as a `;`-separated list (list()). */
  listJson(d: Dialect, code: number): Uint8Array {
    return (this.listJsonOf[d.at][code] ??= utf8Bytes(strsJson(d, list(this.value(code), ';'))));
  }
  /** The CSV cell, quoted as csvLine quotes it (exportCell gives the same empty cell for null and ''). */
  cell(code: number): Uint8Array {
    return code === 0 ? EMPTY : (this.cellOf[code] ??= utf8Bytes(csvField(exportCell(this.values[code - 1]))));
  }
  /** The value's UTF-8 as it is. */
  raw(code: number): Uint8Array {
    return (this.rawOf[code] ??= utf8Bytes(this.values[code - 1]!));
  }
}
const NULL_BYTES = utf8Bytes(NULL);
const TRUE_BYTES = utf8Bytes('true');
const FALSE_BYTES = utf8Bytes('false');
const EMPTY = utf8Bytes('');

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

function strsJson(d: Dialect, xs: readonly unknown[]): string {
  let out = '[';
  for (let k = 0; k < xs.length; k++) out += (k > 0 ? ',' : '') + dj(d, xs[k]);
  return `${out}]`;
}

// ---- writing values ----

/** A plain value's JSON (numbers, booleans, null). */
function wj(s: ByteSink, v: unknown): void {
  if (v === null) s.bytes(NULL_BYTES);
  else if (v === true) s.bytes(TRUE_BYTES);
  else if (v === false) s.bytes(FALSE_BYTES);
  else if (typeof v === 'number' && Number.isInteger(v) && v >= 0) s.uint(v);
  else s.ascii(j(v));
}
/** A decoded number: its text, or the raw double's JSON. */
const wNum = (s: ByteSink, v: DecodedNumber): void => s.ascii(typeof v === 'string' ? v : j(v));
/** The JSON of text field `k` (null: null; with `emptyNull`, an empty text too, as str() reads it). */
function wText(s: ByteSink, d: Dialect, w: StoredWork, k: number, emptyNull = false): void {
  if (w.values[k] === null) return s.bytes(NULL_BYTES);
  writeText(joined, w, k);
  if (emptyNull && joined.length === 0) s.bytes(NULL_BYTES);
  else s.jsonString(joined.buf, 0, joined.length, d.doubled);
  joined.length = 0;
}
/** A text read through str(): an empty text is null. */
const wStrText = (s: ByteSink, d: Dialect, w: StoredWork, k: number): void => wText(s, d, w, k, true);
/** JSON of a symbol list's codes (null: []). */
function wCodesJson(s: ByteSink, t: SymbolTexts, codes: unknown): void {
  s.byte(0x5b); // [
  if (codes !== null) {
    const cs = codes as number[];
    for (let k = 0; k < cs.length; k++) {
      if (k > 0) s.byte(COMMA);
      s.bytes(t.json(JSON_TEXT, cs[k]!));
    }
  }
  s.byte(0x5d); // ]
}

/** Builds a text before it is escaped (texts from the row, `;`-joined lists): one at a time. */
const joined = new ByteSink(1 << 12);
/** The joined text, as one cell, and the join emptied. */
function wJoinedCell(s: ByteSink): void {
  s.csvCell(joined.buf, 0, joined.length);
  joined.length = 0;
}
/** A cell of text field `k` (exportCell: null and '' alike). */
function wTextCell(s: ByteSink, w: StoredWork, k: number): void {
  if (w.values[k] === null) return;
  writeText(joined, w, k);
  wJoinedCell(s);
}
/** A cell of an integer, boolean or null: printed as exportCell prints it, never quoted. */
function wPlain(s: ByteSink, v: unknown): void {
  if (v === null) return;
  if (v === true) s.bytes(TRUE_BYTES);
  else if (v === false) s.bytes(FALSE_BYTES);
  else if (typeof v === 'number' && Number.isInteger(v) && v >= 0) s.uint(v);
  else s.ascii(String(v));
}
/** A cell of a decoded number: its text (numbers are never prefixed or quoted), or the raw double's. */
const wNumCell = (s: ByteSink, v: DecodedNumber): void => (v === null ? undefined : s.ascii(String(v)));
/** A cell of a symbol list's values joined by `;` (null: empty). */
function wCodesCell(s: ByteSink, t: SymbolTexts, codes: unknown): void {
  if (codes === null) return;
  const cs = codes as number[];
  if (cs.length === 1) return s.bytes(t.cell(cs[0]!));
  for (let k = 0; k < cs.length; k++) {
    if (k > 0) joined.byte(0x3b); // ;
    joined.bytes(t.raw(cs[k]!));
  }
  wJoinedCell(s);
}
/** A cell of a string (the label columns: rare). */
const wStringCell = (s: ByteSink, v: string | null): void => s.utf8(csvField(exportCell(v)));

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

/** The constant fragments of the nested parts' JSON, by dialect. */
const FRAGMENTS = (() => {
  const fr = {
    author: ['{"id":"A', '","name":', ',"orcid":', ',"position":', ',"is_ca":', '}'].map(lit),
    predictionHead: [
      '{"model_version":',
      `,"category_order":${JSON.stringify(CATEGORY_ORDER)},"candidate_categories":`,
      ',"consensus_categories":',
      ',"category_scores_codex":',
      ',"category_scores_gemma":',
    ].map(lit),
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
    predictionTail: [',"teacher_disagreement_score":', ',"threshold_uncertainty_score":', ',"prediction_status":', '}'].map(lit),
  };
  return fr;
})();

const SCREEN_KEYS = SCREEN_MODELS.map((m) => ({
  json: [`,"${m}":{"tier":`, ',"genre":', ',"about_ca":', ',"confidence":', ',"reasons":', '}'].map(utf8Bytes),
  tier: fieldPosition(`${m}_tier`),
  genre: fieldPosition(`${m}_genre`),
  aboutCa: fieldPosition(`${m}_about_ca`),
  confidence: fieldPosition(`${m}_confidence`),
  reason: fieldPosition(`${m}_reason`),
}));

/** The item's keys, in workItem's order, with what comes before each value. */
const K = Object.fromEntries(
  Object.entries({
    id: '{"id":',
    doi: ',"doi":',
    title: ',"title":',
    year: ',"year":',
    lang: ',"lang":',
    type: ',"type":',
    venue: ',"venue":',
    topic: ',"topic":',
    field: ',"field":',
    citedBy: ',"cited_by":',
    isRetracted: ',"is_retracted":',
    hasAbstract: ',"has_abstract":',
    routes: ',"routes":',
    aff: ',"route_flags":{"aff":',
    fund: ',"fund":',
    venueRoute: ',"venue":',
    about: ',"about":',
    invisible: ',"invisible_to_affiliation":',
    institutions: '},"ca_institutions":',
    funders: ',"funders":',
    keywords: ',"keywords":',
    authors: ',"authors":',
    retraction: ',"retraction":',
    nature: '{"nature":',
    reason: ',"reason":',
    date: ',"date":',
    flagged: ',"openalex_flagged":',
    screen: ',"screen":',
    nIn: '{"n_in":',
    stratum: ',"stratum":',
    stratumN: ',"stratum_n":',
    weight: ',"weight":',
    labels: ',"labels":',
    agreement: ',"label_agreement":',
    prediction: ',"prediction":',
    machine: ',"machine_scores":',
    scoreA: '{"provisional":true,"score_model_a":',
    scoreB: ',"score_model_b":',
    spread: ',"score_spread":',
    validation: ',"validation_status":',
    note: `,"note":${JSON.stringify(MACHINE_SCORES_NOTE)}}`,
    end: '}',
  }).map(([k, v]) => [k, utf8Bytes(v)]),
) as Record<string, Uint8Array>;

// ---- parts ----

function wAuthors(s: ByteSink, d: Dialect, w: StoredWork): void {
  const f = FRAGMENTS.author;
  const { names, orcids } = w.people;
  const authors = w.authors;
  s.byte(0x5b); // [
  for (let k = 0; k < authors.length; k++) {
    const a = authors[k]!;
    if (k > 0) s.byte(COMMA);
    s.bytes(f[0]![d.at]);
    s.uint(a.id);
    s.bytes(f[1]![d.at]);
    s.jsonString(names.bin, names.offsets[a.row]!, names.offsets[a.row + 1]!, d.doubled);
    s.bytes(f[2]![d.at]);
    const from = orcids.offsets[a.row]!;
    const to = orcids.offsets[a.row + 1]!;
    if (from === to) s.bytes(NULL_BYTES);
    else s.jsonString(orcids.bin, from, to, d.doubled);
    s.bytes(f[3]![d.at]);
    wj(s, a.position);
    s.bytes(f[4]![d.at]);
    wj(s, a.is_ca);
    s.bytes(f[5]![d.at]);
  }
  s.byte(0x5d); // ]
}

/** The names of the authors joined by `;`, as one cell. */
function wAuthorNamesCell(s: ByteSink, w: StoredWork): void {
  const { bin, offsets } = w.people.names;
  const authors: readonly DecodedAuthorship[] = w.authors;
  for (let k = 0; k < authors.length; k++) {
    if (k > 0) joined.byte(0x3b); // ;
    joined.bytes(bin, offsets[authors[k]!.row]!, offsets[authors[k]!.row + 1]!);
  }
  wJoinedCell(s);
}

/** The labels' JSON as text (labels are few: a work has at most one per model). */
function labelsJson(d: Dialect, labels: readonly LabelRow[]): string {
  const q = (json: string) => (d.doubled ? doubleQuotes(json) : json);
  let out = '[';
  for (let k = 0; k < labels.length; k++) {
    const l = labels[k]!;
    out +=
      `${k > 0 ? ',' : ''}${q('{"model":')}${dj(d, l.model)}${q(',"categories":')}${strsJson(d, list(l.categories, ';'))}${q(',"domain":')}${dj(d, l.domain)}` +
      `${q(',"study_design":')}${dj(d, l.study_design)}${q(',"genre":')}${dj(d, l.genre)}${q(',"about_ca_system":')}${dj(d, l.about_ca_system)}` +
      `${q(',"about_ca_topic":')}${dj(d, l.about_ca_topic)}${q(',"confidence":')}${dj(d, l.confidence)}${q(`,"status":${JSON.stringify(DIRECT_LABEL_STATUS)}}`)}`;
  }
  return `${out}]`;
}

const sym = (v: unknown[], at: number) => v[at] as number;
/** Whether a group's gate has a value: a symbol's code is 0 for null, any other kind is null. */
const present = (v: unknown[], at: number) => (WORK_FIELDS[at]!.kind === 'sym' ? v[at] !== 0 : v[at] !== null);

/** The prediction object's JSON (null when the work has no prediction). */
function wPrediction(s: ByteSink, d: Dialect, w: StoredWork, t: (SymbolTexts | undefined)[]): void {
  const v = w.values;
  if (!present(v, F.modelVersion)) return s.bytes(NULL_BYTES);
  const { predictionHead: f, about, heads, predictionTail: e } = FRAGMENTS;
  const at = d.at;
  s.bytes(f[0]![at]);
  s.bytes(t[F.modelVersion]!.json(d, sym(v, F.modelVersion)));
  s.bytes(f[1]![at]);
  s.bytes(t[F.candidate]!.listJson(d, sym(v, F.candidate)));
  s.bytes(f[2]![at]);
  s.bytes(t[F.consensus]!.listJson(d, sym(v, F.consensus)));
  s.bytes(f[3]![at]);
  writeNumberListJson(s, w, v[F.scoresCodex] as number);
  s.bytes(f[4]![at]);
  writeNumberListJson(s, w, v[F.scoresGemma] as number);
  for (const k of about) {
    s.bytes(k.json[0]![at]);
    wj(s, v[k.candidate]);
    s.bytes(k.json[1]![at]);
    wj(s, v[k.consensus]);
    s.bytes(k.json[2]![at]);
    wNum(s, v[k.codex] as DecodedNumber);
    s.bytes(k.json[3]![at]);
    wNum(s, v[k.gemma] as DecodedNumber);
  }
  for (const h of heads) {
    s.bytes(h.json[0]![at]);
    writeNumberListJson(s, w, v[h.scoresCodex] as number);
    s.bytes(h.json[1]![at]);
    writeNumberListJson(s, w, v[h.scoresGemma] as number);
    for (const p of h.picks) {
      s.bytes(p.json[at]);
      s.bytes(t[p.at]!.strJson(d, sym(v, p.at)));
    }
  }
  s.bytes(e[0]![at]);
  wNum(s, v[F.disagreement] as DecodedNumber);
  s.bytes(e[1]![at]);
  wNum(s, v[F.uncertainty] as DecodedNumber);
  s.bytes(e[2]![at]);
  s.bytes(t[F.predictionStatus]!.json(d, sym(v, F.predictionStatus)));
  s.bytes(e[3]![at]);
}

function wScreen(s: ByteSink, w: StoredWork, t: (SymbolTexts | undefined)[]): void {
  const v = w.values;
  if (!present(v, F.stratum)) return s.bytes(NULL_BYTES);
  const d = JSON_TEXT;
  s.bytes(K.nIn!);
  wj(s, v[F.nIn]);
  s.bytes(K.stratum!);
  s.bytes(t[F.stratum]!.json(d, sym(v, F.stratum)));
  s.bytes(K.stratumN!);
  wj(s, v[F.stratumN]);
  s.bytes(K.weight!);
  wNum(s, v[F.weight] as DecodedNumber);
  for (const m of SCREEN_KEYS) {
    s.bytes(m.json[0]!);
    s.bytes(t[m.tier]!.json(d, sym(v, m.tier)));
    s.bytes(m.json[1]!);
    s.bytes(t[m.genre]!.strJson(d, sym(v, m.genre)));
    s.bytes(m.json[2]!);
    wj(s, v[m.aboutCa]);
    s.bytes(m.json[3]!);
    s.bytes(t[m.confidence]!.json(d, sym(v, m.confidence)));
    s.bytes(m.json[4]!);
    wStrText(s, d, w, m.reason);
    s.bytes(m.json[5]!);
  }
  s.bytes(K.end!);
}

const ROUTE_FLAGS = [F.aff, F.fund, F.venueRoute, F.about];
/** The routes a work's flags give, by the flags as a bit mask: their JSON list and their `;`-joined cell. */
const ROUTE_TEXTS = Array.from({ length: 1 << ROUTES.length }, (_, mask) => {
  const routes = ROUTES.filter((_, k) => (mask & (1 << k)) !== 0);
  return { json: utf8Bytes(JSON.stringify(routes)), cell: utf8Bytes(csvField(exportCell(routes.join(';')))) };
});
function routesOf(v: unknown[]) {
  let mask = 0;
  for (let k = 0; k < ROUTE_FLAGS.length; k++) if (v[ROUTE_FLAGS[k]!] === true) mask |= 1 << k;
  return ROUTE_TEXTS[mask]!;
}

/** Writes the work item's JSON: the same bytes as JSON.stringify(workItem(...)). */
export function writeWorkItem(s: ByteSink, w: StoredWork): void {
  // The scratch sink starts empty even if a write before this one threw half-way.
  joined.length = 0;
  const v = w.values;
  const t = symbolTexts(w.tables);
  const d = JSON_TEXT;
  s.bytes(K.id!);
  joined.utf8(w.id);
  s.jsonString(joined.buf, 0, joined.length, false);
  joined.length = 0;
  s.bytes(K.doi!);
  wStrText(s, d, w, F.doi);
  s.bytes(K.title!);
  wText(s, d, w, F.title);
  s.bytes(K.year!);
  wj(s, v[F.year]);
  s.bytes(K.lang!);
  s.bytes(t[F.lang]!.strJson(d, sym(v, F.lang)));
  s.bytes(K.type!);
  s.bytes(t[F.type]!.json(d, sym(v, F.type)));
  s.bytes(K.venue!);
  s.bytes(t[F.venue]!.strJson(d, sym(v, F.venue)));
  s.bytes(K.topic!);
  s.bytes(t[F.topic]!.strJson(d, sym(v, F.topic)));
  s.bytes(K.field!);
  s.bytes(t[F.field]!.strJson(d, sym(v, F.field)));
  s.bytes(K.citedBy!);
  wj(s, v[F.citedBy]);
  s.bytes(K.isRetracted!);
  wj(s, v[F.isRetracted]);
  s.bytes(K.hasAbstract!);
  wj(s, v[F.hasAbstract]);
  s.bytes(K.routes!);
  s.bytes(routesOf(v).json);
  s.bytes(K.aff!);
  wj(s, v[F.aff]);
  s.bytes(K.fund!);
  wj(s, v[F.fund]);
  s.bytes(K.venueRoute!);
  wj(s, v[F.venueRoute]);
  s.bytes(K.about!);
  wj(s, v[F.about]);
  s.bytes(K.invisible!);
  wj(s, v[F.aff] !== true);
  s.bytes(K.institutions!);
  wCodesJson(s, t[F.institutions]!, v[F.institutions]);
  s.bytes(K.funders!);
  wCodesJson(s, t[F.funders]!, v[F.funders]);
  s.bytes(K.keywords!);
  wCodesJson(s, t[F.keywords]!, v[F.keywords]);
  s.bytes(K.authors!);
  wAuthors(s, d, w);
  s.bytes(K.retraction!);
  if (present(v, F.retracted)) {
    s.bytes(K.nature!);
    s.bytes(t[F.nature]!.strJson(d, sym(v, F.nature)));
    s.bytes(K.reason!);
    wStrText(s, d, w, F.reason);
    s.bytes(K.date!);
    s.bytes(t[F.retractionDate]!.strJson(d, sym(v, F.retractionDate)));
    s.bytes(K.flagged!);
    wj(s, v[F.flagged]);
    s.bytes(K.end!);
  } else s.bytes(NULL_BYTES);
  s.bytes(K.screen!);
  wScreen(s, w, t);
  s.bytes(K.labels!);
  s.utf8(labelsJson(d, w.labels));
  s.bytes(K.agreement!);
  s.ascii(j(labelAgreement(w.labels)));
  s.bytes(K.prediction!);
  wPrediction(s, d, w, t);
  s.bytes(K.machine!);
  if (present(v, F.scoreA)) {
    s.bytes(K.scoreA!);
    wNum(s, v[F.scoreA] as DecodedNumber);
    s.bytes(K.scoreB!);
    wNum(s, v[F.scoreB] as DecodedNumber);
    s.bytes(K.spread!);
    wNum(s, v[F.spread] as DecodedNumber);
    s.bytes(K.validation!);
    s.bytes(t[F.validation]!.json(d, sym(v, F.validation)));
    s.bytes(K.note!);
  } else s.bytes(NULL_BYTES);
  s.bytes(K.end!);
}

const DIRECT_LABEL_STATUS_CELL = utf8Bytes(csvField(exportCell(DIRECT_LABEL_STATUS)));
/** Runs of export columns written alike. */
const SYMBOL_COLUMNS = [F.lang, F.type, F.venue, F.topic, F.field];
const PLAIN_COLUMNS = [F.citedBy, F.isRetracted, F.hasAbstract, F.aff, F.fund, F.venueRoute, F.about];
const LIST_COLUMNS = [F.institutions, F.funders, F.keywords];
const PREDICTION_COLUMNS = [F.modelVersion, F.candidate, F.consensus, F.studyDesignCandidate, F.studyDesignConsensus];

/**
 * Writes the work's CSV export line: the same bytes as exportRow(workItem(...)) (columns: export-columns.ts), in
 * column order, each group of columns empty when its gate is.
 */
export function writeWorkCsvLine(s: ByteSink, w: StoredWork): void {
  joined.length = 0;
  const v = w.values;
  const t = symbolTexts(w.tables);
  const labels = w.labels;
  joined.utf8(w.id);
  wJoinedCell(s);
  s.byte(COMMA);
  wTextCell(s, w, F.doi);
  s.byte(COMMA);
  wTextCell(s, w, F.title);
  s.byte(COMMA);
  wPlain(s, v[F.year]);
  for (const at of SYMBOL_COLUMNS) {
    s.byte(COMMA);
    s.bytes(t[at]!.cell(sym(v, at)));
  }
  for (const at of PLAIN_COLUMNS) {
    s.byte(COMMA);
    wPlain(s, v[at]);
  }
  s.byte(COMMA);
  s.bytes(routesOf(v).cell);
  for (const at of LIST_COLUMNS) {
    s.byte(COMMA);
    wCodesCell(s, t[at]!, v[at]);
  }
  s.byte(COMMA);
  wAuthorNamesCell(s, w);
  s.byte(COMMA);
  // The JSON cells: exportCell leaves a text that starts with `[` or `{` as it is (no formula prefix), and the
  // part is an object or a non-empty list of objects, whose keys are quoted: so the cell is quoted, its quotes
  // doubled (CSV_TEXT). An empty list (`[]`) is the one form without quotes or commas.
  if (w.authors.length === 0) s.ascii('[]');
  else {
    s.byte(QUOTE);
    wAuthors(s, CSV_TEXT, w);
    s.byte(QUOTE);
  }
  s.byte(COMMA);
  if (present(v, F.retracted)) {
    s.bytes(t[F.nature]!.cell(sym(v, F.nature)));
    s.byte(COMMA);
    wTextCell(s, w, F.reason);
    s.byte(COMMA);
    s.bytes(t[F.retractionDate]!.cell(sym(v, F.retractionDate)));
    s.byte(COMMA);
    wPlain(s, v[F.flagged]);
    s.byte(COMMA);
  } else s.ascii(',,,,');
  if (present(v, F.stratum)) {
    wPlain(s, v[F.nIn]);
    s.byte(COMMA);
    s.bytes(t[F.stratum]!.cell(sym(v, F.stratum)));
    s.byte(COMMA);
    wNumCell(s, v[F.weight] as DecodedNumber);
    s.byte(COMMA);
  } else s.ascii(',,,');
  if (labels.length === 0) s.ascii(',,,,,');
  else {
    const categories = [...new Set(labels.flatMap((l) => list(l.categories, ';')))].sort().join(';');
    wStringCell(s, labels.map((l) => l.model).join(';'));
    s.byte(COMMA);
    wStringCell(s, labelAgreement(labels));
    s.byte(COMMA);
    wStringCell(s, categories);
    s.byte(COMMA);
    s.bytes(DIRECT_LABEL_STATUS_CELL);
    s.byte(COMMA);
    s.byte(QUOTE);
    s.utf8(labelsJson(CSV_TEXT, labels));
    s.byte(QUOTE);
    s.byte(COMMA);
  }
  if (present(v, F.modelVersion)) {
    for (const at of PREDICTION_COLUMNS) {
      s.bytes(t[at]!.cell(sym(v, at)));
      s.byte(COMMA);
    }
    wNumCell(s, v[F.disagreement] as DecodedNumber);
    s.byte(COMMA);
    wNumCell(s, v[F.uncertainty] as DecodedNumber);
    s.byte(COMMA);
    s.bytes(t[F.predictionStatus]!.cell(sym(v, F.predictionStatus)));
    s.byte(COMMA);
    s.byte(QUOTE);
    wPrediction(s, CSV_TEXT, w, t);
    s.byte(QUOTE);
    s.byte(COMMA);
  } else s.ascii(',,,,,,,,,');
  if (present(v, F.scoreA)) {
    wNumCell(s, v[F.scoreA] as DecodedNumber);
    s.byte(COMMA);
    wNumCell(s, v[F.scoreB] as DecodedNumber);
    s.byte(COMMA);
    wNumCell(s, v[F.spread] as DecodedNumber);
    s.byte(COMMA);
    s.bytes(t[F.validation]!.cell(sym(v, F.validation)));
    s.byte(0x0a);
  } else s.ascii(',,,\n');
}

/** One sink for the string forms below (synchronous: never two at a time). */
const sink = new ByteSink();

/** The work item's JSON text: the same text as JSON.stringify(workItem(...)). */
export function workItemJson(w: StoredWork): string {
  // Empty even if a write before this one threw half-way (a build's files that do not match), so nothing of
  // another work is ever sent.
  sink.length = 0;
  writeWorkItem(sink, w);
  return sink.takeString();
}

/** The work's CSV export line as text (LF-terminated). */
export function workCsvLine(w: StoredWork): string {
  sink.length = 0;
  writeWorkCsvLine(sink, w);
  return sink.takeString();
}
