/**
 * Reads one JATS (PMC `.nxml`, publisher `.xml`, optionally gzipped) article into metadata and text blocks.
 *
 * What is read: identifiers, title, journal, year, authors and licence from `front/article-meta`; every
 * `<abstract>` (structured or not, including author summaries and digests); body paragraphs with their
 * section title path; figure and table captions wherever they sit (in a section, nested inside a `<p>`, in
 * `<floats-group>`, or in back matter such as a `display-objects` section); table footnotes (`<table-wrap-foot>`); appendices (`<app>` in `<back>`).
 * What is skipped: reference lists, acknowledgements, footnote groups and other back matter, table cell grids,
 * supplementary material, display formulas, translated abstracts, and the peer-review `<sub-article>`s of
 * eLife-style files unless `includePeerReview` is set (research/hedged.md §4: reference titles and reviewers'
 * paraphrases would otherwise produce excerpts the article does not contain). Text rules: jats-text.ts.
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { childNamed, childrenNamed, findFirst, type XmlElement, buildTree } from './jats-tree.ts';
import { inlineText } from './jats-text.ts';
import { normalisePmcid } from '../../contracts/corpus/article-id.ts';

/** Where a text block comes from. `peer-review` only appears with `includePeerReview`. */
export type BlockSection = 'abstract' | 'body' | 'caption' | 'table-footnote' | 'peer-review';

/** One paragraph-sized run of text, the unit the sentence splitter works on. */
export interface TextBlock {
  section: BlockSection;
  /**
   * Titles of the enclosing sections, outermost first, e.g. ["Results", "Subgroups"]. For abstracts the first
   * entry is the abstract's own title or type when it has one ("Author Summary", "eLife digest", "toc").
   * Captions and footnotes carry the path of the section their figure or table sits in ([] in floats-group and back matter).
   */
  sectionPath: string[];
  /** `sectionPath` joined with " > ", "" at top level: ready for display and grouping. */
  sectionTitle: string;
  /** 0-based position among all blocks of the article, in document order; unique within the article. */
  paragraphIndex: number;
  /** Figure/table label for captions and table footnotes ("Figure 2", "Table 1."), else null. */
  label: string | null;
  /** Normalised text (jats-text.ts): single ASCII spaces, trimmed, never empty. */
  text: string;
}

/** An author as listed in `contrib-group`, for display and citation. */
export interface AuthorName {
  /** Display form: "Surname Given-Names" for a person, the group name for a collaboration. */
  name: string;
  surname: string | null;
  givenNames: string | null;
}

/** The article's licence, so the service can state under which terms an excerpt is quoted. */
export interface Licence {
  /** `xlink:href` of `<license>` or the text of `<ali:license_ref>`, e.g. a Creative Commons URL. */
  url: string | null;
  /** `license-type` attribute, e.g. "open-access". */
  type: string | null;
  /** The licence statement (`<license-p>` text), normalised. */
  text: string | null;
}

/** Identifiers and bibliographic fields the API filters and displays by (year, journal, licence). */
export interface ArticleMeta {
  /** "PMC" + digits, from `article-id` of type `pmc`, `pmcid` or `pmc-uid`, with or without the prefix; else null. */
  pmcid: string | null;
  pmid: string | null;
  /** The article's own DOI from `front/article-meta` (never a sub-article's). */
  doi: string | null;
  title: string | null;
  journal: string | null;
  /** Publication year: the earliest of the epub, ppub and collection dates; else the earliest other dated `pub-date`. */
  year: number | null;
  authors: AuthorName[];
  licence: Licence | null;
  /** `article-type` attribute of `<article>`, e.g. "research-article". */
  articleType: string | null;
}

/** The result of reading one article: what the pipeline stores per article, and the text it matches in. */
export interface ParsedArticle {
  meta: ArticleMeta;
  blocks: TextBlock[];
}

/** Reading options; the defaults suit the corpus (peer review is not the article's own text). */
export interface ParseOptions {
  /** Also read `<sub-article>` bodies (decision letters, author responses) as `peer-review` blocks. */
  includePeerReview?: boolean;
}

/** Thrown when the input has no `<article>` element. */
export class JatsError extends Error {
  override name = 'JatsError';
}

const HOLLOW_DEFAULT: ReadonlySet<string> = new Set(['ref-list', 'table', 'annotation', 'annotation-xml', 'sub-article', 'response']);
const HOLLOW_PEER_REVIEW: ReadonlySet<string> = new Set(['ref-list', 'table', 'annotation', 'annotation-xml']);

/** Elements whose text never becomes a block: back matter, supplementary material, formulas, grids. */
const SKIPPED: ReadonlySet<string> = new Set([
  'title',
  'label',
  'object-id',
  'sec-meta',
  'kwd-group',
  'permissions',
  'ref-list',
  'ack',
  'fn-group',
  'fn',
  'notes',
  'supplementary-material',
  'inline-supplementary-material',
  'media',
  'graphic',
  'disp-formula',
  'disp-formula-group',
  'table',
  'alternatives',
  'preformat',
  'code',
  'sub-article',
  'response',
  'glossary',
  'sig-block',
  'attrib',
  'trans-abstract',
  'related-article',
  'related-object',
  'array',
  'term',
  'front-stub',
  'funding-group',
  'author-notes',
]);

/**
 * Parses one article. A Buffer is decoded from its BOM or XML declaration (UTF-8 by default); gzip bytes are
 * recognised by their magic number and inflated first.
 */
export function parseArticle(input: string | Buffer, options: ParseOptions = {}): ParsedArticle {
  const xml = typeof input === 'string' ? input : decodeXmlBytes(input);
  const root = buildTree(xml, options.includePeerReview ? HOLLOW_PEER_REVIEW : HOLLOW_DEFAULT);
  const article = findFirst(root, 'article');
  if (!article) throw new JatsError('not a JATS article: no <article> element');
  const front = childNamed(article, 'front');
  const meta = front ? childNamed(front, 'article-meta') : undefined;
  const journalMeta = front ? childNamed(front, 'journal-meta') : undefined;

  const blocks = new BlockWriter();
  if (meta) for (const abs of childrenNamed(meta, 'abstract')) readAbstract(abs, blocks);
  const body = childNamed(article, 'body');
  if (body) walkBlocks(body, 'body', [], blocks);
  const back = childNamed(article, 'back');
  if (back)
    for (const child of elements(back)) {
      if (child.local === 'app-group' || child.local === 'app') walkOne(child, 'body', [], blocks);
      else readBackFloats(child, blocks);
    }
  const floats = childNamed(article, 'floats-group');
  if (floats) walkBlocks(floats, 'body', [], blocks);
  if (options.includePeerReview) {
    for (const sub of childrenNamed(article, 'sub-article')) readSubArticle(sub, blocks);
  }

  return {
    meta: {
      ...readIds(meta),
      title: textOf(meta && findPath(meta, ['title-group', 'article-title'])),
      journal: readJournal(journalMeta),
      year: readYear(meta),
      authors: readAuthors(meta),
      licence: readLicence(meta),
      articleType: article.attrs['article-type'] ?? null,
    },
    blocks: blocks.blocks,
  };
}

/** Reads and parses a `.xml`/`.nxml` file, gzipped or not (`.gz` or gzip magic bytes). */
export async function readArticleFile(path: string, options: ParseOptions = {}): Promise<ParsedArticle> {
  return parseArticle(await readFile(path), options);
}

/** Normalises a PMC identifier ("PMC123", "pmc123", "123") to "PMC123"; the one rule is in contracts/. */
export { normalisePmcid };

// ---------------------------------------------------------------- bytes → string

function decodeXmlBytes(bytes: Buffer): string {
  let buf = bytes;
  if (buf.length > 2 && buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf);
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf);
  const head = buf.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  if (declared && declared !== 'utf-8' && declared !== 'utf8') {
    try {
      return new TextDecoder(declared).decode(buf);
    } catch {
      // An unknown label: fall through to UTF-8, which is what PMC and publishers ship.
    }
  }
  return UTF8.decode(buf); // strips a UTF-8 BOM
}

/** One decoder for every article: `decode` without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8');

// ---------------------------------------------------------------- blocks

class BlockWriter {
  readonly blocks: TextBlock[] = [];
  emit(section: BlockSection, path: string[], text: string, label: string | null): void {
    if (!text) return;
    this.blocks.push({
      section,
      sectionPath: path,
      sectionTitle: path.join(' > '),
      paragraphIndex: this.blocks.length,
      label,
      text,
    });
  }
}

function* elements(el: XmlElement): Generator<XmlElement> {
  for (const c of el.children) if (typeof c !== 'string') yield c;
}

function readAbstract(abs: XmlElement, out: BlockWriter): void {
  const title = childNamed(abs, 'title');
  const head = (title && inlineText(title)) || abs.attrs['abstract-type'] || '';
  walkBlocks(abs, 'abstract', head ? [head] : [], out);
}

function readSubArticle(sub: XmlElement, out: BlockWriter): void {
  const stub = childNamed(sub, 'front-stub') ?? childNamed(sub, 'front');
  const title = textOf(stub && findPath(stub, ['title-group', 'article-title'])) ?? sub.attrs['article-type'] ?? 'sub-article';
  const body = childNamed(sub, 'body');
  if (body) walkBlocks(body, 'peer-review', [title], out);
}

/** Section-level walk: paragraphs become blocks, sections extend the path, floats emit captions. */
function walkBlocks(el: XmlElement, kind: BlockSection, path: string[], out: BlockWriter, label: string | null = null): void {
  for (const child of elements(el)) walkOne(child, kind, path, out, label);
}

function walkOne(el: XmlElement, kind: BlockSection, path: string[], out: BlockWriter, label: string | null = null): void {
  const local = el.local;
  if (kind === 'table-footnote' && (local === 'fn' || local === 'fn-group')) {
    walkBlocks(el, kind, path, out, label);
    return;
  }
  switch (local) {
    case 'sec':
    case 'app':
    case 'app-group': {
      const title = childNamed(el, 'title');
      const t = title ? inlineText(title) : '';
      walkBlocks(el, kind, t ? [...path, t] : path, out, label);
      return;
    }
    case 'p':
      paragraph(el, kind, path, label, out);
      return;
    case 'fig':
    case 'table-wrap':
      readFloat(el, path, out);
      return;
    case 'caption':
      readCaption(el, path, null, out);
      return;
  }
  if (SKIPPED.has(local)) return;
  // Lists, boxed text, quotes, definition lists, fig-groups and unknown wrappers: their paragraphs count.
  walkBlocks(el, kind, path, out, label);
}

function paragraph(p: XmlElement, kind: BlockSection, path: string[], label: string | null, out: BlockWriter): void {
  const nested: XmlElement[] = [];
  out.emit(kind, path, inlineText(p, nested), label);
  for (const block of nested) walkOne(block, kind, path, out, label);
}

function readFloat(el: XmlElement, path: string[], out: BlockWriter): void {
  const labelEl = childNamed(el, 'label');
  const label = labelEl ? inlineText(labelEl) || null : null;
  for (const child of elements(el)) {
    if (child.local === 'caption') readCaption(child, path, label, out);
    else if (child.local === 'table-wrap-foot') walkBlocks(child, 'table-footnote', path, out, label);
    else if (child.local === 'fig' || child.local === 'table-wrap') readFloat(child, path, out);
  }
}

/**
 * Back matter other than appendices gives only its figures and tables: older PMC articles keep them in
 * `<sec sec-type="display-objects">`. Reference lists and acknowledgements are never entered.
 */
function readBackFloats(el: XmlElement, out: BlockWriter): void {
  if (el.local === 'fig' || el.local === 'table-wrap') readFloat(el, [], out);
  else if (el.local !== 'ref-list' && el.local !== 'ack' && !el.local.includes('supplementary')) for (const child of elements(el)) readBackFloats(child, out);
}

function readCaption(caption: XmlElement, path: string[], label: string | null, out: BlockWriter): void {
  for (const child of elements(caption)) {
    if (child.local === 'title') out.emit('caption', path, inlineText(child), label);
    else if (child.local === 'p') paragraph(child, 'caption', path, label, out);
  }
}

// ---------------------------------------------------------------- metadata

function textOf(el: XmlElement | undefined): string | null {
  if (!el) return null;
  return inlineText(el) || null;
}

function findPath(el: XmlElement, names: string[]): XmlElement | undefined {
  let cur: XmlElement | undefined = el;
  for (const n of names) {
    if (!cur) return undefined;
    cur = childNamed(cur, n);
  }
  return cur;
}

function readIds(meta: XmlElement | undefined): { pmcid: string | null; pmid: string | null; doi: string | null } {
  let pmcid: string | null = null;
  let pmid: string | null = null;
  let doi: string | null = null;
  if (meta) {
    for (const id of childrenNamed(meta, 'article-id')) {
      const type = (id.attrs['pub-id-type'] ?? '').toLowerCase();
      const value = inlineText(id);
      if (!value) continue;
      if ((type === 'pmc' || type === 'pmcid' || type === 'pmc-uid') && !pmcid) pmcid = normalisePmcid(value);
      else if (type === 'pmid' && !pmid && /^\d+$/.test(value)) pmid = value;
      else if (type === 'doi' && !doi) doi = value;
    }
  }
  return { pmcid, pmid, doi };
}

function readJournal(journalMeta: XmlElement | undefined): string | null {
  if (!journalMeta) return null;
  const title = findPath(journalMeta, ['journal-title-group', 'journal-title']) ?? childNamed(journalMeta, 'journal-title');
  if (title) return textOf(title);
  const ids = childrenNamed(journalMeta, 'journal-id');
  const nlm = ids.find((i) => i.attrs['journal-id-type'] === 'nlm-ta') ?? ids[0];
  return textOf(nlm);
}

/**
 * The publication year: the earliest year among the dates that say when the article was published (epub,
 * ppub, collection, `date-type="pub"`), since an article first published online in December and in print in
 * January belongs to the year readers first saw it (the corpus's trends are by year). Only when no such date has a
 * year is any other dated `pub-date` used, again the earliest.
 */
function readYear(meta: XmlElement | undefined): number | null {
  if (!meta) return null;
  const published = (d: XmlElement) => {
    const type = d.attrs['pub-type'] ?? d.attrs['date-type'] ?? '';
    return ['epub', 'ppub', 'collection', 'epub-ppub', 'pub', 'publication'].includes(type);
  };
  let best: { published: boolean; year: number } | null = null;
  for (const d of childrenNamed(meta, 'pub-date')) {
    const y = childNamed(d, 'year');
    const year = y ? Number.parseInt(inlineText(y), 10) : Number.NaN;
    if (!Number.isInteger(year) || year < 1000 || year > 9999) continue;
    const p = published(d);
    if (!best || (p && !best.published) || (p === best.published && year < best.year)) best = { published: p, year };
  }
  return best?.year ?? null;
}

function readAuthors(meta: XmlElement | undefined): AuthorName[] {
  const out: AuthorName[] = [];
  if (!meta) return out;
  for (const group of childrenNamed(meta, 'contrib-group')) {
    for (const contrib of childrenNamed(group, 'contrib')) {
      const type = contrib.attrs['contrib-type'];
      if (type && type !== 'author') continue;
      const name = childNamed(contrib, 'name') ?? findFirst(contrib, 'name');
      if (name) {
        const surname = textOf(childNamed(name, 'surname'));
        const givenNames = textOf(childNamed(name, 'given-names'));
        const display = [surname, givenNames].filter(Boolean).join(' ');
        if (display) out.push({ name: display, surname, givenNames });
        continue;
      }
      const collab = childNamed(contrib, 'collab') ?? childNamed(contrib, 'string-name');
      const text = textOf(collab);
      if (text) out.push({ name: text, surname: null, givenNames: null });
    }
  }
  return out;
}

function readLicence(meta: XmlElement | undefined): Licence | null {
  const permissions = meta && childNamed(meta, 'permissions');
  const licence = permissions && childNamed(permissions, 'license');
  if (!licence) return null;
  const ref = childNamed(licence, 'license_ref');
  const url = licence.attrs['xlink:href'] ?? textOf(ref) ?? null;
  const paragraphs = childrenNamed(licence, 'license-p')
    .map((p) => inlineText(p))
    .filter(Boolean);
  return {
    url,
    type: licence.attrs['license-type'] ?? null,
    text: paragraphs.length ? paragraphs.join(' ') : null,
  };
}
