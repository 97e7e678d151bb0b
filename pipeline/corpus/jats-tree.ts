/**
 * A minimal element tree for one JATS article, built from htmlparser2's tokenizer events, or, for text in a
 * strict subset of XML (all real and generated articles seen so far), by our own reader that gives the same tree
 * in a fraction of the time (strict-xml-tree.ts).
 *
 * Why htmlparser2 (10.1.0, MIT) rather than a W3C DOM or a strict SAX parser: it emits text runs in document
 * order, so mixed content such as `(<italic>p</italic> = 0.06)` is never reordered or trimmed (the failure
 * that rules out fast-xml-parser's default mode, research/hedged.md §5.1); it is the fastest of the candidates
 * measured on the 10 reference articles (about 1,500 articles/s tokenising, against about 950 for saxes and
 * far fewer for @xmldom/xmldom); and it is lenient, so one malformed file in a bulk PMC dump still yields
 * text instead of aborting the run. Entity decoding is switched off in the tokenizer and done by
 * `decodeEntities`, which knows the ISO named entities that PMC files use without their DTD.
 *
 * The tree keeps only what text extraction needs: local element names, attributes and child order. Subtrees
 * whose text is never read (reference lists, table cell grids, TeX annotations inside MathML, peer-review
 * sub-articles unless asked for) are kept as empty elements, which keeps memory and time proportional to
 * the text we use.
 */
import { Parser } from 'htmlparser2';
import { decodeEntities } from './jats-entities.ts';
import { appendText, strictTree } from './strict-xml-tree.ts';

/** An element: `name` as written (may carry a prefix such as `mml:`), `local` without the prefix. */
export interface XmlElement {
  name: string;
  local: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

/** Text (already entity-decoded) or an element. */
export type XmlNode = XmlElement | string;

/**
 * How `buildTree` reads: `strict` with our own one-pass reader (strict-xml-tree.ts) where the text is in its
 * subset, else as `whole`; `whole` with htmlparser2 over the whole text (the tests' reference).
 */
export type TreeReader = 'strict' | 'whole';

/**
 * Parses `xml` into a tree under a synthetic `#document` root. Elements whose local name is in `hollow`
 * are kept, with their attributes, but without children. Both readers give the same tree.
 */
export function buildTree(xml: string, hollow: ReadonlySet<string>, reader: TreeReader = 'strict'): XmlElement {
  if (reader === 'strict') {
    const tree = strictTree(xml, hollow);
    if (tree !== null) return tree;
  }
  const root: XmlElement = { name: '#document', local: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let top = root;
  let skipDepth = 0;
  let inCdata = false;

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (skipDepth > 0) {
          skipDepth++;
          return;
        }
        const colon = name.indexOf(':');
        const local = colon === -1 ? name : name.slice(colon + 1);
        // htmlparser2 hands over a fresh object per tag: decoded in place rather than copied.
        for (const key in attribs) {
          const value = attribs[key]!;
          if (value.indexOf('&') !== -1) attribs[key] = decodeEntities(value);
        }
        const el: XmlElement = { name, local, attrs: attribs, children: [] };
        top.children.push(el);
        if (hollow.has(local)) skipDepth = 1;
        stack.push(el);
        top = el;
      },
      onclosetag() {
        if (skipDepth > 1) {
          skipDepth--;
          return;
        }
        skipDepth = 0;
        if (stack.length > 1) stack.pop();
        top = stack[stack.length - 1]!;
      },
      ontext(data) {
        if (skipDepth > 0) return;
        appendText(top, inCdata ? data : decodeEntities(data));
      },
      oncdatastart() {
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
    },
    { xmlMode: true, decodeEntities: false, recognizeSelfClosing: true },
  );
  parser.end(xml);
  return root;
}

/** Child elements of `el` with the given local name, in order. */
export function childrenNamed(el: XmlElement, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) if (typeof c !== 'string' && c.local === local) out.push(c);
  return out;
}

/** The first child element of `el` with the given local name. */
export function childNamed(el: XmlElement, local: string): XmlElement | undefined {
  for (const c of el.children) if (typeof c !== 'string' && c.local === local) return c;
  return undefined;
}

/** The first element with the given local name, depth first (including `el` itself). */
export function findFirst(el: XmlElement, local: string): XmlElement | undefined {
  if (el.local === local) return el;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    const hit = findFirst(c, local);
    if (hit) return hit;
  }
  return undefined;
}

/** True when `el` has a descendant (not itself) matching `test`. */
export function hasDescendant(el: XmlElement, test: (e: XmlElement) => boolean): boolean {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (test(c) || hasDescendant(c, test)) return true;
  }
  return false;
}
