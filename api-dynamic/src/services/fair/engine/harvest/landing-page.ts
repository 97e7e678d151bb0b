/**
 * One pass over the landing page HTML (htmlparser2, streamed in slices with a yield between them so a 5 MB
 * page cannot stall the event loop): embedded JSON-LD, `<meta>` tags, `<link rel>` typed links, the schema
 * links Dublin Core pages declare, and enough counting to spot a JavaScript-only page (fair.md §2.2, §2.4).
 */
import { Parser } from 'htmlparser2';
import type { TypedLink } from '../../../../../../contracts/fair/evidence.ts';
import { absoluteUrl, yieldToLoop } from './http.ts';

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
  /** Elements carrying RDFa attributes (`property`, `typeof`, `vocab`) outside `<meta>`/`<link>`. */
  rdfaAttributes: number;
  scripts: number;
  /** Visible characters outside script and style. */
  textLength: number;
}

/** Parse slices of this many characters, yielding to the event loop between them. */
const SLICE = 64 * 1024;

/** Parse a landing page. `baseUrl` resolves relative `<link href>`s (a `<base href>` overrides it). */
export async function parseLandingPage(html: string, baseUrl: string): Promise<LandingPage> {
  const page: LandingPage = {
    jsonLd: [],
    metas: [],
    links: [],
    schemaLinks: new Map(),
    microdataTypes: [],
    rdfaAttributes: 0,
    scripts: 0,
    textLength: 0,
  };
  let base = baseUrl;
  let hidden = 0; // depth inside script/style/noscript
  let jsonLd: string | null = null;

  const parser = new Parser(
    {
      onopentag(name, attrs) {
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
        if (jsonLd !== null) jsonLd += text;
        else if (hidden === 0) page.textLength += text.replace(/\s+/g, '').length;
      },
      onclosetag(name) {
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
  return page;
}

/** F-UJI's JavaScript-page heuristic: scripts and at most 150 characters of visible text. */
export function looksJavascriptGenerated(page: LandingPage): boolean {
  return page.scripts > 0 && page.textLength <= 150;
}
