/**
 * Facts derived once from the evidence and shared by the metric tests: licences recognised against SPDX,
 * access values with licence-like values moved out (fair.md §2.9, §2.13), namespaces sorted into default /
 * semantic / standard, and a format verdict per data file (§2.10).
 */
import type { DataLink, Evidence } from '../../../../../../contracts/fair/evidence.ts';
import { accessTerm, type AccessTerm } from '../vocab/access-rights.ts';
import { judgeMime, mimeFromUrl, type FormatVerdict } from '../vocab/formats.ts';
import { detectLicence, looksLikeLicence, type LicenceMatch } from '../vocab/licences.ts';
import { isDefaultNamespace, metadataStandard, semanticVocabulary, type DetectedStandard, type StandardSource } from '../vocab/namespaces.ts';

export interface FileFormatFact {
  url: string;
  /** Where the MIME type came from: the metadata's claim, the HTTP header, or the URL's extension. */
  from: 'claimed' | 'header' | 'extension' | null;
  verdict: FormatVerdict | null;
}

export interface Facts {
  evidence: Evidence;
  /** Licence values (metadata licences that are not access terms, plus licence-like access values) with their SPDX match. */
  licences: LicenceMatch[];
  /** Access values that are not licences. */
  accessValues: string[];
  /** Standard terms among the access values. */
  accessTerms: AccessTerm[];
  /** Namespaces that are not in the default list. */
  specificNamespaces: string[];
  /** Non-default namespaces of registered semantic resources, with the resource's name. */
  semanticNamespaces: { namespace: string; vocabulary: string }[];
  /** Metadata standards revealed by namespaces (source ns), the re3data record and the OAI-PMH formats. */
  standards: DetectedStandard[];
  fileFormats: FileFormatFact[];
}

/** A MIME type as F-UJI accepts it from metadata or a header: it must start with lower-case letters and a slash. */
const MIME_SHAPE = /^[a-z]+\//;
const OCTET_STREAM = new Set(['application/octet-stream', 'binary/octet-stream']);

/**
 * F-UJI's choice of one MIME type per data file (fair_evaluator_file_format.py setFileFormatDict): the claimed type
 * when it looks like a MIME type, else the header's; when that is missing, malformed or octet-stream, a guess from
 * the URL's extension (so a claimed octet-stream skips the header).
 */
function formatOf(link: DataLink): FileFormatFact {
  let from: FileFormatFact['from'] = null;
  let mime: string | null = null;
  if (link.claimedType && MIME_SHAPE.test(link.claimedType)) [from, mime] = ['claimed', link.claimedType];
  else if (link.headerType) [from, mime] = ['header', link.headerType];
  if (mime === null || !MIME_SHAPE.test(mime) || OCTET_STREAM.has(mime.split(';')[0]!.trim())) {
    const guessed = mimeFromUrl(link.url);
    [from, mime] = guessed ? ['extension', guessed] : [null, null];
  }
  return { url: link.url, from, verdict: mime ? judgeMime(mime) : null };
}

/** Derive the facts once per assessment. */
export function deriveFacts(evidence: Evidence): Facts {
  const { metadata } = evidence;
  const moved = metadata.access_level.filter(looksLikeLicence);
  const accessValues = metadata.access_level.filter((value) => !looksLikeLicence(value));
  // As in F-UJI, every licence value counts, even an access term that DataCite's rightsList put in both lists
  // (F-UJI's R1.1 reads metadata_merged.license as is); licence-like access values are moved in.
  const licenceValues = [...new Set([...metadata.license, ...moved])];
  const repository = evidence.repository?.domainVerified ? evidence.repository : null;
  // F-UJI counts the schemas of the repository's OAI-PMH formats among the metadata's namespaces
  const specificNamespaces = [...new Set([...evidence.namespaces, ...(repository?.oaiSchemas ?? [])])].filter((ns) => !isDefaultNamespace(ns));
  // F-UJI's community-metadata evaluator: the metadata's namespaces, then (domain-verified) re3data standards and
  // the OAI-PMH endpoint's schemas; one entry per standard and source.
  const standards: DetectedStandard[] = [];
  const candidates: [string, StandardSource][] = [
    ...evidence.namespaces.map((ns): [string, StandardSource] => [ns, 'ns']),
    ...(repository?.standards ?? []).map((url): [string, StandardSource] => [url, 're3data']),
    ...(repository?.oaiSchemas ?? []).map((schema): [string, StandardSource] => [schema, 'oai-pmh']),
  ];
  for (const [value, source] of candidates) {
    const standard = metadataStandard(value, source);
    if (standard && !standards.some((s) => s.name === standard.name && s.source === source)) standards.push(standard);
  }
  return {
    evidence,
    licences: licenceValues.map(detectLicence),
    accessValues,
    accessTerms: accessValues.map(accessTerm).filter((t): t is AccessTerm => t !== null),
    specificNamespaces,
    semanticNamespaces: specificNamespaces
      .map((namespace) => ({ namespace, vocabulary: semanticVocabulary(namespace) }))
      .filter((n): n is { namespace: string; vocabulary: string } => n.vocabulary !== null),
    standards,
    fileFormats: evidence.dataLinks.map(formatOf),
  };
}
