/**
 * Metadata records and their merge (fair.md §2.16). Each source maps into a partial reference-schema record;
 * the records are merged in harvest order: lists are unioned and de-duplicated (related resources by
 * resource, content links by URL, later links filling a missing type or size), the first non-empty scalar
 * wins. F-UJI also lets a later, longer and similar string replace the first; we keep the first, which only
 * changes which title or summary is shown, never whether one exists.
 */
import {
  emptyMetadata,
  type ContentLink,
  type Metadata,
  type MetadataKey,
  type MetadataSource,
  type RelatedResource,
} from '../../../../../../contracts/fair/evidence.ts';

export type MetadataRecord = Partial<Metadata>;

/** A JSON object (not an array), as harvested documents hold them. */
export type Json = Record<string, unknown>;
export const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A JSON value as a list: null or absent is none, a single value is one. */
export const asArray = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/** The non-empty fields of a record, in schema order. */
export function fieldsOf(record: MetadataRecord): MetadataKey[] {
  return (Object.keys(emptyMetadata()) as MetadataKey[]).filter((key) => {
    const value = record[key];
    if (value === undefined || value === null) return false;
    if (Array.isArray(value)) return value.length > 0;
    if (typeof value === 'string') return value.trim() !== '';
    return true;
  });
}

/** A usable text value: trimmed, not empty and not the literal "None" F-UJI also drops. */
export function clean(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' || text === 'None' ? null : text;
}

/** Clean every value, drop empties and duplicates, keep order. */
export function cleanList(values: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const text = clean(value);
    if (text !== null && !out.includes(text)) out.push(text);
  }
  return out;
}

/** Keywords arrive as one string or many; strings are split on commas and semicolons. */
export function splitKeywords(values: readonly unknown[]): string[] {
  return cleanList(values.flatMap((value) => (typeof value === 'string' ? value.split(/[,;]/) : [value])));
}

function mergeRelated(into: RelatedResource[], add: readonly RelatedResource[]): void {
  for (const item of add) {
    if (!into.some((known) => known.related_resource === item.related_resource)) into.push(item);
  }
}

function mergeContent(into: ContentLink[], add: readonly ContentLink[]): void {
  for (const item of add) {
    const known = into.find((link) => link.url === item.url);
    if (!known) into.push({ ...item });
    else {
      known.type ??= item.type;
      known.size ??= item.size;
    }
  }
}

/** Merge records in order into one full record. */
export function mergeRecords(records: readonly MetadataRecord[]): Metadata {
  const merged = emptyMetadata();
  const target = merged as Record<MetadataKey, unknown>;
  for (const record of records) {
    for (const key of fieldsOf(record)) {
      const value = record[key];
      if (key === 'related_resources') mergeRelated(merged.related_resources, value as RelatedResource[]);
      else if (key === 'object_content_identifier') mergeContent(merged.object_content_identifier, value as ContentLink[]);
      else if (Array.isArray(value)) {
        const list = target[key] as string[];
        for (const item of value as string[]) if (!list.includes(item)) list.push(item);
      } else if (target[key] === null) target[key] = value;
    }
  }
  return merged;
}

/** One harvested metadata source: how it was obtained, and what it said. */
export interface Harvested {
  source: MetadataSource;
  record: MetadataRecord;
  /** The DataCite client (repository) id a DataCite document names; leads to the re3data record. */
  dataciteClient?: string | null;
}
