/** The harvest's parsers, without the network: Link headers, linksets, landing pages, mappings, XML, licences. */
import { describe, expect, it } from 'vitest';
import { mapDataCite } from '../../../../api-dynamic/src/services/fair/engine/harvest/datacite.ts';
import { roundTripSafe } from './parsing-helpers.ts';
import { looksJavascriptGenerated, parseLandingPage } from '../../../../api-dynamic/src/services/fair/engine/harvest/landing-page.ts';
import { parseLinkHeader, parseLinksetJson } from '../../../../api-dynamic/src/services/fair/engine/harvest/link-header.ts';
import { mapMetaTags } from '../../../../api-dynamic/src/services/fair/engine/harvest/meta-tags.ts';
import { mergeRecords } from '../../../../api-dynamic/src/services/fair/engine/harvest/record.ts';
import { contextNamespaces, mapSchemaOrg } from '../../../../api-dynamic/src/services/fair/engine/harvest/schemaorg.ts';
import { parseXml, turtleNamespaces } from '../../../../api-dynamic/src/services/fair/engine/harvest/xml.ts';
import { detectLicence, levenshteinRatio, looksLikeLicence } from '../../../../api-dynamic/src/services/fair/engine/vocab/licences.ts';
import { judgeMime, mimeFromUrl } from '../../../../api-dynamic/src/services/fair/engine/vocab/formats.ts';
import { accessTerm } from '../../../../api-dynamic/src/services/fair/engine/vocab/access-rights.ts';

const BASE = 'https://repo.example/record/1';

describe('Link header', () => {
  it('splits at top-level commas only, splits rel lists, resolves relative URLs, keeps type/profile/anchor', () => {
    const header =
      '<https://doi.org/10.1/x>; rel="cite-as", </meta?a=1,2>; rel="describedby alternate"; type="application/ld+json"; profile="https://schema.org/", ' +
      '<https://repo.example/f.csv>;rel=item;type=text/csv;anchor="https://repo.example/record/1", <https://x.example/q?rel=license>; rel="author"';
    expect(parseLinkHeader(header, BASE)).toEqual([
      { url: 'https://doi.org/10.1/x', rel: 'cite-as', type: null, profile: null, anchor: null, source: 'header' },
      {
        url: 'https://repo.example/meta?a=1,2',
        rel: 'describedby',
        type: 'application/ld+json',
        profile: 'https://schema.org/',
        anchor: null,
        source: 'header',
      },
      { url: 'https://repo.example/meta?a=1,2', rel: 'alternate', type: 'application/ld+json', profile: 'https://schema.org/', anchor: null, source: 'header' },
      { url: 'https://repo.example/f.csv', rel: 'item', type: 'text/csv', profile: null, anchor: 'https://repo.example/record/1', source: 'header' },
      // the rel inside the URL's query is not a parameter
      { url: 'https://x.example/q?rel=license', rel: 'author', type: null, profile: null, anchor: null, source: 'header' },
    ]);
  });

  it('lower-cases rels and types; ignores values without <url> or rel', () => {
    expect(parseLinkHeader('<a>; REL="DescribedBy"; TYPE="Application/XML", junk, <b>', BASE).map((l) => [l.rel, l.type])).toEqual([
      ['describedby', 'application/xml'],
    ]);
  });

  it('reads RFC 9264 JSON linksets', () => {
    const doc = {
      linkset: [
        {
          anchor: 'https://repo.example/record/1',
          describedby: [{ href: '/meta.xml', type: 'application/vnd.datacite.datacite+xml' }],
          'cite-as': [{ href: 'https://doi.org/10.1/x' }],
        },
      ],
    };
    expect(parseLinksetJson(doc, BASE)).toEqual([
      {
        url: 'https://repo.example/meta.xml',
        rel: 'describedby',
        type: 'application/vnd.datacite.datacite+xml',
        profile: null,
        anchor: 'https://repo.example/record/1',
        source: 'linkset',
      },
      { url: 'https://doi.org/10.1/x', rel: 'cite-as', type: null, profile: null, anchor: 'https://repo.example/record/1', source: 'linkset' },
    ]);
    expect(parseLinksetJson({ nope: 1 }, BASE)).toEqual([]);
  });
});

describe('landing page', () => {
  const html = `<!doctype html><html><head>
    <base href="https://repo.example/base/">
    <meta name="DC.Title" content="A title">
    <meta property="og:title" content="OG title">
    <link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">
    <link rel="describedby alternate" href="meta.json" type="Application/LD+JSON">
    <link rel="alternate meta" href="/m.xml" type="application/xml">
    <link rel="stylesheet" href="s.css">
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"Dataset","name":"A &amp; B"}</script>
    <script>var x = "<meta name='fake' content='no'>";</script>
    </head><body><p itemscope itemtype="https://schema.org/Dataset">Some visible text &amp; more. ${'Enough words to read as a real page. '.repeat(6)}</p><span property="dc:title">t</span></body></html>`;

  it('collects meta tags, typed links, JSON-LD (raw), schema links, microdata and RDFa', async () => {
    const page = await parseLandingPage(html, BASE);
    expect(page.metas).toEqual([
      { key: 'dc.title', content: 'A title', scheme: null },
      { key: 'og:title', content: 'OG title', scheme: null },
    ]);
    expect(page.links.map((l) => `${l.rel} ${l.url} ${l.type}`)).toEqual([
      'describedby https://repo.example/base/meta.json application/ld+json',
      'alternate https://repo.example/base/meta.json application/ld+json',
      'alternate meta https://repo.example/m.xml application/xml',
    ]);
    expect(page.jsonLd).toEqual(['{"@context":"https://schema.org","@type":"Dataset","name":"A &amp; B"}']);
    expect(page.schemaLinks.get('dc')).toBe('http://purl.org/dc/elements/1.1/');
    expect(page.microdataTypes).toEqual(['https://schema.org/Dataset']);
    expect(page.rdfaAttributes).toBe(1);
    expect(looksJavascriptGenerated(page)).toBe(false);
  });

  it('flags a page with scripts and almost no text as JavaScript-generated', async () => {
    const page = await parseLandingPage('<html><body><div id="app"></div><script src="app.js"></script></body></html>', BASE);
    expect(looksJavascriptGenerated(page)).toBe(true);
  });

  it('parses a page larger than one slice', async () => {
    const big = `<html><head><meta name="citation_title" content="T"></head><body>${'<p>text</p>'.repeat(20_000)}<script type="application/ld+json">{"@type":"Dataset"}</script></body></html>`;
    const page = await parseLandingPage(big, BASE);
    expect(page.metas).toHaveLength(1);
    expect(page.jsonLd).toEqual(['{"@type":"Dataset"}']);
  });
});

describe('meta tag mappings', () => {
  const metas = [
    { key: 'dc.creator', content: 'Doe, Jane', scheme: null },
    { key: 'dcterms.license', content: 'https://creativecommons.org/licenses/by/4.0/', scheme: null },
    { key: 'dc.rights', content: 'info:eu-repo/semantics/openAccess', scheme: null },
    { key: 'dc.relation', content: 'https://doi.org/10.1/paper', scheme: null },
    { key: 'dcterms.isversionof', content: '10.1/old', scheme: null },
    { key: 'dc.subject', content: 'a, b; c', scheme: null },
    { key: 'citation_doi', content: '10.1/x', scheme: null },
    { key: 'citation_journal_title', content: 'J', scheme: null },
    { key: 'og:site_name', content: 'Repo', scheme: null },
  ];
  const [dc, highwire, og] = mapMetaTags(metas, new Map());

  it('Dublin Core: licence, rights as access level, relations with their DCMI names, split keywords', () => {
    expect(dc!.standard).toBe('dublin-core');
    expect(dc!.record).toMatchObject({
      creator: ['Doe, Jane'],
      license: ['https://creativecommons.org/licenses/by/4.0/'],
      access_level: ['info:eu-repo/semantics/openAccess'],
      keywords: ['a', 'b', 'c'],
      related_resources: [
        { related_resource: 'https://doi.org/10.1/paper', relation_type: 'relation' },
        { related_resource: '10.1/old', relation_type: 'isVersionOf' },
      ],
    });
    expect(dc!.namespaces).toEqual(['http://purl.org/dc/elements/1.1/', 'http://purl.org/dc/terms/']);
  });

  it('Highwire: DOI as identifier, article type from the journal tag; OpenGraph: site name as publisher', () => {
    expect(highwire!.record).toMatchObject({ object_identifier: ['https://doi.org/10.1/x'], object_type: ['article'] });
    expect(og!.record).toMatchObject({ publisher: ['Repo'] });
  });
});

describe('schema.org and DataCite mappings', () => {
  it('reads the main entity of a @graph, distribution links, licences in their forms, relations', () => {
    const doc = {
      '@context': ['https://schema.org/', { prov: 'http://www.w3.org/ns/prov#' }],
      '@graph': [
        { '@type': 'Organization', name: 'Org' },
        {
          '@type': 'Dataset',
          '@id': 'https://doi.org/10.1/x',
          name: 'Title',
          author: [{ givenName: 'Jane', familyName: 'Doe' }],
          license: { '@id': 'https://spdx.org/licenses/MIT' },
          distribution: [{ '@type': 'DataDownload', contentUrl: 'https://r.example/f.csv', encodingFormat: 'text/csv', contentSize: '12 kB' }],
          isBasedOn: 'https://r.example/source',
          isAccessibleForFree: true,
          variableMeasured: [{ '@type': 'PropertyValue', name: 'temperature' }],
        },
      ],
    };
    expect(mapSchemaOrg(doc)).toMatchObject({
      object_identifier: ['https://doi.org/10.1/x'],
      title: 'Title',
      creator: ['Jane Doe'],
      license: ['https://spdx.org/licenses/MIT'],
      object_content_identifier: [{ url: 'https://r.example/f.csv', type: 'text/csv', size: '12 kB', source: 'schemaorg:distribution' }],
      related_resources: [{ related_resource: 'https://r.example/source', relation_type: 'isBasedOn' }],
      access_free: true,
      measured_variable: ['temperature'],
      object_type: ['Dataset'],
    });
    expect(contextNamespaces(doc)).toEqual(['https://schema.org/', 'http://www.w3.org/ns/prov#']);
  });

  it('reads DataCite JSON (REST and negotiated forms alike)', () => {
    const attributes = {
      doi: '10.1/X',
      titles: [{ title: 'T' }],
      creators: [{ name: 'Doe, J' }],
      publisher: { name: 'Repo' },
      publicationYear: 2020,
      types: { resourceTypeGeneral: 'Dataset' },
      rightsList: [{ rightsUri: 'https://creativecommons.org/licenses/by/4.0/legalcode', rights: 'CC BY 4.0' }],
      relatedIdentifiers: [{ relatedIdentifier: '10.1/Y', relationType: 'IsDerivedFrom' }],
      contributors: [{ name: 'Holder', contributorType: 'RightsHolder' }],
      descriptions: [
        { description: 'Other', descriptionType: 'Other' },
        { description: 'Abstract', descriptionType: 'Abstract' },
      ],
    };
    const expected = {
      object_identifier: ['https://doi.org/10.1/X'],
      publisher: ['Repo'],
      publication_date: '2020',
      right_holder: ['Holder'],
      summary: 'Abstract',
      license: ['https://creativecommons.org/licenses/by/4.0/legalcode'],
      access_level: ['https://creativecommons.org/licenses/by/4.0/legalcode'],
      related_resources: [{ related_resource: '10.1/Y', relation_type: 'IsDerivedFrom' }],
    };
    expect(mapDataCite(attributes)).toMatchObject(expected);
    expect(mapDataCite({ data: { attributes } })).toMatchObject(expected);
    expect(mapDataCite({ hello: 'world' })).toEqual({});
  });

  it('merges: lists unioned, first scalar wins, content links completed by later sources', () => {
    const merged = mergeRecords([
      { title: 'First', keywords: ['a'], object_content_identifier: [{ url: 'u', type: null, size: null, source: 's1' }] },
      { title: 'Second, longer', keywords: ['a', 'b'], object_content_identifier: [{ url: 'u', type: 'text/csv', size: '3', source: 's2' }] },
    ]);
    expect(merged.title).toBe('First');
    expect(merged.keywords).toEqual(['a', 'b']);
    expect(merged.object_content_identifier).toEqual([{ url: 'u', type: 'text/csv', size: '3', source: 's1' }]);
    expect(roundTripSafe(merged)).toBe(true);
  });
});

describe('XML and RDF', () => {
  it('DataCite XML: namespaces, schema location, root namespace and fields', async () => {
    const xml = `<?xml version="1.0"?><resource xmlns="http://datacite.org/schema/kernel-4" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xsi:schemaLocation="http://datacite.org/schema/kernel-4 http://schema.datacite.org/meta/kernel-4/metadata.xsd">
      <identifier identifierType="DOI">10.1/X</identifier><creators><creator><creatorName>Doe, J</creatorName></creator></creators>
      <titles><title>T &amp; U</title></titles><publisher>Repo</publisher><publicationYear>2020</publicationYear>
      <resourceType resourceTypeGeneral="Dataset">Data</resourceType>
      <relatedIdentifiers><relatedIdentifier relatedIdentifierType="DOI" relationType="IsCitedBy">10.1/Z</relatedIdentifier></relatedIdentifiers>
    </resource>`;
    const doc = await parseXml(xml);
    expect(doc.root).toBe('resource');
    expect(doc.rootNamespace).toBe('http://datacite.org/schema/kernel-4');
    expect(doc.namespaces).toEqual(['http://datacite.org/schema/kernel-4', 'http://www.w3.org/2001/XMLSchema-instance']);
    expect(doc.record).toMatchObject({
      object_identifier: ['https://doi.org/10.1/X'],
      title: 'T & U',
      creator: ['Doe, J'],
      object_type: ['Dataset'],
      related_resources: [{ related_resource: '10.1/Z', relation_type: 'IsCitedBy' }],
    });
  });

  it('Turtle prefixes give namespaces', () => {
    expect(turtleNamespaces('@prefix prov: <http://www.w3.org/ns/prov#> .\nPREFIX dct: <http://purl.org/dc/terms/>\n')).toEqual([
      'http://www.w3.org/ns/prov#',
      'http://purl.org/dc/terms/',
    ]);
  });
});

describe('vocabularies', () => {
  it.each([
    ['https://creativecommons.org/licenses/by/4.0/legalcode', 'CC-BY-4.0'],
    ['http://creativecommons.org/licenses/by-nc-sa/3.0/', 'CC-BY-NC-SA-3.0'],
    ['https://creativecommons.org/publicdomain/zero/1.0/', 'CC0-1.0'],
    ['https://opensource.org/licenses/MIT', 'MIT'],
    ['https://spdx.org/licenses/Apache-2.0.html', 'Apache-2.0'],
    ['Apache-2.0', 'Apache-2.0'],
    ['MIT License', 'MIT'],
    ['GNU General Public License v3.0 only', 'GPL-3.0-only'],
  ])('licence %s is SPDX %s', (value, id) => {
    expect(detectLicence(value).spdxId).toBe(id);
  });

  it('unknown licences and access terms are not licences', () => {
    expect(detectLicence('All rights reserved by the authors').spdxId).toBeNull();
    expect(looksLikeLicence('info:eu-repo/semantics/openAccess')).toBe(false);
    expect(looksLikeLicence('https://creativecommons.org/licenses/by/4.0/')).toBe(true);
  });

  it('Levenshtein ratio as python-Levenshtein computes it', () => {
    // "kitten" vs "sitting": LCS "ittn" = 4 → indel distance 13 − 8 = 5 → (13 − 5) / 13
    expect(levenshteinRatio('kitten', 'sitting')).toBeCloseTo(8 / 13, 10);
    expect(levenshteinRatio('', '')).toBe(1);
  });

  it('access terms by URI, id or label, case-insensitively', () => {
    expect(accessTerm('INFO:EU-REPO/SEMANTICS/OPENACCESS')).toMatchObject({ condition: 'public', machineReadable: true });
    expect(accessTerm('embargoed access')).toMatchObject({ condition: 'embargoed', machineReadable: false });
    expect(accessTerm('http://purl.org/coar/access_right/c_16ec')).toMatchObject({ condition: 'restricted' });
    expect(accessTerm('unrestricted')).toBeNull();
  });

  it('file formats: list, text rule, archives, extensions', () => {
    expect(judgeMime('application/x-netcdf')).toMatchObject({ accepted: true, reasons: ['open', 'scientific'] });
    expect(judgeMime('text/csv; charset=utf-8')).toMatchObject({ accepted: true, reasons: ['text'] });
    expect(judgeMime('application/vnd.geo+json')).toMatchObject({ accepted: true });
    expect(judgeMime('text/html')).toMatchObject({ accepted: false });
    expect(judgeMime('application/zip')).toMatchObject({ accepted: false, archive: true });
    expect(mimeFromUrl('https://r.example/x.NC?download=1')).toBe('application/netcdf');
    expect(mimeFromUrl('https://r.example/x')).toBeNull();
  });
});
