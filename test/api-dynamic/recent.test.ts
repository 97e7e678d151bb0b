/**
 * The recent layer end to end against a mock catalogue on loopback: a sync classifies exactly the designed
 * works (the fixtures' own route design is the oracle), /recent filters, counts and pages them like a plain
 * filter over the design, bad parameters are 400s, and the sync survives 429s, 500s, malformed bodies and
 * timeouts, records failures, refuses a second concurrent run and resumes an unfinished one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanadianLists } from '../../contracts/frame/canadian-lists.ts';
import { recentResponse, recentWorkResponse, type RecentWork, utcDay, windowStart } from '../../contracts/frame/recent.ts';
import { routeRules } from '../../api-dynamic/src/services/frame/recent/classify.ts';
import { FileLayerStore } from '../../api-dynamic/src/services/frame/recent/file-layer-store.ts';
import { SyncBusyError } from '../../api-dynamic/src/services/frame/recent/layer-store.ts';
import { runSync, type SyncOptions } from '../../api-dynamic/src/services/frame/recent/sync.ts';
import { appFor } from '../helpers/app.ts';
import { tempDir } from '../helpers/fixture-build.ts';
import type { MockCatalogue } from '../helpers/mock-catalogue.ts';
import { type DesignedWork, expectedLayerIds, recentFixture, testSyncOptions } from '../helpers/catalogue-fixtures.ts';
import { expectError } from '../helpers/cohort.ts';

const API = '/frame/api/v1';
const tmp = tempDir('recent');
const today = utcDay();
let out = '';
let lists: CanadianLists;
let designed: DesignedWork[];
let mock: MockCatalogue;

beforeAll(async () => {
  ({ out, lists, designed, mock } = await recentFixture(tmp.path, today));
});

afterAll(async () => {
  await mock?.close();
  tmp.remove();
});

const syncOptions = (store: FileLayerStore, extra: Partial<SyncOptions> = {}) => testSyncOptions({ lists, mock }, store, extra);

/** The oracle: designed works in the window with at least one designed route. */
const expectedIds = (days: number, keep?: (d: DesignedWork) => boolean) => expectedLayerIds(designed, today, days, keep);

describe('sync', () => {
  beforeEach(() => mock.clearFaults());

  it('stores exactly the designed matches of the window, with their routes and provenance', async () => {
    const store = await FileLayerStore.open(join(tmp.path, 'state-basic'));
    const outcome = await runSync(syncOptions(store));
    expect(outcome.status).toBe('succeeded');
    const { works } = await store.layer();
    expect(works.map((w) => w.id).sort()).toEqual(expectedIds(30).sort());
    const byId = new Map(designed.map((d) => [d.work.id.replace('https://openalex.org/', ''), d]));
    for (const w of works) {
      const d = byId.get(w.id)!;
      expect({ id: w.id, ...w.route_flags }).toEqual({ id: w.id, ...d.expected, invisible_to_affiliation: !d.expected.aff });
      expect(w.has_abstract).toBe(d.abstract !== null);
      expect(w.provenance.source_window_end).toBe(today);
      expect(w.provenance.route_version).toBe(routeRules(lists).routeVersion);
    }
    const run = (await store.runs())[0]!;
    expect(run).toMatchObject({
      status: 'succeeded',
      requested_days: 30,
      window_end: today,
      stored_rows: works.length,
      matched_rows: works.length,
      error: null,
    });
    expect(run.api_requests).toBeGreaterThan(0);
    expect(run.candidate_rows).toBeGreaterThanOrEqual(run.matched_rows);
  });

  it('retries a 429 (honouring Retry-After), a 500, a malformed body and a timeout, and still gets everything', async () => {
    const store = await FileLayerStore.open(join(tmp.path, 'state-faults'));
    const mark = mock.requests.length;
    mock.fault({ kind: 'status', status: 429, retryAfter: '0' });
    mock.fault({ kind: 'status', status: 503 });
    mock.fault({ kind: 'malformed' });
    mock.fault({ kind: 'hang' });
    const outcome = await runSync(syncOptions(store, { catalogue: { baseUrl: mock.url, timeoutMs: 300, retries: 5, retryBaseMs: 5, maxDelayMs: 50 } }));
    expect(outcome.run?.api_requests).toBe(mock.requests.length - mark);
    expect(outcome.status).toBe('succeeded');
    expect((await store.layer()).works.map((w) => w.id).sort()).toEqual(expectedIds(30).sort());
  });

  it('records a failure after the retries, keeps the served layer, and the next run resumes from the checkpoint', async () => {
    const store = await FileLayerStore.open(join(tmp.path, 'state-resume'));
    expect((await runSync(syncOptions(store, { days: 15 }))).status).toBe('succeeded');
    const before = await store.layer();
    // From the fourth page on, the catalogue fails every attempt (1 + 3 retries) of one page.
    let seen = 0;
    mock.fault({ kind: 'status', status: 500 }, { times: 4, match: (path) => path === '/works' && ++seen >= 4 });
    const failed = await runSync(syncOptions(store, { concurrency: 1 }));
    expect(failed.status).toBe('failed');
    expect(failed.run!.error).toMatch(/HTTP 500/);
    expect(await store.layer()).toEqual(before);
    let mark = mock.requests.length;
    const resumed = await runSync(syncOptions(store, { concurrency: 1 }));
    const resumedRequests = mock.requests.length - mark;
    expect(resumed.status).toBe('succeeded');
    expect(resumed.run!.resumed_from).toBe(failed.run!.id);
    expect((await store.layer()).works.map((w) => w.id).sort()).toEqual(expectedIds(30).sort());
    // Resuming skips the pages already staged: as many requests fewer than a fresh run of the window.
    mark = mock.requests.length;
    expect((await runSync(syncOptions(await FileLayerStore.open(join(tmp.path, 'state-fresh')), { concurrency: 1 }))).status).toBe('succeeded');
    expect(mock.requests.length - mark - resumedRequests).toBe(failed.run!.api_requests - 4);
  });

  it('runs one sync at a time', async () => {
    const store = await FileLayerStore.open(join(tmp.path, 'state-lock'));
    mock.fault({ kind: 'hang' });
    const first = runSync(syncOptions(store, { catalogue: { baseUrl: mock.url, timeoutMs: 400, retries: 3, retryBaseMs: 5, maxDelayMs: 50 } }));
    await new Promise((r) => setTimeout(r, 100));
    await expect(runSync(syncOptions(store))).rejects.toBeInstanceOf(SyncBusyError);
    expect((await first).status).toBe('succeeded');
  });

  it('skips when the last success is fresher than --if-stale-hours', async () => {
    const store = await FileLayerStore.open(join(tmp.path, 'state-basic'));
    const outcome = await runSync(syncOptions(store, { ifStaleHours: 20 }));
    expect(outcome.status).toBe('skipped');
  });
});

describe('GET /recent', () => {
  let app: Awaited<ReturnType<typeof appFor>>;
  let all: RecentWork[] = [];
  beforeAll(async () => {
    const stateDir = join(tmp.path, 'state-api');
    expect((await runSync(syncOptions(await FileLayerStore.open(stateDir)))).status).toBe('succeeded');
    app = await appFor(out, { STATE_DIR: stateDir, RECENT_REFRESH_MS: '0', CATALOGUE_URL: mock.url });
    all = await fetchAll('');
  });

  /** Every result of a query, page by page (the layer holds more than one page of 100). */
  async function fetchAll(query: string): Promise<RecentWork[]> {
    const out: RecentWork[] = [];
    for (let page = 1; ; page++) {
      const res = await app.app.inject(`${API}/recent?${query}&per_page=100&page=${page}`);
      expect(res.statusCode, query).toBe(200);
      const body = recentResponse.parse(res.json());
      out.push(...body.results);
      if (body.results.length < 100) {
        expect(body.meta.total, query).toBe(out.length);
        return out;
      }
    }
  }
  afterAll(async () => app?.close());

  it('answers the whole window in order: publication date desc, cited desc, id', async () => {
    const res = await app.app.inject(`${API}/recent?per_page=100`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, s-maxage=300');
    const body = recentResponse.parse(res.json());
    expect(body.meta.total).toBe(expectedIds(30).length);
    expect(body.meta.latest_sync?.status).toBe('succeeded');
    expect(body.meta.last_successful_sync?.id).toBe(body.meta.latest_sync?.id);
    const sorted = [...body.results].sort((a, b) =>
      a.publication_date !== b.publication_date
        ? a.publication_date < b.publication_date
          ? 1
          : -1
        : a.cited_by !== b.cited_by
          ? b.cited_by - a.cited_by
          : a.id < b.id
            ? -1
            : 1,
    );
    expect(body.results.map((w) => w.id)).toEqual(sorted.map((w) => w.id));
  });

  it('filters like a plain filter over the design', async () => {
    const byId = new Map(designed.map((d) => [d.work.id.replace('https://openalex.org/', ''), d]));
    const cases: [string, (d: DesignedWork) => boolean][] = [
      ['route=fund', (d) => d.expected.fund],
      ['route=no_aff', (d) => !d.expected.aff],
      ['route=about&days=15', (d) => d.expected.about && d.work.publication_date >= windowStart(today, 15)],
      ['has_abstract=false', (d) => d.abstract === null],
      ['has_abstract=1&lang=fr', (d) => d.abstract !== null && d.work.language === 'fr'],
      ['type=preprint', (d) => d.work.type === 'preprint'],
      ['q=Nova+SCOTIA', (d) => d.work.title.includes('Nova Scotia')],
      ['field=Medicine&route=aff', (d) => d.work.primary_topic?.field.display_name === 'Medicine' && d.expected.aff],
      [`year=${today.slice(0, 4)}`, (d) => d.work.publication_year === Number(today.slice(0, 4))],
    ];
    for (const [query, keep] of cases) {
      const days = /days=(\d+)/.exec(query)?.[1];
      const expected = expectedIds(days ? Number(days) : 30, keep);
      const results = await fetchAll(query);
      expect(results.map((w) => w.id).sort(), query).toEqual(expected.sort());
      for (const w of results) expect(byId.has(w.id)).toBe(true);
    }
  });

  it('pages without gaps or repeats', async () => {
    const ids: string[] = [];
    for (let page = 1; page <= 13; page++) {
      const body = recentResponse.parse((await app.app.inject(`${API}/recent?per_page=9&page=${page}`)).json());
      ids.push(...body.results.map((w) => w.id));
    }
    expect(ids).toEqual(all.map((w) => w.id));
  });

  it('serves one work by id, 404 for others', async () => {
    const w = all[0]!;
    const res = await app.app.inject(`${API}/recent/${w.id}`);
    expect(res.statusCode).toBe(200);
    const body = recentWorkResponse.parse(res.json());
    expect(body.id).toBe(w.id);
    expectError(await app.app.inject(`${API}/recent/W1`), 'NOT_FOUND', 404);
    expectError(await app.app.inject(`${API}/recent/X1`), 'INVALID_PARAMETER');
    expectError(await app.app.inject(`${API}/recent/${w.id}?x=1`), 'UNKNOWN_PARAMETER');
  });

  it('rejects bad parameters with a 400 naming them', async () => {
    const bad: [string, string, string][] = [
      ['days=14', 'INVALID_PARAMETER', 'days'],
      ['days=31', 'INVALID_PARAMETER', 'days'],
      ['days=2.5', 'INVALID_PARAMETER', 'days'],
      ['route=ca_aff', 'INVALID_PARAMETER', 'route'],
      ['has_abstract=maybe', 'INVALID_PARAMETER', 'has_abstract'],
      ['per_page=101', 'INVALID_PARAMETER', 'per_page'],
      ['page=0', 'INVALID_PARAMETER', 'page'],
      ['page=500&per_page=100', 'INVALID_PARAMETER', 'page'],
      ['year=20', 'INVALID_PARAMETER', 'year'],
      ['route=aff&route=fund', 'INVALID_PARAMETER', 'route'],
      ['sort=cited', 'UNKNOWN_PARAMETER', 'sort'],
      ['q=%20-%20', 'INVALID_PARAMETER', 'q'],
    ];
    for (const [query, code, parameter] of bad) {
      const body = expectError(await app.app.inject(`${API}/recent?${query}`), code);
      expect(body.message, query).toContain(parameter);
    }
  });

  it('sees a newer layer written by another process', async () => {
    const stateDir = join(tmp.path, 'state-api');
    const store = await FileLayerStore.open(stateDir);
    const { works } = await store.layer();
    await store.replaceLayer(works.slice(1), 'test-version');
    const body = recentResponse.parse((await app.app.inject(`${API}/recent?per_page=1`)).json());
    expect(body.meta.total).toBe(works.length - 1);
  });

  it('answers 503 with the shared error body when the layer cannot be read', async () => {
    const stateDir = join(tmp.path, 'state-damaged');
    mkdirSync(join(stateDir, 'recent'), { recursive: true });
    writeFileSync(join(stateDir, 'recent', 'works.jsonl'), '{"version":"x","count":2,"committed_at":"now"}\n{"id":\n');
    const damaged = await appFor(out, { STATE_DIR: stateDir, RECENT_REFRESH_MS: '0', CATALOGUE_URL: mock.url });
    try {
      expectError(await damaged.app.inject(`${API}/recent`), 'UPSTREAM_UNAVAILABLE', 503);
    } finally {
      await damaged.close();
    }
  });
});
