/**
 * Data (content) links (fair.md §2.8): the links metadata gives for the data itself, probed with a HEAD
 * request (a 1-byte ranged GET when HEAD is refused) to learn status, type and size without downloading.
 * At most `dataLinksPerType` links per claimed type and `maxDataLinks` in all are probed; the rest are listed
 * unprobed. When metadata names no content link, Signposting `item` links (Link header or `<link rel="item">`)
 * stand in, as in F-UJI; F-UJI takes no other typed link as data (not `<link rel="alternate">`, Zenodo's zip).
 */
import type { ContentLink, DataLink, Metadata, TypedLink } from '../../../../../../contracts/fair/evidence.ts';
import type { FetchResponse } from '../../fetcher.ts';
import { fetchableUrl, tryParseIdentifier } from '../identifier.ts';
import { ACCEPT, fetchLogged, mediaType, type HarvestContext } from './http.ts';

/** Content links implied by typed links, for records whose metadata names none. */
export function fallbackContentLinks(metadata: Metadata, links: readonly TypedLink[]): ContentLink[] {
  if (metadata.object_content_identifier.length > 0) return [];
  const seen = new Set<string>();
  return links
    .filter((l) => l.rel === 'item' && !seen.has(l.url) && seen.add(l.url))
    .map((l) => ({ url: l.url, type: l.type, size: null, source: 'signposting:item' }));
}

/** The file size the headers tell: Content-Range's total, or a HEAD's Content-Length. */
function headerLength(response: FetchResponse, method: 'HEAD' | 'GET'): number | null {
  const range = /\/(\d+)\s*$/.exec(response.headers['content-range'] ?? '');
  const value = range ? range[1] : method === 'HEAD' ? response.headers['content-length'] : undefined;
  const n = value === undefined ? NaN : Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

async function probe(
  ctx: HarvestContext,
  link: ContentLink,
  base: Omit<DataLink, 'probed' | 'status' | 'headerType' | 'headerLength' | 'error'>,
): Promise<DataLink> {
  const url = fetchableUrl(link.url, ctx.options.upstreams);
  let error: string | null = null;
  const remember = (e: { reason: string }) => (error = e.reason);
  let response = await fetchLogged(ctx, 'data-link:head', { url, method: 'HEAD', accept: ACCEPT.any }, remember);
  let method: 'HEAD' | 'GET' = 'HEAD';
  if (response && [403, 405, 501].includes(response.status)) {
    error = null;
    method = 'GET';
    response = await fetchLogged(ctx, 'data-link:range', { url, accept: ACCEPT.any, headers: { Range: 'bytes=0-0' }, maxBytes: 1024 }, remember);
  }
  if (!response) return { ...base, probed: true, status: null, headerType: null, headerLength: null, error };
  return {
    ...base,
    probed: true,
    status: response.status,
    headerType: mediaType(response.headers['content-type']) || null,
    headerLength: headerLength(response, method),
    error: response.status >= 400 ? `http_${response.status}` : null,
  };
}

/** Probe the content links (capped) and describe every one of them. */
export async function probeDataLinks(ctx: HarvestContext, links: readonly ContentLink[]): Promise<DataLink[]> {
  const perType = new Map<string, number>();
  let probed = 0;
  return Promise.all(
    links.map((link) => {
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link.url)?.[1]?.toLowerCase() ?? '';
      const base = {
        url: link.url,
        claimedType: link.type,
        claimedSize: link.size,
        scheme,
        persistent: tryParseIdentifier(link.url)?.persistent ?? false,
      };
      const typeKey = link.type ? mediaType(link.type) : '';
      const count = perType.get(typeKey) ?? 0;
      const fetchable = scheme === 'http' || scheme === 'https';
      if (!fetchable || count >= ctx.options.dataLinksPerType || probed >= ctx.options.maxDataLinks) {
        return Promise.resolve<DataLink>({
          ...base,
          probed: false,
          status: null,
          headerType: null,
          headerLength: null,
          error: fetchable ? 'not probed (cap)' : null,
        });
      }
      perType.set(typeKey, count + 1);
      probed++;
      return probe(ctx, link, base);
    }),
  );
}
