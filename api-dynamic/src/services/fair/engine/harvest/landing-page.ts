/**
 * One pass over the landing page HTML (htmlparser2, streamed in 16 KB slices with a yield between them so a 5 MB
 * page cannot stall the event loop): embedded JSON-LD, `<meta>` tags, `<link rel>` typed links, the schema
 * links Dublin Core pages declare, and enough counting to spot a JavaScript-only page (fair.md §2.2, §2.4).
 */
import { Parser } from 'htmlparser2';
import type { Quad } from 'n3';
import type { TypedLink } from '../../../../../../contracts/fair/evidence.ts';
import { absoluteUrl, yieldToLoop } from './http.ts';
import { rdfaCollector } from './rdfa.ts';

/** `<link rel>` values collected as typed links (fair.md §2.4). */
export const HTML_TYPED_LINK_RELS: ReadonlySet<string> = new Set([
  'meta',
  'metadata',
  'collection',
  'author',
  'describes',
  'item',
  'type',
  'search',
  'alternate',
  'describedby',
  'cite-as',
  'linkset',
  'license',
  'api-catalog',
]);

export interface MetaTag {
  /** `name` or `property`, lower-cased (`dc.title`, `citation_author`, `og:title`). */
  key: string;
  content: string;
  scheme: string | null;
}

export interface LandingPage {
  /** Text of every `<script type="application/ld+json">`. */
  jsonLd: string[];
  metas: MetaTag[];
  links: TypedLink[];
  /** `<link rel="schema.DC" href>` declarations: prefix (lower-case, e.g. `dc`) → namespace. */
  schemaLinks: Map<string, string>;
  /** `itemtype` values of microdata items. */
  microdataTypes: string[];
  /**
   * Top-level microdata items as JSON-LD-like objects (`@type` = the itemtype's local name, one key per itemprop,
   * nested items as objects), so the schema.org mapping reads them as it reads JSON-LD (F-UJI: extruct microdata).
   */
  microdata: Record<string, unknown>[];
  /** Elements carrying RDFa attributes (`property`, `typeof`, `vocab`) outside `<meta>`/`<link>`. */
  rdfaAttributes: number;
  /** RDFa triples of the page and the prefixes it declares (harvest/rdfa.ts). */
  rdfa: { quads: Quad[]; prefixes: string[] };
  /** Why RDFa processing stopped early, if it did. */
  rdfaError: string | null;
  scripts: number;
  /** Visible characters outside script and style. */
  textLength: number;
}

type MicrodataItem = Record<string, unknown>;
interface MicrodataFrame {
  item: MicrodataItem | null;
  prop: { names: string[]; owner: MicrodataItem; text: string } | null;
}

/** Elements whose itemprop value is a URL attribute, and which attribute (HTML microdata "property value"). */
const URL_VALUE: Record<string, string> = {
  a: 'href',
  area: 'href',
  link: 'href',
  img: 'src',
  audio: 'src',
  video: 'src',
  source: 'src',
  embed: 'src',
  iframe: 'src',
  track: 'src',
  object: 'data',
};

function addProperty(owner: MicrodataItem, names: readonly string[], value: unknown): void {
  if (value === '') return;
  for (const name of names) {
    const known = owner[name];
    owner[name] = known === undefined ? value : Array.isArray(known) ? [...(known as unknown[]), value] : [known, value];
  }
}

/** The microdata frame of an opening element: a new item for `itemscope`, a value or text collector for `itemprop`. */
function openMicrodata(frames: readonly MicrodataFrame[], topLevel: MicrodataItem[], name: string, attrs: Record<string, string>): MicrodataFrame {
  const owner = [...frames].reverse().find((f) => f.item)?.item ?? null;
  const names = attrs.itemprop ? attrs.itemprop.split(/\s+/).filter(Boolean) : [];
  let item: MicrodataItem | null = null;
  if (attrs.itemscope !== undefined) {
    item = {};
    const types = (attrs.itemtype ?? '').split(/\s+/).filter(Boolean);
    if (types.length) item['@type'] = types.map((t) => t.replace(/^https?:\/\/schema\.org\//i, ''));
    if (types.some((t) => /^https?:\/\/schema\.org\//i.test(t))) item['@context'] = 'https://schema.org/';
    if (names.length && owner) addProperty(owner, names, item);
    else topLevel.push(item);
    return { item, prop: null };
  }
  if (!names.length || !owner) return { item: null, prop: null };
  const urlAttr = URL_VALUE[name];
  const value =
    name === 'meta'
      ? attrs.content
      : urlAttr
        ? attrs[urlAttr]
        : name === 'time'
          ? (attrs.datetime ?? undefined)
          : name === 'data' || name === 'meter'
            ? attrs.value
            : undefined;
  if (value !== undefined) {
    addProperty(owner, names, value.trim());
    return { item: null, prop: null };
  }
  return { item: null, prop: { names, owner, text: '' } };
}

/** Parse slices of this many characters, yielding to the event loop between them. */
const SLICE = 16 * 1024;

/**
 * Parse a landing page. `baseUrl` resolves relative `<link href>`s (a `<base href>` overrides it); `contentType`
 * chooses the RDFa rules (HTML or XHTML).
 */
export async function parseLandingPage(html: string, baseUrl: string, contentType = 'text/html'): Promise<LandingPage> {
  const page: LandingPage = {
    jsonLd: [],
    metas: [],
    links: [],
    schemaLinks: new Map(),
    microdataTypes: [],
    microdata: [],
    rdfaAttributes: 0,
    rdfa: { quads: [], prefixes: [] },
    rdfaError: null,
    scripts: 0,
    textLength: 0,
  };
  let base = baseUrl;
  let hidden = 0; // depth inside script/style/noscript
  let jsonLd: string | null = null;
  // One frame per open element: the microdata item it starts and the itemprop whose text it collects.
  const frames: MicrodataFrame[] = [];
  const rdfa = rdfaCollector(baseUrl, contentType);
  page.rdfa = { quads: rdfa.quads, prefixes: rdfa.prefixes };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        frames.push(openMicrodata(frames, page.microdata, name, attrs));
        rdfa.open(name, attrs);
        if (name === 'base' && attrs.href) base = absoluteUrl(attrs.href, baseUrl) ?? base;
        if (name === 'script' || name === 'style' || name === 'noscript') {
          hidden++;
          if (name === 'script') {
            page.scripts++;
            if ((attrs.type ?? '').trim().toLowerCase() === 'application/ld+json') jsonLd = '';
          }
        }
        if (name === 'meta') {
          const key = (attrs.name ?? attrs.property ?? '').trim().toLowerCase();
          if (key && attrs.content !== undefined) page.metas.push({ key, content: attrs.content.trim(), scheme: attrs.scheme ?? null });
          return;
        }
        if (name === 'link') {
          const rels = (attrs.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
          const href = attrs.href ? absoluteUrl(attrs.href, base) : null;
          if (!href) return;
          for (const rel of rels) {
            if (rel.startsWith('schema.')) page.schemaLinks.set(rel.slice('schema.'.length), href);
          }
          // "alternate meta" is one relation in F-UJI's list; other multi-word rels become one link each.
          const joined = rels.join(' ');
          const named = joined === 'alternate meta' ? ['alternate meta'] : rels;
          for (const rel of named) {
            if (!HTML_TYPED_LINK_RELS.has(rel) && rel !== 'alternate meta') continue;
            page.links.push({ url: href, rel, type: attrs.type?.trim().toLowerCase() || null, profile: attrs.profile ?? null, anchor: null, source: 'html' });
          }
          return;
        }
        if (attrs.itemtype) page.microdataTypes.push(...attrs.itemtype.split(/\s+/).filter(Boolean));
        if (attrs.property !== undefined || attrs.typeof !== undefined || attrs.vocab !== undefined) page.rdfaAttributes++;
      },
      ontext(text) {
        for (const frame of frames) if (frame.prop) frame.prop.text += text;
        rdfa.text(text);
        if (jsonLd !== null) jsonLd += text;
        else if (hidden === 0) page.textLength += text.replace(/\s+/g, '').length;
      },
      onclosetag(name) {
        rdfa.close();
        const frame = frames.pop();
        if (frame?.prop) addProperty(frame.prop.owner, frame.prop.names, frame.prop.text.replace(/\s+/g, ' ').trim());
        if (name === 'script' || name === 'style' || name === 'noscript') {
          hidden = Math.max(0, hidden - 1);
          if (name === 'script' && jsonLd !== null) {
            page.jsonLd.push(jsonLd);
            jsonLd = null;
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  for (let offset = 0; offset < html.length; offset += SLICE) {
    parser.write(html.slice(offset, offset + SLICE));
    if (offset + SLICE < html.length) await yieldToLoop();
  }
  parser.end();
  rdfa.end();
  page.rdfaError = rdfa.error;
  return page;
}

/** F-UJI's JavaScript-page heuristic: scripts and at most 150 characters of visible text. */
export function looksJavascriptGenerated(page: LandingPage): boolean {
  return page.scripts > 0 && page.textLength <= 150;
}
