/**
 * Turn a fetched metadata document into a harvested source, choosing the parser by the response's media type
 * (not by what was asked for: Zenodo answers every Accept with HTML, which is not metadata).
 */
import type { HarvestMethod, MetadataSource } from '../../../../../../contracts/fair/evidence.ts';
import type { FetchResponse } from '../../fetcher.ts';
import { metadataStandard } from '../vocab/namespaces.ts';
import { dataciteClient, mapDataCite } from './datacite.ts';
import { bodyJson, bodyText, mediaType, type HarvestContext } from './http.ts';
import { mapGraph } from './graph.ts';
import { readJsonLd } from './jsonld.ts';
import { parseRdfXml, parseTurtle } from './rdf.ts';
import { cleanList, fieldsOf, type Harvested, type MetadataRecord } from './record.ts';
import { contextNamespaces } from './schemaorg.ts';
import { parseXml, turtleNamespaces } from './xml.ts';

/** Media types read as JSON-LD. */
export function isJsonLdType(type: string): boolean {
  return type === 'application/ld+json' || type === 'application/vnd.schemaorg.ld+json';
}

/** Media types read as RDF graphs other than JSON-LD (harvest/rdf.ts). */
export function isRdfType(type: string): boolean {
  return ['text/turtle', 'application/turtle', 'application/x-turtle', 'application/rdf+xml', 'text/n3', 'text/rdf+n3', 'application/n-triples'].includes(type);
}

export function isXmlType(type: string): boolean {
  return type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
}

/** Types that are metadata we can read (used to decide which typed links are worth fetching). */
export function isReadableMetadataType(type: string | null): boolean {
  if (!type) return false;
  const t = mediaType(type);
  return isJsonLdType(t) || isRdfType(t) || isXmlType(t) || t === 'application/vnd.datacite.datacite+json' || t === 'application/json';
}

function source(
  method: HarvestMethod,
  url: string,
  contentType: string | null,
  partial: Pick<MetadataSource, 'standard' | 'format' | 'namespaces'>,
  record: MetadataRecord,
): Harvested {
  return { source: { method, url, contentType, ...partial, fields: fieldsOf(record) }, record };
}

/**
 * Read a 2xx response as metadata, or return null (with the reason in the warnings) when its type is not a
 * metadata type or its body does not parse.
 */
export async function readDocument(ctx: HarvestContext, response: FetchResponse, method: HarvestMethod, what: string): Promise<Harvested | null> {
  const contentType = response.headers['content-type'] ?? null;
  const type = mediaType(contentType);
  const url = response.url;
  // an RDF document describes the resource it was fetched for, when no subject is typed as a dataset
  const about = [url, ...response.redirects];
  if (response.body.length === 0) return null;
  if (type === 'application/vnd.datacite.datacite+json' || type === 'application/vnd.api+json') {
    const doc = bodyJson(ctx, response, what);
    const record = mapDataCite(doc);
    return fieldsOf(record).length
      ? { ...source(method, url, contentType, { standard: 'datacite', format: 'json', namespaces: [] }, record), dataciteClient: dataciteClient(doc) }
      : null;
  }
  if (isJsonLdType(type) || type === 'application/json') {
    const doc = bodyJson(ctx, response, what);
    if (doc === null) return null;
    const namespaces = contextNamespaces(doc);
    if (type === 'application/json' && namespaces.length === 0) {
      // plain JSON: DataCite JSON served without its own type, or nothing we know
      const record = mapDataCite(doc);
      return fieldsOf(record).length
        ? { ...source(method, url, contentType, { standard: 'datacite', format: 'json', namespaces: [] }, record), dataciteClient: dataciteClient(doc) }
        : null;
    }
    const reading = await readJsonLd(ctx.warnings, bodyText(response), doc, url, about, what);
    return source(method, url, contentType, { standard: reading.standard, format: 'json-ld', namespaces: reading.namespaces }, reading.record);
  }
  if (isRdfType(type) && !type.endsWith('xml')) {
    const text = bodyText(response);
    try {
      const graph = parseTurtle(text, url, type === 'application/n-triples' ? 'N-Triples' : type.includes('n3') ? 'N3' : 'Turtle');
      return source(
        method,
        url,
        contentType,
        { standard: null, format: 'rdf', namespaces: cleanList([...graph.prefixes, ...turtleNamespaces(text)]) },
        mapGraph(graph, about),
      );
    } catch (error) {
      ctx.warnings.push(`${what}: the ${type} document does not parse (${(error as Error).message.slice(0, 120)})`);
      return source(method, url, contentType, { standard: null, format: 'rdf', namespaces: turtleNamespaces(text) }, {});
    }
  }
  if (isXmlType(type)) {
    const xml = await parseXml(bodyText(response));
    if (xml.root === null) {
      ctx.warnings.push(`${what}: the response is not XML`);
      return null;
    }
    const standard = xml.rootNamespace ? metadataStandard(xml.rootNamespace) : null;
    if (xml.root === 'RDF') {
      let record: MetadataRecord = {};
      try {
        record = mapGraph(await parseRdfXml(bodyText(response), url), about);
      } catch (error) {
        ctx.warnings.push(`${what}: the RDF/XML document does not parse (${(error as Error).message.slice(0, 120)})`);
      }
      return source(method, url, contentType, { standard: standard?.name ?? null, format: 'rdf', namespaces: xml.namespaces }, record);
    }
    return source(method, url, contentType, { standard: standard?.name ?? null, format: 'xml', namespaces: xml.namespaces }, xml.record);
  }
  return null;
}
