/**
 * One mapping for every RDF graph, whatever its syntax (Turtle, RDF/XML, JSON-LD, RDFa), after F-UJI's
 * `MetaDataCollectorRdf.get_metadata_from_graph`: a graph that uses schema.org is read with F-UJI's schema.org
 * walk (only schema.org properties of the main entity), and fields it leaves empty are filled from the generic
 * Dublin Core / DCAT query (harvest/rdf.ts), as F-UJI unions its DCAT and schema.org dictionaries; a graph without
 * schema.org gets the generic query alone.
 *
 * The schema.org walk reuses the schema.org mapping (harvest/schemaorg.ts): the graph's typed subjects become
 * JSON-LD-like node objects (schema.org properties by local name, objects that are themselves described in the
 * graph nested, to a small depth), ranked by F-UJI's main-entity score (`get_main_entity`: more properties is
 * better, fewer incoming references is better); the best-scored node typed as a creative work (else the best) is
 * the main entity, as the schema.org mapping takes the first such node.
 */
import type { Quad, Term } from 'n3';
import { mapRdf, type RdfGraph } from './rdf.ts';
import { fieldsOf, type MetadataRecord } from './record.ts';
import { isMainNode, mapSchemaOrgNode } from './schemaorg.ts';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SCHEMA_ORG = /^https?:\/\/schema\.org\//;
/** Nested nodes deeper than this are given by their IRI (the mapping reads at most a distribution's properties). */
const MAX_DEPTH = 3;

type Node = Record<string, unknown>;

/** Does the graph use schema.org (a predicate or a type)? */
export function usesSchemaOrg(graph: RdfGraph): boolean {
  return graph.quads.some((q) => SCHEMA_ORG.test(q.predicate.value) || (q.predicate.value === RDF_TYPE && SCHEMA_ORG.test(q.object.value)));
}

/** Quads by subject, and how often each term is the object of a (non-type) triple. */
function index(graph: RdfGraph): { bySubject: Map<string, Quad[]>; incoming: Map<string, number> } {
  const bySubject = new Map<string, Quad[]>();
  const incoming = new Map<string, number>();
  for (const quad of graph.quads) {
    const list = bySubject.get(quad.subject.value);
    if (list) list.push(quad);
    else bySubject.set(quad.subject.value, [quad]);
    if (quad.object.termType !== 'Literal' && quad.predicate.value !== RDF_TYPE) incoming.set(quad.object.value, (incoming.get(quad.object.value) ?? 0) + 1);
  }
  return { bySubject, incoming };
}

/**
 * The main entity of a graph as a schema.org node object: the typed subjects ranked by F-UJI's score, and the first
 * of them typed as a creative work (else the first). Only that node is built (nested nodes to a small depth).
 */
export function schemaOrgMainNode(graph: RdfGraph): Node | null {
  const { bySubject, incoming } = index(graph);
  const typesOf = (quads: readonly Quad[]) => quads.filter((q) => q.predicate.value === RDF_TYPE).map((q) => q.object.value.replace(SCHEMA_ORG, ''));
  const typed = [...bySubject.entries()].filter(([, quads]) => quads.some((q) => q.predicate.value === RDF_TYPE));
  if (typed.length === 0) return null;
  // F-UJI's score: properties / most properties + (1 − references / most references) / 4; ties keep graph order.
  const maxProperties = Math.max(...typed.map(([, quads]) => quads.length));
  const maxIncoming = Math.max(...typed.map(([subject]) => incoming.get(subject) ?? 0));
  const score = ([subject, quads]: [string, Quad[]]) =>
    quads.length / maxProperties + (maxIncoming ? (0.5 * (1 - (incoming.get(subject) ?? 0) / maxIncoming)) / 2 : 0);
  const ranked = typed.map((entry, index) => ({ entry, index, score: score(entry) })).sort((a, b) => b.score - a.score || a.index - b.index);
  const main = ranked.find(({ entry }) => isMainNode({ '@type': typesOf(entry[1]) })) ?? ranked[0]!;

  const nodeOf = (subject: Term, depth: number, path: ReadonlySet<string>): Node => {
    const node: Node = {};
    if (subject.termType === 'NamedNode') node['@id'] = subject.value;
    const seen = new Set(path).add(subject.value);
    for (const quad of bySubject.get(subject.value) ?? []) {
      const predicate = quad.predicate.value;
      if (predicate === RDF_TYPE) {
        add(node, '@type', quad.object.value.replace(SCHEMA_ORG, ''));
        continue;
      }
      if (!SCHEMA_ORG.test(predicate)) continue;
      const object = quad.object;
      let value: unknown;
      if (object.termType === 'Literal') value = object.value;
      else if (bySubject.has(object.value) && depth < MAX_DEPTH && !seen.has(object.value)) value = nodeOf(object, depth + 1, seen);
      else if (object.termType === 'NamedNode') value = object.value;
      else continue; // an undescribed blank node says nothing
      add(node, predicate.replace(SCHEMA_ORG, ''), value);
    }
    return node;
  };
  return nodeOf(main.entry[1][0]!.subject, 0, new Set());
}

function add(node: Node, key: string, value: unknown): void {
  const known = node[key];
  if (known === undefined) node[key] = value;
  else if (Array.isArray(known)) known.push(value);
  else node[key] = [known, value];
}

/** The metadata standard a graph's predicates follow (for F4-01M's search-engine sources): schema.org, then DC, then DCAT. */
export function graphStandard(graph: RdfGraph): 'schemaorg' | 'dublin-core' | 'dcat-data-catalog-vocabulary' | null {
  const predicates = graph.quads.map((q) => q.predicate.value);
  if (predicates.some((p) => SCHEMA_ORG.test(p))) return 'schemaorg';
  if (predicates.some((p) => p.startsWith('http://purl.org/dc/'))) return 'dublin-core';
  if (predicates.some((p) => p.startsWith('http://www.w3.org/ns/dcat#'))) return 'dcat-data-catalog-vocabulary';
  return null;
}

const termKey = (t: Term) => (t.termType === 'Literal' ? `L${t.value}\u0000${t.language}\u0000${t.datatype.value}` : `${t.termType[0]}${t.value}`);

/**
 * An RDF graph is a set: the same triple stated twice (a JSON-LD person repeated in several lists, a streaming
 * parser that does not merge) counts once, as in rdflib.
 */
export function distinctQuads(graph: RdfGraph): RdfGraph {
  const seen = new Set<string>();
  const quads = graph.quads.filter((q) => {
    const key = `${termKey(q.subject)}\u0001${q.predicate.value}\u0001${termKey(q.object)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return quads.length === graph.quads.length ? graph : { ...graph, quads };
}

/** Records already mapped, per graph object (parsed JSON-LD graphs are cached and shared: harvest/jsonld.ts). */
const mappedRecords = new WeakMap<RdfGraph, Map<string, MetadataRecord>>();

/** Map an RDF graph to a record (see the module comment); empty when nothing in it maps. The result is the caller's own. */
export function mapGraph(input: RdfGraph, about: readonly string[]): MetadataRecord {
  let byAbout = mappedRecords.get(input);
  if (!byAbout) mappedRecords.set(input, (byAbout = new Map()));
  const key = about.join('\n');
  let record = byAbout.get(key);
  if (!record) byAbout.set(key, (record = mapGraphUncached(distinctQuads(input), about)));
  return structuredClone(record);
}

function mapGraphUncached(graph: RdfGraph, about: readonly string[]): MetadataRecord {
  const generic = mapRdf(graph, about);
  if (!usesSchemaOrg(graph)) return generic;
  const main = schemaOrgMainNode(graph);
  const schema = main ? mapSchemaOrgNode(main) : {};
  const filled: Record<string, unknown> = { ...schema };
  const from = generic as Record<string, unknown>;
  for (const key of fieldsOf(generic)) if (!fieldsOf(schema).includes(key)) filled[key] = from[key];
  return filled as MetadataRecord;
}
