/**
 * Metadata embedded in the landing page (fair.md §2.4): JSON-LD scripts, Dublin Core / Highwire / OpenGraph
 * meta tags, schema.org microdata (mapped like JSON-LD) and RDFa Lite in the body (mapped like an RDF graph).
 */
import type { LandingPage } from './landing-page.ts';
import { MAX_JSON_BYTES, type HarvestContext } from './http.ts';
import { mapMetaTags } from './meta-tags.ts';
import { cleanList, fieldsOf, type Harvested } from './record.ts';
import { mapRdf } from './rdf.ts';
import { contextNamespaces, isSchemaOrg, mapSchemaOrg } from './schemaorg.ts';

const SCHEMA_ORG = /^https?:\/\/schema\.org\//i;

/** The sources embedded in a parsed landing page, in merge order. */
export function embeddedSources(ctx: HarvestContext, page: LandingPage, landingUrl: string, contentType: string | null): Harvested[] {
  const out: Harvested[] = [];
  page.jsonLd.forEach((text, index) => {
    if (text.length > MAX_JSON_BYTES) {
      ctx.warnings.push(`embedded JSON-LD #${index + 1}: over the ${MAX_JSON_BYTES}-byte parse limit; skipped`);
      return;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      ctx.warnings.push(`embedded JSON-LD #${index + 1}: not valid JSON`);
      return;
    }
    const schemaOrg = isSchemaOrg(doc);
    const record = schemaOrg ? mapSchemaOrg(doc) : {};
    out.push({
      source: { method: 'json_in_html', standard: schemaOrg ? 'schemaorg' : null, format: 'json-ld', url: landingUrl, contentType, namespaces: contextNamespaces(doc), fields: fieldsOf(record) },
      record,
    });
  });
  for (const meta of mapMetaTags(page.metas, page.schemaLinks)) {
    const method = meta.standard === 'opengraph' ? 'rdfa' : 'meta_tag';
    out.push({
      source: { method, standard: meta.standard, format: 'html-meta', url: landingUrl, contentType, namespaces: meta.namespaces, fields: fieldsOf(meta.record) },
      record: meta.record,
    });
  }
  const microdata = page.microdataTypes.filter((type) => SCHEMA_ORG.test(type));
  if (microdata.length) {
    // schema.org microdata items mapped like JSON-LD; the item types alone when no item maps to anything
    const items = page.microdata.filter((item) => item['@context'] !== undefined);
    const mapped = items.length ? mapSchemaOrg({ '@context': 'https://schema.org/', '@graph': items }) : {};
    const record = fieldsOf(mapped).length ? mapped : { object_type: cleanList(microdata.map((type) => type.replace(SCHEMA_ORG, ''))) };
    out.push({
      source: { method: 'microdata', standard: 'schemaorg', format: 'html-meta', url: landingUrl, contentType, namespaces: ['http://schema.org/'], fields: fieldsOf(record) },
      record,
    });
  }
  if (page.rdfaAttributes > 0) {
    // RDFa Lite triples mapped like any RDF graph; a page whose RDFa describes nothing gives a source without fields
    const record = page.rdfa.quads.length ? mapRdf(page.rdfa, [landingUrl]) : {};
    const predicates = page.rdfa.quads.map((q) => q.predicate.value);
    const standard = predicates.some((p) => /^https?:\/\/schema\.org\//.test(p))
      ? 'schemaorg'
      : predicates.some((p) => p.startsWith('http://purl.org/dc/'))
        ? 'dublin-core'
        : predicates.some((p) => p.startsWith('http://www.w3.org/ns/dcat#'))
          ? 'dcat-data-catalog-vocabulary'
          : null;
    out.push({ source: { method: 'rdfa', standard, format: 'html-meta', url: landingUrl, contentType, namespaces: cleanList(page.rdfa.prefixes), fields: fieldsOf(record) }, record });
  }
  return out;
}
