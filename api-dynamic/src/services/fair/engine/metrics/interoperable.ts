/**
 * I tests: formal representation (I1: RDF-ish metadata embedded, or reachable by negotiation or typed
 * links), registered semantic resources (I2) and qualified references to related entities (I3).
 */
import { tryParseIdentifier } from '../identifier.ts';
import { fail, listed, pass, type TestEvaluator } from './types.ts';

const EMBEDDED_GRAPH_METHODS = new Set(['json_in_html', 'rdfa']);
const LINKED_METHODS = new Set(['content_negotiation', 'typed_link', 'signposting']);

/** F-UJI's SCHEMAORG_EMBEDDED, RDFA_EMBEDDED and OPENGRAPH_EMBEDDED sources; a source counts only when it gave metadata. */
const embeddedGraph: TestEvaluator = ({ evidence: { sources } }) => {
  const found = sources.filter((s) => EMBEDDED_GRAPH_METHODS.has(s.method) && (s.format === 'json-ld' || s.method === 'rdfa') && s.fields.length > 0);
  return found.length
    ? pass(`the page embeds ${listed([...new Set(found.map((s) => (s.method === 'rdfa' ? `RDFa${s.standard ? ` (${s.standard})` : ''}` : 'JSON-LD')))])}`)
    : fail('the landing page embeds no JSON-LD, RDFa or OpenGraph metadata');
};

/** F-UJI's SCHEMAORG_NEGOTIATED, RDF_NEGOTIATED, RDF_TYPED_LINKS and RDF_SIGNPOSTING_LINKS sources that gave metadata. */
const linkedGraph: TestEvaluator = ({ evidence: { sources } }) => {
  const found = sources.filter((s) => LINKED_METHODS.has(s.method) && (s.format === 'json-ld' || s.format === 'rdf') && s.fields.length > 0);
  return found.length
    ? pass(`RDF/JSON-LD is served by ${listed([...new Set(found.map((s) => `${s.method} (${s.url})`))], 2)}`)
    : fail('no RDF or JSON-LD is served by content negotiation or typed links');
};

const anyNamespace: TestEvaluator = ({ specificNamespaces }) =>
  specificNamespaces.length
    ? pass(`namespaces in use: ${listed(specificNamespaces)}`)
    : fail('the metadata uses only default namespaces (schema.org, Dublin Core, RDF …)');

const semanticResources: TestEvaluator = ({ semanticNamespaces, specificNamespaces }) => {
  if (semanticNamespaces.length) return pass(`registered vocabularies: ${listed(semanticNamespaces.map((n) => `${n.vocabulary} <${n.namespace}>`))}`);
  return fail(
    specificNamespaces.length
      ? `no namespace belongs to a registered semantic resource we know (seen: ${listed(specificNamespaces)})`
      : 'the metadata uses only default namespaces (schema.org, Dublin Core, RDF …), which do not count',
  );
};

const relatedPresent: TestEvaluator = ({ evidence: { metadata } }) => {
  const related = metadata.related_resources;
  return related.length
    ? pass(
        `${related.length} related resource(s), e.g. ${listed(
          related.map((r) => `${r.relation_type}: ${r.related_resource}`),
          2,
        )}`,
      )
    : fail('the metadata names no related resources');
};

const relatedLinked: TestEvaluator = (facts) => {
  const first = relatedPresent(facts);
  if (!first.passed) return fail('the metadata names no related resources (test 1 failed)');
  // F-UJI: the related resource is a PID or has the url scheme (a UUID or hash is unique but not actionable).
  const linked = facts.evidence.metadata.related_resources.filter((r) => {
    const parsed = tryParseIdentifier(r.related_resource);
    return parsed !== null && (parsed.persistent || parsed.schemes.includes('url'));
  });
  return linked.length
    ? pass(
        `related resources are identified by URL or PID, e.g. ${listed(
          linked.map((r) => r.related_resource),
          2,
        )}`,
      )
    : fail('related resources are named in text only, without a URL or PID');
};

/** I evaluators by test id. */
export const INTEROPERABLE: Readonly<Record<string, TestEvaluator>> = {
  'FsF-I1-01M-1': embeddedGraph,
  'FsF-I1-01M-2': linkedGraph,
  'FsF-I2-01M-2': semanticResources,
  'FsF-I3-01M-1': relatedPresent,
  'FsF-I3-01M-2': relatedLinked,
  // v0.5
  'FsF-I2-01M-1': anyNamespace,
};
