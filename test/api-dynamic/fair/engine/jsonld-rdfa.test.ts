/**
 * JSON-LD parsed as RDF and full RDFa (issue 20): F-UJI parses JSON-LD with rdflib and RDFa with pyRdfa, then
 * walks the graph. Expectations are worked out by hand from the documents below and the v0.8 table in
 * docs/fair-engine.md (I1-01M-1: an embedded JSON-LD/RDFa record that supplied fields; I1-01M-2: negotiated
 * JSON-LD/RDF that supplied fields; F4-01M-1: an embedded record in schema.org, Dublin Core or DCAT).
 * Remote `@context`s other than schema.org's are never fetched: the mock serves one, and must never be asked.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assess } from '../../../../api-dynamic/src/services/fair/engine/assess.ts';
import { embeddedSources } from '../../../../api-dynamic/src/services/fair/engine/harvest/embedded.ts';
import { offlineContextLoader, parseJsonLd, readJsonLd, RemoteContextError } from '../../../../api-dynamic/src/services/fair/engine/harvest/jsonld.ts';
import { parseLandingPage } from '../../../../api-dynamic/src/services/fair/engine/harvest/landing-page.ts';
import type { AssessmentResult } from '../../../../contracts/fair/assessment.ts';
import { assessBody, fairApp, fairMockEnv, type FairApp } from '../../../helpers/fair-app.ts';
import { FAIR_FIXTURES, startFairMock, type FairMock } from '../../../helpers/fair-mock-resolver.ts';
import { plainFetcher } from '../../../helpers/fair-plain-fetcher.ts';
import { needShared } from '../../../helpers/needs.ts';

const SCHEMA = 'http://schema.org/';
const testStatus = (result: AssessmentResult) => Object.fromEntries(result.details.metrics.flatMap((m) => m.tests.map((t) => [t.id, t.status])));
const ctx = () => ({
  fetcher: null as never,
  options: null as never,
  signal: new AbortController().signal,
  log: [],
  warnings: [] as string[],
  memo: new Map(),
});

describe('JSON-LD as RDF', () => {
  it("resolves schema.org's context offline, whatever its spelling", async () => {
    for (const context of ['http://schema.org', 'https://schema.org/', 'https://schema.org/docs/jsonldcontext.jsonld', 'http://www.schema.org/']) {
      const graph = await parseJsonLd(JSON.stringify({ '@context': context, '@type': 'Dataset', name: 'T' }), 'https://repo.example/d/1');
      expect(graph.quads.map((q) => [q.predicate.value, q.object.value])).toEqual([
        ['http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `${SCHEMA}Dataset`],
        [`${SCHEMA}name`, 'T'],
      ]);
    }
  });

  it('reads what plain JSON reading missed: compact IRIs, an https @vocab, @graph and @reverse; DC terms fill the schema.org record', async () => {
    const doc = {
      '@context': { s: 'https://schema.org/', dct: 'http://purl.org/dc/terms/' },
      '@graph': [
        {
          '@id': 'https://repo.example/d/2',
          '@type': 's:Dataset',
          's:name': 'Compact names',
          's:creator': { '@type': 's:Person', 's:name': 'Doe, Jane' },
          'dct:license': { '@id': 'https://creativecommons.org/licenses/by/4.0/' },
          '@reverse': { 's:hasPart': { '@id': 'https://repo.example/collection', '@type': 's:Collection' } },
        },
      ],
    };
    const warnings: string[] = [];
    const reading = await readJsonLd(warnings, JSON.stringify(doc), doc, 'https://repo.example/d/2', [], 'test');
    expect(warnings).toEqual([]);
    expect(reading.standard).toBe('schemaorg');
    expect(reading.namespaces).toEqual(['https://schema.org/', 'http://purl.org/dc/terms/']);
    // the Dataset (3 properties besides its type, no incoming reference) outranks the Collection that has it as a part
    expect(reading.record).toMatchObject({
      title: 'Compact names',
      creator: ['Doe, Jane'],
      object_type: ['Dataset'],
      object_identifier: ['https://repo.example/d/2'],
      license: ['https://creativecommons.org/licenses/by/4.0/'], // dct:license, from the generic query
    });
  });

  it('a document without a context states no triples, so it maps nothing (F-UJI: rdflib drops non-IRI keys too)', async () => {
    const doc = { '@type': 'Dataset', name: 'No context' };
    const reading = await readJsonLd([], JSON.stringify(doc), doc, 'https://repo.example/d/3', [], 'test');
    expect(reading.record).toEqual({});
    expect(reading.standard).toBeNull();
  });

  it('refuses every other remote context, with a warning naming it, and never throws', async () => {
    await expect(offlineContextLoader.load('https://w3id.org/ro/crate/1.1/context')).rejects.toBeInstanceOf(RemoteContextError);
    const doc = { '@context': 'https://w3id.org/ro/crate/1.1/context', '@graph': [{ '@id': './', '@type': 'Dataset', name: 'RO-Crate' }] };
    const warnings: string[] = [];
    const reading = await readJsonLd(warnings, JSON.stringify(doc), doc, 'https://repo.example/d/4', [], 'embedded JSON-LD #1');
    expect(reading).toEqual({ record: {}, standard: null, namespaces: [] });
    expect(warnings).toEqual([
      "embedded JSON-LD #1: the remote @context https://w3id.org/ro/crate/1.1/context is not fetched (the engine resolves only schema.org's context, offline); nothing was read from it",
    ]);
  });

  it('a document longer than one 4 KB slice, with multi-byte text and surrogate pairs cut across slices, parses whole; a second parse is the cached graph', async () => {
    const keywords = Array.from({ length: 600 }, (_, i) => `Schlüsselwort ${i} – Meereis 🧊`);
    const text = JSON.stringify({ '@context': 'https://schema.org/', '@id': 'https://repo.example/d/5', '@type': 'Dataset', name: 'Große Daten', keywords });
    expect(text.length).toBeGreaterThan(3 * 4096);
    const graph = await parseJsonLd(text, 'https://repo.example/d/5');
    expect(graph.quads.filter((q) => q.predicate.value === `${SCHEMA}keywords`).map((q) => q.object.value)).toEqual(keywords);
    expect(await parseJsonLd(text, 'https://repo.example/d/5')).toBe(graph);
    // a surrogate pair exactly on the first slice boundary
    const head = '{"@context":"https://schema.org/","@type":"Dataset","name":"';
    const name = `${'a'.repeat(4095 - head.length)}🧊`;
    const split = `${head}${name}"}`;
    expect(split.charCodeAt(4095)).toBe(0xd83e);
    expect((await parseJsonLd(split, 'https://repo.example/d/6')).quads.find((q) => q.predicate.value === `${SCHEMA}name`)!.object.value).toBe(name);
    // another base is another parse (relative IRIs would resolve differently)
    expect(await parseJsonLd(text, 'https://repo.example/other')).not.toBe(graph);
  });

  it('invalid JSON-LD (a number as @context) is a warning, not an error', async () => {
    const warnings: string[] = [];
    const reading = await readJsonLd(warnings, '{"@context": 5, "name": "x"}', { '@context': 5, name: 'x' }, 'https://repo.example/', [], 'test');
    expect(reading.record).toEqual({});
    expect(warnings[0]).toMatch(/^test: it is not valid JSON-LD \(/);
  });
});

const RDFA_PAGE = `<!doctype html><html prefix="dcat: http://www.w3.org/ns/dcat#"><head><title>x</title>
<meta property="og:title" content="An OpenGraph title">
</head><body about="https://repo.example/d/9" typeof="dcat:Dataset">
<h1 property="dcterms:title">Glacier mass balance</h1>
<p>Issued <time property="dc:issued" datetime="2020-02-03">3 February 2020</time>.</p>
<div rel="dcterms:creator"><span typeof="foaf:Person"><span property="foaf:name">Doe, Jane</span></span></div>
<a rel="dcterms:license" href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>
<div rel="dcat:distribution"><div typeof="dcat:Distribution"><a rel="dcat:downloadURL" href="/files/d9.csv">CSV</a> <span property="dcat:mediaType">text/csv</span></div></div>
<div about="/img/logo.png" property="dcterms:title" content="a logo"></div>
</body></html>`;

describe('RDFa 1.1 (beyond Lite)', () => {
  it('chains rel through incomplete triples, reads datetime, the initial-context prefixes (dc, dcterms, foaf, og) and drops image subjects', async () => {
    const page = await parseLandingPage(RDFA_PAGE, 'https://repo.example/d/9');
    expect(page.rdfaError).toBeNull();
    const triples = page.rdfa.quads.map(
      (q) => `${q.subject.termType === 'BlankNode' ? '_' : q.subject.value} ${q.predicate.value} ${q.object.termType === 'BlankNode' ? '_' : q.object.value}`,
    );
    expect(triples).toContain('https://repo.example/d/9 http://ogp.me/ns#title An OpenGraph title');
    expect(triples).toContain('https://repo.example/d/9 http://purl.org/dc/terms/creator _');
    expect(triples).toContain('_ http://www.w3.org/ns/dcat#downloadURL https://repo.example/files/d9.csv');
    expect(triples.some((t) => t.includes('logo'))).toBe(false);
    const [rdfa] = (await embeddedSources(ctx() as never, page, 'https://repo.example/d/9', 'text/html')).filter(
      (s) => s.source.method === 'rdfa' && s.source.standard !== 'opengraph',
    );
    expect(rdfa!.source).toMatchObject({ standard: 'dublin-core', namespaces: ['http://www.w3.org/ns/dcat#'] });
    expect(rdfa!.record).toMatchObject({
      object_identifier: ['https://repo.example/d/9'],
      title: 'Glacier mass balance',
      creator: ['Doe, Jane'],
      publication_date: '2020-02-03',
      license: ['https://creativecommons.org/licenses/by/4.0/'],
      object_content_identifier: [{ url: 'https://repo.example/files/d9.csv', type: 'text/csv', size: null, source: 'rdf:distribution' }],
    });
  });

  it.skipIf(!needShared('reference/fair-fixtures', 'the test of the recorded Zenodo page'))(
    'the recorded Zenodo page: its OpenGraph <meta property> tags are RDFa triples that map to nothing, so the RDFa graph adds no source',
    async () => {
      const html = readFileSync(path.join(FAIR_FIXTURES, 'zenodo_8347772_landing.html'), 'utf8');
      const page = await parseLandingPage(html, 'https://zenodo.org/record/8347772');
      const predicates = new Set(page.rdfa.quads.map((q) => q.predicate.value));
      expect(predicates.has('http://ogp.me/ns#title')).toBe(true);
      const sources = await embeddedSources(ctx() as never, page, 'https://zenodo.org/record/8347772', 'text/html');
      // the OpenGraph reader's source (method rdfa, as F-UJI counts it) is the only one of that method
      expect(sources.filter((s) => s.source.method === 'rdfa').map((s) => s.source.standard)).toEqual(['opengraph']);
    },
  );
});

describe('assessments of hand-written pages on the mock', () => {
  let mock: FairMock;
  let h: FairApp;
  const text = `<p>${'A landing page with enough words to read as text rather than a script shell. '.repeat(3)}</p>`;
  const page = (head: string, body = text) => `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
  const jsonLd = (doc: unknown) => `<script type="application/ld+json">${JSON.stringify(doc)}</script>`;
  const JSONLD_ACCEPT = 'application/ld+json';

  beforeAll(async () => {
    mock = await startFairMock();
    const b = mock.base;
    const remoteContext = `${b}/contexts/crate.jsonld`;
    mock.route(
      {
        path: '/repo.example/compact',
        accept: 'text/html, */*',
        headers: { 'content-type': 'text/html' },
        body: page(
          jsonLd({ '@context': { schema: 'http://schema.org/' }, '@type': 'schema:Dataset', 'schema:name': 'Compact', 'schema:creator': 'Doe, Jane' }),
        ),
      },
      {
        path: '/repo.example/remote',
        accept: 'text/html, */*',
        headers: { 'content-type': 'text/html' },
        body: page(jsonLd({ '@context': remoteContext, '@type': 'Dataset', name: 'Remote' })),
      },
      // served, so that a fetch would succeed: the test checks that it is never asked for
      {
        path: '/contexts/crate.jsonld',
        headers: { 'content-type': 'application/ld+json' },
        body: JSON.stringify({ '@context': { '@vocab': 'http://schema.org/' } }),
      },
      { path: '/repo.example/negotiated', accept: 'text/html, */*', headers: { 'content-type': 'text/html' }, body: page('') },
      {
        path: '/repo.example/negotiated',
        accept: JSONLD_ACCEPT,
        headers: { 'content-type': 'application/ld+json' },
        body: JSON.stringify({ '@context': 'https://schema.org/', '@type': 'Dataset', '@id': `${b}/repo.example/negotiated`, name: 'Negotiated' }),
      },
      { path: '/repo.example/negotiated-remote', accept: 'text/html, */*', headers: { 'content-type': 'text/html' }, body: page('') },
      { path: '/repo.example/rdfa', accept: 'text/html, */*', headers: { 'content-type': 'text/html' }, body: RDFA_PAGE },
      { path: '/files/d9.csv', headers: { 'content-type': 'text/csv' }, body: 'a,b\n1,2\n' },
      {
        path: '/repo.example/negotiated-remote',
        accept: JSONLD_ACCEPT,
        headers: { 'content-type': 'application/ld+json' },
        body: JSON.stringify({ '@context': remoteContext, '@type': 'Dataset', name: 'x' }),
      },
    );
    h = await fairApp({ ...fairMockEnv(mock), FAIR_CACHE_TTL_SECONDS: '0' });
  });
  afterAll(async () => {
    await h.close();
    await mock.close();
  });
  const run = (p: string) => assess(`${mock.base}${p}`, { upstreams: mock.upstreams() }, { fetcher: plainFetcher() });

  it('embedded JSON-LD with compact IRIs passes I1-01M-1 and F4-01M-1 (read as a graph)', async () => {
    const result = await run('/repo.example/compact');
    const tests = testStatus(result);
    expect(tests['FsF-I1-01M-1']).toBe('pass');
    expect(tests['FsF-F4-01M-1']).toBe('pass');
    expect(result.details.evidence.metadata).toMatchObject({ title: 'Compact', creator: ['Doe, Jane'] });
  });

  it('embedded JSON-LD with an unknown remote context: not fetched, a warning, the source maps nothing, I1-01M-1 fails', async () => {
    const before = mock.requests.length;
    const result = await run('/repo.example/remote');
    expect(mock.requests.slice(before).some((r) => r.path.startsWith('/contexts/'))).toBe(false);
    expect(result.details.evidence.warnings.some((w) => w.includes(`remote @context ${mock.base}/contexts/crate.jsonld is not fetched`))).toBe(true);
    expect(result.details.evidence.sources.find((s) => s.method === 'json_in_html')!.fields).toEqual([]);
    expect(testStatus(result)['FsF-I1-01M-1']).toBe('fail');
  });

  it('negotiated JSON-LD with schema.org passes I1-01M-2; with an unknown remote context it fails, unfetched', async () => {
    expect(testStatus(await run('/repo.example/negotiated'))['FsF-I1-01M-2']).toBe('pass');
    const before = mock.requests.length;
    const remote = await run('/repo.example/negotiated-remote');
    expect(testStatus(remote)['FsF-I1-01M-2']).toBe('fail');
    expect(mock.requests.slice(before).some((r) => r.path.startsWith('/contexts/'))).toBe(false);
  });

  it('a landing page with only RDFa (rel chaining) passes I1-01M-1, F4-01M-1 and F3 through its DCAT distribution, whose file is probed', async () => {
    const result = await run('/repo.example/rdfa');
    const tests = testStatus(result);
    expect(tests['FsF-I1-01M-1']).toBe('pass');
    expect(tests['FsF-F4-01M-1']).toBe('pass');
    expect(tests['FsF-F3-01M-2']).toBe('pass');
    expect(tests['FsF-A1-02MD-2']).toBe('pass');
    // the OpenGraph title comes first in the merge order (meta tags before the RDFa graph), so it is the one kept
    expect(result.details.evidence.metadata).toMatchObject({
      title: 'An OpenGraph title',
      creator: ['Doe, Jane'],
      license: ['https://creativecommons.org/licenses/by/4.0/'],
    });
    expect(result.details.evidence.dataLinks.map((l) => [l.url, l.status])).toEqual([[`${mock.base}/files/d9.csv`, 200]]);
  });

  it('through the route, a remote context is a scored 200, never a 500', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/fair/api/v1/assess',
      headers: { 'content-type': 'application/json' },
      payload: assessBody(`${mock.base}/repo.example/remote`),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(mock.requests.some((r) => r.path.startsWith('/contexts/'))).toBe(false);
  });
});
