/**
 * JSON-LD parsed as RDF (F-UJI parses every JSON-LD document, embedded or negotiated, with rdflib's JSON-LD
 * parser and walks the graph): jsonld-streaming-parser turns the document into quads, which harvest/graph.ts maps
 * like a Turtle or RDF/XML graph.
 *
 * The engine never fetches a `@context` (no network beyond the assessment's own requests, and a context URL is
 * the publisher's to choose, so fetching it would be an unchecked request to anywhere). Remote contexts are
 * resolved offline instead:
 *   - schema.org's context (`http(s)://schema.org`, with or without a path such as `/docs/jsonldcontext.jsonld`)
 *     becomes a small local context declaring `@vocab: http://schema.org/` and the namespace prefixes schema.org's
 *     own context declares. This is what the real context does for every term (each term is `schema:<term>`); what
 *     the local one leaves out is the real context's `@type: @id` coercion of 71 URL-valued properties (`url`,
 *     `sameAs`, `license` …), so those values arrive as literals rather than IRIs. The mapping reads both alike.
 *   - any other remote context is refused: the parse fails with {@link RemoteContextError}, the document is kept as
 *     a source without fields, and a warning names the context.
 */
import type { Quad } from 'n3';
import { JsonLdParser } from 'jsonld-streaming-parser';
import type { IDocumentLoader, IJsonLdContext } from 'jsonld-context-parser';
import { LRUCache } from 'lru-cache';
import { graphStandard, mapGraph } from './graph.ts';
import { yieldToLoop } from './http.ts';
import type { RdfGraph } from './rdf.ts';
import type { MetadataRecord } from './record.ts';
import { contextNamespaces } from './schemaorg.ts';

const SCHEMA_ORG_CONTEXT_URL = /^https?:\/\/(?:www\.)?schema\.org(?:[/?#].*)?$/i;

/** The local stand-in for schema.org's context (see the module comment for what it leaves out). */
export const SCHEMA_ORG_CONTEXT: IJsonLdContext = {
  '@context': {
    '@vocab': 'http://schema.org/',
    schema: 'http://schema.org/',
    bibo: 'http://purl.org/ontology/bibo/',
    dc: 'http://purl.org/dc/elements/1.1/',
    dcat: 'http://www.w3.org/ns/dcat#',
    dct: 'http://purl.org/dc/terms/',
    dcterms: 'http://purl.org/dc/terms/',
    dctype: 'http://purl.org/dc/dcmitype/',
    eli: 'http://data.europa.eu/eli/ontology#',
    foaf: 'http://xmlns.com/foaf/0.1/',
    owl: 'http://www.w3.org/2002/07/owl#',
    rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
    rdfa: 'http://www.w3.org/ns/rdfa#',
    rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
    skos: 'http://www.w3.org/2004/02/skos/core#',
    snomed: 'http://purl.bioontology.org/ontology/SNOMEDCT/',
    void: 'http://rdfs.org/ns/void#',
    xsd: 'http://www.w3.org/2001/XMLSchema#',
  },
};

/** A remote `@context` the engine will not fetch. */
export class RemoteContextError extends Error {
  constructor(readonly url: string) {
    super(`the remote @context ${url} is not fetched (the engine resolves only schema.org's context, offline)`);
    this.name = 'RemoteContextError';
  }
}

/** Resolves schema.org's context locally and refuses every other URL; never touches the network. */
export const offlineContextLoader: IDocumentLoader = {
  load(url: string): Promise<IJsonLdContext> {
    if (SCHEMA_ORG_CONTEXT_URL.test(url)) return Promise.resolve(SCHEMA_ORG_CONTEXT);
    return Promise.reject(new RemoteContextError(url));
  },
};

/** Feed the parser this many characters at a time, yielding to the event loop between slices. */
const SLICE = 4 * 1024;

/**
 * Parsed documents by base IRI and text. The streaming parser costs about 1 ms per KB (promise jobs per value), all
 * of it in one microtask run unless fed in slices, and the same document often arrives several times in one
 * assessment (PANGAEA's: embedded, negotiated twice, and as a describedby link) and again in the next one. The key
 * is the exact text, so a hit is the same graph by construction; a failure is cached too (it would fail again).
 * Concurrent parses of one document share the promise.
 */
// Weighed by text length × 16: a parsed graph takes roughly eight times its text's UTF-16 bytes (PANGAEA's 12 KB
// document gives 347 quads); 64 MB keeps about 4 MB of JSON-LD text, and a 2 MB document (MAX_JSON_BYTES) fits.
const parsed = new LRUCache<string, Promise<RdfGraph>>({ max: 512, maxSize: 64 * 1024 * 1024, sizeCalculation: (_graph, key) => key.length * 16 + 1024 });

/**
 * Parse a JSON-LD document (text) into quads. Rejects on invalid JSON, invalid JSON-LD, or a remote context other
 * than schema.org's ({@link RemoteContextError}, also when the parser wraps it).
 */
export function parseJsonLd(text: string, baseIri: string): Promise<RdfGraph> {
  const key = `${baseIri}\u0000${text}`;
  let graph = parsed.get(key);
  if (!graph) {
    graph = parseJsonLdUncached(text, baseIri);
    parsed.set(key, graph);
  }
  return graph;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

async function parseJsonLdUncached(text: string, baseIri: string): Promise<RdfGraph> {
  const quads: Quad[] = [];
  let refused: RemoteContextError | null = null;
  const loader: IDocumentLoader = {
    load: (url) =>
      offlineContextLoader.load(url).catch((error: unknown) => {
        if (error instanceof RemoteContextError) refused ??= error;
        throw error;
      }),
  };
  // the parser's own RDF/JS terms; the mapping reads only termType and value
  const parser = new JsonLdParser({ baseIRI: baseIri, documentLoader: loader });
  let failure: Error | null = null;
  const done = new Promise<void>((resolve, reject) => {
    parser.on('data', (quad: Quad) => quads.push(quad));
    parser.on('error', (error: Error) => {
      failure ??= error;
      reject(refused ?? error);
    });
    parser.on('end', () => resolve());
  });
  done.catch(() => undefined); // observed below; a failure mid-way must not surface as an unhandled rejection
  for (let offset = 0; offset < text.length && failure === null;) {
    let end = Math.min(text.length, offset + SLICE);
    // never split a surrogate pair: each slice is encoded to UTF-8 on its own
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    parser.write(text.slice(offset, end));
    offset = end;
    if (offset < text.length) await yieldToLoop();
  }
  if (failure === null) parser.end();
  await done;
  return { quads, prefixes: [] };
}

/** What a JSON-LD document gave: its record, the standard its graph follows, and its context's namespaces. */
export interface JsonLdReading {
  record: MetadataRecord;
  standard: ReturnType<typeof graphStandard>;
  namespaces: string[];
}

/**
 * Read a JSON-LD document (its text, and the same text already parsed as JSON) as an RDF graph. A document that
 * does not parse as JSON-LD, or needs a remote context, gives an empty reading and a warning, never an error:
 * F-UJI likewise drops a JSON-LD document rdflib cannot parse.
 */
export async function readJsonLd(
  warnings: string[],
  text: string,
  doc: unknown,
  baseIri: string,
  about: readonly string[],
  what: string,
): Promise<JsonLdReading> {
  try {
    const graph = await parseJsonLd(text, baseIri);
    return { record: mapGraph(graph, about), standard: graphStandard(graph), namespaces: contextNamespaces(doc) };
  } catch (error) {
    const reason = error instanceof RemoteContextError ? error.message : `it is not valid JSON-LD (${(error as Error).message.slice(0, 120)})`;
    warnings.push(`${what}: ${reason}; nothing was read from it`);
    return { record: {}, standard: null, namespaces: [] };
  }
}
