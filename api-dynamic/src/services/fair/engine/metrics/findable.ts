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

/** Metadata PIDs: the input when it is one, and PID-syntax identifiers found in metadata. */
function metadataPids(facts: Facts): string[] {
  const { identifier, metadata } = facts.evidence;
  const found = metadata.object_identifier.filter((id) => tryParseIdentifier(id)?.persistent);
  return identifier.persistent ? [identifier.normalized, ...found] : found;
}

const uniqueIdentifier: TestEvaluator = ({ evidence: { identifier } }) =>
  pass(`the identifier is a ${identifier.scheme === 'url' ? 'URL' : identifier.scheme} (${identifier.persistent ? 'persistent' : 'unique, not persistent'})`);

const dataIdentifier: TestEvaluator = ({ evidence }) => {
  const unique = evidence.dataLinks.filter((link) => tryParseIdentifier(link.url) !== null);
  return unique.length
    ? pass(`data link ${listed(unique.map((l) => l.url), 1)} has a unique identifier scheme`)
    : fail(evidence.dataLinks.length ? 'no data link has a URL or PID syntax' : 'the metadata gives no data (content) link');
};

const pidSyntax: TestEvaluator = (facts) => {
  const pids = metadataPids(facts);
  return pids.length ? pass(`persistent identifier ${listed(pids, 1)}`) : fail(`the identifier is a ${facts.evidence.identifier.scheme}, not a PID, and the metadata names no PID`);
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
  return pids.length ? pass(`data link ${listed(pids.map((l) => l.url), 1)} is a PID`) : fail('no data link is a persistent identifier');
};

const dataPidRegistered: TestEvaluator = ({ evidence }) => {
  const ok = evidence.dataLinks.filter((link) => link.persistent && link.status !== null && link.status < 400);
  return ok.length ? pass(`data PID ${listed(ok.map((l) => l.url), 1)} resolves`) : fail('no data link is a PID that resolves');
};

const citationCore: TestEvaluator = (facts) => {
  const absent = missing(facts, CITATION_ELEMENTS);
  return absent.length ? fail(`citation metadata lacks ${absent.join(', ')}`) : pass(`creator, title, identifier, publication date, publisher and type are given`);
};

const descriptiveCore: TestEvaluator = (facts) => {
  const absent = missing(facts, DESCRIPTIVE_ELEMENTS);
  return absent.length ? fail(`descriptive metadata lacks ${absent.join(', ')}`) : pass('the citation elements plus summary and keywords are given');
};

const webMethods: TestEvaluator = ({ evidence }) => {
  const web = evidence.sources.filter((s) => s.method !== 'registry_rest' && s.method !== 'code_host');
  return web.length ? pass(`metadata offered by ${listed([...new Set(web.map((s) => s.method))])}`) : fail('no metadata is offered by the landing page, content negotiation or typed links');
};

const contentInfo: TestEvaluator = ({ evidence: { metadata } }) => {
  const described = metadata.object_content_identifier.filter((link) => link.type || link.size);
  if (described.length) return pass(`content link ${listed(described.map((l) => l.url), 1)} has a type or size`);
  return metadata.object_size || metadata.object_format.length ? pass('the object has a size or format') : fail('no file name, size or type of the data is given');
};

const contentIdentifier: TestEvaluator = ({ evidence: { metadata } }) => {
  const links = metadata.object_content_identifier;
  return links.length ? pass(`metadata links to the data: ${listed(links.map((l) => l.url))}`) : fail('the metadata gives no PID or URL of the downloadable data');
};

const searchable: TestEvaluator = ({ evidence }) => {
  const found = evidence.sources.filter((s) => SEARCHABLE_METHODS.has(s.method) && s.standard !== null && SEARCHABLE_STANDARDS.has(s.standard));
  return found.length
    ? pass(`search engines can read ${listed([...new Set(found.map((s) => `${s.standard} (${s.method})`))])}`)
    : fail('the landing page embeds no schema.org, Dublin Core or DCAT metadata (JSON-LD, meta tags, microdata or RDFa)');
};

const inRegistry: TestEvaluator = ({ evidence }) => {
  const registry = evidence.sources.find((s) => s.standard === 'datacite' && (s.method === 'registry_rest' || s.method === 'content_negotiation'));
  return registry ? pass(`the DOI registry (DataCite) holds the metadata (${registry.url})`) : fail('the metadata was not found in a research data registry (DataCite)');
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
    return identifier.scheme === 'uuid' || identifier.scheme === 'hash' ? fail(`a ${identifier.scheme} is unique but not resolvable`) : pass(`the identifier resolves (${identifier.scheme})`);
  },
  'FsF-F1-01D-2': ({ evidence: { identifier } }) =>
    identifier.scheme === 'uuid' || identifier.scheme === 'hash' ? pass(`the identifier is a ${identifier.scheme}`) : fail('the identifier is not a UUID or hash (test 1 covers resolvable identifiers)'),
  'FsF-F1-02D-1': pidSyntax,
  'FsF-F1-02D-2': pidRegistered,
  'FsF-F2-01M-1': webMethods,
  'FsF-F3-01M-1': contentInfo,
  'FsF-F4-01M-2': inRegistry,
};
