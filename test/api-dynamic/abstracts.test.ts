/**
 * Live abstracts on `/works/{id}?abstract=1`, against a mock catalogue on loopback. The oracles are
 * independent of the service: the screening sample's stored text (screened.csv of the fixture snapshot) and
 * texts this file encodes into inverted indexes itself. Every answer keeps the work record intact (the record
 * without `abstract=1`, plus the abstract fields); upstream trouble is a 200 with a reason, never a 500; the
 * catalogue is asked once per work (cache, shared in-flight fetch) and never for a screened work with text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appFor } from '../helpers/app.ts';
import { invert } from '../helpers/catalogue-fixtures.ts';
import { expectError } from '../helpers/cohort.ts';
import { fixtureBuild, fixtureSnapshot, markReal, tempDir } from '../helpers/fixture-build.ts';
import { type MockCatalogue, startMockCatalogue, type UpstreamWork } from '../helpers/mock-catalogue.ts';

const API = '/frame/api/v1';
const OA = 'https://openalex.org/';
const tmp = tempDir('abstracts');
type App = Awaited<ReturnType<typeof appFor>>;
type Res = Awaited<ReturnType<App['app']['inject']>>;

let out = '';
let mock: MockCatalogue;
let app: App;
/** The same build with a 300 ms catalogue timeout, for the hang. */
let impatient: App;
/** A build of the same snapshot as generated (`synthetic: true`): its ids are made up, nothing is fetched. */
let synthetic: App;

/** A screened work whose screening record holds an abstract, and that text. */
let screened: { id: string; abstract: string };
/** A screened work whose screening record has no abstract: it must be fetched like any other. */
let screenedEmpty: string;
/** Frame works outside the screening sample, one per case (failures are cached, so no two cases share one). */
const ids: Record<string, string> = {};
const CASES = ['live', 'concurrent', 'screenedEmptyLive', 'missing', 'emptyIndex', 'nullIndex', 'badIndex', 'error500', 'hang', 'malformed', 'params'] as const;

/** Texts encoded here, with repeated tokens, punctuation kept on tokens, and non-ASCII. */
const LIVE_TEXT = 'the cohort of the study was the largest cohort of its kind , and the study was repeated in Montréal .';
const CONCURRENT_TEXT = 'one fetch serves all three requests and one cache holds it';
const SCREENED_EMPTY_TEXT = 'a screened work without a stored abstract is fetched like any other work';

/** An inverted index with its keys in reverse order of first appearance and each token's positions descending. */
function scrambled(text: string): Record<string, number[]> {
  const index = invert(text);
  return Object.fromEntries(
    Object.entries(index)
      .reverse()
      .map(([token, positions]) => [token, [...positions].reverse()]),
  );
}

function upstream(id: string, index: UpstreamWork['abstract_inverted_index']): UpstreamWork {
  return { id: `${OA}${id}`, title: `Upstream title of ${id}`, publication_date: '2020-01-01', publication_year: 2020, abstract_inverted_index: index };
}

beforeAll(async () => {
  const snapshot = await fixtureSnapshot(tmp.path, { works: 800 });
  const syntheticOut = join(tmp.path, 'out-synthetic');
  await fixtureBuild(snapshot, syntheticOut, false);
  // Live fetching is for real records: the rest of the file reads a build whose manifest says synthetic: false.
  markReal(snapshot);
  out = join(tmp.path, 'out');
  await fixtureBuild(snapshot, out, false);

  const works = parse(readFileSync(join(snapshot, 'works.csv')), { columns: true }) as { id: string }[];
  const screenRows = parse(readFileSync(join(snapshot, 'screened.csv')), { columns: true }) as { work_id: string; abstract: string }[];
  const inScreen = new Set(screenRows.map((r) => r.work_id));
  const withText = screenRows.find((r) => r.abstract.trim() !== '');
  const withoutText = screenRows.find((r) => r.abstract === '');
  if (!withText || !withoutText) throw new Error('the fixture screen lacks a work with (or without) a stored abstract');
  screened = { id: withText.work_id, abstract: withText.abstract };
  screenedEmpty = withoutText.work_id;
  const others = works.map((w) => w.id).filter((id) => !inScreen.has(id));
  CASES.forEach((c, i) => (ids[c] = others[i * 7]!));
  ids.screenedEmptyLive = screenedEmpty;

  mock = await startMockCatalogue([
    upstream(ids.live!, scrambled(LIVE_TEXT)),
    upstream(ids.concurrent!, invert(CONCURRENT_TEXT)),
    upstream(screenedEmpty, invert(SCREENED_EMPTY_TEXT)),
    // ids.missing is not in the catalogue at all.
    upstream(ids.emptyIndex!, {}),
    upstream(ids.nullIndex!, null),
    // Positions that are not numbers: a record the service cannot read.
    upstream(ids.badIndex!, { word: ['zero'] } as unknown as Record<string, number[]>),
    upstream(ids.error500!, invert('never served')),
    upstream(ids.hang!, invert('never served')),
    upstream(ids.malformed!, invert('never served')),
    upstream(ids.params!, invert('never served')),
    // A screened work with text, in the catalogue with a different text: the screening record must win.
    upstream(screened.id, invert('the catalogue text must not be used')),
  ]);
  app = await appFor(out, { CATALOGUE_URL: mock.url });
  impatient = await appFor(out, { CATALOGUE_URL: mock.url, CATALOGUE_TIMEOUT_MS: '300' });
  synthetic = await appFor(syntheticOut, { CATALOGUE_URL: mock.url });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await impatient?.close();
  await synthetic?.close();
  await mock?.close();
  tmp.remove();
});

beforeEach(() => mock.clearFaults());

/** The catalogue requests for one work so far. */
const asked = (id: string) => mock.requests.filter((r) => r.path === `/works/${id}`);

/** The record without abstract=1, as JSON. */
async function plainRecord(h: App, id: string): Promise<Record<string, unknown>> {
  const res = await h.app.inject(`${API}/works/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

/**
 * A 200 whose body is the plain record plus exactly the abstract fields; returns those fields. The plain
 * record is fetched first, so its own (absent) catalogue traffic cannot hide the abstract request.
 */
async function withAbstract(h: App, id: string): Promise<{ res: Res; fields: Record<string, unknown> }> {
  const plain = await plainRecord(h, id);
  expect(plain).not.toHaveProperty('abstract');
  expect(plain).not.toHaveProperty('abstract_source');
  const res = await h.app.inject(`${API}/works/${id}?abstract=1`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  const { abstract, abstract_source, abstract_unavailable, ...rest } = body;
  expect(rest).toEqual(plain);
  const fields: Record<string, unknown> = { abstract, abstract_source };
  if ('abstract_unavailable' in body) fields.abstract_unavailable = abstract_unavailable;
  return { res, fields };
}

/** The request for `id` went to /works/W… asking for the id and the index only. */
function expectCatalogueRequest(id: string, times = 1) {
  const reqs = asked(id);
  expect(reqs).toHaveLength(times);
  for (const r of reqs) {
    expect(r.params.get('select')).toBe('id,abstract_inverted_index');
    expect([...r.params.keys()]).toEqual(['select']);
  }
}

async function expectUnavailable(h: App, id: string, reason: string) {
  const { res, fields } = await withAbstract(h, id);
  expect(fields).toEqual({ abstract: null, abstract_source: null, abstract_unavailable: { reason, message: expect.any(String) } });
  expect((fields.abstract_unavailable as { message: string }).message).toContain(id);
  expect(res.headers['cache-control']).toBe('no-store');
  return res;
}

describe('GET /works/{id}?abstract=1', () => {
  it('serves a screened work its screening record, without asking the catalogue', async () => {
    const before = mock.requests.length;
    const { res, fields } = await withAbstract(app, screened.id);
    expect(fields).toEqual({ abstract: screened.abstract, abstract_source: 'screening_record' });
    expect(res.headers['cache-control']).toBe('public, s-maxage=3600');
    expect(mock.requests.length).toBe(before);
    expect(asked(screened.id)).toEqual([]);
  });

  it('on a synthetic snapshot: the screening record still, but nothing fetched for any other work (synthetic_snapshot)', async () => {
    const before = mock.requests.length;
    expect((await withAbstract(synthetic, screened.id)).fields).toEqual({ abstract: screened.abstract, abstract_source: 'screening_record' });
    const { res, fields } = await withAbstract(synthetic, ids.live!);
    expect(fields).toEqual({
      abstract: null,
      abstract_source: null,
      abstract_unavailable: { reason: 'synthetic_snapshot', message: expect.stringMatching(/generated sample data/) },
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((res.json() as { meta: { snapshot: { synthetic: boolean } } }).meta.snapshot.synthetic).toBe(true);
    expect(mock.requests.length).toBe(before);
    expect((await plainRecord(app, ids.live!)).meta).toMatchObject({ snapshot: { synthetic: false } });
  });

  it('restores an abstract from the catalogue inverted index (repeated tokens, keys and positions out of order)', async () => {
    const { res, fields } = await withAbstract(app, ids.live!);
    expect(fields).toEqual({ abstract: LIVE_TEXT, abstract_source: 'openalex_live' });
    expect(res.headers['cache-control']).toBe('public, s-maxage=3600');
    expectCatalogueRequest(ids.live!);
  });

  it('keeps an answer: a second request does not ask the catalogue again', async () => {
    const before = mock.requests.length;
    const { fields } = await withAbstract(app, ids.live!);
    expect(fields).toEqual({ abstract: LIVE_TEXT, abstract_source: 'openalex_live' });
    expect(mock.requests.length).toBe(before);
  });

  it('shares one catalogue fetch between concurrent requests for a work', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => app.app.inject(`${API}/works/${ids.concurrent}?abstract=1`)));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ abstract: CONCURRENT_TEXT, abstract_source: 'openalex_live' });
    }
    expectCatalogueRequest(ids.concurrent!, 1);
  });

  it('fetches a screened work that has no stored abstract', async () => {
    const { fields } = await withAbstract(app, screenedEmpty);
    expect(fields).toEqual({ abstract: SCREENED_EMPTY_TEXT, abstract_source: 'openalex_live' });
    expectCatalogueRequest(screenedEmpty);
  });

  it('says not_in_catalogue when the catalogue has no such work (404)', async () => {
    await expectUnavailable(app, ids.missing!, 'not_in_catalogue');
    expectCatalogueRequest(ids.missing!);
  });

  it('says no_abstract_upstream for an empty or null index', async () => {
    await expectUnavailable(app, ids.emptyIndex!, 'no_abstract_upstream');
    await expectUnavailable(app, ids.nullIndex!, 'no_abstract_upstream');
    expectCatalogueRequest(ids.emptyIndex!);
    expectCatalogueRequest(ids.nullIndex!);
  });

  it('says upstream_invalid for an index it cannot read', async () => {
    await expectUnavailable(app, ids.badIndex!, 'upstream_invalid');
  });

  it('answers a catalogue 500 with the record and upstream_error (no-store), and remembers the failure briefly', async () => {
    mock.fault({ kind: 'status', status: 500 }, { match: (path) => path === `/works/${ids.error500}` });
    await expectUnavailable(app, ids.error500!, 'upstream_error');
    expectCatalogueRequest(ids.error500!);
    // A failure is remembered briefly: the catalogue is not asked again by the next request.
    await expectUnavailable(app, ids.error500!, 'upstream_error');
    expectCatalogueRequest(ids.error500!, 1);
  });

  it('answers a hung catalogue with upstream_timeout once CATALOGUE_TIMEOUT_MS=300 has passed', async () => {
    await plainRecord(impatient, ids.hang!);
    mock.fault({ kind: 'hang' }, { match: (path) => path === `/works/${ids.hang}` });
    const t0 = performance.now();
    const res = await impatient.app.inject(`${API}/works/${ids.hang}?abstract=1`);
    const elapsed = performance.now() - t0;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ abstract: null, abstract_source: null, abstract_unavailable: { reason: 'upstream_timeout' } });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expectCatalogueRequest(ids.hang!);
  });

  it('says upstream_invalid for a body that is not JSON', async () => {
    mock.fault({ kind: 'malformed' }, { match: (path) => path === `/works/${ids.malformed}` });
    await expectUnavailable(app, ids.malformed!, 'upstream_invalid');
    expectCatalogueRequest(ids.malformed!);
  });

  it('rejects other values and repeats of abstract with the shared error body, asking nobody', async () => {
    const before = mock.requests.length;
    for (const query of ['abstract=2', 'abstract=', 'abstract=false', 'abstract=1&abstract=1', 'abstract=&abstract=']) {
      const body = expectError(await app.app.inject(`${API}/works/${ids.params}?${query}`), 'INVALID_PARAMETER');
      expect(body.message, query).toContain('abstract');
      expect(body.details?.[0]?.parameter, query).toBe('abstract');
    }
    expectError(await app.app.inject(`${API}/works/${ids.params}?abstract=1&other=1`), 'UNKNOWN_PARAMETER');
    expectError(await app.app.inject(`${API}/works/W1?abstract=1`), 'NOT_FOUND', 404);
    expectError(await app.app.inject(`${API}/works/X1?abstract=1`), 'INVALID_PARAMETER');
    expect(mock.requests.length).toBe(before);
  });
});
