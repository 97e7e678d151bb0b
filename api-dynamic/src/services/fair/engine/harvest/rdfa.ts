/**
 * RDFa 1.1 in the landing page (F-UJI reads RDFa with pyRdfa in HTML5 mode, then maps the graph): the
 * full processing rules (`vocab`, `prefix`, the initial context's prefixes and terms, `about`, `resource`,
 * `typeof`, `property`, `rel`/`rev` chaining with incomplete triples, `datatype`, `inlist`, `content`, `datetime`,
 * `<base>`, `lang`) come from rdfa-streaming-parser, fed with the open/text/close events of the landing page's one
 * htmlparser2 pass (harvest/landing-page.ts) rather than parsing the page a second time. The triples go through
 * the same graph mapping as every RDF document (harvest/graph.ts).
 *
 * As F-UJI does, triples whose subject names an image (`.jpg`, `.png` …) are dropped: pyRdfa turns every
 * `<img src>` inside an RDFa subject into a node, which would otherwise compete for the main entity.
 */
import type * as RDF from '@rdfjs/types';
import { DataFactory, type Quad } from 'n3';
import { RdfaParser } from 'rdfa-streaming-parser';

const IMAGE_SUBJECT = /\.(?:jpe?g|png|tif|gif|svg)/i;

/** An RdfaParser that keeps its triples in an array instead of pushing them down a stream. */
class CollectingRdfaParser extends RdfaParser {
  readonly quads: Quad[] = [];
  /** Prefix IRIs the page declares with `prefix`, `vocab` or `xmlns:` (for namespaces). */
  readonly declared: string[] = [];

  override onTagOpen(name: string, attributes: Record<string, string>): void {
    if (attributes.prefix) for (const m of attributes.prefix.matchAll(/[A-Za-z_][\w.-]*:\s+(\S+)/g)) this.declared.push(m[1]!);
    if (attributes.vocab) this.declared.push(attributes.vocab);
    for (const [key, value] of Object.entries(attributes)) if (key.startsWith('xmlns:') && value) this.declared.push(value);
    super.onTagOpen(name, attributes);
  }

  protected override emitTriple(subject: RDF.Quad_Subject, predicate: RDF.Quad_Predicate, object: RDF.Quad_Object): void {
    // the parser's own rule: IRIs without a scheme are dropped
    if ([subject, predicate, object].some((t) => t.termType === 'NamedNode' && !t.value.includes(':'))) return;
    if (subject.termType === 'NamedNode' && IMAGE_SUBJECT.test(subject.value)) return;
    this.quads.push(DataFactory.quad(subject as Quad['subject'], predicate as Quad['predicate'], object as Quad['object']));
  }
}

export interface RdfaCollector {
  open(name: string, attrs: Record<string, string>): void;
  text(chunk: string): void;
  close(): void;
  /** Call once after the last close (emits pattern copies, `rdfa:copy`). */
  end(): void;
  quads: Quad[];
  /** Prefix IRIs declared with `prefix`/`vocab`/`xmlns:` (for namespaces). */
  prefixes: string[];
  /** The first processing error, if any (the triples before it are kept; the rest of the page is not read as RDFa). */
  error: string | null;
}

/** A collector fed by the landing-page parser's open/text/close events. `contentType` picks HTML or XHTML rules. */
export function rdfaCollector(baseUrl: string, contentType = 'text/html'): RdfaCollector {
  const parser = new CollectingRdfaParser({ baseIRI: baseUrl, contentType });
  const collector: RdfaCollector = {
    quads: parser.quads,
    prefixes: parser.declared,
    error: null,
    open: (name, attrs) => guard(() => parser.onTagOpen(name, attrs)),
    text: (chunk) => guard(() => parser.onText(chunk)),
    close: () => guard(() => parser.onTagClose()),
    end: () => guard(() => parser.onEnd()),
  };
  function guard(step: () => void): void {
    if (collector.error !== null) return;
    try {
      step();
    } catch (error) {
      collector.error = (error as Error).message.slice(0, 160);
    }
  }
  return collector;
}
