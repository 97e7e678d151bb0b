/**
 * RDFa Lite in the landing page's body (F-UJI reads RDFa with pyRdfa): `vocab`, `prefix`, `typeof`, `about`,
 * `resource`, `property` with `content` / `href` / `src` / text values, turned into triples that harvest/rdf.ts maps
 * like any RDF graph. `<meta>`/`<link>` are left to the meta-tag readers (OpenGraph and Dublin Core have their own
 * sources). This is the Lite subset: no `rel`/`rev` chaining, no `datatype`/`inlist`.
 */
import { DataFactory, type Quad, type Quad_Object, type Quad_Subject } from 'n3';
import { absoluteUrl } from './http.ts';

const { namedNode, literal, blankNode, quad } = DataFactory;

/** RDFa's initial context prefixes that metadata uses (W3C RDFa Core initial context). */
const INITIAL_PREFIXES: Readonly<Record<string, string>> = {
  dc: 'http://purl.org/dc/terms/',
  dcterms: 'http://purl.org/dc/terms/',
  dc11: 'http://purl.org/dc/elements/1.1/',
  schema: 'http://schema.org/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  dcat: 'http://www.w3.org/ns/dcat#',
  prov: 'http://www.w3.org/ns/prov#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
};

interface Frame {
  subject: Quad_Subject;
  vocab: string | null;
  prefixes: Readonly<Record<string, string>>;
  /** A property whose value is this element's text, collected until it closes. */
  pending: { subject: Quad_Subject; predicates: string[]; text: string } | null;
}

export interface RdfaCollector {
  open(name: string, attrs: Record<string, string>): void;
  text(chunk: string): void;
  close(): void;
  quads: Quad[];
  /** Prefix IRIs declared with `prefix`/`vocab` (for namespaces). */
  prefixes: string[];
}

/** A collector fed by the landing-page parser's open/text/close events. */
export function rdfaCollector(baseUrl: string): RdfaCollector {
  const quads: Quad[] = [];
  const declared: string[] = [];
  const frames: Frame[] = [{ subject: namedNode(baseUrl), vocab: null, prefixes: INITIAL_PREFIXES, pending: null }];
  let blank = 0;

  const expand = (term: string, frame: { vocab: string | null; prefixes: Readonly<Record<string, string>> }): string | null => {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(term)) return term;
    const colon = term.indexOf(':');
    if (colon > 0) {
      const iri = frame.prefixes[term.slice(0, colon).toLowerCase()];
      return iri ? iri + term.slice(colon + 1) : null;
    }
    return frame.vocab ? frame.vocab + term : null;
  };
  const iri = (value: string) => absoluteUrl(value, baseUrl) ?? value;

  return {
    quads,
    prefixes: declared,
    open(name, attrs) {
      const parent = frames.at(-1)!;
      let prefixes = parent.prefixes;
      if (attrs.prefix) {
        const pairs = [...attrs.prefix.matchAll(/([A-Za-z][\w.-]*):\s+(\S+)/g)];
        if (pairs.length) prefixes = { ...prefixes, ...Object.fromEntries(pairs.map((m) => [m[1]!.toLowerCase(), m[2]!])) };
        declared.push(...pairs.map((m) => m[2]!));
      }
      const vocab = attrs.vocab !== undefined ? attrs.vocab || null : parent.vocab;
      if (attrs.vocab) declared.push(attrs.vocab);
      const context = { vocab, prefixes };
      const skip = name === 'meta' || name === 'link';
      let subject = parent.subject;
      let pending: Frame['pending'] = null;
      if (!skip) {
        const predicates = (attrs.property ?? '').split(/\s+/).filter(Boolean).map((p) => expand(p, context)).filter((p): p is string => p !== null);
        const types = (attrs.typeof ?? '').split(/\s+/).filter(Boolean).map((t) => expand(t, context)).filter((t): t is string => t !== null);
        // A new node: `about`, or `typeof` with `resource`/`href` or on its own (a blank node).
        let node: Quad_Subject | null = null;
        if (attrs.about !== undefined) node = namedNode(iri(attrs.about));
        else if (attrs.typeof !== undefined) node = attrs.resource ? namedNode(iri(attrs.resource)) : attrs.href ? namedNode(iri(attrs.href)) : blankNode(`rdfa${blank++}`);
        for (const type of types) if (node) quads.push(quad(node, namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), namedNode(type)));
        if (predicates.length) {
          const object: Quad_Object | null =
            attrs.about === undefined && node !== null
              ? node
              : attrs.content !== undefined
                ? literal(attrs.content)
                : attrs.resource
                  ? namedNode(iri(attrs.resource))
                  : attrs.href
                    ? namedNode(iri(attrs.href))
                    : attrs.src
                      ? namedNode(iri(attrs.src))
                      : null;
          const owner = attrs.about !== undefined ? (node as Quad_Subject) : parent.subject;
          if (object) for (const p of predicates) quads.push(quad(owner, namedNode(p), object));
          else pending = { subject: owner, predicates, text: '' };
        }
        if (node) subject = node;
      }
      frames.push({ subject, vocab, prefixes, pending });
    },
    text(chunk) {
      for (const frame of frames) if (frame.pending) frame.pending.text += chunk;
    },
    close() {
      if (frames.length === 1) return;
      const frame = frames.pop()!;
      if (frame.pending) {
        const value = frame.pending.text.replace(/\s+/g, ' ').trim();
        if (value) for (const p of frame.pending.predicates) quads.push(quad(frame.pending.subject, namedNode(p), literal(value)));
      }
    },
  };
}
