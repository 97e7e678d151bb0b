/**
 * Identifier recognition (research/fair.md §2.1): normalise what a user typed, name its scheme, say whether
 * it is persistent, and give the URL to resolve. Pure: no network, the resolver bases come from options.
 *
 * Rules in the order they are tried: DOI (bare `10.x/…`, `doi:`, `urn:doi:`, doi.org and dx.doi.org URLs),
 * Handle (`hdl:`, hdl.handle.net, bare `NN.NNN/…`), ARK (`ark:/`, `ark:`, `ark://`, any URL with `/ark:`),
 * URN (bare, or inside a resolver URL such as nbn-resolving.org), w3id, PURL, identifiers.org URLs and a few
 * compact ids, UUID, hash, then any http(s) URL.
 */
import type { IdentifierEvidence } from '../../../../../contracts/fair/evidence.ts';
import { ResolutionFailedError } from './errors.ts';
import type { Upstreams } from './options.ts';

/** Schemes F-UJI counts as persistent (VALID_PIDS); identifiers.org prefixes are persistent too. */
export const PERSISTENT_SCHEMES: ReadonlySet<string> = new Set([
  'ark',
  'arxiv',
  'bioproject',
  'biosample',
  'doi',
  'ensembl',
  'genome',
  'gnd',
  'handle',
  'lsid',
  'pmid',
  'pmcid',
  'purl',
  'refseq',
  'sra',
  'uniprot',
  'urn',
  'identifiers.org',
  'w3id',
]);

/**
 * Compact identifiers (`prefix:accession`) we resolve through identifiers.org without its 1.2 MB registry:
 * a short list of widely used prefixes. Full identifiers.org URLs work for any prefix.
 */
const COMPACT_PREFIXES: ReadonlySet<string> = new Set([
  'arrayexpress',
  'bioproject',
  'biosample',
  'chebi',
  'ena.embl',
  'ensembl',
  'geo',
  'go',
  'ncbigene',
  'ncbitaxon',
  'pdb',
  'pmc',
  'pubmed',
  'refseq',
  'taxonomy',
  'uniprot',
]);

type Resolvers = Pick<Upstreams, 'doi' | 'handle' | 'ark' | 'nbn' | 'identifiersOrg'>;

const DEFAULT_RESOLVERS: Resolvers = {
  doi: 'https://doi.org',
  handle: 'https://hdl.handle.net',
  ark: 'https://n2t.net',
  nbn: 'https://nbn-resolving.org',
  identifiersOrg: 'https://identifiers.org',
};

const DOI_BODY = String.raw`(10\.[0-9]+(?:\.[0-9]+)*/\S+)`;
const DOI_PREFIXED = new RegExp(String.raw`^(?:doi:\s*|urn:doi:|info:doi/|https?://(?:dx\.|www\.)?doi\.org/)${DOI_BODY}$`, 'i');
const DOI_BARE = new RegExp(`^${DOI_BODY}$`);
const HANDLE_BODY = String.raw`([0-9]+(?:\.[0-9]+)*/\S+)`;
const HANDLE_PREFIXED = new RegExp(String.raw`^(?:hdl:\s*|https?://(?:www\.)?hdl\.handle\.net/)${HANDLE_BODY}$`, 'i');
const HANDLE_BARE = new RegExp(`^${HANDLE_BODY}$`);
const ARK_BARE = /^ark:\/*([0-9a-z]{4,}\/\S+)$/i;
const ARK_IN_URL = /\/ark:\/*([0-9a-z]{4,}\/[^?#\s]+)/i;
const URN = /^urn:[a-z0-9][a-z0-9-]{0,31}:\S+$/i;
const URN_IN_URL = /(urn:[a-z0-9][a-z0-9-]{0,31}:[^&#\s]+)/i;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Hex digests: MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512 (and BLAKE2 of those lengths). */
const HASH = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128})$/i;
const COMPACT = /^([a-z][a-z0-9._]*):(\S+)$/i;

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function httpUrl(value: string): URL | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value);
    return url.hostname ? url : null;
  } catch {
    return null;
  }
}

function result(
  input: string,
  normalized: string,
  schemes: string[],
  url: string | null,
  persistent = PERSISTENT_SCHEMES.has(schemes[0]!),
): IdentifierEvidence {
  return { input, normalized, scheme: schemes[0]!, schemes, persistent, url };
}

/** The DOI inside a DOI string or DOI URL (`10.1234/abc`), or null. */
export function extractDoi(value: string): string | null {
  // Decoded first: resolvers and registries write the prefix/suffix slash as %2F (data.crosscite.org does).
  const text = safeDecode(value.trim());
  const match = DOI_PREFIXED.exec(text) ?? DOI_BARE.exec(text);
  return match ? match[1]! : null;
}

/**
 * Recognise an identifier, or return null. `resolvers` are the base URLs used to build the URL to fetch.
 * @example tryParseIdentifier('doi:10.5281/zenodo.8347772')?.normalized // 'https://doi.org/10.5281/zenodo.8347772'
 */
export function tryParseIdentifier(raw: string, resolvers: Resolvers = DEFAULT_RESOLVERS): IdentifierEvidence | null {
  const input = raw.trim();
  if (input === '') return null;
  const value = input.replace(/^(https?:\/\/)purl\.archive\.org\//i, '$1purl.org/');
  const asUrl = httpUrl(value);
  const viaUrl = (schemes: string[]) => (asUrl ? [...schemes, 'url'] : schemes);

  const doi = extractDoi(value);
  if (doi) return result(input, `https://doi.org/${doi}`, viaUrl(['doi', 'handle']), `${resolvers.doi}/${doi}`);

  const handle = HANDLE_PREFIXED.exec(value) ?? HANDLE_BARE.exec(value);
  if (handle) {
    const body = safeDecode(handle[1]!);
    return result(input, `https://hdl.handle.net/${body}`, viaUrl(['handle']), `${resolvers.handle}/${body}`);
  }

  const arkBare = ARK_BARE.exec(value);
  if (arkBare) return result(input, `ark:/${arkBare[1]}`, ['ark'], `${resolvers.ark}/ark:/${arkBare[1]}`);
  const arkInUrl = asUrl ? ARK_IN_URL.exec(asUrl.pathname) : null;
  if (asUrl && arkInUrl) return result(input, `ark:/${arkInUrl[1]}`, ['ark', 'url'], asUrl.href);

  if (URN.test(value)) {
    const urn = value;
    if (/^urn:nbn:/i.test(urn)) return result(input, urn, ['urn'], `${resolvers.nbn}/${urn}`);
    return result(input, urn, ['urn'], null);
  }
  const urnInUrl = asUrl ? URN_IN_URL.exec(safeDecode(asUrl.pathname + asUrl.search)) : null;
  if (asUrl && urnInUrl) return result(input, urnInUrl[1]!, ['urn', 'url'], asUrl.href);

  if (asUrl) {
    const host = asUrl.hostname.toLowerCase().replace(/^www\./, '');
    const hasPath = asUrl.pathname.length > 1;
    if (host === 'w3id.org' && hasPath) return result(input, asUrl.href, ['w3id', 'url'], asUrl.href);
    if (host.startsWith('purl.') && hasPath) return result(input, asUrl.href, ['purl', 'url'], asUrl.href);
    if (host === 'identifiers.org' && hasPath) {
      const compact = safeDecode(asUrl.pathname.slice(1)).replace(/^([^/:]+)\/(.+)$/, '$1:$2');
      const match = COMPACT.exec(compact);
      if (match) {
        const prefix = match[1]!.toLowerCase();
        const normalized = `https://identifiers.org/${prefix}:${match[2]}`;
        return result(input, normalized, [prefix, 'identifiers.org', 'url'], `${resolvers.identifiersOrg}/${prefix}:${match[2]}`, true);
      }
    }
    return result(input, asUrl.href, ['url'], asUrl.href);
  }

  if (UUID.test(value)) return result(input, value.toLowerCase().replace(/^urn:uuid:/, ''), ['uuid'], null);
  if (HASH.test(value)) return result(input, value.toLowerCase(), ['hash'], null);

  const compact = COMPACT.exec(value);
  if (compact && COMPACT_PREFIXES.has(compact[1]!.toLowerCase())) {
    const prefix = compact[1]!.toLowerCase();
    return result(
      input,
      `https://identifiers.org/${prefix}:${compact[2]}`,
      [prefix, 'identifiers.org'],
      `${resolvers.identifiersOrg}/${prefix}:${compact[2]}`,
      true,
    );
  }
  return null;
}

/**
 * Recognise an identifier that is about to be resolved; throws ResolutionFailedError (422) when it is not an
 * identifier at all, or names no web resolver (a UUID, a hash, a URN outside urn:nbn).
 */
export function parseIdentifier(raw: string, resolvers: Resolvers = DEFAULT_RESOLVERS): IdentifierEvidence & { url: string } {
  const parsed = tryParseIdentifier(raw, resolvers);
  if (!parsed) {
    const detail = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim())
      ? 'only http and https URLs can be fetched'
      : 'it is not a DOI, Handle, ARK, PURL, URN, w3id, identifiers.org identifier or http(s) URL';
    throw new ResolutionFailedError(raw, 'unparseable', detail);
  }
  if (parsed.url === null) {
    throw new ResolutionFailedError(raw, 'no_resolver', `a ${parsed.scheme} identifier has no web resolver to fetch`);
  }
  return { ...parsed, url: parsed.url };
}

/**
 * The URL to fetch for a link found in metadata: DOI and Handle URLs go through the configured resolvers
 * (so a test's mock answers them, and production uses the one resolver the options name), others unchanged.
 */
export function fetchableUrl(url: string, resolvers: Resolvers = DEFAULT_RESOLVERS): string {
  const doi = /^https?:\/\/(?:dx\.|www\.)?doi\.org\//i.test(url) ? extractDoi(url) : null;
  if (doi) return `${resolvers.doi}/${doi}`;
  const handle = HANDLE_PREFIXED.exec(url);
  if (handle && /^https?:/i.test(url)) return `${resolvers.handle}/${handle[1]}`;
  return url;
}
