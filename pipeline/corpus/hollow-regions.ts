/**
 * Where a hollow element's content (jats-tree.ts: reference lists, tables, …) can be skipped in one step by the
 * strict reader (strict-xml-tree.ts) instead of a tag at a time (in PMC-style files the reference list
 * alone is about half of the bytes). One native regular expression checks the whole content.
 *
 * The skip is only made where it gives the tree htmlparser2 gives (the element, its attributes, no children):
 * the element's content must be in a strict subset of XML in which htmlparser2 (xmlMode, entities not decoded,
 * self-closing tags recognised) ends the element at the first close tag of its name: tags with XML names and
 * quoted attributes only (no comment, CDATA, processing instruction, stray `<`), no nested element of the same
 * name, and no close tag of an element open around it (which htmlparser2 would end the hollow element at).
 * Anything else is read a tag at a time. The check is tested against htmlparser2's tree on the real reference
 * articles, generated ones and mutated ones (test/pipeline/corpus/hollow-regions.test.ts).
 */

/** An open or self-closing tag in the strict subset, from `<` to `>`; group 1 the name, group 2 `/` when self-closing. */
const OPEN_TAG = /<([A-Za-z_][-A-Za-z0-9_.:]*)(?:[ \n\t\f\r]+[A-Za-z_][-A-Za-z0-9_.:]*=(?:"[^"]*"|'[^']*'))*[ \n\t\f\r]*(\/?)>/y;
/** A close tag in the strict subset: `</name>`, spaces allowed before the `>`. */
const CLOSE_TAG = /<\/[A-Za-z_][-A-Za-z0-9_.:]*[ \n\t\f\r]*>/y;
/**
 * Content in the strict subset: text without `<`, a `<` the tokenizer reads as text (before a space or `>`),
 * open, self-closing and close tags. Matched as far as it goes (no anchor at the end: nothing to backtrack into),
 * at most 65,536 tokens at a time: V8 keeps a backtrack entry per repetition, and ~2 million (a 9 MB table)
 * overflow its stack. Nothing follows the repetition, so resuming where a run
 * stopped reads the same tokens as one run would.
 */
const CONTENT =
  /(?:[^<]+|<(?=[ \n\t\f\r>])|<[A-Za-z_][-A-Za-z0-9_.:]*(?:[ \n\t\f\r]+[A-Za-z_][-A-Za-z0-9_.:]*=(?:"[^"]*"|'[^']*'))*[ \n\t\f\r]*\/?>|<\/[A-Za-z_][-A-Za-z0-9_.:]*[ \n\t\f\r]*>){0,65536}/y;

/** Whether all of `content` is in the subset: CONTENT's runs, each resumed where the last stopped. */
function plainContent(content: string): boolean {
  let at = 0;
  while (at < content.length) {
    CONTENT.lastIndex = at;
    CONTENT.test(content);
    if (CONTENT.lastIndex === at) return false;
    at = CONTENT.lastIndex;
  }
  return true;
}

/** htmlparser2's end of a tag name: space, \n, \t, \f, \r, `/`, `>`. */
function endsName(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d || c === 0x2f || c === 0x3e;
}

/**
 * True when `content` has `<name`, or `</outer` for one of the names in `open`, followed by the end of a tag
 * name, anywhere (attribute values included). One pass over its `<`s rather than one search per name: the
 * searches would be a sixth of the time spent parsing a generated article.
 */
function hasTag(content: string, name: string, open: readonly string[]): boolean {
  for (let i = content.indexOf('<'); i >= 0; i = content.indexOf('<', i + 1)) {
    if (content.charCodeAt(i + 1) === 0x2f) {
      for (const outer of open) if (content.startsWith(outer, i + 2) && endsName(content.charCodeAt(i + 2 + outer.length))) return true;
    } else if (content.startsWith(name, i + 1) && endsName(content.charCodeAt(i + 1 + name.length))) return true;
  }
  return false;
}

/**
 * For a hollow element whose open tag starts at `lt` (a `<` that opens a tag), with the elements `open` around it
 * (any order): the index after its close tag, when its content can be skipped in one step (see the file comment);
 * else null.
 */
export function hollowRegionEnd(xml: string, lt: number, open: readonly string[]): number | null {
  OPEN_TAG.lastIndex = lt;
  const m = OPEN_TAG.exec(xml);
  if (!m || m[2]) return null; // outside the subset, or self-closing: nothing to cut
  const name = m[1]!;
  const from = OPEN_TAG.lastIndex;
  // The first close tag of the name.
  const closing = `</${name}`;
  let close = xml.indexOf(closing, from);
  while (close >= 0 && !endsName(xml.charCodeAt(close + closing.length))) close = xml.indexOf(closing, close + 1);
  if (close < 0) return null;
  CLOSE_TAG.lastIndex = close;
  if (!CLOSE_TAG.test(xml)) return null;
  const end = CLOSE_TAG.lastIndex;
  const content = xml.slice(from, close);
  if (!plainContent(content)) return null;
  if (hasTag(content, name, open)) return null;
  return end;
}
