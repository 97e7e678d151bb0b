/**
 * schema.org node objects → reference-schema record (mapping table in fair.md §2.4). The nodes come from an RDF
 * graph (JSON-LD, RDFa, Turtle …: harvest/graph.ts, which orders them by F-UJI's main-entity score) or from
 * microdata items; the main entity is the first node typed as a creative work (or the first node), and the
 * properties below are read from it. Context namespaces of JSON-LD documents are collected for I2/R1.2/R1.3.
 */
import type { ContentLink, RelatedResource } from '../../../../../../contracts/fair/evidence.ts';
import { asArray, clean, cleanList, isJson, type Json, type MetadataRecord, splitKeywords } from './record.ts';

/** schema.org relation properties and the relation type each means (F-UJI's names, fair.md §2.4). */
const RELATIONS: Readonly<Record<string, string>> = {
  isPartOf: 'isPartOf',
  hasPart: 'hasPart',
  sameAs: 'sameAs',
  includedInDataCatalog: 'isPartOf',
  subjectOf: 'isReferencedBy',
  isBasedOn: 'isBasedOn',
  citation: 'References',
  workExample: 'hasVersion',
  exampleOfWork: 'isVersionOf',
};

/** Types whose node is taken as the described object rather than a side node. */
const MAIN_TYPES =
  /^(?:Dataset|DataCatalog|CreativeWork|SoftwareSourceCode|SoftwareApplication|ScholarlyArticle|Article|Collection|DigitalDocument|MediaObject|Book|Thesis|Report|Map|Movie|Photograph|ImageObject|Periodical)$/;

function typesOf(node: Json): string[] {
  return asArray(node['@type'])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.replace(/^https?:\/\/schema\.org\//, '').replace(/^schema:/, ''));
}

/** All nodes of a JSON-LD document (top level, arrays and `@graph`). */
function nodesOf(doc: unknown): Json[] {
  const nodes: Json[] = [];
  for (const item of asArray(doc)) {
    if (!isJson(item)) continue;
    if (Array.isArray(item['@graph'])) nodes.push(...nodesOf(item['@graph']));
    if (item['@type'] !== undefined) nodes.push(item);
  }
  return nodes;
}

/** Namespaces named by a JSON-LD context: `@vocab`, prefix IRIs, and context URLs. */
export function contextNamespaces(doc: unknown): string[] {
  const found: string[] = [];
  const visit = (context: unknown): void => {
    for (const entry of asArray(context)) {
      if (typeof entry === 'string') found.push(entry);
      else if (isJson(entry)) {
        for (const [key, value] of Object.entries(entry)) {
          if (typeof value === 'string' && /^https?:\/\//.test(value) && (key === '@vocab' || !key.startsWith('@'))) found.push(value);
          else if (isJson(value) && typeof value['@id'] === 'string' && /^https?:\/\//.test(value['@id']) && !key.includes(':')) {
            // a term definition: its namespace is the IRI up to the last # or /
            found.push(value['@id'].replace(/[^#/]*$/, ''));
          }
        }
      }
    }
  };
  for (const item of asArray(doc)) if (isJson(item)) visit(item['@context']);
  return cleanList(found);
}

function nameOf(value: unknown): string | null {
  if (typeof value === 'string') return clean(value);
  if (!isJson(value)) return null;
  const name = clean(value.name);
  if (name) return name;
  const given = clean(value.givenName);
  const family = clean(value.familyName);
  if (given || family) return [given, family].filter(Boolean).join(' ');
  return clean(value.legalName) ?? null;
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return clean(value);
  if (!isJson(value)) return null;
  for (const key of ['@id', 'url', 'identifier', 'value']) {
    const candidate = value[key];
    if (typeof candidate === 'string' && clean(candidate)) return clean(candidate);
    if (isJson(candidate)) {
      const inner = idOf(candidate);
      if (inner) return inner;
    }
  }
  return null;
}

function identifiersOf(node: Json): string[] {
  const ids: unknown[] = [];
  for (const value of asArray(node.identifier)) ids.push(isJson(value) ? (value.value ?? value['@id'] ?? value.url) : value);
  ids.push(node['@id'], node.url);
  return cleanList(ids);
}

function licencesOf(node: Json): string[] {
  return cleanList(asArray(node.license).map((value) => (isJson(value) ? (value['@id'] ?? value.url ?? value.name) : value)));
}

function contentLinks(node: Json): ContentLink[] {
  const links: ContentLink[] = [];
  for (const dist of asArray(node.distribution)) {
    if (!isJson(dist)) continue;
    const url = clean(dist.contentUrl) ?? clean(dist.url);
    if (!url) continue;
    const size = dist.contentSize ?? dist.fileSize;
    links.push({
      url,
      type: clean(asArray(dist.encodingFormat ?? dist.fileFormat)[0]),
      size: clean(isJson(size) ? size.value : size),
      source: 'schemaorg:distribution',
    });
  }
  for (const action of asArray(node.potentialAction)) {
    if (!isJson(action)) continue;
    for (const target of asArray(action.target)) {
      const url = typeof target === 'string' ? clean(target) : isJson(target) ? (clean(target.urlTemplate) ?? clean(target.url)) : null;
      if (url) links.push({ url, type: isJson(target) ? clean(target.contentType) : null, size: null, source: 'schemaorg:service' });
    }
  }
  return links;
}

function related(node: Json): RelatedResource[] {
  const out: RelatedResource[] = [];
  for (const [property, relation] of Object.entries(RELATIONS)) {
    for (const value of asArray(node[property])) {
      const resource = idOf(value) ?? nameOf(value);
      if (resource) out.push({ related_resource: resource, relation_type: relation });
    }
  }
  return out;
}

function sizeOf(value: unknown): string | null {
  if (isJson(value)) {
    const amount = clean(value.value);
    return amount ? [amount, clean(value.unitText)].filter(Boolean).join(' ') : null;
  }
  return clean(value);
}

/** Is a node of one of the types taken as the described object (a creative work)? */
export function isMainNode(node: Json): boolean {
  return typesOf(node).some((t) => MAIN_TYPES.test(t));
}

/** Map a schema.org JSON-LD document to a record; empty record when it has no typed node. */
export function mapSchemaOrg(doc: unknown): MetadataRecord {
  const nodes = nodesOf(doc);
  const main = nodes.find(isMainNode) ?? nodes[0];
  return main ? mapSchemaOrgNode(main) : {};
}

/** Map the main node of a schema.org description to a record. */
export function mapSchemaOrgNode(main: Json): MetadataRecord {
  const dates = (key: string) => clean(asArray(main[key])[0]);
  return {
    object_identifier: identifiersOf(main),
    title: clean(main.name) ?? clean(main.headline),
    creator: cleanList([...asArray(main.creator), ...asArray(main.author)].map(nameOf)),
    contributor: cleanList(asArray(main.contributor).map(nameOf)),
    publisher: cleanList([...asArray(main.publisher), ...asArray(main.provider)].map(nameOf)),
    right_holder: cleanList(asArray(main.copyrightHolder).map(nameOf)),
    publication_date: dates('datePublished') ?? dates('dateCreated'),
    created_date: dates('dateCreated'),
    modified_date: dates('dateModified'),
    object_type: typesOf(main),
    summary: clean(asArray(main.description)[0]) ?? clean(asArray(main.abstract)[0]),
    keywords: splitKeywords(asArray(main.keywords).map((k) => (isJson(k) ? k.name : k))),
    license: licencesOf(main),
    access_level: cleanList(asArray(main.conditionsOfAccess)),
    access_free:
      typeof main.isAccessibleForFree === 'boolean'
        ? main.isAccessibleForFree
        : main.isAccessibleForFree === 'true'
          ? true
          : main.isAccessibleForFree === 'false'
            ? false
            : null,
    related_resources: related(main),
    object_content_identifier: contentLinks(main),
    measured_variable: cleanList(asArray(main.variableMeasured).map((v) => (isJson(v) ? (v.name ?? v.value ?? v['@id']) : v))),
    object_size: sizeOf(main.size ?? main.contentSize),
    object_format: cleanList(asArray(main.encodingFormat ?? main.fileFormat)),
    language: clean(asArray(main.inLanguage).map((l) => (isJson(l) ? (l.alternateName ?? l.name) : l))[0]),
    version: clean(main.version),
    code_repository: cleanList(asArray(main.codeRepository).map(idOf)),
  };
}
