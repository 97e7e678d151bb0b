/**
 * `<meta>` tags → records: Dublin Core (`DC.*`, `DCTERMS.*`), Highwire Press (`citation_*`) and OpenGraph
 * (`og:*`), with the field mappings of fair.md §2.4. Each family is its own source, because F4 counts
 * Dublin Core but not Highwire, and I1 counts OpenGraph (as RDFa) but not Dublin Core.
 */
import type { RelatedResource } from '../../../../../../contracts/fair/evidence.ts';
import type { MetaTag } from './landing-page.ts';
import { cleanList, splitKeywords, type MetadataRecord } from './record.ts';

export const DC_ELEMENTS_NS = 'http://purl.org/dc/elements/1.1/';
export const DC_TERMS_NS = 'http://purl.org/dc/terms/';
export const OPENGRAPH_NS = 'http://ogp.me/ns#';

/** Dublin Core relation elements, kept with their element name as relation type. */
const DC_RELATIONS = new Set([
  'relation',
  'source',
  'references',
  'isreferencedby',
  'hasversion',
  'isversionof',
  'replaces',
  'isreplacedby',
  'requires',
  'isrequiredby',
  'conformsto',
  'hasformat',
  'isformatof',
  'haspart',
  'ispartof',
]);

/** DC relation element names in their DCMI spelling (the tags are lower-cased on parse). */
const DC_RELATION_NAMES: Readonly<Record<string, string>> = {
  isreferencedby: 'isReferencedBy',
  hasversion: 'hasVersion',
  isversionof: 'isVersionOf',
  isreplacedby: 'isReplacedBy',
  isrequiredby: 'isRequiredBy',
  conformsto: 'conformsTo',
  hasformat: 'hasFormat',
  isformatof: 'isFormatOf',
  haspart: 'hasPart',
  ispartof: 'isPartOf',
};

export interface MetaRecord {
  standard: 'dublin-core' | 'highwire' | 'opengraph';
  record: MetadataRecord;
  namespaces: string[];
}

function valuesOf(metas: readonly MetaTag[], predicate: (key: string) => boolean): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const meta of metas) {
    if (!predicate(meta.key) || meta.content === '') continue;
    const list = out.get(meta.key) ?? [];
    list.push(meta.content);
    out.set(meta.key, list);
  }
  return out;
}

function dublinCore(metas: readonly MetaTag[], schemaLinks: ReadonlyMap<string, string>): MetaRecord | null {
  const values = new Map<string, string[]>();
  for (const [key, list] of valuesOf(metas, (k) => /^(dc|dcterms|dct)\.[a-z]/.test(k))) {
    const element = key.slice(key.indexOf('.') + 1);
    values.set(element, [...(values.get(element) ?? []), ...list]);
  }
  if (values.size === 0) return null;
  const get = (...elements: string[]) => cleanList(elements.flatMap((e) => values.get(e) ?? []));
  const related: RelatedResource[] = [];
  for (const [element, list] of values) {
    if (!DC_RELATIONS.has(element)) continue;
    for (const value of list) related.push({ related_resource: value, relation_type: DC_RELATION_NAMES[element] ?? element });
  }
  const namespaces = cleanList([schemaLinks.get('dc') ?? DC_ELEMENTS_NS, schemaLinks.get('dcterms') ?? (values.size ? DC_TERMS_NS : null)]);
  return {
    standard: 'dublin-core',
    namespaces,
    record: {
      object_identifier: get('identifier'),
      title: get('title')[0] ?? null,
      creator: get('creator'),
      contributor: get('contributor'),
      publisher: get('publisher'),
      right_holder: get('rightsholder'),
      publication_date: get('date', 'available', 'issued')[0] ?? null,
      created_date: get('created')[0] ?? null,
      modified_date: get('modified')[0] ?? null,
      accepted_date: get('dateaccepted')[0] ?? null,
      submitted_date: get('datesubmitted')[0] ?? null,
      summary: get('abstract', 'description')[0] ?? null,
      keywords: splitKeywords(get('subject')),
      object_type: get('type'),
      license: get('license'),
      access_level: get('rights', 'accessrights'),
      provenance: get('provenance'),
      related_resources: related,
      object_format: get('format'),
      object_size: get('extent')[0] ?? null,
      language: get('language')[0] ?? null,
    },
  };
}

function highwire(metas: readonly MetaTag[]): MetaRecord | null {
  const values = valuesOf(metas, (k) => k.startsWith('citation_'));
  if (values.size === 0) return null;
  const get = (...keys: string[]) => cleanList(keys.flatMap((k) => values.get(`citation_${k}`) ?? []));
  const dois = get('doi').map((doi) => (/^10\./.test(doi) ? `https://doi.org/${doi}` : doi));
  const type = values.has('citation_journal_title')
    ? 'article'
    : values.has('citation_conference_title')
      ? 'conference paper'
      : values.has('citation_dissertation_institution')
        ? 'thesis'
        : values.has('citation_technical_report_institution')
          ? 'report'
          : null;
  return {
    standard: 'highwire',
    namespaces: [],
    record: {
      object_identifier: cleanList([...dois, ...get('arxiv_id', 'pmid', 'id')]),
      title: get('title')[0] ?? null,
      creator: get('author', 'authors'),
      publisher: get('publisher'),
      publication_date: get('publication_date', 'date')[0] ?? null,
      keywords: splitKeywords(get('keywords')),
      object_type: type ? [type] : [],
      related_resources: get('reference').map((r) => ({ related_resource: r, relation_type: 'References' })),
      summary: get('abstract')[0] ?? null,
      language: get('language')[0] ?? null,
    },
  };
}

function openGraph(metas: readonly MetaTag[]): MetaRecord | null {
  const values = valuesOf(metas, (k) => k.startsWith('og:'));
  if (values.size === 0) return null;
  const get = (key: string) => cleanList(values.get(`og:${key}`) ?? []);
  return {
    standard: 'opengraph',
    namespaces: [OPENGRAPH_NS],
    record: {
      title: get('title')[0] ?? null,
      object_identifier: get('url'),
      summary: get('description')[0] ?? null,
      object_type: get('type'),
      publisher: get('site_name'),
      language: get('locale')[0] ?? null,
    },
  };
}

/** The meta-tag records of a page, Dublin Core first (its order in F-UJI's harvest). */
export function mapMetaTags(metas: readonly MetaTag[], schemaLinks: ReadonlyMap<string, string>): MetaRecord[] {
  return [dublinCore(metas, schemaLinks), highwire(metas), openGraph(metas)].filter((r): r is MetaRecord => r !== null);
}
