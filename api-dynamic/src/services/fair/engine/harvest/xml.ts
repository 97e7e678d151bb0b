/**
 * XML metadata documents (typed links, XML negotiation): namespaces and schema locations for I2, R1.2 and
 * R1.3 (fair.md §2.5), plus a small field mapping for the two XML formats that are generic enough to matter
 * on their own, DataCite kernel XML and Dublin Core XML. Other formats (ISO 19139, DIF, EML, DDI …) add
 * their namespaces only: their standards are what R1.3-01M looks for, and the merged record is usually
 * complete from the landing page and the registry already.
 */
import { Parser } from 'htmlparser2';
import type { RelatedResource } from '../../../../../../contracts/fair/evidence.ts';
import { yieldToLoop } from './http.ts';
import { cleanList, splitKeywords, type MetadataRecord } from './record.ts';

export interface XmlDocument {
  /** Local name of the root element (`resource`, `MD_Metadata`, `DIF`, `RDF` …). */
  root: string | null;
  /** Namespace of the root element. */
  rootNamespace: string | null;
  /** Every declared namespace and every namespace named in xsi:schemaLocation, in order. */
  namespaces: string[];
  record: MetadataRecord;
}

const SLICE = 64 * 1024;
const DATACITE_NS = /^https?:\/\/datacite\.org\/schema\//i;
const DC_NS = /^http:\/\/purl\.org\/dc\/(elements\/1\.1|terms)\/$/;

interface Element {
  local: string;
  attrs: Record<string, string>;
  text: string;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** Parse an XML document; streamed in slices so a large document yields to the event loop. */
export async function parseXml(text: string): Promise<XmlDocument> {
  const namespaces: string[] = [];
  const elements: Element[] = [];
  const stack: Element[] = [];
  let root: string | null = null;
  let rootPrefix = '';
  const declared = new Map<string, string>();
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        for (const [key, value] of Object.entries(attrs)) {
          if (key === 'xmlns' || key.startsWith('xmlns:')) {
            declared.set(key === 'xmlns' ? '' : key.slice(6), value);
            namespaces.push(value.trim());
          } else if (localName(key) === 'schemaLocation') {
            const parts = value.trim().split(/\s+/);
            for (let i = 0; i + 1 < parts.length; i += 2) namespaces.push(parts[i]!);
          }
        }
        if (root === null) {
          root = localName(name);
          rootPrefix = name.includes(':') ? name.slice(0, name.indexOf(':')) : '';
        }
        const element: Element = { local: localName(name), attrs, text: '' };
        stack.push(element);
        elements.push(element);
      },
      ontext(data) {
        const top = stack.at(-1);
        if (top) top.text += data;
      },
      onclosetag() {
        stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  for (let offset = 0; offset < text.length; offset += SLICE) {
    parser.write(text.slice(offset, offset + SLICE));
    if (offset + SLICE < text.length) await yieldToLoop();
  }
  parser.end();
  const rootNamespace = declared.get(rootPrefix) ?? null;
  let record: MetadataRecord = {};
  if (rootNamespace && DATACITE_NS.test(rootNamespace)) record = mapDataCiteXml(elements);
  else if (elements.some((e) => DC_NS.test(e.attrs['xmlns:dc'] ?? '') || DC_NS.test(e.attrs.xmlns ?? ''))) record = mapDublinCoreXml(elements);
  return { root, rootNamespace, namespaces: cleanList(namespaces), record };
}

function texts(elements: readonly Element[], local: string): string[] {
  return cleanList(elements.filter((e) => e.local === local).map((e) => e.text));
}

function mapDataCiteXml(elements: readonly Element[]): MetadataRecord {
  const doi = elements.find((e) => e.local === 'identifier' && e.attrs.identifierType === 'DOI')?.text.trim();
  const related: RelatedResource[] = elements
    .filter((e) => e.local === 'relatedIdentifier' && e.text.trim())
    .map((e) => ({ related_resource: e.text.trim(), relation_type: e.attrs.relationType ?? 'related' }));
  const rights = cleanList(elements.filter((e) => e.local === 'rights').map((e) => e.attrs.rightsURI ?? e.text));
  const resourceType = elements.find((e) => e.local === 'resourceType');
  return {
    object_identifier: doi ? [`https://doi.org/${doi}`] : [],
    title: texts(elements, 'title')[0] ?? null,
    creator: texts(elements, 'creatorName'),
    contributor: texts(elements, 'contributorName'),
    publisher: texts(elements, 'publisher'),
    publication_date: texts(elements, 'publicationYear')[0] ?? null,
    object_type: cleanList([resourceType?.attrs.resourceTypeGeneral]),
    keywords: texts(elements, 'subject'),
    license: rights,
    access_level: rights,
    summary: texts(elements, 'description')[0] ?? null,
    related_resources: related,
    object_size: texts(elements, 'size')[0] ?? null,
    object_format: texts(elements, 'format'),
    language: texts(elements, 'language')[0] ?? null,
    version: texts(elements, 'version')[0] ?? null,
  };
}

function mapDublinCoreXml(elements: readonly Element[]): MetadataRecord {
  return {
    object_identifier: texts(elements, 'identifier'),
    title: texts(elements, 'title')[0] ?? null,
    creator: texts(elements, 'creator'),
    contributor: texts(elements, 'contributor'),
    publisher: texts(elements, 'publisher'),
    publication_date: texts(elements, 'date')[0] ?? null,
    object_type: texts(elements, 'type'),
    keywords: splitKeywords(texts(elements, 'subject')),
    summary: texts(elements, 'description')[0] ?? null,
    license: texts(elements, 'license'),
    access_level: texts(elements, 'rights'),
    related_resources: texts(elements, 'relation').map((r) => ({ related_resource: r, relation_type: 'relation' })),
    object_format: texts(elements, 'format'),
    language: texts(elements, 'language')[0] ?? null,
  };
}

/** Namespaces declared by a Turtle/N3 document (`@prefix p: <iri> .` and `PREFIX p: <iri>`). */
export function turtleNamespaces(text: string): string[] {
  return cleanList([...text.slice(0, 256 * 1024).matchAll(/(?:@prefix|PREFIX)\s+[\w-]*:\s*<([^>]+)>/gi)].map((m) => m[1]));
}
