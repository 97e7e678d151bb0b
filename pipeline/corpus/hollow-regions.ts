/**
 * Cuts the content of hollow elements (jats-tree.ts: reference lists, tables, …) out of an article's XML before
 * it is parsed, so htmlparser2 never tokenises what the tree would throw away (issue 21: in PMC-style files the
 * reference list alone is about half of the bytes). `<ref-list a="1">…</ref-list>` becomes `<ref-list a="1"/>`:
 * the tree built from the cut text is the same as the one built from the whole text (the element, its
 * attributes, no children), which is all text extraction reads.
 *
 * The cut is only made where it is exactly equivalent, and that is decided by a scan that mirrors htmlparser2's
 * tokenizer and Parser (xmlMode, entities not decoded, self-closing tags recognised) on a strict subset of XML:
 * tag and attribute names of XML name characters, every attribute quoted with `=` and no spaces around it,
 * comments, CDATA, processing instructions and declarations, and a close tag inside a hollow element only for an
 * element opened inside it. Anything outside that subset before the last hollow element (an unquoted
 * attribute, `<!-->`, a close tag of an element opened outside, an element never closed) gives up: the whole
 * text is parsed as it is, as before. So a well-formed file is cut, and a malformed one costs what it did.
 * Tested against the uncut parse on the real reference articles, generated ones and mutated ones
 * (test/pipeline/corpus/hollow-regions.test.ts).
 */

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;

/** The tokenizer's whitespace: space, \n, \t, \f, \r. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

/** An open or self-closing tag in the strict subset, from `<` to `>`. */
const OPEN_TAG = /<[A-Za-z_][-A-Za-z0-9_.:]*(?:[ \n\t\f\r]+[A-Za-z_][-A-Za-z0-9_.:]*=(?:"[^"]*"|'[^']*'))*[ \n\t\f\r]*\/?>/y;
/** A close tag in the strict subset: `</name>`, spaces allowed before the `>`. */
const CLOSE_TAG = /<\/[A-Za-z_][-A-Za-z0-9_.:]*[ \n\t\f\r]*>/y;

/** The index after the tag at `lt` matched by `re`, or -1. */
function tagEnd(re: RegExp, xml: string, lt: number): number {
  re.lastIndex = lt;
  return re.test(xml) ? re.lastIndex : -1;
}

/** Where the name starting at `at` of a tag already matched ends (the tag's names contain no space, `/` or `>`). */
function nameEnd(xml: string, at: number): number {
  let i = at;
  for (;;) {
    const c = xml.charCodeAt(i);
    if (c === GT || c === SLASH || isSpace(c)) return i;
    i++;
  }
}

/**
 * `xml` with the content of every element whose local name is in `hollow` removed (the element written
 * self-closing), or `xml` itself when there is nothing to cut or the text leaves the strict subset before the
 * last hollow element (see the file comment).
 */
export function cutHollowRegions(xml: string, hollow: ReadonlySet<string>): string {
  const candidate = candidateRegex(hollow);
  /** The next place a hollow element may open (`<name` or `<prefix:name`): scanning stops after the last. */
  const nextCandidate = (from: number) => {
    candidate.lastIndex = from;
    return candidate.test(xml) ? xml.lastIndexOf('<', candidate.lastIndex - 1) : -1;
  };
  let next = nextCandidate(0);
  if (next < 0) return xml;
  const pieces: string[] = [];
  let copied = 0; // xml[0, copied) is in `pieces`
  let at = 0;
  while (next >= 0) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) break;
    if (lt > next) {
      // The candidate was inside a comment, CDATA or an attribute value: not an element.
      next = nextCandidate(at);
      continue;
    }
    const c = xml.charCodeAt(lt + 1);
    if (Number.isNaN(c)) return xml;
    if (c === BANG) {
      at = skipBang(xml, lt);
      if (at < 0) return xml;
    } else if (c === QUESTION) {
      // A processing instruction ends at the first `>` (the tokenizer does not look for `?>`).
      const gt = xml.indexOf('>', lt + 2);
      if (gt < 0) return xml;
      at = gt + 1;
    } else if (c === SLASH) {
      at = tagEnd(CLOSE_TAG, xml, lt);
      if (at < 0) return xml;
    } else if (isSpace(c) || c === GT) {
      at = lt + 1; // not a tag: `<` is text
    } else {
      at = tagEnd(OPEN_TAG, xml, lt);
      if (at < 0) return xml;
      if (lt !== next) continue;
      next = nextCandidate(at);
      const e = nameEnd(xml, lt + 1);
      const name = xml.slice(lt + 1, e);
      if (xml.charCodeAt(at - 2) === SLASH || !hollow.has(localName(name))) continue;
      const end = elementEnd(xml, at, lt + 1, e);
      if (end < 0) return xml;
      // The open tag as written, made self-closing; its content and close tag dropped.
      pieces.push(xml.slice(copied, at - 1), '/>');
      copied = end;
      at = end;
      if (next >= 0 && next < at) next = nextCandidate(at);
    }
  }
  if (pieces.length === 0) return xml;
  pieces.push(xml.slice(copied));
  return pieces.join('');
}

const candidates = new Map<ReadonlySet<string>, RegExp>();
/** `<` + optional prefix + one of the hollow names + the end of a tag name. */
function candidateRegex(hollow: ReadonlySet<string>): RegExp {
  let re = candidates.get(hollow);
  if (!re) {
    const names = [...hollow].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    re = new RegExp(`<(?:[A-Za-z_][-A-Za-z0-9_.]*:)?(?:${names})(?=[ \\n\\t\\f\\r/>])`, 'g');
    candidates.set(hollow, re);
  }
  return re;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** `<!…` at `lt`: a comment, CDATA section or declaration; the index after it, or -1 when it is not in the subset. */
function skipBang(xml: string, lt: number): number {
  if (xml.startsWith('<!--', lt)) {
    // The tokenizer also ends a comment at `<!-->` or `<!--->`: left to it.
    const first = xml.charCodeAt(lt + 4);
    if (first === 0x2d || first === GT) return -1;
    const end = xml.indexOf('-->', lt + 4);
    return end < 0 ? -1 : end + 3;
  }
  if (xml.startsWith('<![CDATA[', lt)) {
    const end = xml.indexOf(']]>', lt + 9);
    return end < 0 ? -1 : end + 3;
  }
  // A declaration (`<!DOCTYPE …>`) ends at the first `>`.
  const c = xml.charCodeAt(lt + 2);
  if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) return -1;
  const gt = xml.indexOf('>', lt + 3);
  return gt < 0 ? -1 : gt + 1;
}

/** Start and end of the names of the elements open inside the hollow element being scanned (reused). */
const openStarts: number[] = [];
const openEnds: number[] = [];

/** True when xml[a, a + n) equals xml[b, b + n). */
function sameName(xml: string, a: number, b: number, n: number): boolean {
  for (let i = 0; i < n; i++) if (xml.charCodeAt(a + i) !== xml.charCodeAt(b + i)) return false;
  return true;
}

/**
 * The index after the close tag that ends the element whose name is xml[nameStart, nameEnd) and whose open
 * tag ends at `from`, as htmlparser2's Parser closes it: its stack of elements opened inside, a close tag
 * ending the innermost open element of its name (and those opened after it). -1 when the content leaves the
 * subset, closes an element opened outside (the Parser would end the hollow element there) or never closes it.
 */
function elementEnd(xml: string, from: number, nameStart: number, nameStop: number): number {
  openStarts[0] = nameStart;
  openEnds[0] = nameStop;
  let depth = 1;
  let at = from;
  for (;;) {
    const lt = xml.indexOf('<', at);
    if (lt < 0) return -1;
    const c = xml.charCodeAt(lt + 1);
    if (Number.isNaN(c)) return -1;
    if (c === BANG) {
      at = skipBang(xml, lt);
      if (at < 0) return -1;
    } else if (c === QUESTION) {
      const gt = xml.indexOf('>', lt + 2);
      if (gt < 0) return -1;
      at = gt + 1;
    } else if (c === SLASH) {
      at = tagEnd(CLOSE_TAG, xml, lt);
      if (at < 0) return -1;
      const n = nameEnd(xml, lt + 2) - lt - 2;
      let k = depth - 1;
      while (k >= 0 && !(openEnds[k]! - openStarts[k]! === n && sameName(xml, openStarts[k]!, lt + 2, n))) k--;
      if (k < 0) return -1;
      if (k === 0) return at;
      depth = k;
    } else if (isSpace(c) || c === GT) {
      at = lt + 1;
    } else {
      at = tagEnd(OPEN_TAG, xml, lt);
      if (at < 0) return -1;
      if (xml.charCodeAt(at - 2) !== SLASH) {
        openStarts[depth] = lt + 1;
        openEnds[depth] = nameEnd(xml, lt + 1);
        depth++;
      }
    }
  }
}
