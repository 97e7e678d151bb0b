/**
 * The work store: what a work record, a cohort page's item and a CSV export row are made of, kept per work as
 * typed values (integers as varints, decimals as fixed-point integers, strings interned in per-field symbol
 * tables, list elements as symbol codes, authors as rows of the cohort index's author table), so the build
 * writes about 250 bytes per work instead of two deflated texts of 550 bytes each, and the server serializes
 * the record or the row when it is asked for, with the one serializer of each shape (work-serialize.ts).
 *
 * Per work the values sit together in one packed row, read with one positioned read: the query engine's
 * scanned columns are already typed arrays in memory (cohort-index.ts), while these fields are only ever read
 * whole for one work, and Node cannot map a file, so one read per work beats one per column (docs/decisions.md).
 *
 * Decoding gives back the values by field position, symbols as their codes and numbers as their printed text
 * (decodeWork), which the serializers of work-serialize.ts write out; their bytes are the same as workItem +
 * JSON.stringify and exportRow over the database's rows (test/pipeline/work-store.test.ts).
 */
import { ByteBuffer, ByteReader } from '../common/bytes.ts';
import { ByteSink, utf8Bytes } from './byte-sink.ts';
import { SCREEN_MODELS } from './vocab.ts';
import { type LabelRow, list } from './work-record.ts';

/**
 * How a field is stored:
 * - `text`: UTF-8, inline (free-text reasons);
 * - `words`: text as space-separated tokens, each a code in the field's table of frequent tokens or inline
 *   (titles: their words repeat across works, the titles do not);
 * - `prefixed`: text as a code for what comes before its first `/` (a DOI's registrant prefix) and the rest;
 * - `sym`: a string interned in the field's symbol table;
 * - `symlist`: a `; `-joined string kept as the symbol codes of its elements;
 * - `int`: an integer (zig-zag varint);
 * - `num`: a double as a fixed-point integer with its scale (exact: see encodeNumber), or raw when it has none;
 * - `numlist`: a `;`-joined list of numbers, fixed-point with one scale for the list;
 * - `bool`: true, false or null;
 * - `self`: null or the work's own id (only ever tested for null).
 * Every kind keeps null apart from every value.
 */
export type FieldKind = 'text' | 'words' | 'prefixed' | 'sym' | 'symlist' | 'int' | 'num' | 'numlist' | 'bool' | 'self';

/**
 * Groups of fields that workItem reads only when the group's first field (its gate) is not null; a work
 * without the group stores one byte for it.
 */
const screenFields = SCREEN_MODELS.flatMap(
  (m) =>
    [
      [`${m}_tier`, 'sym'],
      [`${m}_genre`, 'sym'],
      [`${m}_about_ca`, 'bool'],
      [`${m}_confidence`, 'sym'],
      [`${m}_reason`, 'text'],
    ] as const,
);
const heads = ['domain', 'study_design', 'genre'] as const;
export const WORK_GROUPS: readonly (readonly (readonly [string, FieldKind])[])[] = [
  [
    ['doi', 'prefixed'],
    ['title', 'words'],
    ['year', 'int'],
    ['lang', 'sym'],
    ['type', 'sym'],
    ['venue', 'sym'],
    ['topic', 'sym'],
    ['field', 'sym'],
    ['cited_by', 'int'],
    ['is_retracted', 'bool'],
    ['has_abstract', 'bool'],
    ['route_ca_aff', 'bool'],
    ['route_ca_fund', 'bool'],
    ['route_ca_venue', 'bool'],
    ['route_about_ca', 'bool'],
    ['ca_institutions', 'symlist'],
    ['funders', 'symlist'],
    ['keywords', 'symlist'],
  ],
  [
    ['retraction_work_id', 'self'],
    ['nature', 'sym'],
    ['reason', 'text'],
    ['retraction_date', 'sym'],
    ['openalex_flagged', 'bool'],
  ],
  [['stratum', 'sym'], ['n_in', 'int'], ['stratum_n', 'int'], ['weight', 'num'], ...screenFields],
  [
    ['model_version', 'sym'],
    ['candidate_categories', 'sym'],
    ['consensus_categories', 'sym'],
    ['category_scores_codex', 'numlist'],
    ['category_scores_gemma', 'numlist'],
    ...(['about_ca_system', 'about_ca_topic'] as const).flatMap(
      (h) =>
        [
          [`${h}_candidate`, 'bool'],
          [`${h}_consensus`, 'bool'],
          [`${h}_score_codex`, 'num'],
          [`${h}_score_gemma`, 'num'],
        ] as const,
    ),
    ...heads.flatMap(
      (h) =>
        [
          [`${h}_scores_codex`, 'numlist'],
          [`${h}_scores_gemma`, 'numlist'],
          [`${h}_codex`, 'sym'],
          [`${h}_gemma`, 'sym'],
          [`${h}_candidate`, 'sym'],
          [`${h}_consensus`, 'sym'],
        ] as const,
    ),
    ['teacher_disagreement_score', 'num'],
    ['threshold_uncertainty_score', 'num'],
    ['prediction_status', 'sym'],
  ],
  [
    ['score_model_a', 'num'],
    ['score_model_b', 'num'],
    ['score_spread', 'num'],
    ['validation_status', 'sym'],
  ],
];

/** The direct labels' fields (LabelRow), per label. */
export const LABEL_FIELDS: readonly (readonly [keyof LabelRow, FieldKind])[] = [
  ['model', 'sym'],
  ['categories', 'sym'],
  ['domain', 'sym'],
  ['study_design', 'sym'],
  ['genre', 'sym'],
  ['about_ca_system', 'bool'],
  ['about_ca_topic', 'bool'],
  ['confidence', 'sym'],
];

/** Symbol tables by name: a work field's name, or `label.<field>` for a label's. */
export type SymbolTables = Record<string, string[]>;
export const labelSymbols = (field: string) => `label.${field}`;

/**
 * Every symbol table the store needs, with the field (of works, or of labels) whose values it holds and its
 * kind: a `sym` or `symlist` table must hold every value (element), a `words` or `prefixed` table only saves
 * bytes for the values it holds (the rest are written inline), so it is best ordered most frequent first.
 */
export function symbolFields(): { table: string; field: string; kind: FieldKind; label: boolean }[] {
  const out: { table: string; field: string; kind: FieldKind; label: boolean }[] = [];
  for (const group of WORK_GROUPS)
    for (const [field, kind] of group) if (['sym', 'symlist', 'words', 'prefixed'].includes(kind)) out.push({ table: field, field, kind, label: false });
  for (const [field, kind] of LABEL_FIELDS) if (kind === 'sym') out.push({ table: labelSymbols(field), field, kind, label: true });
  return out;
}

/** Separators: of `symlist` fields (as workItem splits them), `numlist` fields, `words` and `prefixed`. */
export const SYMLIST_SEPARATOR = '; ';
export const NUMLIST_SEPARATOR = ';';
export const WORD_SEPARATOR = ' ';
export const PREFIX_SEPARATOR = '/';

// ---------------------------------------------------------------------------------------------------------
// Numbers. A decimal written with s ≤ 9 fraction digits is m / 10^s for an integer m; the double nearest to it
// is what both parsing its text and dividing m by 10^s give (each is correctly rounded, and 10^s and m below
// 2^53 are exact), so storing (m, s) and dividing on the way out returns the same double, bit for bit.

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
const MAX_SCALE = POW10.length - 1;
/** Largest magnitude stored as an integer: zig-zag doubles it, and the varint must stay exact (≤ 2^53). */
const MAX_STORED = 2 ** 52 - 1;

/** The smallest scale at which `v` is an exact fixed-point integer, or -1. */
function scaleOf(v: number): number {
  if (!Number.isFinite(v) || Object.is(v, -0)) return -1;
  for (let s = 0; s <= MAX_SCALE; s++) {
    const m = Math.round(v * POW10[s]!);
    if (Math.abs(m) <= MAX_STORED && m / POW10[s]! === v) return s;
  }
  return -1;
}

/**
 * Header byte of a number or list: 0 null; 1 + scale: fixed-point, not negative (unsigned varints: scores are
 * mostly small, so most take one byte); SIGNED + scale: fixed-point with negatives (zig-zag); RAW: an 8-byte
 * double (a list: its text).
 */
const SIGNED = 16;
const RAW = 255;

function writeNumber(w: ByteBuffer, v: unknown, field: string): void {
  if (v === null || v === undefined) return w.byte(0);
  if (typeof v !== 'number') throw new Error(`work store: ${field} is ${typeof v}, not a number`);
  const s = scaleOf(v);
  if (s < 0) {
    w.byte(RAW);
    return w.f64(v);
  }
  const m = Math.round(v * POW10[s]!);
  if (m >= 0) {
    w.byte(1 + s);
    w.uvar(m);
  } else {
    w.byte(SIGNED + s);
    w.svar(m);
  }
}

/**
 * Reads the number written in `t` from `from` up to the next `;` (or the end) and gives the position of that
 * end, when the text is exactly what JavaScript prints for the number it parses to (its fixed-point value in
 * `out`); else -1. A decimal in canonical form (no sign but `-`, no leading or trailing zeros, at most 9
 * fraction digits, at most 15 significant digits, from 1e-6 up) parses to a double that prints back as the
 * same text: two such decimals never share a double (a double holds 15.9 digits), so the shortest decimal
 * that reads back as it is the text itself. Read digit by digit, in place: neither a substring, Number() nor
 * String() per value (a 4.3M build reads some 300M of them).
 */
function canonicalDecimal(t: string, from: number, out: { m: number; s: number }): number {
  const end = t.length;
  let k = from;
  const negative = t.charCodeAt(k) === 45; // -
  if (negative) k++;
  let m = 0;
  let digits = 0;
  let scale = -1;
  let last = -1;
  const first = k;
  for (; k < end; k++) {
    const c = t.charCodeAt(k);
    if (c === 59) break; // ;
    last = c;
    if (c === 46) {
      if (scale >= 0) return -1;
      scale = 0;
      continue;
    }
    if (c < 48 || c > 57) return -1;
    m = m * 10 + (c - 48);
    if (m > 0) digits++;
    if (scale >= 0) scale++;
  }
  if (k === first || last === 46) return -1; // nothing after the sign; a point at the end
  if (t.charCodeAt(first) === 48 && k > first + 1 && t.charCodeAt(first + 1) !== 46) return -1; // leading zero
  if (scale < 0) scale = 0;
  else if (last === 48) return -1; // trailing zero in the fraction
  if (scale > MAX_SCALE || digits > 15 || m > MAX_STORED) return -1;
  if (m === 0) {
    // Only "0" itself ("-0" prints as "0", "0.0" is not canonical).
    if (negative || scale > 0) return -1;
  } else if (m / POW10[scale]! < 1e-6) return -1; // printed with an exponent
  out.m = negative ? -m : m;
  out.s = scale;
  return k;
}

/** Scratch space of writeNumberList, grown to the longest list seen (one list is written at a time). */
let listMantissas = new Float64Array(64);
let listScales = new Uint8Array(64);
const parsed = { m: 0, s: 0 };

/** A `;`-joined list of numbers, when its elements print back to the same text; else the text as it is. */
function writeNumberList(w: ByteBuffer, v: unknown, field: string): void {
  if (v === null || v === undefined) return w.byte(0);
  if (typeof v !== 'string') throw new Error(`work store: ${field} is ${typeof v}, not a list`);
  // The elements are read where they stand (as v.split(NUMLIST_SEPARATOR) would cut them; '' is no element).
  let n = 0;
  let scale = 0;
  let signed = false;
  let exact = true;
  for (let from = 0; v.length > 0;) {
    const to = canonicalDecimal(v, from, parsed);
    if (to < 0) {
      exact = false;
      break;
    }
    if (n === listMantissas.length) {
      listMantissas = Float64Array.from({ length: 2 * n }, (_, k) => listMantissas[k] ?? 0);
      listScales = Uint8Array.from({ length: 2 * n }, (_, k) => listScales[k] ?? 0);
    }
    listMantissas[n] = parsed.m;
    listScales[n++] = parsed.s;
    if (parsed.s > scale) scale = parsed.s;
    if (parsed.m < 0) signed = true;
    if (to === v.length) break;
    from = to + 1;
  }
  // One scale for the list: every value must still be a stored integer at it.
  if (exact)
    for (let k = 0; k < n; k++) {
      const m = listMantissas[k]! * POW10[scale - listScales[k]!]!;
      if (Math.abs(m) > MAX_STORED) {
        exact = false;
        break;
      }
      listMantissas[k] = m;
    }
  if (!exact) {
    w.byte(RAW);
    return w.text(v);
  }
  w.byte((signed ? SIGNED : 1) + scale);
  w.uvar(n);
  if (signed) for (let k = 0; k < n; k++) w.svar(listMantissas[k]!);
  else for (let k = 0; k < n; k++) w.uvar(listMantissas[k]!);
}

// ---------------------------------------------------------------------------------------------------------
// Fields.

/** Symbol codes of a build: table → value → 1 + position (0 is null). */
export type SymbolCodes = Record<string, Map<string, number>>;
export const symbolCodes = (tables: SymbolTables): SymbolCodes =>
  Object.fromEntries(Object.entries(tables).map(([t, values]) => [t, new Map(values.map((v, k) => [v, k + 1]))]));

function writeSym(w: ByteBuffer, v: unknown, codes: Map<string, number> | undefined, field: string): void {
  if (v === null || v === undefined) return w.uvar(0);
  const code = typeof v === 'string' ? codes?.get(v) : undefined;
  if (code === undefined) throw new Error(`work store: ${field} value ${JSON.stringify(v)} is not in its symbol table`);
  w.uvar(code);
}

/** Field kinds as small integers, for the encoder's switch (FIELD_KINDS[code] is the kind). */
const FIELD_KINDS = ['text', 'words', 'prefixed', 'sym', 'symlist', 'int', 'num', 'numlist', 'bool', 'self'] as const satisfies readonly FieldKind[];
const [TEXT, WORDS, PREFIXED, SYM, SYMLIST, INT, NUM, NUMLIST, BOOL, SELF] = FIELD_KINDS.map((_, k) => k) as number[] as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
const kindCode = (kind: FieldKind): number => FIELD_KINDS.indexOf(kind);

/** Writes one value of kind `kind` (a FIELD_KINDS code); `known` is the field's symbol codes, if it has a table. */
function writeField(w: ByteBuffer, kind: number, v: unknown, field: string, known: Map<string, number> | undefined, id: string): void {
  switch (kind) {
    case TEXT:
      if (v === null || v === undefined) return w.uvar(0);
      if (typeof v !== 'string') throw new Error(`work store: ${field} is ${typeof v}, not text`);
      w.uvar(1);
      return w.text(v);
    case WORDS: {
      if (v === null || v === undefined) return w.uvar(0);
      if (typeof v !== 'string') throw new Error(`work store: ${field} is ${typeof v}, not text`);
      const tokens = v.split(WORD_SEPARATOR);
      w.uvar(tokens.length + 1);
      for (const t of tokens) {
        const c = known?.get(t);
        if (c !== undefined) w.uvar(c);
        else {
          w.uvar(0);
          w.text(t);
        }
      }
      return;
    }
    case PREFIXED: {
      if (v === null || v === undefined) return w.uvar(0);
      if (typeof v !== 'string') throw new Error(`work store: ${field} is ${typeof v}, not text`);
      const at = v.indexOf(PREFIX_SEPARATOR);
      const c = at < 0 ? undefined : known?.get(v.slice(0, at));
      if (c === undefined) {
        w.uvar(1);
        return w.text(v);
      }
      w.uvar(1 + c);
      return w.text(v.slice(at + 1));
    }
    case SYM:
      return writeSym(w, v, known, field);
    case SYMLIST: {
      if (v === null || v === undefined) return w.uvar(0);
      if (typeof v !== 'string') throw new Error(`work store: ${field} is ${typeof v}, not a list`);
      // As workItem splits it: an empty string is an empty list.
      const parts = v === '' ? [] : v.split(SYMLIST_SEPARATOR);
      w.uvar(parts.length + 1);
      for (const p of parts) writeSym(w, p, known, field);
      return;
    }
    case INT:
      if (v === null || v === undefined) return w.uvar(0);
      if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > MAX_STORED)
        throw new Error(`work store: ${field} is not an integer of at most 52 bits: ${String(v)}`);
      w.uvar(1);
      return w.svar(v);
    case NUM:
      return writeNumber(w, v, field);
    case NUMLIST:
      return writeNumberList(w, v, field);
    case BOOL:
      if (v === null || v === undefined) return w.byte(0);
      if (typeof v !== 'boolean') throw new Error(`work store: ${field} is ${typeof v}, not a boolean`);
      return w.byte(v ? 2 : 1);
    case SELF:
      if (v === null || v === undefined) return w.byte(0);
      if (v !== id) throw new Error(`work store: ${field} of ${id} is ${String(v)}`);
      return w.byte(1);
    default:
      throw new Error(`work store: no field kind ${kind}`);
  }
}

/**
 * The text of a fixed-point number m / 10^s: String() of the double, which is what JSON.stringify and the CSV
 * export print. Small mantissas (most scores, years, counts) are printed once per scale and kept in arrays
 * indexed by the mantissa: a page of 25 items reads about 2,000 numbers, and printing a double costs several
 * times an array read (docs/benchmarks.md).
 */
const SMALL_MANTISSA = 1 << 16;
const fixedTexts: string[][] = POW10.map(() => []);
export function fixedText(m: number, s: number): string {
  if (m >= 0 && m < SMALL_MANTISSA) return (fixedTexts[s]![m] ??= String(m / POW10[s]!));
  return String(m / POW10[s]!);
}

/**
 * A `num` field as decoded: the number's text when it was stored fixed-point (the same text String() gives the
 * double), the double itself when it was stored raw (rare: a value with more than 9 fraction digits, or not
 * finite), or null.
 */
export type DecodedNumber = string | number | null;

/** The scale of a fixed-point number's or list's header byte `h` (neither 0 nor RAW), or a BytesError. */
function headerScale(r: ByteReader, h: number): number {
  const s = h >= SIGNED ? h - SIGNED : h - 1;
  if (s < 0 || s > MAX_SCALE) r.fail(`a number header ${h}`, r.pos - 1);
  return s;
}

function readNumberText(r: ByteReader): DecodedNumber {
  const h = r.byte();
  if (h === 0) return null;
  if (h === RAW) return r.f64();
  const s = headerScale(r, h);
  return h >= SIGNED ? fixedText(r.svar(), s) : fixedText(r.uvar(), s);
}

/** fixedText's bytes, kept like its texts for small mantissas. */
const fixedBytesOf: Uint8Array[][] = POW10.map(() => []);

/** Passes over a `numlist` field. */
function skipNumberList(r: ByteReader): void {
  const h = r.byte();
  if (h === 0) return;
  if (h === RAW) return r.skipText();
  headerScale(r, h);
  for (let n = r.count(); n > 0; n--) r.skipVar();
}

/**
 * Writes the JSON of the `numlist` field that starts at `at` in a decoded work's row: the list as scores()
 * (work-record.ts) reads it and JSON.stringify writes it (`[]` for null), straight from the stored integers:
 * the only thing the serializers make of a list, six of them a work.
 */
export function writeNumberListJson(out: ByteSink, w: DecodedWork, at: number): void {
  const r = new ByteReader(w.bytes, w.source, w.base, at);
  const h = r.byte();
  if (h === 0) return out.bytes(EMPTY_LIST);
  // A list kept as text (a value fixed-point cannot hold): its numbers as Number() reads them.
  if (h === RAW) return out.ascii(JSON.stringify(list(r.text(), ';').map(Number)));
  const s = headerScale(r, h);
  const n = r.count();
  const signed = h >= SIGNED;
  const cached = fixedBytesOf[s]!;
  // Six lists a work of ~10–20 numbers each: written in one loop with room made once (a printed double takes
  // at most 24 bytes), not through a call per number.
  out.room(2 + 25 * n);
  const buf = out.buf;
  let p = out.length;
  buf[p++] = 0x5b; // [
  for (let k = 0; k < n; k++) {
    if (k > 0) buf[p++] = 0x2c; // ,
    const m = signed ? r.svar() : r.uvar();
    const text = m >= 0 && m < SMALL_MANTISSA ? (cached[m] ??= utf8Bytes(fixedText(m, s))) : utf8Bytes(fixedText(m, s));
    for (let i = 0; i < text.length; i++) buf[p++] = text[i]!;
  }
  buf[p++] = 0x5d; // ]
  out.length = p;
}
const EMPTY_LIST = utf8Bytes('[]');

/**
 * Per build, the UTF-8 of each table's values, made on first use (the frequent words of titles, DOI prefixes).
 * The tables come from DuckDB, whose texts are valid UTF-8 (no lone surrogates, which JSON.stringify would
 * escape and UTF-8 cannot hold).
 */
const bytesOfTables = new WeakMap<readonly string[], Uint8Array[]>();
function tableBytes(table: readonly string[], code: number): Uint8Array {
  let b = bytesOfTables.get(table);
  if (!b) bytesOfTables.set(table, (b = []));
  return (b[code] ??= utf8Bytes(table[code]!));
}

/**
 * Writes the UTF-8 of the `text`, `words` or `prefixed` field `k` of a decoded work (its value is where the
 * field starts in the row: not null), as the text was before it was stored.
 */
export function writeText(out: ByteSink, w: DecodedWork, k: number): void {
  const r = new ByteReader(w.bytes, w.source, w.base, w.values[k] as number);
  switch (KINDS[k]) {
    case TEXT:
      return textInto(r, out);
    case WORDS: {
      const table = tablesAt(w.tables)[k]!;
      const n = r.uvar();
      for (let t = 0; t < n - 1; t++) {
        if (t > 0) out.byte(WORD_SEPARATOR_BYTE);
        const c = r.uvar();
        if (c === 0) textInto(r, out);
        else out.bytes(tableBytes(table, c - 1));
      }
      return;
    }
    case PREFIXED: {
      const c = r.uvar();
      if (c > 1) {
        out.bytes(tableBytes(tablesAt(w.tables)[k]!, c - 2));
        out.byte(PREFIX_SEPARATOR_BYTE);
      }
      return textInto(r, out);
    }
    default:
      throw new Error(`work store: ${WORK_FIELDS[k]!.field} is not a text`);
  }
}

/** Copies a text's UTF-8 bytes into a sink. */
function textInto(r: ByteReader, out: ByteSink): void {
  const n = r.uvar();
  const from = r.skip(n);
  out.bytes(r.buf, from, from + n);
}

/** Reads a symbol code (0: null) of a table of `size` symbols. */
function symbolCode(r: ByteReader, size: number): number {
  const c = r.uvar();
  if (c > size) r.fail(`symbol ${c} of a table of ${size}`, r.pos - 1);
  return c;
}

/** Reads a byte that must be below `n`. */
function smallByte(r: ByteReader, n: number): number {
  const b = r.byte();
  if (b >= n) r.fail(`a byte ${b} where one below ${n} was expected`, r.pos - 1);
  return b;
}

/**
 * One field's decoded value, by kind: `text`, `words`, `prefixed` and `numlist` as where the field starts in the
 * row (null for a null text), written out by writeText and writeNumberListJson, never made into strings; `sym` as its
 * symbol code (0 for null: the serializers keep each symbol's JSON and CSV bytes); `symlist` as the codes of its
 * elements; `int` as the number; `num` as its number's text (DecodedNumber); `bool` as true/false; `self` as the
 * work's id. Null stays null. `symbols`: the size of the field's symbol table (its codes are checked against it).
 */
function readField(r: ByteReader, kind: number, id: string, symbols: number): unknown {
  switch (kind) {
    case TEXT: {
      if (smallByte(r, 2) === 0) return null;
      const at = r.pos;
      r.skipText();
      return at;
    }
    case WORDS: {
      const at = r.pos;
      const n = r.count();
      if (n === 0) return null;
      for (let k = 0; k < n - 1; k++) if (symbolCode(r, symbols) === 0) r.skipText();
      return at;
    }
    case PREFIXED: {
      const at = r.pos;
      if (symbolCode(r, symbols + 1) === 0) return null;
      r.skipText();
      return at;
    }
    case SYM:
      return symbolCode(r, symbols);
    case SYMLIST: {
      const n = r.count();
      if (n === 0) return null;
      const out = new Array<number>(n - 1);
      for (let k = 0; k < n - 1; k++) out[k] = symbolCode(r, symbols);
      return out;
    }
    case INT:
      return smallByte(r, 2) === 0 ? null : r.svar();
    case NUM:
      return readNumberText(r);
    case NUMLIST: {
      const at = r.pos;
      skipNumberList(r);
      return at;
    }
    case BOOL: {
      const b = smallByte(r, 3);
      return b === 0 ? null : b === 2;
    }
    case SELF:
      return smallByte(r, 2) === 0 ? null : id;
    default:
      throw new Error(`work store: no field kind ${kind}`);
  }
}
const WORD_SEPARATOR_BYTE = WORD_SEPARATOR.charCodeAt(0);
const PREFIX_SEPARATOR_BYTE = PREFIX_SEPARATOR.charCodeAt(0);

// ---------------------------------------------------------------------------------------------------------
// Works.

/**
 * A work's authorship as stored: the author's numeric id (the cohort index finds the author's row, name and
 * ORCID from it), position and Canadian flag.
 */
export interface StoredAuthorship {
  author: number;
  position: number | null;
  is_ca: boolean | null;
}

/**
 * Appends a work's packed row. `values` holds the work's WorkRow values in stored order (WORK_FIELDS),
 * `authors` the authorships in position order, `labels` the direct labels in model order. Values by position
 * rather than a WorkRow: an object with ~100 keyed properties is a dictionary in V8, and the build encodes
 * millions of them.
 */
export function encodeWork(
  w: ByteBuffer,
  id: string,
  values: readonly unknown[],
  authors: readonly StoredAuthorship[],
  labels: readonly LabelRow[],
  codes: SymbolCodes,
): void {
  const plan = encodePlan(codes);
  const { kinds, known } = plan;
  for (let k = 0, g = 0; g < GROUP_ENDS.length; g++) {
    const end = GROUP_ENDS[g]!;
    // The first group is always present; the others only when their gate (first field) has a value.
    if (g > 0) {
      if (values[k] === null || values[k] === undefined) {
        w.byte(0);
        k = end;
        continue;
      }
      w.byte(1);
    }
    for (; k < end; k++) writeField(w, kinds[k]!, values[k], WORK_FIELDS[k]!.field, known[k], id);
  }
  w.uvar(authors.length);
  for (const a of authors) {
    w.uvar(a.author);
    writeField(w, INT, a.position, 'authorships.position', undefined, id);
    writeField(w, BOOL, a.is_ca, 'authorships.is_ca', undefined, id);
  }
  w.uvar(labels.length);
  for (const l of labels)
    for (let f = 0; f < LABEL_FIELDS.length; f++) writeField(w, plan.labelKinds[f]!, l[LABEL_FIELDS[f]![0]], LABEL_FIELDS[f]![0], plan.labelKnown[f], id);
}

/**
 * What encodeWork needs per field, resolved once per build's symbol codes rather than per value: the kind as a
 * small integer (a jump table, not a chain of string compares) and the field's own symbol map (not a lookup by
 * name in a ~60-key object). At 4.3M works the encoder writes some 400M values.
 */
interface EncodePlan {
  kinds: Uint8Array;
  known: (Map<string, number> | undefined)[];
  labelKinds: Uint8Array;
  labelKnown: (Map<string, number> | undefined)[];
}
const plans = new WeakMap<SymbolCodes, EncodePlan>();
function encodePlan(codes: SymbolCodes): EncodePlan {
  let plan = plans.get(codes);
  if (plan) return plan;
  plan = {
    kinds: Uint8Array.from(WORK_FIELDS, (f) => kindCode(f.kind)),
    known: WORK_FIELDS.map((f) => codes[f.field]),
    labelKinds: Uint8Array.from(LABEL_FIELDS, ([, kind]) => kindCode(kind)),
    labelKnown: LABEL_FIELDS.map(([field]) => codes[labelSymbols(field)]),
  };
  plans.set(codes, plan);
  return plan;
}

/** Where an authorship's author comes from when decoding: by numeric author id. */
export interface AuthorLookup {
  /** The author's row (-1: not held). */
  row(id: number): number;
  /** UTF-8 of the authors' names and ORCIDs by row ('' for no ORCID). */
  readonly names: TextBytes;
  readonly orcids: TextBytes;
}
/** Texts by row: row r's UTF-8 is bin[offsets[r]] up to bin[offsets[r + 1]]. */
export interface TextBytes {
  readonly bin: Uint8Array;
  readonly offsets: Uint32Array;
}

/**
 * An authorship as decoded: the numeric author id, its row in the author lookup (where its name and ORCID are),
 * position and Canadian flag.
 */
export interface DecodedAuthorship {
  id: number;
  row: number;
  position: number;
  is_ca: boolean;
}

/** Every work field in stored order, with its kind and group; a decoded work's values are in this order. */
export const WORK_FIELDS: readonly { field: string; kind: FieldKind; group: number }[] = WORK_GROUPS.flatMap((g, group) =>
  g.map(([field, kind]) => ({ field, kind, group })),
);
const FIELD_POSITION = new Map(WORK_FIELDS.map((f, k) => [f.field, k]));
/** The position after each of WORK_GROUPS' last field in WORK_FIELDS: the encoder's and decoder's group loops. */
const GROUP_ENDS = WORK_GROUPS.map((_, g) => WORK_GROUPS.slice(0, g + 1).reduce((n, group) => n + group.length, 0));
/** The position of a field in a decoded work's values (throws for a name that is not a stored field). */
export function fieldPosition(field: string): number {
  const k = FIELD_POSITION.get(field);
  if (k === undefined) throw new Error(`work store: no field ${field}`);
  return k;
}

/**
 * One work as decoded from its packed row: the work's values by field position (fieldPosition; each kind as
 * readField gives it), its authorships in position order (their names and ORCIDs in `people`) and its direct
 * labels in model order (as workItem reads them), and the symbol tables its codes refer to.
 */
export interface DecodedWork {
  id: string;
  /** The packed row (where texts and number lists are read from when they are written), and where it is (for errors). */
  bytes: Buffer;
  source: string;
  base: number;
  values: unknown[];
  tables: SymbolTables;
  authors: DecodedAuthorship[];
  people: AuthorLookup;
  labels: LabelRow[];
}

/** Each field's kind by position (a FIELD_KINDS code), for the decoder's loop. */
const KINDS = Uint8Array.from(WORK_FIELDS, (f) => kindCode(f.kind));
const LABEL_KINDS = LABEL_FIELDS.map(([, kind]) => kindCode(kind));
/**
 * Per build, each field's symbol table by position (undefined for fields without one): looked up once, not by
 * name for each of a work's ~100 fields (the tables object has a key per table, too many for a fast shape).
 */
const tablesByPosition = new WeakMap<SymbolTables, (readonly string[] | undefined)[]>();
function tablesAt(tables: SymbolTables): (readonly string[] | undefined)[] {
  let t = tablesByPosition.get(tables);
  if (!t) {
    t = WORK_FIELDS.map(({ field }) => tables[field]);
    tablesByPosition.set(tables, t);
  }
  return t;
}

/**
 * A work's values from its packed row. `source` and `base` say where the row is (a file and its offset there),
 * for the BytesError a damaged row ends in.
 */
export function decodeWork(bytes: Buffer, id: string, tables: SymbolTables, people: AuthorLookup, source = 'a work store row', base = 0): DecodedWork {
  const r = new ByteReader(bytes, source, base);
  const sizes = tableSizes(tables);
  const values = new Array<unknown>(WORK_FIELDS.length);
  let k = 0;
  for (let g = 0; g < GROUP_ENDS.length; g++) {
    const end = GROUP_ENDS[g]!;
    // Every group but the first starts with a byte saying whether it is there; an absent one is all null.
    if (g > 0 && smallByte(r, 2) === 0) {
      for (; k < end; k++) values[k] = KINDS[k] === SYM ? 0 : null;
      continue;
    }
    for (; k < end; k++) values[k] = readField(r, KINDS[k]!, id, sizes[k]!);
  }
  const authors: DecodedAuthorship[] = [];
  for (let n = r.count(3); n > 0; n--) {
    const author = r.uvar();
    const row = people.row(author);
    if (row < 0) r.fail(`author A${author}, which the author table does not hold`);
    const position = readField(r, INT, id, 0) as number;
    const isCa = readField(r, BOOL, id, 0) as boolean;
    authors.push({ id: author, row, position, is_ca: isCa });
  }
  const labels: LabelRow[] = [];
  for (let n = r.count(LABEL_FIELDS.length); n > 0; n--) {
    const l = {} as Record<string, unknown>;
    for (let f = 0; f < LABEL_FIELDS.length; f++) {
      const field = LABEL_FIELDS[f]![0];
      const kind = LABEL_KINDS[f]!;
      const table = kind === SYM ? tables[labelSymbols(field)] : undefined;
      const v = readField(r, kind, id, table?.length ?? 0);
      // A label's symbols are its strings: a few labels per work, read as workItem reads them.
      l[field] = kind === SYM ? (v === 0 ? null : table![(v as number) - 1]!) : v;
    }
    labels.push(l as unknown as LabelRow);
  }
  r.done();
  return { id, bytes, source, base, values, tables, authors, people, labels };
}

/** Per build, the size of each field's symbol table by position (0 for fields without one). */
const sizesByTables = new WeakMap<SymbolTables, Uint32Array>();
function tableSizes(tables: SymbolTables): Uint32Array {
  let t = sizesByTables.get(tables);
  if (!t) {
    t = Uint32Array.from(tablesAt(tables), (table) => table?.length ?? 0);
    sizesByTables.set(tables, t);
  }
  return t;
}
