/**
 * Metadata embedded in the landing page (fair.md §2.4): JSON-LD scripts (parsed as RDF), Dublin Core / Highwire /
 * OpenGraph meta tags, schema.org microdata (mapped like JSON-LD) and RDFa (an RDF graph); every graph is mapped by
 * harvest/graph.ts.
 */
import type { LandingPage } from './landing-page.ts';
import { MAX_JSON_BYTES, type HarvestContext } from './http.ts';
import { mapMetaTags } from './meta-tags.ts';
import { cleanList, fieldsOf, type Harvested } from './record.ts';
import { graphStandard, mapGraph } from './graph.ts';
import { readJsonLd } from './jsonld.ts';
import { mapSchemaOrg } from './schemaorg.ts';

const SCHEMA_ORG = /^https?:\/\/schema\.org\//i;

/** The sources embedded in a parsed landing page, in merge order. */
export async function embeddedSources(ctx: HarvestContext, page: LandingPage, landingUrl: string, contentType: string | null): Promise<Harvested[]> {
  const out: Harvested[] = [];
  for (const [index, text] of page.jsonLd.entries()) {
    const what = `embedded JSON-LD #${index + 1}`;
    if (text.length > MAX_JSON_BYTES) {
      ctx.warnings.push(`${what}: over the ${MAX_JSON_BYTES}-byte parse limit; skipped`);
      continue;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      ctx.warnings.push(`${what}: not valid JSON`);
      continue;
    }
    // parsed as RDF (harvest/jsonld.ts); the landing page is the document's base and what it is about
    const { record, standard, namespaces } = await readJsonLd(ctx.warnings, text, doc, landingUrl, [landingUrl], what);
    out.push({ source: { method: 'json_in_html', standard, format: 'json-ld', url: landingUrl, contentType, namespaces, fields: fieldsOf(record) }, record });
  }
  for (const meta of mapMetaTags(page.metas, page.schemaLinks)) {
    const method = meta.standard === 'opengraph' ? 'rdfa' : 'meta_tag';
    out.push({
      source: {
        method,
        standard: meta.standard,
        format: 'html-meta',
        url: landingUrl,
        contentType,
        namespaces: meta.namespaces,
        fields: fieldsOf(meta.record),
      },
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
      source: {
        method: 'microdata',
        standard: 'schemaorg',
        format: 'html-meta',
        url: landingUrl,
        contentType,
        namespaces: ['http://schema.org/'],
        fields: fieldsOf(record),
      },
      record,
    });
  }
  if (page.rdfaError) ctx.warnings.push(`RDFa in the landing page: processing stopped (${page.rdfaError}); the triples before it are kept`);
  // RDFa triples mapped like any RDF graph; a page with RDFa attributes in its body that describe nothing gives a
  // source without fields (head-only RDFa such as OpenGraph's `<meta property>` is a source only when it maps)
  const rdfaRecord = page.rdfa.quads.length ? mapGraph(page.rdfa, [landingUrl]) : {};
  if (page.rdfaAttributes > 0 || fieldsOf(rdfaRecord).length > 0) {
    const record = rdfaRecord;
    const standard = graphStandard(page.rdfa);
    out.push({
      source: {
        method: 'rdfa',
        standard,
        format: 'html-meta',
        url: landingUrl,
        contentType,
        namespaces: cleanList(page.rdfa.prefixes),
        fields: fieldsOf(record),
      },
      record,
    });
  }
  return out;
}
