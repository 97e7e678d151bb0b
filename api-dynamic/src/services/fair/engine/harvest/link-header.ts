/**
 * Typed links: the HTTP `Link` header (RFC 8288) and RFC 9264 linksets. Unlike F-UJI, the header is found
 * whatever its case (the Fetcher lower-cases names), commas inside `<…>` or quoted values do not split a link,
 * a space-separated `rel` gives one link per relation, and parameters are never read from the URL's query
 * (fair.md §2.4, §4.4, pangaea-data-publisher/fuji#336).
 */
import type { TypedLink } from '../../../../../../contracts/fair/evidence.ts';
import { absoluteUrl } from './http.ts';

type Source = TypedLink['source'];

/** Split a header value into link-values at top-level commas (not inside `<…>` or quotes). */
function splitLinkValues(header: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inAngle = false;
  let inQuote = false;
  for (let i = 0; i < header.length; i++) {
    const ch = header[i]!;
    if (inQuote) {
      if (ch === '\\' && i + 1 < header.length) {
        current += ch + header[++i];
        continue;
      }
      if (ch === '"') inQuote = false;
    } else if (inAngle) {
      if (ch === '>') inAngle = false;
    } else if (ch === '<') inAngle = true;
    else if (ch === '"') inQuote = true;
    else if (ch === ',') {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part.startsWith('<'));
}

/** Parameters after `<url>`: `; name="value"` or `; name=value`; names lower-cased, first occurrence wins. */
function parseParams(text: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([a-zA-Z0-9!#$&+.^_`|~*-]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/g;
  for (const match of text.matchAll(pattern)) {
    const name = match[1]!.toLowerCase();
    const value = (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1');
    if (!params.has(name)) params.set(name, value);
  }
  return params;
}

/**
 * Parse a `Link` header value (several headers already joined with ", " by the Fetcher).
 * @example parseLinkHeader('<https://doi.org/10.1/x>; rel="cite-as"', 'https://repo.example/x')
 */
export function parseLinkHeader(header: string, baseUrl: string, source: Source = 'header'): TypedLink[] {
  const links: TypedLink[] = [];
  for (const value of splitLinkValues(header)) {
    const close = value.indexOf('>');
    if (close < 0) continue;
    const url = absoluteUrl(value.slice(1, close), baseUrl);
    if (!url) continue;
    const params = parseParams(value.slice(close + 1));
    const anchor = params.get('anchor');
    for (const rel of (params.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
      links.push({
        url,
        rel,
        type: params.get('type')?.toLowerCase() || null,
        profile: params.get('profile') || null,
        anchor: anchor ? absoluteUrl(anchor, baseUrl) : null,
        source,
      });
    }
  }
  return links;
}

interface LinksetTarget {
  href?: unknown;
  type?: unknown;
  profile?: unknown;
}

/** Parse an `application/linkset+json` document (RFC 9264 §4.2): `{ linkset: [{ anchor, <rel>: [{ href, type }] }] }`. */
export function parseLinksetJson(doc: unknown, baseUrl: string): TypedLink[] {
  const links: TypedLink[] = [];
  const sets = (doc as { linkset?: unknown } | null)?.linkset;
  if (!Array.isArray(sets)) return links;
  for (const context of sets as Record<string, unknown>[]) {
    if (!context || typeof context !== 'object') continue;
    const anchor = typeof context.anchor === 'string' ? absoluteUrl(context.anchor, baseUrl) : null;
    for (const [rel, targets] of Object.entries(context)) {
      if (rel === 'anchor' || !Array.isArray(targets)) continue;
      for (const target of targets as LinksetTarget[]) {
        if (typeof target?.href !== 'string') continue;
        const url = absoluteUrl(target.href, baseUrl);
        if (!url) continue;
        links.push({
          url,
          rel: rel.toLowerCase(),
          type: typeof target.type === 'string' ? target.type.toLowerCase() : null,
          profile: typeof target.profile === 'string' ? target.profile : null,
          anchor,
          source: 'linkset',
        });
      }
    }
  }
  return links;
}
