/**
 * End-to-end: PANGAEA 902845 and Zenodo 8347772 assessed against the loopback mock replaying F-UJI's
 * recorded responses (../shared/reference/fair-fixtures): what was asked, how, and what was read. The scores are
 * F-UJI's own on the same recordings, test by test (fuji-agreement.test.ts); the summaries below are those.
 *
 * The cassettes did not record the data files themselves, so the mock answers their HEAD with 200 and the
 * claimed type (a synthetic route, as a live repository would).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessmentResultSchema, type AssessmentResult } from '../../../../contracts/fair/assessment.ts';
import { assess } from '../../../../api-dynamic/src/services/fair/engine/assess.ts';
import { githubRoutes, replayRoutes, startFairMock, type FairMock } from '../../../helpers/fair-mock-resolver.ts';
import { plainFetcher } from '../../../helpers/fair-plain-fetcher.ts';
import { needShared } from '../../../helpers/needs.ts';

const haveFixtures = needShared('reference/fair-fixtures', 'the recorded FAIR assessments');

const ACCEPT_RDF = 'text/turtle, application/turtle, application/x-turtle;q=0.8, application/rdf+xml, text/n3;q=0.9, text/rdf+n3;q=0.9,application/ld+json';

const asTable = (result: AssessmentResult) => Object.fromEntries(result.metrics.map((m) => [m.id, [m.scoreEarned, m.maturity]]));

describe.skipIf(!haveFixtures)('recorded PANGAEA 902845', () => {
  let mock: FairMock;
  let result: AssessmentResult;
  beforeAll(async () => {
    mock = await startFairMock();
    mock.route(...replayRoutes('pangaea', mock.base));
    mock.route({ path: '/doi.pangaea.de/10.1594/PANGAEA.902845?format=zip', headers: { 'content-type': 'application/zip' }, body: 'PK\u0003\u0004' });
    // one run before the checked one (the request log below counts both)
    await assess('10.1594/PANGAEA.902845', { upstreams: mock.upstreams() }, { fetcher: plainFetcher() });
    result = await assess('https://doi.org/10.1594/PANGAEA.902845', { upstreams: mock.upstreams() }, { fetcher: plainFetcher() });
  });
  afterAll(() => mock.close());

  it('scores 25/26, as F-UJI does', () => {
    // R 5/6: R1.3-02D fails (only a zip); R1-01M-2 passes on the object's size, taken for its one data file
    expect(result.summary).toEqual({
      scoreEarned: 25,
      scoreTotal: 26,
      scorePercent: 96.15,
      findability: 100,
      accessibility: 100,
      interoperability: 100,
      reusability: 83.33,
    });
    expect(result.details.summary.categories.R!.maturity).toBe(2);
    expect(result.details.summary.FAIR.maturity).toBe(2.75);
    expect(assessmentResultSchema.parse(result)).toBeTruthy();
  });

  it('v0.5: 19/24, as F-UJI', async () => {
    const v05 = await assess('10.1594/PANGAEA.902845', { upstreams: mock.upstreams(), metricVersion: '0.5' }, { fetcher: plainFetcher() });
    // F 6/7: F4-01M-2 asks DataCite's REST API, which the recording does not hold (404); R 6/10
    expect(v05.summary).toEqual({
      scoreEarned: 19,
      scoreTotal: 24,
      scorePercent: 79.17,
      findability: 85.71,
      accessibility: 100,
      interoperability: 100,
      reusability: 60,
    });
    expect(v05.details.summary.FAIR.maturity).toBe(2.75);
  });

  it('resolved through the DOI resolver to the repository landing page', () => {
    expect(result.resolvedUrl).toBe(`${mock.base}/doi.pangaea.de/10.1594/PANGAEA.902845`);
    expect(result.details.evidence.resolution).toMatchObject({ status: 200, pidRedirected: true, redirects: [`${mock.base}/doi.org/10.1594/PANGAEA.902845`] });
  });

  it('asked only what F-UJI asked, with F-UJI Accept strings (every recorded request matched)', () => {
    const unmatched = [...new Set(mock.requests.filter((r) => !r.matched).map((r) => r.path))];
    // the DataCite REST record of this DOI and the re3data lookup of its client (pangaea.repository) were not recorded:
    // the PANGAEA cassette is F-UJI's harvest-only test, and F-UJI asks re3data from its R1.3 evaluator
    expect(unmatched).toEqual(['/api.datacite.org/dois/10.1594/PANGAEA.902845', '/re3data.org/api/beta/repositories?query=10.17616/R3XS37']);
    expect([...new Set(mock.requests.filter((r) => r.path === '/doi.org/10.1594/PANGAEA.902845').map((r) => r.accept))].sort()).toEqual(
      ['application/ld+json', 'application/vnd.datacite.datacite+json', 'text/html, */*', ACCEPT_RDF].sort(),
    );
    // no request was sent twice within one assessment (the mock saw three: the warm-up, the measured run and v0.5)
    const keys = mock.requests.map((r) => `${r.method} ${r.path} ${r.accept}`);
    expect(new Set(keys).size).toBe(keys.length / 3);
  });

  it('read the Link header signposting and the describedby documents of readable types only', () => {
    const { typedLinks, sources } = result.details.evidence;
    expect(typedLinks.filter((l) => l.source === 'header' && l.rel === 'describedby')).toHaveLength(8);
    expect(sources.filter((s) => s.method === 'signposting').map((s) => s.url.replace(mock.base, ''))).toEqual([
      '/doi.pangaea.de/10.1594/PANGAEA.902845?format=metadata_jsonld',
      '/doi.pangaea.de/10.1594/PANGAEA.902845?format=metadata_dif',
      '/doi.pangaea.de/10.1594/PANGAEA.902845?format=metadata_datacite4',
      '/doi.pangaea.de/10.1594/PANGAEA.902845?format=metadata_iso19139',
    ]);
    expect(mock.requests.some((r) => r.path.includes('format=citation_bibtex'))).toBe(false);
  });

  it('explains the failed metric', () => {
    const r13 = result.details.metrics.find((m) => m.id === 'FsF-R1.3-02D')!;
    expect(r13.tests[0]!.reason).toBe('the data is only offered as archives ("application/zip"), whose content is not inspected');
  });
});

describe.skipIf(!haveFixtures)('recorded Zenodo 8347772', () => {
  let mock: FairMock;
  const zip = '/zenodo.org/record/8347772/files/pangaea-data-publisher/fuji-v2.2.5.zip';
  beforeAll(async () => {
    mock = await startFairMock();
    mock.route(...replayRoutes('zenodo', mock.base), ...githubRoutes(mock.base));
    mock.route({ path: zip, headers: { 'content-type': 'application/zip' }, body: 'PK\u0003\u0004' });
  });
  afterAll(() => mock.close());

  it('scores 18/26, as F-UJI does: the <link rel="alternate"> zip is not a data link', async () => {
    const result = await assess('10.5281/zenodo.8347772', { upstreams: mock.upstreams() }, { fetcher: plainFetcher() });
    // F 6/7 (F3-01M), A 4/7 (the data-link halves of A1-02MD, A1.1-01MD, A1.2-01MD), I 4/6, R 4/6
    expect(result.summary).toEqual({
      scoreEarned: 18,
      scoreTotal: 26,
      scorePercent: 69.23,
      findability: 85.71,
      accessibility: 57.14,
      interoperability: 66.67,
      reusability: 66.67,
    });
    expect(result.details.evidence.dataLinks).toEqual([]);
    expect(result.details.summary.FAIR.maturity).toBe(2);
    // the landing page answers every Accept with HTML: that is not metadata, and is not counted
    expect(result.details.evidence.sources.filter((s) => s.method === 'content_negotiation').map((s) => s.url.replace(mock.base, ''))).toEqual([
      '/data.crosscite.org/10.5281%2Fzenodo.8347772',
      '/data.crosscite.org/10.5281%2Fzenodo.8347772',
    ]);
    expect(result.details.evidence.sources.some((s) => s.method === 'registry_rest' && s.standard === 'datacite')).toBe(true);
    expect(mock.requests.filter((r) => !r.matched)).toEqual([]);
  });

  it('v0.5: 16/24, as F-UJI', async () => {
    const v05 = await assess('10.5281/zenodo.8347772', { upstreams: mock.upstreams(), metricVersion: '0.5' }, { fetcher: plainFetcher() });
    // F 6/7 (F3-01M), A 2/3 (A1-03D), I 3/4, R 5/10
    expect(v05.summary).toEqual({
      scoreEarned: 16,
      scoreTotal: 24,
      scorePercent: 66.67,
      findability: 85.71,
      accessibility: 66.67,
      interoperability: 75,
      reusability: 50,
    });
    expect(v05.details.summary.FAIR.maturity).toBe(2);
    expect(v05.details.evidence.repository).toMatchObject({
      dataciteClient: 'cern.zenodo',
      re3dataDoi: 'https://doi.org/10.17616/R3QP53',
      re3dataId: 'r3d100010468',
      name: 'Zenodo',
      domainVerified: true,
      standards: [
        'http://www.dcc.ac.uk/resources/metadata-standards/datacite-metadata-schema',
        'http://www.dcc.ac.uk/resources/metadata-standards/dublin-core',
      ],
    });
    expect(v05.details.evidence.repository!.apis.map((a) => a.type)).toEqual(['OAI-PMH']);
    expect(v05.details.evidence.repository!.oaiSchemas).toHaveLength(10);
    const fetched = v05.details.evidence.fetches.filter((f) => f.purpose.startsWith('re3data') || f.purpose.startsWith('oai-pmh'));
    expect(fetched.map((f) => [f.purpose, f.accept, f.status])).toEqual([
      ['re3data:query', 'application/xml, text/xml;q=0.5', 200],
      ['re3data:record', 'application/xml, text/xml;q=0.5', 200],
      ['oai-pmh:ListMetadataFormats', 'application/xml, text/xml;q=0.5', 200],
    ]);
  });

  it('without the registry: no DataCite, so no access rights and no related identifiers, but the embedded metadata still scores', async () => {
    const before = mock.requests.length;
    const result = await assess('10.5281/zenodo.8347772', { upstreams: mock.upstreams(), useRegistry: false }, { fetcher: plainFetcher() });
    const asked = mock.requests.slice(before);
    expect(asked.some((r) => r.path.startsWith('/api.datacite.org/') || r.path.startsWith('/data.crosscite.org/'))).toBe(false);
    const table = asTable(result);
    expect(table['FsF-A1-01M']).toEqual([0, 0]);
    // the relations (IsSupplementTo, IsVersionOf) were DataCite's only
    expect(table['FsF-I3-01M']).toEqual([0, 0]);
    // I1: embedded JSON-LD only (2 points, maturity 2)
    expect(table['FsF-I1-01M']).toEqual([2, 2]);
    // publisher comes from OpenGraph og:site_name, type from JSON-LD: F2 still full
    expect(table['FsF-F2-01M']).toEqual([2, 3]);
    // 18 − A1-01M 1 − I3-01M 2
    expect(result.summary.scoreEarned).toBe(15);
  });

  it('with the code host: the GitHub repository and its licence are harvested', async () => {
    const before = mock.requests.length;
    const result = await assess('10.5281/zenodo.8347772', { upstreams: mock.upstreams(), useCodeHost: true }, { fetcher: plainFetcher() });
    expect(result.details.evidence.codeHost).toEqual({
      repository: 'https://github.com/pangaea-data-publisher/fuji',
      fullName: 'pangaea-data-publisher/fuji',
      description: 'FAIRsFAIR Research Data Object Assessment Service',
      licenseSpdx: 'MIT',
      licenseName: 'MIT License',
      licensePath: 'LICENSE',
      topics: ['fairdata', 'hacktoberfest'],
      language: 'Python',
      // the data metrics do not walk the repository's files
      files: null,
      filesTruncated: false,
    });
    expect(
      mock.requests
        .slice(before)
        .filter((r) => r.path.startsWith('/api.github.com/'))
        .map((r) => r.path),
    ).toEqual(['/api.github.com/repos/pangaea-data-publisher/fuji', '/api.github.com/repos/pangaea-data-publisher/fuji/license']);
    // F-UJI reads its GitHub harvest only in the software metrics: the data scores do not change
    expect(result.summary.scoreEarned).toBe(18);
  });
});
