/**
 * F tests: identifiers (F1), core metadata (F2), data identifiers in metadata (F3), searchable metadata (F4).
 * Keyed by test id; both metric versions share a test when its rule is the same.
 */
import { tryParseIdentifier } from '../identifier.ts';
import type { Facts } from './facts.ts';
import { fail, listed, pass, type TestEvaluator } from './types.ts';

/** Core citation elements (F2-01M-2) and the two descriptive extras (F2-01M-3), as F-UJI names them. */
export const CITATION_ELEMENTS = ['creator', 'title', 'object_identifier', 'publication_date', 'publisher', 'object_type'] as const;
export const DESCRIPTIVE_ELEMENTS = [...CITATION_ELEMENTS, 'summary', 'keywords'] as const;

function missing(facts: Facts, elements: readonly string[]): string[] {
  const metadata = facts.evidence.metadata as Record<string, unknown>;
  return elements.filter((key) => {
    const value = metadata[key];
    return value === null || value === undefined || (Array.isArray(value) && value.length === 0) || value === '';
  });
}

/** Offering methods search engines read (F4-01M-1) and the standards they understand there. */
const SEARCHABLE_METHODS = new Set(['json_in_html', 'meta_tag', 'microdata', 'rdfa']);
const SEARCHABLE_STANDARDS = new Set(['schemaorg', 'dublin-core', 'dcat-data-catalog-vocabulary']);

/**
 * Metadata PIDs F-UJI keeps for F1-02 (its `pid_collector` after the "-1" filter): the input when it is a PID
 * (verified even unresolved), and PIDs found in metadata only when they resolve into the landing page's site.
 * A PID-syntax identifier in metadata that was not checked or resolves elsewhere does not count.
 */
function metadataPids(facts: Facts): string[] {
  const { identifier, pidChecks } = facts.evidence;
  const verified = pidChecks.filter((check) => check.verified).map((check) => check.pid);
  return identifier.persistent ? [identifier.normalized, ...verified] : verified;
}

/** Metadata keys of F-UJI's reference schema (Mapper.REFERENCE_METADATA_LIST) that we merge. */
const REFERENCE_KEYS = [
  'object_identifier',
  'creator',
  'title',
  'publisher',
  'publication_date',
  'summary',
  'keywords',
  'object_content_identifier',
  'access_level',
  'access_free',
  'related_resources',
  'provenance',
  'measured_variable',
  'contributor',
  'license',
  'object_type',
  'modified_date',
  'created_date',
  'right_holder',
  'object_size',
  'object_format',
  'language',
] as const;

const uniqueIdentifier: TestEvaluator = ({ evidence: { identifier } }) =>
  pass(`the identifier is a ${identifier.scheme === 'url' ? 'URL' : identifier.scheme} (${identifier.persistent ? 'persistent' : 'unique, not persistent'})`);

const dataIdentifier: TestEvaluator = ({ evidence }) => {
  const unique = evidence.dataLinks.filter((link) => tryParseIdentifier(link.url) !== null);
  return unique.length
    ? pass(
        `data link ${listed(
          unique.map((l) => l.url),
          1,
        )} has a unique identifier scheme`,
      )
    : fail(evidence.dataLinks.length ? 'no data link has a URL or PID syntax' : 'the metadata gives no data (content) link');
};

const pidSyntax: TestEvaluator = (facts) => {
  const pids = metadataPids(facts);
  if (pids.length) return pass(`persistent identifier ${listed(pids, 1)}`);
  const unverified = facts.evidence.metadata.object_identifier.filter((id) => tryParseIdentifier(id)?.persistent);
  return fail(
    unverified.length
      ? `the metadata names ${listed(unverified, 1)}, but it does not resolve to this landing page, so it is not taken as this object's PID (as in F-UJI)`
      : `the identifier is a ${facts.evidence.identifier.scheme}, not a PID, and the metadata names no PID`,
  );
};

const pidRegistered: TestEvaluator = ({ evidence }) => {
  const { identifier, resolution, pidChecks } = evidence;
  if (identifier.persistent && resolution.pidRedirected) return pass(`the ${identifier.scheme} resolver redirected to ${resolution.landingUrl}`);
  const verified = pidChecks.find((check) => check.verified);
  if (verified) return pass(`${verified.pid} resolves through its resolver to this site (${verified.resolvedUrl})`);
  if (identifier.persistent) return fail(`the ${identifier.scheme} resolver answered without a redirect, so the PID is not shown to be registered`);
  return fail(pidChecks.length ? 'the PIDs in the metadata do not resolve to this landing page' : 'no PID to check against a resolver');
};

const dataPidSyntax: TestEvaluator = ({ evidence }) => {
  const pids = evidence.dataLinks.filter((link) => link.persistent);
  return pids.length
    ? pass(
        `data link ${listed(
          pids.map((l) => l.url),
          1,
        )} is a PID`,
      )
    : fail('no data link is a persistent identifier');
};

const dataPidRegistered: TestEvaluator = ({ evidence }) => {
  const ok = evidence.dataLinks.filter((link) => link.persistent && link.status !== null && link.status < 400);
  return ok.length
    ? pass(
        `data PID ${listed(
          ok.map((l) => l.url),
          1,
        )} resolves`,
      )
    : fail('no data link is a PID that resolves');
};

const citationCore: TestEvaluator = (facts) => {
  const absent = missing(facts, CITATION_ELEMENTS);
  return absent.length
    ? fail(`citation metadata lacks ${absent.join(', ')}`)
    : pass(`creator, title, identifier, publication date, publisher and type are given`);
};

const descriptiveCore: TestEvaluator = (facts) => {
  const absent = missing(facts, DESCRIPTIVE_ELEMENTS);
  return absent.length ? fail(`descriptive metadata lacks ${absent.join(', ')}`) : pass('the citation elements plus summary and keywords are given');
};

/** v0.5 F2-01M-1 (F-UJI testMetadataCommonMethodsAvailable): any reference-schema element in the merged metadata, from any source. */
const webMethods: TestEvaluator = (facts) => {
  const found = REFERENCE_KEYS.filter((key) => missing(facts, [key]).length === 0);
  return found.length
    ? pass(`metadata elements found: ${listed([...found], 5)}`)
    : fail('no metadata element (title, creator, identifier …) was found in any source');
};

/** v0.5 F3-01M-1 (F-UJI testDataSizeTypeNameAvailable): a content link with a type, a size or a URL, i.e. any content link. */
const contentInfo: TestEvaluator = ({ evidence: { metadata } }) => {
  const links = metadata.object_content_identifier;
  return links.length
    ? pass(
        `content link ${listed(
          links.map((l) => l.url),
          1,
        )}${links[0]!.type ? ` (${links[0]!.type})` : ''}`,
      )
    : fail('the metadata names no data file (no content link with a URL, size or type)');
};

const contentIdentifier: TestEvaluator = ({ evidence: { metadata } }) => {
  const links = metadata.object_content_identifier;
  return links.length
    ? pass(`metadata links to the data: ${listed(links.map((l) => l.url))}`)
    : fail('the metadata gives no PID or URL of the downloadable data');
};

const searchable: TestEvaluator = ({ evidence }) => {
  // F-UJI skips records whose metadata is empty (or only {object_type: Other}): a source must have supplied fields.
  const found = evidence.sources.filter(
    (s) => SEARCHABLE_METHODS.has(s.method) && s.standard !== null && SEARCHABLE_STANDARDS.has(s.standard) && s.fields.length > 0,
  );
  return found.length
    ? pass(`search engines can read ${listed([...new Set(found.map((s) => `${s.standard} (${s.method})`))])}`)
    : fail('the landing page embeds no schema.org, Dublin Core or DCAT metadata (JSON-LD, meta tags, microdata or RDFa)');
};

const inRegistry: TestEvaluator = ({ evidence }) => {
  // F-UJI asks DataCite's REST API for the DOI; a DOI resolver's content negotiation does not count
  const registry = evidence.sources.find((s) => s.standard === 'datacite' && s.method === 'registry_rest');
  return registry
    ? pass(`the DOI registry (DataCite) holds the metadata (${registry.url})`)
    : fail('the metadata was not found in a research data registry (DataCite)');
};

/** F evaluators by test id. */
export const FINDABLE: Readonly<Record<string, TestEvaluator>> = {
  'FsF-F1-01MD-1': uniqueIdentifier,
  'FsF-F1-01MD-2': dataIdentifier,
  'FsF-F1-02MD-1': pidSyntax,
  'FsF-F1-02MD-2': pidRegistered,
  'FsF-F1-02MD-4': dataPidSyntax,
  'FsF-F1-02MD-5': dataPidRegistered,
  'FsF-F2-01M-2': citationCore,
  'FsF-F2-01M-3': descriptiveCore,
  'FsF-F3-01M-2': contentIdentifier,
  'FsF-F4-01M-1': searchable,
  // v0.5
  'FsF-F1-01D-1': (facts) => {
    const { identifier } = facts.evidence;
    return identifier.scheme === 'uuid' || identifier.scheme === 'hash'
      ? fail(`a ${identifier.scheme} is unique but not resolvable`)
      : pass(`the identifier resolves (${identifier.scheme})`);
  },
  'FsF-F1-01D-2': ({ evidence: { identifier } }) =>
    identifier.scheme === 'uuid' || identifier.scheme === 'hash'
      ? pass(`the identifier is a ${identifier.scheme}`)
      : fail('the identifier is not a UUID or hash (test 1 covers resolvable identifiers)'),
  'FsF-F1-02D-1': pidSyntax,
  'FsF-F1-02D-2': pidRegistered,
  'FsF-F2-01M-1': webMethods,
  'FsF-F3-01M-1': contentInfo,
  'FsF-F4-01M-2': inRegistry,
};
