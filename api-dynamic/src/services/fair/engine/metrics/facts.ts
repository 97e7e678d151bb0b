/**
 * Facts derived once from the evidence and shared by the metric tests: licences recognised against SPDX,
 * access values with licence-like values moved out (fair.md §2.9, §2.13), namespaces sorted into default /
 * semantic / standard, and a format verdict per data file (§2.10).
 */
import type { DataLink, Evidence } from '../../../../../../contracts/fair/evidence.ts';
import { accessTerm, isMachineReadableAccess, type AccessTerm } from '../vocab/access-rights.ts';
import { judgeMime, mimeFromUrl, type FormatVerdict } from '../vocab/formats.ts';
import { detectLicence, looksLikeLicence, type LicenceMatch } from '../vocab/licences.ts';
import { isDefaultNamespace, metadataStandard, semanticVocabulary, type DetectedStandard } from '../vocab/namespaces.ts';

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
  /** Metadata standards revealed by namespaces. */
  standards: DetectedStandard[];
  fileFormats: FileFormatFact[];
}

function formatOf(link: DataLink): FileFormatFact {
  const candidates: [FileFormatFact['from'], string | null][] = [
    ['claimed', link.claimedType],
    ['header', link.headerType],
  ];
  for (const [from, mime] of candidates) {
    if (mime && mime.toLowerCase() !== 'application/octet-stream') return { url: link.url, from, verdict: judgeMime(mime) };
  }
  const guessed = mimeFromUrl(link.url);
  if (guessed) return { url: link.url, from: 'extension', verdict: judgeMime(guessed) };
  const any = link.claimedType ?? link.headerType;
  return { url: link.url, from: any ? (link.claimedType ? 'claimed' : 'header') : null, verdict: any ? judgeMime(any) : null };
}

/** Derive the facts once per assessment. */
export function deriveFacts(evidence: Evidence): Facts {
  const { metadata } = evidence;
  const moved = metadata.access_level.filter(looksLikeLicence);
  const accessValues = metadata.access_level.filter((value) => !looksLikeLicence(value));
  // DataCite's rightsList feeds both lists; an access term (openAccess …) is not a licence.
  const licenceValues = [...new Set([...metadata.license.filter((value) => accessTerm(value) === null), ...moved])];
  const specificNamespaces = evidence.namespaces.filter((ns) => !isDefaultNamespace(ns));
  const standards: DetectedStandard[] = [];
  for (const namespace of evidence.namespaces) {
    const standard = metadataStandard(namespace);
    if (standard && !standards.some((s) => s.name === standard.name)) standards.push(standard);
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

export { isMachineReadableAccess };
