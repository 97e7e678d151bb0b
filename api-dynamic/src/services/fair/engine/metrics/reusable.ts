/**
 * R tests: content description (R1), licence (R1.1), provenance (R1.2), community standards and file formats
 * (R1.3). v0.5's content checks (R1-01MD-3/-4) compare metadata with what the data link's headers say; F-UJI
 * used Apache Tika on the bytes, which we do not have (docs/fair-engine.md).
 */
import { fail, listed, pass, type TestEvaluator } from './types.ts';

/** Metadata keys that map to PROV via PROV-DC (fair.md §2.12). */
const PROV_ELEMENTS = ['creator', 'contributor', 'publisher', 'right_holder', 'publication_date', 'created_date', 'accepted_date', 'submitted_date', 'modified_date', 'provenance'] as const;

/** Relation types that map to PROV (fair.md §2.12), compared case-insensitively. */
const PROV_RELATIONS = new Set(
  ['hasFormat', 'isFormatOf', 'isVersionOf', 'isNewVersionOf', 'isReplacedBy', 'Obsoletes', 'isReferencedBy', 'References', 'IsDerivedFrom', 'Replaces', 'isBasedOn', 'hasVersion'].map((r) => r.toLowerCase()),
);

const PROV_NAMESPACES = /^https?:\/\/(?:www\.w3\.org\/ns\/prov|purl\.org\/pav)(?:[#/]|$)/i;

const resourceType: TestEvaluator = ({ evidence: { metadata } }) =>
  metadata.object_type.length ? pass(`resource type ${listed(metadata.object_type)}`) : fail('the metadata gives no resource type');

const sizeAndType: TestEvaluator = ({ evidence: { metadata } }) => {
  const links = metadata.object_content_identifier;
  const service = links.find((l) => l.source.endsWith(':service'));
  if (service) return pass(`a service endpoint is given (${service.url})`);
  const described = links.filter((l) => l.type && l.size);
  if (described.length) return pass(`content link ${listed(described.map((l) => l.url), 1)} has claimed type ${described[0]!.type} and size ${described[0]!.size}`);
  if (links.length === 0) {
    return metadata.object_size && metadata.object_format.length
      ? pass(`the object's size (${metadata.object_size}) and format (${metadata.object_format[0]}) are given`)
      : fail('no data links, and the object has no size and format in metadata');
  }
  const partial = links.filter((l) => l.type || l.size);
  return fail(partial.length ? `content links give ${partial[0]!.type ? 'a type' : 'a size'} but not both type and size` : 'content links give neither file type nor size');
};

const measuredVariables: TestEvaluator = ({ evidence: { metadata } }) =>
  metadata.measured_variable.length ? pass(`measured variables: ${listed(metadata.measured_variable)}`) : fail('no measured variables or observation types are given');

const minimalContent: TestEvaluator = (facts) => {
  const type = resourceType(facts);
  if (type.passed) return type;
  const { metadata } = facts.evidence;
  return metadata.object_content_identifier.some((l) => l.type || l.size) ? pass('a content link has a type or size') : fail('no resource type and no file information');
};

const verifiableDescriptors: TestEvaluator = ({ evidence: { metadata } }) => {
  const described = metadata.object_content_identifier.filter((l) => l.type || l.size);
  if (described.length) return pass(`content link ${listed(described.map((l) => l.url), 1)} gives file information`);
  return metadata.measured_variable.length ? pass('measured variables are given') : fail('no file type, size or measured variables are given for the data');
};

const contentMatches: TestEvaluator = ({ evidence: { dataLinks } }) => {
  for (const link of dataLinks) {
    if (!link.probed || link.status === null || link.status >= 400) continue;
    const typeMatch = link.claimedType && link.headerType && link.claimedType.split(';')[0]!.trim().toLowerCase() === link.headerType;
    const sizeMatch = link.claimedSize && link.headerLength !== null && /^\d+$/.test(link.claimedSize.trim()) && Number(link.claimedSize) === link.headerLength;
    if (typeMatch || sizeMatch) return pass(`${link.url}: the server's ${typeMatch ? 'Content-Type' : 'size'} matches the metadata (headers only, not the bytes)`);
  }
  return fail('no probed data link confirms the claimed type or size');
};

const variablesMatch: TestEvaluator = () => fail('checking data content against measured variables needs content parsing, which this engine does not do');

const licencePresent: TestEvaluator = ({ licences }) =>
  licences.length ? pass(`licence ${listed(licences.map((l) => (l.spdxId ? `${l.value} (${l.spdxId})` : l.value)))}`) : fail('the metadata gives no licence');

const licenceSpdx: TestEvaluator = ({ licences }) => {
  const known = licences.filter((l) => l.spdxId);
  return known.length ? pass(`recognised SPDX licence ${listed(known.map((l) => l.spdxId!))}`) : fail(licences.length ? `licence ${listed(licences.map((l) => l.value))} is not on the SPDX list` : 'the metadata gives no licence');
};

const provenanceElements: TestEvaluator = ({ evidence: { metadata } }) => {
  const record = metadata as Record<string, unknown>;
  const present = PROV_ELEMENTS.filter((key) => {
    const value = record[key];
    return Array.isArray(value) ? value.length > 0 : value !== null && value !== undefined;
  });
  const relations = metadata.related_resources.filter((r) => PROV_RELATIONS.has(r.relation_type.toLowerCase())).map((r) => r.relation_type);
  const found = [...present, ...new Set(relations)];
  return found.length ? pass(`PROV-mappable elements: ${listed(found, 5)}`) : fail('no creator, contributor, publisher, dates or derivation relations are given');
};

const provenanceOntology: TestEvaluator = ({ evidence: { namespaces } }) => {
  const prov = namespaces.filter((ns) => PROV_NAMESPACES.test(ns));
  return prov.length ? pass(`provenance ontology in use: ${listed(prov)}`) : fail('the metadata uses neither the PROV nor the PAV namespace');
};

const disciplinaryStandard: TestEvaluator = ({ standards }) => {
  const found = standards.filter((s) => s.type === 'disciplinary');
  return found.length ? pass(`community standard ${listed(found.map((s) => s.name))}`) : fail(`no disciplinary metadata standard was detected${standards.length ? ` (only ${listed(standards.map((s) => s.name))})` : ''}`);
};

const genericStandard: TestEvaluator = ({ standards }) => {
  const found = standards.filter((s) => s.type === 'generic');
  return found.length ? pass(`multidisciplinary standard ${listed(found.map((s) => s.name))}`) : fail('no namespace of a listed multidisciplinary standard (DataCite, Dublin Core, schema.org, DCAT …) was found');
};

const re3dataStandard: TestEvaluator = () => fail('the repository\'s re3data record is not consulted by this engine');

const fileFormat: TestEvaluator = ({ fileFormats }) => {
  const ok = fileFormats.filter((f) => f.verdict?.accepted);
  if (ok.length) {
    const first = ok[0]!;
    return pass(`${first.verdict!.mime} (${first.from}) is ${first.verdict!.format} [${first.verdict!.reasons.join(', ')}]`);
  }
  if (fileFormats.length === 0) return fail('there is no data file to judge');
  const archives = fileFormats.filter((f) => f.verdict?.archive);
  if (archives.length) return fail(`the data is only offered as archives (${listed([...new Set(archives.map((f) => f.verdict!.mime))])}), whose content is not inspected`);
  const known = fileFormats.filter((f) => f.verdict);
  return fail(known.length ? `${listed([...new Set(known.map((f) => f.verdict!.mime))])} is not a scientific, long-term or open format` : 'no data file has a known type');
};

function formatReason(reason: 'open' | 'long_term' | 'scientific', label: string): TestEvaluator {
  return ({ fileFormats }) => {
    const hit = fileFormats.find((f) => f.verdict?.accepted && f.verdict.reasons.includes(reason));
    return hit ? pass(`${hit.verdict!.mime} is ${label}`) : fail(`no data file is ${label}`);
  };
}

/** R evaluators by test id. */
export const REUSABLE: Readonly<Record<string, TestEvaluator>> = {
  'FsF-R1-01M-1': resourceType,
  'FsF-R1-01M-2': sizeAndType,
  'FsF-R1-01M-3': measuredVariables,
  'FsF-R1.1-01M-1': licencePresent,
  'FsF-R1.2-01M-1': provenanceElements,
  'FsF-R1.2-01M-2': provenanceOntology,
  'FsF-R1.3-01M-1': disciplinaryStandard,
  'FsF-R1.3-01M-3': genericStandard,
  'FsF-R1.3-02D-1': fileFormat,
  // v0.5
  'FsF-R1-01MD-1': minimalContent,
  'FsF-R1-01MD-2': verifiableDescriptors,
  'FsF-R1-01MD-3': contentMatches,
  'FsF-R1-01MD-4': variablesMatch,
  'FsF-R1.1-01M-2': licenceSpdx,
  'FsF-R1.3-01M-2': re3dataStandard,
  'FsF-R1.3-02D-1a': formatReason('open', 'an open format'),
  'FsF-R1.3-02D-1b': formatReason('long_term', 'a long-term format'),
  'FsF-R1.3-02D-1c': formatReason('scientific', 'a scientific format'),
};
