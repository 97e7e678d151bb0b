/**
 * RDF metadata (Turtle, N3, N-Triples with n3; RDF/XML with rdfxml-streaming-parser) read as a graph and mapped to
 * the reference schema the way F-UJI's generic RDF query does (helper/metadata_mapper.py GENERIC_SPARQL, and its
 * DCAT distribution query): Dublin Core terms and elements, schema.org and DCAT properties of the described
 * resource. The described resource is a subject typed as a dataset (dcat:Dataset, schema:Dataset, DCMI Dataset …),
 * else the landing page or PID as a subject, else the subject with the most mapped properties.
 */
import { Parser as TurtleParser, type Quad, type Term } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import type { ContentLink, RelatedResource } from '../../../../../../contracts/fair/evidence.ts';
import { cleanList, type MetadataRecord } from './record.ts';

const DCT = 'http://purl.org/dc/terms/';
const DC = 'http://purl.org/dc/elements/1.1/';
const DCAT = 'http://www.w3.org/ns/dcat#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const FOAF_NAME = 'http://xmlns.com/foaf/0.1/name';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const VCARD_FN = 'http://www.w3.org/2006/vcard/ns#fn';

/** schema.org under both schemes, as publishers use both. */
const schema = (term: string) => [`http://schema.org/${term}`, `https://schema.org/${term}`];
const dc = (...terms: string[]) => terms.flatMap((t) => [`${DCT}${t}`, `${DC}${t}`]);

/** Reference-schema field → predicates, after F-UJI's generic query. */
const FIELDS = {
  title: [...dc('title'), ...schema('name')],
  object_identifier: [...dc('identifier'), ...schema('identifier')],
  summary: [...dc('description', 'abstract'), ...schema('abstract'), ...schema('description')],
  publisher: [...dc('publisher'), ...schema('publisher')],
  publication_date: [...dc('created', 'issued', 'date'), ...schema('dateCreated'), ...schema('datePublished')],
  modified_date: [...dc('modified'), ...schema('dateModified')],
  creator: [...dc('creator'), ...schema('author'), ...schema('creator')],
  contributor: [...dc('contributor'), ...schema('contributor')],
  object_type: [...dc('type'), RDF_TYPE],
  license: [...dc('license'), ...schema('license')],
  access_level: [...dc('accessRights', 'rights')],
  keywords: [...dc('subject'), ...schema('keywords'), `${DCAT}keyword`],
  language: [...dc('language'), ...schema('inLanguage')],
  measured_variable: schema('variableMeasured'),
} as const;

/** Relation predicates of F-UJI's query; the local name is the relation type. */
const RELATIONS = [
  'references',
  'source',
  'isVersionOf',
  'isReferencedBy',
  'isPartOf',
  'hasVersion',
  'replaces',
  'hasPart',
  'isReplacedBy',
  'requires',
  'isRequiredBy',
].flatMap((t) => dc(t).map((p) => [p, t] as const));

/** Predicates naming an agent node, and (for blank nodes) its URL. */
const LABELS: ReadonlySet<string> = new Set([FOAF_NAME, RDFS_LABEL, VCARD_FN, ...schema('name')]);
const NODE_NAMES: ReadonlySet<string> = new Set([...LABELS, ...schema('url')]);
const MAPPED: ReadonlySet<string> = new Set<string>([...Object.values(FIELDS).flat(), ...RELATIONS.map(([p]) => p)]);

const DATASET_TYPES = new Set([
  `${DCAT}Dataset`,
  ...schema('Dataset'),
  'http://purl.org/dc/dcmitype/Dataset',
  ...schema('SoftwareSourceCode'),
  ...schema('CreativeWork'),
]);

export interface RdfGraph {
  quads: Quad[];
  /** Prefix IRIs the document declares. */
  prefixes: string[];
}

/** Parse Turtle / N3 / N-Triples; throws on a syntax error. */
export function parseTurtle(text: string, baseIri: string, format: string): RdfGraph {
  const prefixes: string[] = [];
  const quads = new TurtleParser({ baseIRI: baseIri, format }).parse(text, null, (_prefix, iri) => prefixes.push(iri.value));
  return { quads, prefixes: cleanList(prefixes) };
}

/** Parse RDF/XML; rejects on a syntax error. */
export function parseRdfXml(text: string, baseIri: string): Promise<RdfGraph> {
  return new Promise((resolve, reject) => {
    const quads: Quad[] = [];
    const prefixes: string[] = [];
    const parser = new RdfXmlParser({ baseIRI: baseIri });
    parser.on('data', (quad: Quad) => quads.push(quad));
    parser.on('prefix', (_prefix: string, iri: { value: string }) => prefixes.push(iri.value));
    parser.on('error', reject);
    parser.on('end', () => resolve({ quads, prefixes: cleanList(prefixes) }));
    parser.write(text);
    parser.end();
  });
}

/** Map the described resource of a graph to a record (empty when no subject carries a mapped property). */
export function mapRdf(graph: RdfGraph, about: readonly string[]): MetadataRecord {
  const bySubject = new Map<string, Quad[]>();
  for (const quad of graph.quads) {
    const key = quad.subject.value;
    const list = bySubject.get(key);
    if (list) list.push(quad);
    else bySubject.set(key, [quad]);
  }
  const weights = new Map<string, number>();
  for (const [key, list] of bySubject) weights.set(key, list.filter((q) => MAPPED.has(q.predicate.value) && q.predicate.value !== RDF_TYPE).length);
  const weight = (key: string) => weights.get(key) ?? 0;
  const subjects = [...bySubject.keys()];
  const typed = subjects.find((s) => bySubject.get(s)!.some((q) => q.predicate.value === RDF_TYPE && DATASET_TYPES.has(q.object.value)));
  const named = subjects.find((s) => about.includes(s) && weight(s) > 0);
  const busiest = [...subjects].sort((a, b) => weight(b) - weight(a))[0];
  const subject = typed ?? named ?? (busiest && weight(busiest) > 0 ? busiest : undefined);
  if (!subject) return {};
  const quads = bySubject.get(subject)!;
  /** A term's text: a literal's value, an IRI, or the name/label of the node it points to. */
  const text = (term: Term): string | null => {
    if (term.termType === 'Literal' || term.termType === 'NamedNode') {
      if (term.termType === 'NamedNode') {
        const label = (bySubject.get(term.value) ?? []).find((q) => LABELS.has(q.predicate.value));
        if (label && label.object.termType === 'Literal') return label.object.value;
      }
      return term.value;
    }
    const node = bySubject.get(term.value) ?? [];
    const name = node.find((q) => NODE_NAMES.has(q.predicate.value));
    return name ? name.object.value : null;
  };
  const values = (predicates: readonly string[]) => cleanList(quads.filter((q) => predicates.includes(q.predicate.value)).map((q) => text(q.object)));
  const first = (predicates: readonly string[]) => values(predicates)[0] ?? null;
  const related: RelatedResource[] = RELATIONS.flatMap(([predicate, type]) =>
    values([predicate]).map((value) => ({ related_resource: value, relation_type: type })),
  );
  const distributions = quads.filter((q) => q.predicate.value === `${DCAT}distribution` || schema('distribution').includes(q.predicate.value));
  const links: ContentLink[] = distributions.flatMap((d) => {
    const node = bySubject.get(d.object.value) ?? [];
    const of = (predicates: readonly string[]) => node.find((q) => predicates.includes(q.predicate.value))?.object.value ?? null;
    const url = of([`${DCAT}downloadURL`, `${DCAT}accessURL`, ...schema('contentUrl')]);
    return url
      ? [
          {
            url,
            type: of([`${DCAT}mediaType`, ...dc('format'), ...schema('encodingFormat')]),
            size: of([`${DCAT}byteSize`, ...schema('contentSize')]),
            source: 'rdf:distribution',
          },
        ]
      : [];
  });
  return {
    object_identifier: cleanList([subject.startsWith('http') ? subject : null, ...values(FIELDS.object_identifier)]),
    title: first(FIELDS.title),
    summary: first(FIELDS.summary),
    publisher: values(FIELDS.publisher),
    publication_date: first(FIELDS.publication_date),
    modified_date: first(FIELDS.modified_date),
    creator: values(FIELDS.creator),
    contributor: values(FIELDS.contributor),
    object_type: values(FIELDS.object_type),
    license: values(FIELDS.license),
    access_level: values(FIELDS.access_level),
    keywords: values(FIELDS.keywords),
    language: first(FIELDS.language),
    measured_variable: values(FIELDS.measured_variable),
    related_resources: related,
    object_content_identifier: links,
  };
}
