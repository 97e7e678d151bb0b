/**
 * Every metric test of v0.8 and v0.5 (the software tests: software-metric-tests.test.ts), passing and failing, over hand-made evidence. Each case states what it
 * adds to the bare evidence (a plain URL about which nothing was found), so a failure says which rule broke.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../../contracts/fair/evidence.ts';
import { deriveFacts } from '../../../../api-dynamic/src/services/fair/engine/metrics/facts.ts';
import { EVALUATORS, evaluatorFor } from '../../../../api-dynamic/src/services/fair/engine/metrics/index.ts';
import { METRIC_FILES } from '../../../../api-dynamic/src/services/fair/metrics/load.ts';
import { bareEvidence, dataLink, doiEvidence, source } from './evidence-fixture.ts';

type Case = { name: string; make: () => Evidence };
interface TestCases {
  pass: Case[];
  fail: Case[];
}

const withMeta =
  (patch: Partial<Evidence['metadata']>, base: () => Evidence = bareEvidence) =>
  () => {
    const e = base();
    Object.assign(e.metadata, patch);
    return e;
  };
const withEvidence =
  (patch: (e: Evidence) => void, base: () => Evidence = bareEvidence) =>
  () => {
    const e = base();
    patch(e);
    return e;
  };
const withRepository = (patch: Partial<NonNullable<Evidence['repository']>>) =>
  withEvidence((e) => {
    e.repository = {
      dataciteClient: 'x.repo',
      re3dataDoi: 'https://doi.org/10.17616/R3X',
      re3dataId: 'r3d1',
      name: 'Repo',
      url: 'https://repo.example/',
      domainVerified: true,
      apis: [],
      standards: [],
      oaiSchemas: [],
      ...patch,
    };
  });
const bare = { name: 'nothing found', make: bareEvidence };
const full = {
  creator: ['Doe, Jane'],
  title: 'A dataset',
  object_identifier: ['https://doi.org/10.1234/abc'],
  publication_date: '2020',
  publisher: ['Repo'],
  object_type: ['Dataset'],
};
const csv = dataLink({ claimedType: 'text/csv', headerType: 'text/csv' });

const CASES: Record<string, TestCases> = {
  'FsF-F1-01MD-1': { pass: [{ name: 'a URL input', make: bareEvidence }], fail: [] },
  'FsF-F1-01MD-2': { pass: [{ name: 'a data link URL', make: withEvidence((e) => e.dataLinks.push(csv)) }], fail: [bare] },
  'FsF-F1-02MD-1': {
    pass: [
      { name: 'a DOI input', make: doiEvidence },
      {
        name: 'a DOI in the metadata of a URL input that resolves into this site',
        make: withEvidence((e) =>
          e.pidChecks.push({ pid: 'https://doi.org/10.1/x', scheme: 'doi', resolvedUrl: 'https://repo.example/item/1', verified: true }),
        ),
      },
    ],
    fail: [
      bare,
      { name: 'only URLs in metadata', make: withMeta({ object_identifier: ['https://repo.example/item/1'] }) },
      // F-UJI drops a metadata PID that is not "verified" (resolving into the landing page's domain) before -1
      {
        name: 'a DOI in metadata that resolves elsewhere',
        make: withEvidence(
          (e) => e.pidChecks.push({ pid: 'https://doi.org/10.1/x', scheme: 'doi', resolvedUrl: 'https://other.example/', verified: false }),
          withMeta({ object_identifier: ['https://doi.org/10.1/x'] }),
        ),
      },
    ],
  },
  'FsF-F1-02MD-2': {
    pass: [
      { name: 'the DOI resolver redirected', make: doiEvidence },
      {
        name: 'a metadata PID verified into this site',
        make: withEvidence((e) =>
          e.pidChecks.push({ pid: 'https://doi.org/10.1/x', scheme: 'doi', resolvedUrl: 'https://repo.example/item/1', verified: true }),
        ),
      },
    ],
    fail: [
      bare,
      { name: 'DOI resolved without redirect', make: withEvidence((e) => (e.resolution.pidRedirected = false), doiEvidence) },
      {
        name: 'a metadata PID resolving elsewhere',
        make: withEvidence((e) => e.pidChecks.push({ pid: 'https://doi.org/10.1/x', scheme: 'doi', resolvedUrl: 'https://other.example/', verified: false })),
      },
    ],
  },
  'FsF-F1-02MD-4': {
    pass: [{ name: 'a DOI data link', make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'https://doi.org/10.1/data', persistent: true }))) }],
    fail: [bare, { name: 'a URL data link', make: withEvidence((e) => e.dataLinks.push(csv)) }],
  },
  'FsF-F1-02MD-5': {
    pass: [
      { name: 'a DOI data link answering 200', make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'https://doi.org/10.1/data', persistent: true }))) },
    ],
    fail: [
      bare,
      {
        name: 'a DOI data link answering 404',
        make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'https://doi.org/10.1/data', persistent: true, status: 404 }))),
      },
    ],
  },
  'FsF-F2-01M-2': {
    pass: [{ name: 'the six citation elements', make: withMeta(full) }],
    fail: [bare, { name: 'no publisher', make: withMeta({ ...full, publisher: [] }) }],
  },
  'FsF-F2-01M-3': {
    pass: [{ name: 'citation elements, summary and keywords', make: withMeta({ ...full, summary: 'About', keywords: ['k'] }) }],
    fail: [{ name: 'no keywords', make: withMeta({ ...full, summary: 'About' }) }],
  },
  'FsF-F3-01M-2': {
    pass: [
      {
        name: 'a content link',
        make: withMeta({ object_content_identifier: [{ url: 'https://repo.example/f.csv', type: null, size: null, source: 'schemaorg:distribution' }] }),
      },
    ],
    fail: [bare],
  },
  'FsF-F4-01M-1': {
    pass: [
      { name: 'schema.org JSON-LD in the page', make: withEvidence((e) => e.sources.push(source({}))) },
      {
        name: 'Dublin Core meta tags',
        make: withEvidence((e) => e.sources.push(source({ method: 'meta_tag', standard: 'dublin-core', format: 'html-meta' }))),
      },
    ],
    fail: [
      bare,
      { name: 'Highwire meta tags only', make: withEvidence((e) => e.sources.push(source({ method: 'meta_tag', standard: 'highwire', format: 'html-meta' }))) },
      { name: 'schema.org only by content negotiation', make: withEvidence((e) => e.sources.push(source({ method: 'content_negotiation' }))) },
      { name: 'embedded JSON-LD that gave no metadata', make: withEvidence((e) => e.sources.push(source({ fields: [] }))) },
    ],
  },
  'FsF-A1-01M-1': {
    pass: [
      { name: 'an access right term', make: withMeta({ access_level: ['info:eu-repo/semantics/openAccess'] }) },
      { name: 'a free-text condition', make: withMeta({ access_level: ['unrestricted'] }) },
    ],
    fail: [
      bare,
      { name: 'only a licence in the rights field', make: withMeta({ access_level: ['https://creativecommons.org/licenses/by/4.0/'] }) },
      { name: 'only isAccessibleForFree', make: withMeta({ access_free: true }) },
    ],
  },
  'FsF-A1-02MD-1': { pass: [{ name: 'a harvested source', make: withEvidence((e) => e.sources.push(source({}))) }], fail: [bare] },
  'FsF-A1-02MD-2': {
    pass: [{ name: 'a data link answering 200', make: withEvidence((e) => e.dataLinks.push(csv)) }],
    fail: [bare, { name: 'a data link answering 403', make: withEvidence((e) => e.dataLinks.push(dataLink({ status: 403 }))) }],
  },
  'FsF-A1.1-01MD-1': { pass: [{ name: 'an https landing page', make: bareEvidence }], fail: [] },
  'FsF-A1.1-01MD-2': {
    pass: [{ name: 'an https data link', make: withEvidence((e) => e.dataLinks.push(csv)) }],
    fail: [bare, { name: 'a gopher data link', make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'gopher://x.example/1', scheme: 'gopher' }))) }],
  },
  'FsF-A1.2-01MD-1': { pass: [{ name: 'https (TLS, BASIC)', make: bareEvidence }], fail: [] },
  'FsF-A1.2-01MD-2': {
    pass: [{ name: 'an ftp data link (BASIC)', make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'ftp://x.example/data.csv', scheme: 'ftp' }))) }],
    fail: [
      bare,
      { name: 'a telnet data link (no auth)', make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'telnet://x.example', scheme: 'telnet' }))) },
    ],
  },
  'FsF-I1-01M-1': {
    pass: [
      { name: 'embedded JSON-LD', make: withEvidence((e) => e.sources.push(source({}))) },
      { name: 'OpenGraph (RDFa)', make: withEvidence((e) => e.sources.push(source({ method: 'rdfa', standard: 'opengraph', format: 'html-meta' }))) },
    ],
    fail: [
      bare,
      {
        name: 'Dublin Core meta tags only',
        make: withEvidence((e) => e.sources.push(source({ method: 'meta_tag', standard: 'dublin-core', format: 'html-meta' }))),
      },
      {
        name: "microdata only (not among F-UJI's embedded graph sources)",
        make: withEvidence((e) => e.sources.push(source({ method: 'microdata', format: 'html-meta' }))),
      },
      { name: 'embedded JSON-LD that gave no metadata', make: withEvidence((e) => e.sources.push(source({ fields: [] }))) },
    ],
  },
  'FsF-I1-01M-2': {
    pass: [
      { name: 'JSON-LD by negotiation', make: withEvidence((e) => e.sources.push(source({ method: 'content_negotiation' }))) },
      { name: 'Turtle by a describedby link', make: withEvidence((e) => e.sources.push(source({ method: 'signposting', format: 'rdf', standard: null }))) },
    ],
    fail: [
      bare,
      {
        name: 'XML by negotiation',
        make: withEvidence((e) => e.sources.push(source({ method: 'content_negotiation', format: 'xml', standard: 'DataCite Metadata Schema' }))),
      },
      {
        name: 'DataCite JSON by negotiation',
        make: withEvidence((e) => e.sources.push(source({ method: 'content_negotiation', format: 'json', standard: 'datacite' }))),
      },
    ],
  },
  'FsF-I2-01M-2': {
    pass: [{ name: 'a PROV namespace', make: withEvidence((e) => e.namespaces.push('http://www.w3.org/ns/prov#')) }],
    fail: [
      bare,
      { name: 'schema.org and Dublin Core only', make: withEvidence((e) => e.namespaces.push('https://schema.org/', 'http://purl.org/dc/terms/')) },
      { name: 'an unknown namespace', make: withEvidence((e) => e.namespaces.push('http://vocab.example/private#')) },
    ],
  },
  'FsF-I3-01M-1': {
    pass: [
      {
        name: 'a related resource in text',
        make: withMeta({ related_resources: [{ related_resource: 'Doe (2019) Some paper', relation_type: 'References' }] }),
      },
    ],
    fail: [bare],
  },
  'FsF-I3-01M-2': {
    pass: [{ name: 'a related DOI', make: withMeta({ related_resources: [{ related_resource: '10.1234/paper', relation_type: 'IsSupplementTo' }] }) }],
    fail: [
      bare,
      { name: 'text only', make: withMeta({ related_resources: [{ related_resource: 'Doe (2019) Some paper', relation_type: 'References' }] }) },
      {
        name: 'a UUID (unique, neither PID nor URL)',
        make: withMeta({ related_resources: [{ related_resource: '550e8400-e29b-41d4-a716-446655440000', relation_type: 'References' }] }),
      },
    ],
  },
  'FsF-R1-01M-1': { pass: [{ name: 'a resource type', make: withMeta({ object_type: ['Dataset'] }) }], fail: [bare] },
  'FsF-R1-01M-2': {
    pass: [
      {
        name: 'a data file with claimed type and size',
        make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'text/csv', claimedSize: '1.2 MB' }))),
      },
      { name: 'no data files, object size and format', make: withMeta({ object_size: '1 MB', object_format: ['text/csv'] }) },
      {
        name: 'a service endpoint',
        make: withEvidence(
          (e) => e.dataLinks.push(dataLink({ url: 'https://r.example/api' })),
          withMeta({ object_content_identifier: [{ url: 'https://r.example/api', type: null, size: null, source: 'schemaorg:service' }] }),
        ),
      },
    ],
    fail: [
      bare,
      {
        name: 'a data file with a claimed type only',
        make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'https://r.example/f.zip', claimedType: 'application/zip' }))),
      },
      {
        name: 'a claimed size of 0 (F-UJI reads it as no size)',
        make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'text/csv', claimedSize: '0' }))),
      },
      {
        name: 'object size and format, but data files without them',
        make: withEvidence((e) => e.dataLinks.push(csv), withMeta({ object_size: '1 MB', object_format: ['text/csv'] })),
      },
    ],
  },
  'FsF-R1-01M-3': {
    pass: [{ name: 'measured variables and a data file', make: withEvidence((e) => e.dataLinks.push(csv), withMeta({ measured_variable: ['temperature'] })) }],
    fail: [
      bare,
      { name: 'measured variables without a data file (F-UJI tests them inside its data-file loop)', make: withMeta({ measured_variable: ['temperature'] }) },
    ],
  },
  'FsF-R1.1-01M-1': {
    pass: [
      { name: 'a licence URL', make: withMeta({ license: ['https://creativecommons.org/licenses/by/4.0/'] }) },
      { name: 'a licence given as access rights (moved)', make: withMeta({ access_level: ['https://creativecommons.org/licenses/by/4.0/legalcode'] }) },
      // F-UJI reads the merged licence list as is; DataCite's rightsList feeds it with access terms too
      { name: 'an access term in the rights list', make: withMeta({ license: ['info:eu-repo/semantics/openAccess'] }) },
    ],
    fail: [bare, { name: 'a rights statement only in access rights', make: withMeta({ access_level: ['info:eu-repo/semantics/openAccess'] }) }],
  },
  'FsF-R1.2-01M-1': {
    pass: [
      { name: 'a creator', make: withMeta({ creator: ['Doe, Jane'] }) },
      { name: 'a modification date', make: withMeta({ modified_date: '2021-01-01' }) },
    ],
    fail: [
      bare,
      // F-UJI lists PROV-mapped relation types in its output, but only metadata elements set is_available
      { name: 'a derivation relation alone', make: withMeta({ related_resources: [{ related_resource: '10.1/x', relation_type: 'IsDerivedFrom' }] }) },
      { name: 'a free-text provenance statement alone', make: withMeta({ provenance: ['collected by hand'] }) },
    ],
  },
  'FsF-R1.2-01M-2': {
    pass: [
      { name: 'PROV', make: withEvidence((e) => e.namespaces.push('http://www.w3.org/ns/prov#')) },
      { name: 'PAV', make: withEvidence((e) => e.namespaces.push('http://purl.org/pav/')) },
    ],
    fail: [
      bare,
      { name: 'other namespaces', make: withEvidence((e) => e.namespaces.push('http://www.w3.org/ns/provenance-not')) },
      { name: 'PROV under https (F-UJI compares exactly)', make: withEvidence((e) => e.namespaces.push('https://www.w3.org/ns/prov#')) },
    ],
  },
  'FsF-R1.3-01M-1': {
    pass: [{ name: 'ISO 19139', make: withEvidence((e) => e.namespaces.push('http://www.isotc211.org/2005/gmd')) }],
    fail: [
      bare,
      { name: 'DataCite only (generic)', make: withEvidence((e) => e.namespaces.push('http://datacite.org/schema/kernel-4')) },
      {
        name: 'MARC only in the OAI-PMH formats (v0.8 counts namespaces only)',
        make: withRepository({ oaiSchemas: ['http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd'] }),
      },
    ],
  },
  'FsF-R1.3-01M-3': {
    pass: [{ name: 'DataCite', make: withEvidence((e) => e.namespaces.push('http://datacite.org/schema/kernel-4')) }],
    fail: [bare, { name: 'a disciplinary standard only', make: withEvidence((e) => e.namespaces.push('eml://ecoinformatics.org/eml-2.1.1')) }],
  },
  'FsF-R1.3-02D-1': {
    pass: [
      { name: 'CSV (text rule and open format)', make: withEvidence((e) => e.dataLinks.push(csv)) },
      {
        name: 'NetCDF guessed from the extension',
        make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'https://r.example/x.nc', headerType: 'application/octet-stream' }))),
      },
    ],
    fail: [
      bare,
      { name: 'a zip archive', make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'https://r.example/x.zip', claimedType: 'application/zip' }))) },
      { name: 'HTML', make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'https://r.example/x', headerType: 'text/html' }))) },
      // a claimed type wins over the header even when it is octet-stream; then only the extension is tried
      {
        name: 'claimed octet-stream, served CSV, no extension',
        make: withEvidence((e) => e.dataLinks.push(dataLink({ url: 'https://r.example/x', claimedType: 'application/octet-stream', headerType: 'text/csv' }))),
      },
    ],
  },
  // ---- v0.5 only ----
  'FsF-F1-01D-1': {
    pass: [{ name: 'a URL', make: bareEvidence }],
    fail: [{ name: 'a UUID', make: withEvidence((e) => (e.identifier = { ...e.identifier, scheme: 'uuid', schemes: ['uuid'] })) }],
  },
  'FsF-F1-01D-2': {
    pass: [{ name: 'a hash', make: withEvidence((e) => (e.identifier = { ...e.identifier, scheme: 'hash', schemes: ['hash'] })) }],
    fail: [{ name: 'a URL', make: bareEvidence }],
  },
  'FsF-F1-02D-1': { pass: [{ name: 'a DOI', make: doiEvidence }], fail: [bare] },
  'FsF-F1-02D-2': { pass: [{ name: 'a redirected DOI', make: doiEvidence }], fail: [bare] },
  'FsF-F2-01M-1': {
    // F-UJI testMetadataCommonMethodsAvailable: any reference element in the merged metadata, whatever its source
    pass: [
      { name: 'a title', make: withMeta({ title: 'A dataset' }) },
      { name: 'a licence only', make: withMeta({ license: ['MIT'] }) },
    ],
    fail: [bare, { name: 'a version only (not a reference element)', make: withMeta({ version: '1.0' }) }],
  },
  'FsF-F3-01M-1': {
    pass: [
      {
        name: 'a typed content link',
        make: withMeta({ object_content_identifier: [{ url: 'https://r.example/f.csv', type: 'text/csv', size: null, source: 'x' }] }),
      },
      {
        name: 'a content link with a URL only (F-UJI: type, size or url)',
        make: withMeta({ object_content_identifier: [{ url: 'https://r.example/f', type: null, size: null, source: 'x' }] }),
      },
    ],
    fail: [bare, { name: 'object size and format without a content link', make: withMeta({ object_size: '1 MB', object_format: ['text/csv'] }) }],
  },
  'FsF-F4-01M-2': {
    pass: [{ name: 'DataCite REST', make: withEvidence((e) => e.sources.push(source({ method: 'registry_rest', standard: 'datacite', format: 'json' }))) }],
    // F-UJI asks DataCite's REST API; a DOI resolver's answer does not count
    fail: [
      bare,
      {
        name: 'DataCite by negotiation only',
        make: withEvidence((e) => e.sources.push(source({ method: 'content_negotiation', standard: 'datacite', format: 'json' }))),
      },
    ],
  },
  // F-UJI compares the whole value, lower-cased, with term ids only
  'FsF-A1-01M-3': {
    pass: [
      { name: 'the OpenAIRE id "openAccess"', make: withMeta({ access_level: ['openAccess'] }) },
      { name: 'the COAR id "c_abf2"', make: withMeta({ access_level: ['C_ABF2'] }) },
    ],
    fail: [
      bare,
      { name: 'free text', make: withMeta({ access_level: ['unrestricted'] }) },
      { name: 'the COAR label "open access"', make: withMeta({ access_level: ['Open Access'] }) },
      { name: 'an OpenAIRE URI', make: withMeta({ access_level: ['info:eu-repo/semantics/openAccess'] }) },
    ],
  },
  'FsF-A1-01M-2': {
    pass: [
      { name: 'a COAR URI', make: withMeta({ access_level: ['http://purl.org/coar/access_right/c_abf2'] }) },
      { name: 'an OpenAIRE URI', make: withMeta({ access_level: ['info:eu-repo/semantics/openAccess'] }) },
      { name: 'schema.org isAccessibleForFree alone (F-UJI adds it as a URI)', make: withMeta({ access_free: true }) },
    ],
    fail: [
      bare,
      { name: 'a label only', make: withMeta({ access_level: ['Open Access'] }) },
      { name: 'a rights URI naming no term', make: withMeta({ access_level: ['info:eu-repo/semantics/whatever'] }) },
    ],
  },
  'FsF-A1-02M-1': { pass: [{ name: 'https', make: bareEvidence }], fail: [] },
  'FsF-A1-03D-1': { pass: [{ name: 'an https data link', make: withEvidence((e) => e.dataLinks.push(csv)) }], fail: [bare] },
  'FsF-I2-01M-1': {
    pass: [
      { name: 'any non-default namespace', make: withEvidence((e) => e.namespaces.push('http://vocab.example/private#')) },
      {
        name: "the schema of a verified repository's OAI-PMH format",
        make: withRepository({ oaiSchemas: ['http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd'] }),
      },
    ],
    fail: [
      bare,
      {
        name: "an unverified repository's OAI-PMH format",
        make: withRepository({ domainVerified: false, oaiSchemas: ['http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd'] }),
      },
    ],
  },
  'FsF-R1-01MD-1': {
    pass: [
      { name: 'Dataset', make: withMeta({ object_type: ['Dataset'] }) },
      { name: 'a DCMI type URI ending in Dataset', make: withMeta({ object_type: ['http://purl.org/dc/dcmitype/Dataset'] }) },
      { name: "SoftwareSourceCode (on F-UJI's list)", make: withMeta({ object_type: ['SoftwareSourceCode'] }) },
    ],
    fail: [
      bare,
      { name: 'a type F-UJI does not know', make: withMeta({ object_type: ['Banana'] }) },
      // F-UJI's "data content info" sub-test never reports success
      { name: 'no type, a typed content link', make: withEvidence((e) => e.dataLinks.push(csv)) },
    ],
  },
  // the 0-point sub-tests
  'FsF-R1-01MD-1a': {
    pass: [{ name: 'Dataset', make: withMeta({ object_type: ['Dataset'] }) }],
    fail: [bare, { name: 'an unknown type', make: withMeta({ object_type: ['Thing'] }) }],
  },
  'FsF-R1-01MD-1b': { pass: [{ name: 'a data link', make: withEvidence((e) => e.dataLinks.push(csv)) }], fail: [bare] },
  'FsF-R1-01MD-2a': {
    pass: [{ name: 'claimed type and size', make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'text/csv', claimedSize: '1024' }))) }],
    fail: [bare, { name: 'a type only', make: withEvidence((e) => e.dataLinks.push(csv)) }],
  },
  'FsF-R1-01MD-2b': { pass: [{ name: 'measured variables', make: withMeta({ measured_variable: ['t'] }) }], fail: [bare] },
  'FsF-R1-01MD-2c': {
    pass: [
      {
        name: 'a service endpoint',
        make: withEvidence(
          (e) => e.dataLinks.push(dataLink({ url: 'https://r.example/api' })),
          withMeta({ object_content_identifier: [{ url: 'https://r.example/api', type: null, size: null, source: 'schemaorg:service' }] }),
        ),
      },
    ],
    fail: [bare, { name: 'a data file', make: withEvidence((e) => e.dataLinks.push(csv)) }],
  },
  'FsF-R1-01MD-2': {
    pass: [
      { name: 'measured variables and a data file', make: withEvidence((e) => e.dataLinks.push(csv), withMeta({ measured_variable: ['t'] })) },
      {
        name: 'a data file with claimed type and size',
        make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'text/csv', claimedSize: '1024' }))),
      },
    ],
    fail: [bare, { name: 'measured variables without data files', make: withMeta({ measured_variable: ['t'] }) }],
  },
  'FsF-R1-01MD-3': {
    pass: [
      {
        name: 'claimed and served type and size agree',
        make: withEvidence((e) =>
          e.dataLinks.push(dataLink({ claimedType: 'text/csv', headerType: 'text/csv; charset=utf-8', claimedSize: '1024 bytes', headerLength: 1024 })),
        ),
      },
    ],
    fail: [
      bare,
      {
        name: 'claimed CSV, served HTML',
        make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'text/csv', headerType: 'text/html', claimedSize: '10', headerLength: 10 }))),
      },
      { name: 'types agree, no size claimed (F-UJI needs both)', make: withEvidence((e) => e.dataLinks.push(csv)) },
    ],
  },
  'FsF-R1-01MD-4': { pass: [], fail: [bare, { name: 'variables given (content is never parsed)', make: withMeta({ measured_variable: ['t'] }) }] },
  'FsF-R1.1-01M-2': {
    pass: [
      { name: 'an SPDX URL variant', make: withMeta({ license: ['https://opensource.org/licenses/MIT'] }) },
      { name: 'an SPDX name', make: withMeta({ license: ['Creative Commons Attribution 4.0 International'] }) },
      { name: 'an SPDX id', make: withMeta({ license: ['apache-2.0'] }) },
    ],
    fail: [bare, { name: 'a home-made licence', make: withMeta({ license: ['Use it kindly'] }) }],
  },
  'FsF-R1.3-01M-2': {
    pass: [
      { name: 'a disciplinary standard in the (domain-verified) re3data record', make: withRepository({ standards: ['http://www.isotc211.org/2005/gmd'] }) },
    ],
    fail: [
      bare,
      { name: 'only generic standards in re3data', make: withRepository({ standards: ['http://www.dcc.ac.uk/resources/metadata-standards/dublin-core'] }) },
      { name: 'a re3data record of another site', make: withRepository({ standards: ['http://www.isotc211.org/2005/gmd'], domainVerified: false }) },
      {
        name: 'a disciplinary standard in the OAI-PMH formats only',
        make: withRepository({ oaiSchemas: ['http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd'] }),
      },
    ],
  },
  // v0.5 reads R1.3-01M-1/-3 from every source (F-UJI community_metadata, metric version < 0.8)
  'metrics_v0.5/FsF-R1.3-01M-1': {
    pass: [
      { name: 'ISO 19139 namespace', make: withEvidence((e) => e.namespaces.push('http://www.isotc211.org/2005/gmd')) },
      { name: 'MARC in the OAI-PMH formats', make: withRepository({ oaiSchemas: ['http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd'] }) },
    ],
    fail: [bare, { name: 'a disciplinary standard from re3data only (that is -2)', make: withRepository({ standards: ['http://www.isotc211.org/2005/gmd'] }) }],
  },
  'metrics_v0.5/FsF-R1.3-01M-3': {
    pass: [
      { name: 'DataCite namespace', make: withEvidence((e) => e.namespaces.push('http://datacite.org/schema/kernel-4')) },
      { name: 'Dublin Core in the re3data record', make: withRepository({ standards: ['http://www.dcc.ac.uk/resources/metadata-standards/dublin-core'] }) },
    ],
    fail: [
      bare,
      {
        name: 'a generic standard from a re3data record of another site',
        make: withRepository({ standards: ['http://www.dcc.ac.uk/resources/metadata-standards/dublin-core'], domainVerified: false }),
      },
    ],
  },
  // F-UJI's text rule marks 1a and 1b passed (and 1c failed) for any text/XML/JSON type, listed or not (CSV: issue #604).
  'FsF-R1.3-02D-1a': {
    pass: [
      { name: 'GIF', make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'image/gif' }))) },
      { name: 'CSV (text rule)', make: withEvidence((e) => e.dataLinks.push(csv)) },
    ],
    fail: [bare, { name: 'HTML', make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'text/html' }))) }],
  },
  'FsF-R1.3-02D-1b': {
    pass: [
      { name: 'PDF', make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'application/pdf' }))) },
      { name: 'JSON (text rule)', make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'application/json' }))) },
    ],
    fail: [bare, { name: 'a zip archive', make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'application/zip' }))) }],
  },
  'FsF-R1.3-02D-1c': {
    pass: [{ name: 'NetCDF', make: withEvidence((e) => e.dataLinks.push(dataLink({ claimedType: 'application/x-netcdf' }))) }],
    fail: [bare, { name: 'CSV (the text rule never makes a scientific format)', make: withEvidence((e) => e.dataLinks.push(csv)) }],
  },
};

const run = (id: string, evidence: Evidence) => EVALUATORS[id]!(deriveFacts(evidence));

describe('every metric test has cases', () => {
  it('covers every test of every metric file', () => {
    const ids = [...new Set([...METRIC_FILES.values()].flatMap((f) => f.metrics.flatMap((m) => m.tests.map((t) => t.id))))];
    // The software (FRSM) tests have their cases in software-metric-tests.test.ts.
    expect(ids.filter((id) => !id.startsWith('FRSM-') && !CASES[id])).toEqual([]);
    // every version-specific evaluator has its own cases too
    expect(Object.keys(EVALUATORS).filter((key) => key.includes('/') && !CASES[key])).toEqual([]);
    expect([...METRIC_FILES.values()].every((f) => f.metrics.every((m) => m.tests.every((t) => evaluatorFor(f.version, t.id))))).toBe(true);
  });
});

for (const [id, cases] of Object.entries(CASES)) {
  describe(id, () => {
    for (const c of cases.pass) {
      it(`passes: ${c.name}`, () => {
        const outcome = run(id, c.make());
        expect(outcome.passed, outcome.reason).toBe(true);
        expect(outcome.reason.length).toBeGreaterThan(10);
      });
    }
    for (const c of cases.fail) {
      it(`fails: ${c.name}`, () => {
        const outcome = run(id, c.make());
        expect(outcome.passed, outcome.reason).toBe(false);
        expect(outcome.reason.length).toBeGreaterThan(10);
      });
    }
  });
}
