/**
 * The frame rules in JavaScript, one record at a time: the builder's rules before they moved to DuckDB SQL
 * (pipeline/openalex/rules-sql.ts), kept as the oracle its differential test compares every record's decision
 * and cells with. The routes are the shared ones (contracts/frame/route-rules.ts, which the recent layer
 * classifies with); this module reads a line and turns a routed work into the CSV cells that pass the
 * snapshot's own cell parsers (contracts/frame/snapshot.ts).
 */
import { shortId, snapshotWorkSchema } from '../../contracts/frame/catalogue-work.ts';
import {
  frameAdmits,
  inHarvestWindow,
  NOT_PUBLICATION_TYPES,
  routeRules,
  routeWork,
  type RouteRules,
  type RoutedWork,
} from '../../contracts/frame/route-rules.ts';
import { csvCell } from '../../pipeline/lib/csv-writer.ts';

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
const joined = (values: string[], max: number) =>
  clean(
    values
      .map((v) => clean(v, max))
      .filter((v) => v !== '')
      .join('; '),
    max,
  );

/** A record's own id as the frame writes it (`W` + digits), or null. */
function workIdOf(raw: Record<string, unknown>): string | null {
  if (typeof raw.id !== 'string' || !/^(https:\/\/openalex\.org\/)?W[1-9]\d{0,14}$/i.test(raw.id.trim())) return null;
  return shortId(raw.id);
}

/** Reads one line. Never throws: anything wrong with the line is a `bad` result with its reason. */
export function readLine(text: string, o: ReadOptions): LineResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { kind: 'bad', reason: `malformed JSON: ${(err as Error).message.slice(0, 120)}` };
  }
  return readRecord(raw, o);
}

export function readRecord(raw: unknown, o: ReadOptions): LineResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'bad', reason: 'not a JSON object' };
  const rec = raw as Record<string, unknown>;
  const id = workIdOf(rec);
  if (id === null)
    return { kind: 'bad', reason: rec.id === undefined || rec.id === null ? 'record without an id' : `not a work id: ${String(rec.id).slice(0, 60)}` };
  const updated = typeof rec.updated_date === 'string' ? rec.updated_date : '';
  if (o.excludeXpac && rec.is_xpac === true) return { kind: 'out', id, updated, why: 'xpac' };
  // Most of the snapshot is outside the window: skip those before the full parse.
  if (!inHarvestWindow(rec)) return { kind: 'out', id, updated, why: 'window' };
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
