/**
 * R tests: content description (R1), licence (R1.1), provenance (R1.2), community standards and file formats
 * (R1.3). v0.5's content checks (R1-01MD-3/-4) compare metadata with what the data link's headers say; F-UJI
 * used Apache Tika on the bytes, which we do not have (docs/fair-engine.md).
 */
import type { DataLink } from '../../../../../../contracts/fair/evidence.ts';
import type { DetectedStandard } from '../vocab/namespaces.ts';
import { isResourceType } from '../vocab/resource-types.ts';
import type { Facts } from './facts.ts';
import { fail, listed, pass, type TestEvaluator } from './types.ts';

/**
 * Merged metadata keys that map to PROV via PROV-DC (F-UJI Mapper.PROVENANCE_MAPPING). F-UJI lists relation types
 * in the same mapping but only reports them: a relation alone does not pass R1.2-01M-1.
 */
const PROV_ELEMENTS = [
  'contributor',
  'creator',
  'publisher',
  'right_holder',
  'created_date',
  'publication_date',
  'accepted_date',
  'submitted_date',
  'modified_date',
] as const;

/** F-UJI compares namespaces exactly, after its I2 step stripped a trailing `/` or `#`. */
const PROV_NAMESPACES = new Set(['http://www.w3.org/ns/prov', 'http://purl.org/pav']);

/** F-UJI's parse of a claimed size (data_harvester parse_content_size): the first number, times k/M/G/P. Null when none. */
export function parseClaimedSize(size: string | null): number | null {
  if (!size) return null;
  const match = /([0-9]+(?:[.,][0-9]+)*)\s*([kMGTP]?(?:[Bb](?:ytes?)?))?/.exec(size);
  if (!match) return null;
  const value = Number.parseFloat(match[1]!);
  if (!Number.isFinite(value)) return null;
  const factor = { k: 1e3, M: 1e6, G: 1e9, P: 1e12 }[(match[2] ?? '').charAt(0)] ?? 1;
  return value * factor;
}

/**
 * The data files F-UJI's R1 tests look at: its `content_identifier` holds the probed links; the ones that answered
 * 200 ("verified") are used when there are any, else all probed links.
 */
function contentFiles(facts: Facts): DataLink[] {
  const probed = facts.evidence.dataLinks.filter((l) => l.probed);
  const verified = probed.filter((l) => l.status === 200);
  return verified.length ? verified : probed;
}

/** Is the content link behind this data file a service endpoint (schema.org potentialAction/service)? */
function isService(facts: Facts, link: DataLink): boolean {
  return facts.evidence.metadata.object_content_identifier.some((c) => c.url === link.url && c.source.endsWith(':service'));
}

const resourceType: TestEvaluator = ({ evidence: { metadata } }) =>
  metadata.object_type.length ? pass(`resource type ${listed(metadata.object_type)}`) : fail('the metadata gives no resource type');

/**
 * R1-01M-2 / v0.5 R1-01MD-2 (F-UJI testVerifiableDataDescriptorsAvailable): a data file whose metadata claims both
 * type and size (a size F-UJI can parse, not 0), or a service endpoint; v0.5 also takes measured variables. With no
 * data files at all, the object's own size and format (testRessourceDataTypeAndSizeGiven).
 */
function descriptors(withVariables: boolean): TestEvaluator {
  return (facts) => {
    const { metadata } = facts.evidence;
    const files = contentFiles(facts);
    if (files.length === 0) {
      return metadata.object_size && metadata.object_format.length
        ? pass(`the object's size (${metadata.object_size}) and format (${metadata.object_format[0]}) are given`)
        : fail('no data files, and the object has no size and format in metadata');
    }
    const service = files.find((l) => isService(facts, l));
    if (service) return pass(`a service endpoint is given (${service.url})`);
    const described = files.filter((l) => l.claimedType && parseClaimedSize(l.claimedSize));
    if (described.length)
      return pass(
        `data file ${listed(
          described.map((l) => l.url),
          1,
        )} has claimed type ${described[0]!.claimedType} and size ${described[0]!.claimedSize}`,
      );
    if (withVariables && metadata.measured_variable.length) return pass(`measured variables are given: ${listed(metadata.measured_variable)}`);
    const partial = files.filter((l) => l.claimedType || l.claimedSize);
    return fail(
      partial.length
        ? `data files give ${partial[0]!.claimedType ? 'a type' : 'a size'} but not both type and size`
        : 'data files give neither file type nor size',
    );
  };
}

/** R1-01M-3 (unscored): measured variables; F-UJI tests it only inside its loop over data files. */
const measuredVariables: TestEvaluator = (facts) => {
  const { metadata } = facts.evidence;
  if (!metadata.measured_variable.length) return fail('no measured variables or observation types are given');
  return contentFiles(facts).length
    ? pass(`measured variables: ${listed(metadata.measured_variable)}`)
    : fail('measured variables are given, but F-UJI checks them only when there is a data file');
};

/** v0.5 R1-01MD-1: a resource type F-UJI knows (its ResourceTypes list, or any type containing "dataset"). */
const minimalContent: TestEvaluator = ({ evidence: { metadata } }) => {
  const valid = metadata.object_type.filter(isResourceType);
  if (valid.length) return pass(`resource type ${listed(valid)}`);
  return fail(
    metadata.object_type.length ? `resource type ${listed(metadata.object_type)} is not one F-UJI recognises` : 'the metadata gives no resource type',
  );
};

/** v0.5's 0-point R1-01MD sub-tests: F-UJI records which content descriptors it found. */
const contentInfo: TestEvaluator = ({ evidence: { dataLinks } }) =>
  dataLinks.length ? pass(`data links are given: ${listed(dataLinks.map((l) => l.url))}`) : fail('the metadata gives no data links');
const fileSizeAndType: TestEvaluator = (facts) => {
  const described = contentFiles(facts).filter((l) => l.claimedType && l.claimedSize);
  return described.length
    ? pass(
        `data file ${listed(
          described.map((l) => l.url),
          1,
        )} has claimed type and size`,
      )
    : fail('no data file has both a claimed type and size');
};
const variablesGiven: TestEvaluator = ({ evidence: { metadata } }) =>
  metadata.measured_variable.length ? pass(`measured variables: ${listed(metadata.measured_variable)}`) : fail('the metadata names no measured variables');
const serviceGiven: TestEvaluator = (facts) => {
  const service = contentFiles(facts).find((l) => isService(facts, l));
  return service ? pass(`a service endpoint is given (${service.url})`) : fail('the metadata names no data service endpoint');
};

/**
 * v0.5 R1-01MD-3 (F-UJI testSizeAndTypeOrProtocolMatchesMetadata): a data file whose served size equals the claimed
 * size **and** whose served type equals the claimed type (parameters dropped), or a service answering XML/JSON.
 * F-UJI downloads up to 1 MB and also asks Tika; we compare the HEAD response's Content-Type and Content-Length.
 */
const contentMatches: TestEvaluator = (facts) => {
  for (const link of contentFiles(facts)) {
    const header = link.headerType?.split(';')[0]!.trim() ?? null;
    if (isService(facts, link)) {
      if (header && ['application/xml', 'text/xml', 'application/ld+json', 'application/json'].includes(header))
        return pass(`${link.url}: the service answers ${header}`);
      continue;
    }
    const claimedType = link.claimedType?.split(';')[0]!.trim() ?? null;
    const typeMatch = claimedType !== null && claimedType === header;
    const sizeNumber = /(\d+(?:\.\d+)?)\s*[A-Za-z]*/.exec(link.claimedSize ?? '')?.[1];
    const sizeMatch = sizeNumber !== undefined && link.headerLength !== null && Math.trunc(Number(sizeNumber)) === link.headerLength;
    if (typeMatch && sizeMatch) return pass(`${link.url}: the served type and size match the metadata (headers, not the bytes)`);
  }
  return fail('no data file is served with both the claimed type and the claimed size');
};

const variablesMatch: TestEvaluator = () => fail("checking data content against measured variables needs the file's text, which this engine does not download");

const licencePresent: TestEvaluator = ({ licences }) =>
  licences.length ? pass(`licence ${listed(licences.map((l) => (l.spdxId ? `${l.value} (${l.spdxId})` : l.value)))}`) : fail('the metadata gives no licence');

const licenceSpdx: TestEvaluator = ({ licences }) => {
  const known = licences.filter((l) => l.spdxId);
  return known.length
    ? pass(`recognised SPDX licence ${listed(known.map((l) => l.spdxId!))}`)
    : fail(licences.length ? `licence ${listed(licences.map((l) => l.value))} is not on the SPDX list` : 'the metadata gives no licence');
};

const provenanceElements: TestEvaluator = ({ evidence: { metadata } }) => {
  const record = metadata as Record<string, unknown>;
  const present = PROV_ELEMENTS.filter((key) => {
    const value = record[key];
    return Array.isArray(value) ? value.length > 0 : value !== null && value !== undefined;
  });
  return present.length
    ? pass(`PROV-mappable elements: ${listed([...present], 5)}`)
    : fail('no creator, contributor, publisher, right holder or dates are given');
};

const provenanceOntology: TestEvaluator = ({ evidence: { namespaces } }) => {
  const prov = namespaces.filter((ns) => PROV_NAMESPACES.has(ns.trim().replace(/[/#]+$/, '')));
  return prov.length ? pass(`provenance ontology in use: ${listed(prov)}`) : fail('the metadata uses neither the PROV nor the PAV namespace');
};

const names = (found: readonly DetectedStandard[]) => listed([...new Set(found.map((s) => (s.source === 'ns' ? s.name : `${s.name} (${s.source})`)))]);

/**
 * R1.3-01M (F-UJI community_metadata). v0.8 counts only standards revealed by the metadata's own namespaces; v0.5's
 * -1 takes disciplinary standards from any source but re3data, -2 disciplinary standards from re3data, -3 generic
 * standards from any source.
 */
function standardTest(type: DetectedStandard['type'], accepts: (source: DetectedStandard['source']) => boolean, what: string): TestEvaluator {
  return ({ standards }) => {
    const found = standards.filter((s) => s.type === type && accepts(s.source));
    if (found.length) return pass(`${type === 'generic' ? 'multidisciplinary' : 'community'} standard ${names(found)}`);
    return fail(
      `no ${type === 'generic' ? 'listed multidisciplinary' : 'disciplinary'} metadata standard ${what}${standards.length ? ` (found: ${names(standards)})` : ''}`,
    );
  };
}

const disciplinaryStandard = standardTest('disciplinary', (source) => source === 'ns', 'is revealed by a namespace of the metadata');
const genericStandard = standardTest('generic', (source) => source === 'ns', 'is revealed by a namespace of the metadata');
const disciplinaryStandardV05 = standardTest('disciplinary', (source) => source !== 're3data', 'was found in namespaces or the OAI-PMH formats');
const re3dataStandard = standardTest('disciplinary', (source) => source === 're3data', "is listed in the repository's re3data record");
const genericStandardV05 = standardTest('generic', () => true, 'was found in namespaces, re3data or the OAI-PMH formats');

const fileFormat: TestEvaluator = ({ fileFormats }) => {
  const ok = fileFormats.filter((f) => f.verdict?.accepted);
  if (ok.length) {
    const first = ok[0]!;
    return pass(`${first.verdict!.mime} (${first.from}) is ${first.verdict!.format} [${first.verdict!.reasons.join(', ')}]`);
  }
  if (fileFormats.length === 0) return fail('there is no data file to judge');
  const archives = fileFormats.filter((f) => f.verdict?.archive);
  if (archives.length)
    return fail(`the data is only offered as archives (${listed([...new Set(archives.map((f) => f.verdict!.mime))])}), whose content is not inspected`);
  const known = fileFormats.filter((f) => f.verdict);
  return fail(
    known.length ? `${listed([...new Set(known.map((f) => f.verdict!.mime))])} is not a scientific, long-term or open format` : 'no data file has a known type',
  );
};

/**
 * v0.5 R1.3-02D-1a/b/c: a data file in an open / long-term / scientific format. F-UJI's text rule (any text, XML or
 * JSON type but HTML) marks 1a and 1b passed and 1c failed, whatever the lists say.
 */
function formatReason(reason: 'open' | 'long_term' | 'scientific', label: string): TestEvaluator {
  return ({ fileFormats }) => {
    const hit = fileFormats.find(
      (f) => f.verdict?.accepted && (f.verdict.reasons.includes(reason) || (reason !== 'scientific' && f.verdict.reasons.includes('text'))),
    );
    return hit
      ? pass(`${hit.verdict!.mime} is ${label}${hit.verdict!.reasons.includes(reason) ? '' : " (F-UJI's text rule)"}`)
      : fail(`no data file is ${label}`);
  };
}

/** R evaluators by test id. */
export const REUSABLE: Readonly<Record<string, TestEvaluator>> = {
  'FsF-R1-01M-1': resourceType,
  'FsF-R1-01M-2': descriptors(false),
  'FsF-R1-01M-3': measuredVariables,
  'FsF-R1.1-01M-1': licencePresent,
  'FsF-R1.2-01M-1': provenanceElements,
  'FsF-R1.2-01M-2': provenanceOntology,
  'FsF-R1.3-01M-1': disciplinaryStandard,
  'FsF-R1.3-01M-3': genericStandard,
  'FsF-R1.3-02D-1': fileFormat,
  // v0.5
  'FsF-R1-01MD-1': minimalContent,
  'FsF-R1-01MD-1a': minimalContent,
  'FsF-R1-01MD-1b': contentInfo,
  'FsF-R1-01MD-2': descriptors(true),
  'FsF-R1-01MD-2a': fileSizeAndType,
  'FsF-R1-01MD-2b': variablesGiven,
  'FsF-R1-01MD-2c': serviceGiven,
  'FsF-R1-01MD-3': contentMatches,
  'FsF-R1-01MD-4': variablesMatch,
  'FsF-R1.1-01M-2': licenceSpdx,
  'FsF-R1.3-01M-2': re3dataStandard,
  'metrics_v0.5/FsF-R1.3-01M-1': disciplinaryStandardV05,
  'metrics_v0.5/FsF-R1.3-01M-3': genericStandardV05,
  'FsF-R1.3-02D-1a': formatReason('open', 'an open format'),
  'FsF-R1.3-02D-1b': formatReason('long_term', 'a long-term format'),
  'FsF-R1.3-02D-1c': formatReason('scientific', 'a scientific format'),
};
