/**
 * schema.org microdata on a landing page (F-UJI reads it with extruct): items become JSON-LD-like objects and are
 * mapped like JSON-LD; a microdata record counts for F4-01M-1 (offering method microdata) but not for I1-01M-1.
 * RDFa Lite in the body (F-UJI: pyRdfa) becomes triples mapped like RDF; it counts for F4 and I1-01M-1 when it
 * describes the resource, and not when it describes nothing.
 */
import { describe, expect, it } from 'vitest';
import { evaluateEvidence } from '../../../../api-dynamic/src/services/fair/engine/assess.ts';
import { embeddedSources } from '../../../../api-dynamic/src/services/fair/engine/harvest/embedded.ts';
import { parseLandingPage } from '../../../../api-dynamic/src/services/fair/engine/harvest/landing-page.ts';
import { metricFile } from '../../../../api-dynamic/src/services/fair/metrics/load.ts';
import { bareEvidence } from './evidence-fixture.ts';

const PAGE = `<!doctype html><html><head><title>x</title></head><body>
<div itemscope itemtype="https://schema.org/Dataset">
  <h1 itemprop="name">Sea ice <b>thickness</b></h1>
  <meta itemprop="datePublished" content="2021-03-04">
  <span itemprop="creator" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Doe, Jane</span></span>
  <a itemprop="license" href="https://creativecommons.org/licenses/by/4.0/">CC BY</a>
  <span itemprop="keywords">sea ice</span><span itemprop="keywords">arctic</span>
  <p itemprop="description">Thickness of sea ice.</p>
</div>
<div itemscope itemtype="https://example.org/Thing"><span itemprop="name">not schema.org</span></div>
</body></html>`;

const ctx = () => ({
  fetcher: null as never,
  options: null as never,
  signal: new AbortController().signal,
  log: [],
  warnings: [] as string[],
  memo: new Map(),
});

describe('microdata', () => {
  it('parses items with nested items, text of descendants, meta content and link href', async () => {
    const page = await parseLandingPage(PAGE, 'https://repo.example/d/1');
    expect(page.microdata[0]).toEqual({
      '@type': ['Dataset'],
      '@context': 'https://schema.org/',
      name: 'Sea ice thickness',
      datePublished: '2021-03-04',
      creator: { '@type': ['Person'], '@context': 'https://schema.org/', name: 'Doe, Jane' },
      license: 'https://creativecommons.org/licenses/by/4.0/',
      keywords: ['sea ice', 'arctic'],
      description: 'Thickness of sea ice.',
    });
    expect(page.microdata).toHaveLength(2);
  });

  it('maps schema.org items like JSON-LD; F4 passes by microdata, I1 does not', async () => {
    const page = await parseLandingPage(PAGE, 'https://repo.example/d/1');
    const [source] = await embeddedSources(ctx() as never, page, 'https://repo.example/d/1', 'text/html');
    expect(source!.source).toMatchObject({ method: 'microdata', standard: 'schemaorg' });
    expect(source!.record).toMatchObject({
      title: 'Sea ice thickness',
      creator: ['Doe, Jane'],
      license: ['https://creativecommons.org/licenses/by/4.0/'],
      publication_date: '2021-03-04',
    });
    const evidence = bareEvidence();
    evidence.sources.push(source!.source);
    const tests = Object.fromEntries(evaluateEvidence(evidence, metricFile('0.8')).details.flatMap((m) => m.tests.map((t) => [t.id, t.status])));
    expect(tests['FsF-F4-01M-1']).toBe('pass');
    expect(tests['FsF-I1-01M-1']).toBe('fail');
  });
});

const RDFA_PAGE = `<!doctype html><html><head><title>x</title></head><body vocab="http://schema.org/" prefix="dct: http://purl.org/dc/terms/">
<div typeof="Dataset" resource="https://repo.example/d/3">
  <h1 property="name">Ocean <i>colour</i></h1>
  <span property="creator" typeof="Person"><span property="name">Roe, Richard</span></span>
  <a property="license" href="https://creativecommons.org/licenses/by/4.0/">CC BY</a>
  <span property="dct:issued" content="2022-05-06">May 2022</span>
</div></body></html>`;

describe('RDFa (rdfa-streaming-parser)', () => {
  it('maps vocab, prefix, typeof/resource, nested nodes, href and content values; passes F4 and I1-01M-1', async () => {
    const page = await parseLandingPage(RDFA_PAGE, 'https://repo.example/d/3');
    const sources = await embeddedSources(ctx() as never, page, 'https://repo.example/d/3', 'text/html');
    const rdfa = sources.find((s) => s.source.method === 'rdfa')!;
    expect(rdfa.source).toMatchObject({ standard: 'schemaorg', namespaces: ['http://purl.org/dc/terms/', 'http://schema.org/'] });
    expect(rdfa.record).toMatchObject({
      object_identifier: ['https://repo.example/d/3'],
      title: 'Ocean colour',
      creator: ['Roe, Richard'],
      license: ['https://creativecommons.org/licenses/by/4.0/'],
      publication_date: '2022-05-06', // dct:issued, filled in from the generic query (harvest/graph.ts)
      object_type: ['Dataset'], // the schema.org walk names the type by its local name, as F-UJI does
    });
    const evidence = bareEvidence();
    evidence.sources.push(rdfa.source);
    const tests = Object.fromEntries(evaluateEvidence(evidence, metricFile('0.8')).details.flatMap((m) => m.tests.map((t) => [t.id, t.status])));
    expect(tests['FsF-F4-01M-1']).toBe('pass');
    expect(tests['FsF-I1-01M-1']).toBe('pass');
  });

  it('RDFa attributes that describe nothing give a source without fields, which counts for nothing', async () => {
    const page = await parseLandingPage(
      '<html><body><div vocab="http://schema.org/"><span property="unknownThing">x</span></div></body></html>',
      'https://repo.example/',
    );
    const rdfa = (await embeddedSources(ctx() as never, page, 'https://repo.example/', 'text/html')).find((s) => s.source.method === 'rdfa')!;
    expect(rdfa.source.fields).toEqual([]);
  });
});
