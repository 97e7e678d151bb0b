/**
 * One line of the works snapshot → what the frame keeps of it. The rules themselves are the shared ones
 * (contracts/frame/route-rules.ts); this module only reads the line, and turns a routed work into CSV cells
 * that pass the snapshot's own cell parsers (contracts/frame/snapshot.ts): whitespace collapsed, over-long
 * text clipped, a DOI or language code the format cannot hold left empty (and counted).
 */
import { shortId, snapshotWorkSchema } from '../../contracts/frame/catalogue-work.ts';
import { frameAdmits, inHarvestWindow, NOT_PUBLICATION_TYPES, routeRules, routeWork, type RouteRules, type RoutedWork } from '../../contracts/frame/route-rules.ts';
import { TABLES } from '../../contracts/frame/snapshot.ts';
import { csvCell } from '../lib/csv-writer.ts';

export interface ReadOptions {
  rules: RouteRules;
  /** Leave out works of the expansion corpus (`is_xpac: true`). */
  excludeXpac: boolean;
}

/** Read options from the pinned lists (worker threads rebuild them from the task's plain data). */
export function readOptions(lists: { funders: { id: string }[]; sources: { id: string }[]; route_version: string }, excludeXpac: boolean): ReadOptions {
  return { rules: routeRules(lists), excludeXpac };
}

/** Why a record was not admitted, counted per partition. */
export type SkipReason = 'window' | 'xpac' | 'not-publication' | 'no-route';

export type LineResult =
  | { kind: 'bad'; reason: string }
  /** A valid work outside the frame: its id still counts for deduplication (a newer version may have lost its routes). */
  | { kind: 'out'; id: string; updated: string; why: SkipReason }
  | { kind: 'in'; id: string; updated: string; work: string; authorships: string[]; notes: string[] };

const DOI = /^10\.[0-9]{4,9}\/\S+$/;
const LANG = /^[a-z]{2,3}(-[a-z0-9]{1,8})?$/;
const TYPE = /^[a-z][a-z-]{0,31}$/;
const AUTHOR_ID = /^A[1-9][0-9]{0,14}$/;
const ORCID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

/** Text as the format holds it: one line, no padding, at most `max` characters. */
function clean(value: string | null | undefined, max: number): string {
  if (!value) return '';
  const t = value.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : t.slice(0, max).trimEnd();
}
const joined = (values: string[], max: number) => clean(values.map((v) => clean(v, max)).filter((v) => v !== '').join('; '), max);

/** A record's own id as the frame writes it (`W` + digits), or null. */
function workIdOf(raw: Record<string, unknown>): string | null {
  if (typeof raw.id !== 'string' || !/^(https:\/\/openalex\.org\/)?W[1-9]\d{0,14}$/i.test(raw.id.trim())) return null;
  return shortId(raw.id);
}

/*
 * The abstract's inverted index is the costliest part of a line to parse (an object of one key per distinct
 * word: about half of JSON.parse's time on the benchmark's lines) and only works inside the harvest window need
 * it. So readLine parses the line with the index's value replaced by a placeholder, and the index itself only
 * for a work the window admits. Why the result is exactly JSON.parse's, for every line:
 *  - The value replaced is an object that INDEX_OBJECT matches, a strict subset of JSON's grammar (string keys,
 *    arrays of non-negative integers, JSON whitespace): it is a valid JSON value. Anything else (null, a float,
 *    a trailing comma, …) leaves the line to the plain path.
 *  - The text found ends in `index"` followed by `:`. That quote is not escaped (it follows `x`), so in a line
 *    whose rest parses, it ends a string that is followed by `:`, i.e. a key: the placeholder stands in a value
 *    position, as one token. Putting any valid value back in that position keeps the line valid, and parses
 *    to the same tree with that one value changed. A rest that does not parse goes to the plain path, which
 *    then reports the line as before; so a line JSON.parse rejects is never accepted.
 *  - The placeholder is the only string with a NUL character in the rest (lines holding `\u0000` anywhere
 *    take the plain path; JSON cannot hold a raw NUL), so finding it as the record's top-level
 *    `abstract_inverted_index` proves the replaced value is that key's (the last one, if the key repeats);
 *    anywhere else, the plain path. Every rule before the window reads other top-level fields, so every
 *    decision up to it is the same, and after it the index is put back (JSON.parse of the matched text).
 * test/pipeline/openalex/lazy-index.test.ts compares readLine with JSON.parse + readRecord on adversarial lines.
 */
const INDEX_KEY = '"abstract_inverted_index"';
const LAZY = '\u0000lazy-index';
const LAZY_JSON = JSON.stringify(LAZY);
const WS = '[ \\t\\n\\r]*';
const INDEX_COLON = new RegExp(`${WS}:${WS}`, 'y');
/** A JSON string (exactly JSON's rules: no raw quote, backslash or control character; the escapes JSON allows). */
const JSON_STRING = '"[^"\\\\\\x00-\\x1f]*(?:\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\\\\x00-\\x1f]*)*"';
const POSITIONS = `\\[${WS}(?:(?:0|[1-9][0-9]*)${WS}(?:,${WS}(?:0|[1-9][0-9]*)${WS})*)?\\]`;
const INDEX_PAIR = `${JSON_STRING}${WS}:${WS}${POSITIONS}`;
const INDEX_OBJECT = new RegExp(`\\{${WS}(?:${INDEX_PAIR}${WS}(?:,${WS}${INDEX_PAIR}${WS})*)?\\}`, 'y');

/** The line with its inverted index replaced by the placeholder, and the index's text; null: parse it whole. */
export function splitAbstractIndex(text: string): { rest: string; index: string } | null {
  const at = text.indexOf(INDEX_KEY);
  if (at < 0 || text.includes('\\u0000')) return null;
  INDEX_COLON.lastIndex = at + INDEX_KEY.length;
  if (!INDEX_COLON.test(text)) return null;
  const start = INDEX_COLON.lastIndex;
  INDEX_OBJECT.lastIndex = start;
  try {
    if (!INDEX_OBJECT.test(text)) return null;
  } catch {
    return null; // the regular expression's backtracking stack overflowed on a huge index
  }
  const end = INDEX_OBJECT.lastIndex;
  return { rest: text.slice(0, start) + LAZY_JSON + text.slice(end), index: text.slice(start, end) };
}

/** Reads one line. Never throws: anything wrong with the line is a `bad` result with its reason. */
export function readLine(text: string, o: ReadOptions): LineResult {
  const split = splitAbstractIndex(text);
  if (split !== null) {
    let rest: unknown = null;
    try {
      rest = JSON.parse(split.rest);
    } catch {
      // the plain path below reports the line
    }
    if (typeof rest === 'object' && rest !== null && (rest as Record<string, unknown>).abstract_inverted_index === LAZY) return readRecord(rest, o, split.index);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { kind: 'bad', reason: `malformed JSON: ${(err as Error).message.slice(0, 120)}` };
  }
  return readRecord(raw, o);
}

/** `lazyIndex`: the text of the record's inverted index, left out of `raw` by readLine until the window admits it. */
export function readRecord(raw: unknown, o: ReadOptions, lazyIndex?: string): LineResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'bad', reason: 'not a JSON object' };
  const rec = raw as Record<string, unknown>;
  const id = workIdOf(rec);
  if (id === null) return { kind: 'bad', reason: rec.id === undefined || rec.id === null ? 'record without an id' : `not a work id: ${String(rec.id).slice(0, 60)}` };
  const updated = typeof rec.updated_date === 'string' ? rec.updated_date : '';
  if (o.excludeXpac && rec.is_xpac === true) return { kind: 'out', id, updated, why: 'xpac' };
  // Most of the snapshot is outside the window: skip those before the full parse.
  if (!inHarvestWindow(rec)) return { kind: 'out', id, updated, why: 'window' };
  if (lazyIndex !== undefined) rec.abstract_inverted_index = JSON.parse(lazyIndex);
  const parsed = snapshotWorkSchema.safeParse(rec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { kind: 'bad', reason: `${id}: ${issue.path.join('.') || 'record'}: ${issue.message}` };
  }
  let routed: RoutedWork;
  try {
    routed = routeWork(parsed.data, o.rules);
  } catch (err) {
    return { kind: 'bad', reason: `${id}: cannot classify: ${(err as Error).message.slice(0, 120)}` };
  }
  if (!frameAdmits(routed)) return { kind: 'out', id, updated, why: NOT_PUBLICATION_TYPES.has(routed.type) ? 'not-publication' : 'no-route' };
  return { kind: 'in', id, updated, ...rowsOf(routed) };
}

/** The works.csv line and the authorship lines (`work_id,author_id,position,is_ca,name,orcid`) of an admitted work. */
export function rowsOf(w: RoutedWork): { work: string; authorships: string[]; notes: string[] } {
  const notes: string[] = [];
  let doi = clean(w.doi, 300);
  if (doi !== '' && !DOI.test(doi)) {
    notes.push('doi-unusable');
    doi = '';
  }
  let lang = (w.lang ?? '').trim().toLowerCase();
  if (lang !== '' && !LANG.test(lang)) {
    notes.push('lang-unusable');
    lang = '';
  }
  let type = (w.type ?? '').trim().toLowerCase();
  if (!TYPE.test(type)) {
    notes.push('type-unusable');
    type = 'other';
  }
  const title = clean(w.title, 2000);
  if (title.length < w.title.replace(/\s+/g, ' ').trim().length) notes.push('title-clipped');
  const f = w.route_flags;
  const cells = [
    w.id,
    doi,
    title,
    w.year === null ? '' : String(w.year),
    lang,
    type,
    clean(w.venue, 300),
    clean(w.topic, 300),
    clean(w.field, 300),
    String(Math.min(10_000_000, Math.max(0, Math.trunc(w.cited_by)))),
    String(w.is_retracted),
    String(w.has_abstract),
    String(f.aff),
    String(f.fund),
    String(f.venue),
    String(f.about),
    joined(w.ca_institutions, 20_000),
    joined(w.funders, 20_000),
    joined(w.keywords, 20_000),
  ];
  const authorships: string[] = [];
  for (const a of w.authors) {
    const name = clean(a.name, 300);
    if (a.id === null || !AUTHOR_ID.test(a.id) || name === '') {
      notes.push('authorship-without-author');
      continue;
    }
    const orcid = a.orcid ? (/(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\/?$/i.exec(a.orcid.trim())?.[1]?.toUpperCase() ?? '') : '';
    authorships.push([w.id, a.id, a.position, a.is_ca, csvCell(name), ORCID.test(orcid) ? orcid : ''].join(','));
  }
  return { work: cells.map(csvCell).join(','), authorships, notes };
}

/** Header of the works part files: the record's updated_date, its line, then works.csv's columns. */
export const WORKS_PART_COLUMNS = ['updated', 'line', ...TABLES.works.columns.map((c) => c.name)];
export const AUTHORSHIPS_PART_COLUMNS = ['work_id', 'author_id', 'position', 'is_ca', 'name', 'orcid'];
