/**
 * The element tree of an article in one pass of our own, for text in a strict subset of XML; null for anything
 * else, which jats-tree.ts then gives to htmlparser2 as before. It builds exactly the tree that `buildTree` makes
 * from htmlparser2's events (xmlMode, entities not decoded by the tokenizer, self-closing tags recognised): the
 * same elements, attributes, text runs and hollow elements kept empty (htmlparser2's tokenizer reads
 * a character at a time through a state machine and its Parser keeps its own stack; together they would be the
 * largest part of the corpus step's CPU).
 *
 * The subset, beyond which the answer is null:
 * - tag and attribute names of XML name characters (`[A-Za-z_][-A-Za-z0-9_.:]*`), attribute values quoted;
 * - every close tag closes the innermost open element (htmlparser2 would also close elements left open inside
 *   it, or ignore a close tag of an element not open: both are left to it);
 * - nothing cut off by the end of the text (a tag, comment, CDATA section or declaration left open);
 * - no attribute named `__proto__`.
 * Within it the rules follow htmlparser2 10.1.0's tokenizer and parser (both read for this, not copied):
 * - text runs end at every `<`, even one that starts no tag (`<` before a space or `>` is text, in a run of
 *   its own), and each run's entities are decoded on their own;
 * - `<?` and `<!` declarations end at the first `>` after the character that follows `<!` (or `<!-`), comments
 *   at the first `-->` from the first dash of `<!--` (so `<!-->` is a whole comment), CDATA sections at the
 *   first `]]>` after `<![CDATA[` (their text is kept as it is, and an empty one still adds an empty text run);
 * - a repeated attribute keeps its first value;
 * - spaces are allowed around `=`, after the last attribute, and before a close tag's `>`.
 * Tested against htmlparser2's tree on the real reference articles, generated ones and mutations of both
 * (test/pipeline/corpus/hollow-regions.test.ts).
 */
import { hollowRegionEnd } from './hollow-regions.ts';
import { decodeEntities } from './jats-entities.ts';
import type { XmlElement } from './jats-tree.ts';

/** How many trees this process built here and how many it left to htmlparser2 (for tests and benchmarks). */
export const strictTrees = { built: 0, declined: 0 };
/** Hollow elements skipped in one step (hollow-regions.ts) so far, and their characters (for tests). */
export const hollowSkips = { elements: 0, chars: 0 };

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const DASH = 0x2d;
const QUESTION = 0x3f;
const EQ = 0x3d;
const DQ = 0x22;
const SQ = 0x27;

/** XML-space as htmlparser2's tokenizer has it: space, \n, \t, \f, \r. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/** A name's first character: ASCII letter or `_`. */
function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

/** A name's other characters: also digits, `-`, `.` and `:`. */
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x3a;
}

/** The end of the name starting at `i` (a name start character there), or -1 when none starts there. */
function nameEnd(xml: string, i: number): number {
  if (i >= xml.length || !isNameStart(xml.charCodeAt(i))) return -1;
  let j = i + 1;
  while (j < xml.length && isNameChar(xml.charCodeAt(j))) j++;
  return j;
}

function skipSpace(xml: string, i: number): number {
  while (i < xml.length && isSpace(xml.charCodeAt(i))) i++;
  return i;
}

/**
 * Appends a text run (entities decoded) to `parent`, for both readers: merged into a preceding text child, U+FFFF
 * replaced (it is not an XML character; jats-text.ts uses it as a marker, so a malformed file cannot inject it).
 */
export function appendText(parent: XmlElement, text: string): void {
  if (text.indexOf('\uFFFF') !== -1) text = text.replaceAll('\uFFFF', '\uFFFD');
  const children = parent.children;
  const last = children.length - 1;
  if (last >= 0 && typeof children[last] === 'string') children[last] += text;
  else children.push(text);
}

/**
 * The tree of `xml` under a `#document` root, hollow elements (by local name) kept without children; null when
 * the text leaves the subset (see the file comment).
 */
export function strictTree(xml: string, hollow: ReadonlySet<string>): XmlElement | null {
  const skipped = { elements: 0, chars: 0 };
  let tree: XmlElement | null;
  try {
    tree = build(xml, hollow, skipped);
  } catch (err) {
    // A regular expression's backtrack stack overflowing (a tag with millions of attributes): htmlparser2 reads it.
    if (!(err instanceof RangeError)) throw err;
    tree = null;
  }
  if (tree === null) strictTrees.declined++;
  else {
    strictTrees.built++;
    hollowSkips.elements += skipped.elements;
    hollowSkips.chars += skipped.chars;
  }
  return tree;
}

function build(xml: string, hollow: ReadonlySet<string>, skipped: { elements: number; chars: number }): XmlElement | null {
  const root: XmlElement = { name: '#document', local: '#document', attrs: {}, children: [] };
  /** Open elements' names, innermost last (also inside hollow elements, where no element is made). */
  const names: string[] = [];
  /** The elements made for them; shorter than `names` inside a hollow element. */
  const stack: XmlElement[] = [root];
  /** `names.length` when the hollow element being skipped was opened; 0 when not skipping. */
  let hollowDepth = 0;
  const n = xml.length;
  let i = 0;
  while (i < n) {
    const c = i + 1 < n ? xml.charCodeAt(i + 1) : -1;
    if (xml.charCodeAt(i) !== LT || c === -1 || isSpace(c) || c === GT) {
      // A text run up to the next `<` or the end; a `<` that opens no tag starts a run of its own.
      let lt = xml.indexOf('<', i + 1);
      if (lt < 0) lt = n;
      if (hollowDepth === 0) appendText(stack[stack.length - 1]!, decodeEntities(xml.slice(i, lt)));
      i = lt;
      continue;
    }
    if (c === QUESTION) {
      // A processing instruction: to the first `>`.
      const gt = xml.indexOf('>', i + 2);
      if (gt < 0) return null;
      i = gt + 1;
      continue;
    }
    if (c === BANG) {
      // htmlparser2 consumes the character after `<!` (and after `<!-`) before it looks for a declaration's `>`.
      const d = i + 2 < n ? xml.charCodeAt(i + 2) : -1;
      if (d === -1) return null;
      if (d === DASH && i + 3 < n && xml.charCodeAt(i + 3) === DASH) {
        // A comment ends at the first `-->`, which may use the dashes of `<!--` (`<!-->` is a whole comment).
        const end = xml.indexOf('-->', i + 2);
        if (end < 0) return null;
        i = end + 3;
      } else if (xml.startsWith('[CDATA[', i + 2)) {
        const end = xml.indexOf(']]>', i + 9);
        if (end < 0) return null;
        if (hollowDepth === 0) appendText(stack[stack.length - 1]!, xml.slice(i + 9, end));
        i = end + 3;
      } else {
        // A declaration (`<!DOCTYPE …>`): to the first `>` after what was consumed.
        const gt = xml.indexOf('>', d === DASH ? i + 4 : i + 3);
        if (gt < 0) return null;
        i = gt + 1;
      }
      continue;
    }
    if (c === SLASH) {
      // A close tag: the innermost open element's name, spaces, `>`.
      const end = nameEnd(xml, i + 2);
      if (end < 0) return null;
      const gt = skipSpace(xml, end);
      if (gt >= n || xml.charCodeAt(gt) !== GT) return null;
      const open = names.length;
      if (open === 0) return null;
      const name = names[open - 1]!;
      if (end - (i + 2) !== name.length || !xml.startsWith(name, i + 2)) return null;
      names.pop();
      if (hollowDepth === 0) stack.pop();
      else if (open === hollowDepth) {
        hollowDepth = 0;
        stack.pop();
      }
      i = gt + 1;
      continue;
    }
    // An open or self-closing tag.
    const start = i;
    const end = nameEnd(xml, i + 1);
    if (end < 0) return null;
    const name = xml.slice(i + 1, end);
    const attrs: Record<string, string> = {};
    let j = end;
    let selfClosing = false;
    for (;;) {
      const k = skipSpace(xml, j);
      if (k >= n) return null;
      const ch = xml.charCodeAt(k);
      if (ch === GT) {
        j = k + 1;
        break;
      }
      if (ch === SLASH) {
        if (k + 1 >= n || xml.charCodeAt(k + 1) !== GT) return null;
        selfClosing = true;
        j = k + 2;
        break;
      }
      // An attribute: a name right after a space (or after the previous quoted value), `=`, a quoted value.
      const attrEnd = nameEnd(xml, k);
      if (attrEnd < 0) return null;
      let v = skipSpace(xml, attrEnd);
      if (v >= n || xml.charCodeAt(v) !== EQ) return null;
      v = skipSpace(xml, v + 1);
      const quote = v < n ? xml.charCodeAt(v) : -1;
      if (quote !== DQ && quote !== SQ) return null;
      const close = xml.indexOf(quote === DQ ? '"' : "'", v + 1);
      if (close < 0) return null;
      if (hollowDepth === 0) {
        const key = xml.slice(k, attrEnd);
        if (key === '__proto__') return null;
        if (!Object.hasOwn(attrs, key)) {
          const value = xml.slice(v + 1, close);
          attrs[key] = value.indexOf('&') === -1 ? value : decodeEntities(value);
        }
      }
      j = close + 1;
    }
    i = j;
    if (selfClosing && hollowDepth > 0) continue;
    const colon = name.indexOf(':');
    const local = colon === -1 ? name : name.slice(colon + 1);
    if (hollowDepth === 0) {
      const el: XmlElement = { name, local, attrs, children: [] };
      stack[stack.length - 1]!.children.push(el);
      if (selfClosing) continue;
      stack.push(el);
    }
    if (hollow.has(local)) {
      // Its content in one step where hollow-regions.ts shows that htmlparser2 ends it at its first close tag
      // (one native regular expression over it, not a tag at a time); else a tag at a time, making nothing.
      const skipTo = hollowRegionEnd(xml, start, names);
      if (skipTo !== null) {
        skipped.elements++;
        skipped.chars += skipTo - start;
        if (hollowDepth === 0) stack.pop();
        i = skipTo;
        continue;
      }
      names.push(name);
      if (hollowDepth === 0) hollowDepth = names.length;
      continue;
    }
    names.push(name);
  }
  return root;
}
