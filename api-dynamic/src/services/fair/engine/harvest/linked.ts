/**
 * Metadata reached through typed links (fair.md §2.3 step 5, §2.4): linksets are expanded first, then every
 * FAIR Signposting `describedby` document of a type we can read is fetched; only when there is none do the
 * HTML `<link rel="alternate|meta|metadata">` metadata documents stand in (as F-UJI does).
 */
import type { TypedLink } from '../../../../../../contracts/fair/evidence.ts';
import { isJsonLdType, isRdfType, isReadableMetadataType, isXmlType, readDocument } from './documents.ts';
import { ACCEPT, bodyJson, bodyText, fetchLogged, isOk, mediaType, typedXmlAccept, type HarvestContext } from './http.ts';
import { parseLinkHeader, parseLinksetJson } from './link-header.ts';
import type { Harvested } from './record.ts';

/** At most this many linksets are fetched. */
const MAX_LINKSETS = 3;

const TYPED_METADATA_RELS = new Set(['meta', 'alternate meta', 'metadata', 'alternate']);

const withoutFragment = (url: string) => url.replace(/#.*$/, '');

/** Fetch linksets named by `rel="linkset"` / `api-catalog` and return their links about this object. */
export async function expandLinksets(ctx: HarvestContext, links: readonly TypedLink[], about: readonly string[]): Promise<TypedLink[]> {
  const targets = [...new Set(links.filter((l) => l.rel === 'linkset' || l.rel === 'api-catalog').map((l) => l.url))].slice(0, MAX_LINKSETS);
  const anchors = new Set(about.map(withoutFragment));
  const found = await Promise.all(
    targets.map(async (url) => {
      const response = await fetchLogged(ctx, 'linkset', { url, accept: ACCEPT.linkset });
      if (!isOk(response)) return [];
      const type = mediaType(response.headers['content-type']);
      const parsed =
        type === 'application/linkset'
          ? parseLinkHeader(bodyText(response).replace(/\r?\n/g, ' '), response.url, 'linkset')
          : parseLinksetJson(bodyJson(ctx, response, `linkset ${url}`), response.url);
      return parsed.filter((link) => link.anchor === null || anchors.has(withoutFragment(link.anchor)));
    }),
  );
  return found.flat();
}

function acceptFor(type: string | null): string {
  const t = mediaType(type);
  if (!t || isJsonLdType(t) || isRdfType(t)) return ACCEPT.rdf;
  if (isXmlType(t)) return typedXmlAccept(t);
  return t;
}

/** Fetch the metadata documents the typed links point to, in link order. */
export async function linkedDocuments(ctx: HarvestContext, links: readonly TypedLink[], landingUrl: string): Promise<Harvested[]> {
  const readable = (link: TypedLink) => link.type === null || isReadableMetadataType(link.type);
  let chosen = links.filter((l) => l.rel === 'describedby' && readable(l));
  let method: 'signposting' | 'typed_link' = 'signposting';
  if (chosen.length === 0) {
    chosen = links.filter((l) => TYPED_METADATA_RELS.has(l.rel) && l.type !== null && isReadableMetadataType(l.type));
    method = 'typed_link';
  }
  const seen = new Set<string>([withoutFragment(landingUrl)]);
  const unique = chosen.filter((link) => {
    const key = withoutFragment(link.url);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length > ctx.options.maxLinkedDocuments) {
    ctx.warnings.push(`${unique.length} linked metadata documents; only the first ${ctx.options.maxLinkedDocuments} were read`);
  }
  const results = await Promise.all(
    unique.slice(0, ctx.options.maxLinkedDocuments).map(async (link) => {
      const response = await fetchLogged(ctx, `${method}:${link.rel}`, { url: link.url, accept: acceptFor(link.type) });
      return isOk(response) ? readDocument(ctx, response, method, `${link.rel} ${link.url}`) : null;
    }),
  );
  return results.filter((r): r is Harvested => r !== null);
}
