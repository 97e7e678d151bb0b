/**
 * metrics_v0.7_software end to end, offline:
 * - F-UJI's software cassette (https://github.com/pangaea-data-publisher/fuji, recorded 2024-05-03) replayed on a
 *   loopback mock, assessed by the engine and through the real Fastify app; the expected result of every test is
 *   the hand-written ORACLE below, each line derived from the recorded files and F-UJI's evaluator of the test;
 *   scores are summed from it independently of the engine;
 * - a small hand-made repository whose files satisfy FRSM-13-R1-2 (read through the real contents API shapes);
 * - the code host failing (rate limit 403/429, 5xx, timeout): 503 UPSTREAM_UNAVAILABLE with Retry-After, never a
 *   score and never counted against the caller's quota.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentResult } from '../../../../contracts/fair/assessment.ts';
import { assess } from '../../../../api-dynamic/src/services/fair/engine/assess.ts';
import { UpstreamUnavailableError } from '../../../../api-dynamic/src/services/fair/engine/errors.ts';
import { METRIC_FILES } from '../../../../api-dynamic/src/services/fair/metrics/load.ts';
import { expectError } from '../../../helpers/cohort.ts';
import { assessBody, fairApp, fairMockEnv, type FairApp } from '../../../helpers/fair-app.ts';
import { FAIR_FIXTURES, fujiRepositoryRoutes, startFairMock, type FairMock, type MockRoute } from '../../../helpers/fair-mock-resolver.ts';
import { plainFetcher } from '../../../helpers/fair-plain-fetcher.ts';
import { needShared } from '../../../helpers/needs.ts';

const SOFTWARE = METRIC_FILES.get('metrics_v0.7_software')!;
const fetcher = () => plainFetcher({ loopbackOnly: true, timeoutMs: 400 });

/**
 * Every test that passes for the recorded F-UJI repository, and why (all others fail: 33 of them are tests F-UJI
 * does not implement, the rest are listed in FAILS with the reason).
 */
const PASSES: Record<string, string> = {
  // F-UJI testProvenanceMetadataAvailable: the page's microdata names a creator, GitHub's record an owner and dates
  'FRSM-06-F2-1': 'creator',
  // testInstructions: README.md holds "build" (2×), "install" (13×), "run" (21×); docs/README.md "build" and "install"
  'FRSM-13-R1-1': '"install" in "README.md", "docs/README.md"',
  // testLicenseFileAvailable: LICENSE and fuji_server/models/license.py match the licence-file patterns
  'FRSM-15-R1.1-1': '"LICENSE", "fuji_server/models/license.py"',
  // licence-file testLicenseIsValidAndSPDXRegistered: /license says path LICENSE, name "MIT License" → SPDX MIT
  'FRSM-15-R1.1-3': 'MIT',
  // license testLicenseMetadataElementAvailable / -SPDX: the licence (GitHub's MIT) is in the metadata and on SPDX
  'FRSM-16-R1.1-1': 'MIT',
  'FRSM-16-R1.1-2': 'MIT',
};
const FAILS: Record<string, string> = {
  // the GitHub page and record give no publication date (core descriptive metadata needs one)
  'FRSM-04-F2-2': 'publication_date',
  // testDataUrlOrPIDAvailable: the page's favicon (<link rel="alternate" type="image/png">) is no data link: F-UJI
  // takes data links only from metadata and Signposting `item` links
  'FRSM-07-F3-1': 'no PID or URL of the downloadable data',
  'FRSM-09-A1-1': 'there is no data link',
  // a URL, not a DOI
  'FRSM-08-F4-1': 'not a DOI',
  // neither the page nor GitHub's record name related resources
  'FRSM-12-I2-1': 'no related resources',
  // no requirements.txt at the root (F-UJI uses pyproject.toml); the workflows' contents were not recorded (404)
  'FRSM-13-R1-2': 'no requirements.txt',
};

/** Earned, total and percent summed from the oracle and the metric file's scores (not from the engine). */
function oracleScores(): { total: { earned: number; total: number }; byCategory: Record<string, number> } {
  const byCategory: Record<string, { earned: number; total: number }> = {};
  let earned = 0;
  let total = 0;
  for (const metric of SOFTWARE.metrics) {
    const got = Math.min(
      metric.total,
      metric.tests.filter((t) => PASSES[t.id] !== undefined).reduce((sum, t) => sum + t.score, 0),
    );
    const c = (byCategory[metric.principle[0]!] ??= { earned: 0, total: 0 });
    c.earned += got;
    c.total += metric.total;
    earned += got;
    total += metric.total;
  }
  return {
    total: { earned, total },
    byCategory: Object.fromEntries(Object.entries(byCategory).map(([k, v]) => [k, Math.round((v.earned / v.total) * 10000) / 100])),
  };
}

function expectOracle(result: Pick<AssessmentResult, 'metricVersion' | 'summary' | 'metrics' | 'details'>) {
  expect(result.metricVersion).toBe('metrics_v0.7_software');
  const tests = result.details.metrics.flatMap((m) => m.tests);
  expect(tests).toHaveLength(45);
  for (const t of tests) {
    if (PASSES[t.id] !== undefined) {
      expect(t.status, `${t.id}: ${t.reason}`).toBe('pass');
      expect(t.reason).toContain(PASSES[t.id]);
    } else {
      expect(t.status, `${t.id}: ${t.reason}`).toBe('fail');
      expect(t.reason).toContain(FAILS[t.id] ?? 'not evaluated: F-UJI does not implement');
    }
  }
  // Per scoring metric: earned and maturity (the highest maturity among its passed tests in the metric file), by hand.
  const scoring = result.metrics.filter((m) => m.scoreEarned > 0).map((m) => [m.id, m.scoreEarned, m.maturity]);
  expect(scoring).toEqual([
    ['FRSM-06-F2', 1, 1],
    ['FRSM-13-R1', 1, 1],
    ['FRSM-15-R1.1', 2, 3],
    ['FRSM-16-R1.1', 2, 3],
  ]);
  const oracle = oracleScores();
  // By hand: F 1/20, A 0/2, I 0/7, R 5/16; 6 of 45 points.
  expect(oracle.total).toEqual({ earned: 6, total: 45 });
  expect(result.summary).toMatchObject({
    scoreEarned: oracle.total.earned,
    scoreTotal: oracle.total.total,
    scorePercent: 13.33,
    findability: oracle.byCategory.F,
    accessibility: oracle.byCategory.A,
    interoperability: oracle.byCategory.I,
    reusability: oracle.byCategory.R,
  });
  expect([oracle.byCategory.F, oracle.byCategory.A, oracle.byCategory.I, oracle.byCategory.R]).toEqual([5, 0, 0, 31.25]);
}

describe.skipIf(!needShared('reference/fair-fixtures', 'the recorded software assessment'))(
  'recorded: github.com/pangaea-data-publisher/fuji with metrics_v0.7_software',
  () => {
    let mock: FairMock;
    let result: AssessmentResult;
    let identifier: string;
    beforeAll(async () => {
      mock = await startFairMock();
      mock.route(...fujiRepositoryRoutes(mock.base));
      identifier = `${mock.base}/github.com/pangaea-data-publisher/fuji`;
      result = await assess(identifier, { metricVersion: '0.7_software', upstreams: mock.upstreams() }, { fetcher: fetcher() });
    });
    afterAll(async () => mock?.close());

    it('every test takes the oracle decision; the scores are the oracle sums', () => {
      expectOracle(result);
    });

    it('walks the tree as F-UJI did: every listing and file the cassette recorded, nothing it did not need', () => {
      const manifest = JSON.parse(readFileSync(path.join(FAIR_FIXTURES, 'github_repo_pangaea-data-publisher_fuji_interactions.json'), 'utf8')) as {
        interactions: { index: number; uri: string }[];
      };
      // #4 repository, #5 licence, #14–#57 the walk (listings and file contents); not #1–#3 (token checks), #6 languages,
      // #7–#13 code search and its samples (those feed only the CESSDA variant's tests).
      const recorded = manifest.interactions.filter((i) => i.index === 4 || i.index === 5 || (i.index >= 14 && i.index <= 57)).map((i) => new URL(i.uri));
      const expected = [
        ...recorded.map((u) => `/${u.host}${u.pathname}${u.search}`),
        // added to F-UJI's file patterns after the recording, so not in the cassette (the mock answers 404)
        '/api.github.com/repos/pangaea-data-publisher/fuji/contents/.github/workflows/ci.yml?ref=master',
        '/api.github.com/repos/pangaea-data-publisher/fuji/contents/.github/workflows/reports.yml?ref=master',
      ];
      const asked = mock.requests.filter((r) => r.path.startsWith('/api.github.com/')).map((r) => r.path);
      expect([...asked].sort()).toEqual([...expected].sort());
      expect(new Set(asked).size).toBe(asked.length);
      expect(result.details.evidence.codeHost?.files?.map((f) => [f.kind, f.path, f.read])).toEqual([
        ['license_file', 'LICENSE', true],
        ['README', 'README.md', true],
        ['docs_directory', 'docs/FUJI_Flow.vsdx', false],
        ['README', 'docs/README.md', true],
        ['docs_directory', 'docs/license_header.txt', false],
        ['github_actions', '.github/workflows/ci.yml', false],
        ['github_actions', '.github/workflows/reports.yml', false],
        ['README', 'fuji_server/data/README.md', true],
        ['license_file', 'fuji_server/models/license.py', true],
      ]);
      expect(result.details.evidence.warnings).toEqual(expect.arrayContaining(['code host: reading .github/workflows/ci.yml answered 404']));
    });

    it('the data metrics of the same repository do not walk its files', async () => {
      const before = mock.requests.length;
      const data = await assess(identifier, { useCodeHost: true, upstreams: mock.upstreams() }, { fetcher: fetcher() });
      expect(data.metricVersion).toBe('metrics_v0.8');
      expect(data.details.evidence.codeHost?.files).toBeNull();
      expect(mock.requests.slice(before).filter((r) => r.path.includes('/contents/'))).toEqual([]);
    });

    describe('through the Fastify app', () => {
      let h: FairApp;
      beforeAll(async () => {
        h = await fairApp({ ...fairMockEnv(mock), FAIR_CACHE_TTL_SECONDS: '0' }, { fetcher: fetcher() });
      });
      afterAll(async () => h?.close());
      const post = (payload: string) =>
        h.app.inject({ method: 'POST', url: '/fair/api/v1/assess', headers: { 'content-type': 'application/json' }, payload, remoteAddress: '198.51.100.20' });

      it('POST /assess with metric_version metrics_v0.7_software: 200 and the oracle result', async () => {
        const res = await post(assessBody(identifier, { metric_version: 'metrics_v0.7_software' }));
        expect(res.statusCode, res.body).toBe(200);
        expectOracle(res.json());
      });

      it('an unknown metric version is a 400 naming the accepted ones, the software version among them', async () => {
        const res = await post(assessBody(identifier, { metric_version: '0.7_softwar' }));
        const body = expectError(res, 'INVALID_PARAMETER', 400);
        expect(body.details).toEqual([
          { parameter: 'options.metric_version', message: 'unknown metric version', allowed: ['metrics_v0.8', 'metrics_v0.5', 'metrics_v0.7_software'] },
        ]);
      });
    });
  },
);

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const HTML = { 'content-type': 'text/html; charset=utf-8' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A small repository `<owner>/tool` on the mock: README, requirements.txt and a workflow that builds and deploys. */
function toolRepository(owner: string, api: (p: string) => string): MockRoute[] {
  const repo = `/api.github.com/repos/${owner}/tool`;
  const entry = (p: string, type: 'file' | 'dir') => ({ name: p.split('/').at(-1), path: p, type, url: api(`${repo}/contents/${p}?ref=main`) });
  const fileObject = (p: string, text: string) => JSON.stringify({ type: 'file', name: p.split('/').at(-1), path: p, content: b64(text), encoding: 'base64' });
  return [
    {
      path: `/github.com/${owner}/tool`,
      headers: HTML,
      body: `<html><head><title>${owner}/tool</title></head><body><p>${'A tool. '.repeat(40)}</p></body></html>`,
    },
    {
      path: repo,
      headers: JSON_TYPE,
      body: JSON.stringify({ name: 'tool', full_name: `${owner}/tool`, html_url: `https://github.com/${owner}/tool`, owner: { login: owner }, topics: [] }),
    },
    { path: `${repo}/license`, status: 404, headers: JSON_TYPE, body: '{"message": "Not Found"}' },
    {
      path: `${repo}/contents/`,
      headers: JSON_TYPE,
      body: JSON.stringify([entry('.github', 'dir'), entry('README.md', 'file'), entry('requirements.txt', 'file')]),
    },
    { path: `${repo}/contents/.github`, headers: JSON_TYPE, body: JSON.stringify([entry('.github/workflows', 'dir')]) },
    { path: `${repo}/contents/.github/workflows`, headers: JSON_TYPE, body: JSON.stringify([entry('.github/workflows/release.yml', 'file')]) },
    { path: `${repo}/contents/README.md?ref=main`, headers: JSON_TYPE, body: fileObject('README.md', '# Tool\n\nSet up with `pip install tool`.') },
    {
      path: `${repo}/contents/.github/workflows/release.yml?ref=main`,
      headers: JSON_TYPE,
      body: fileObject('.github/workflows/release.yml', 'jobs:\n  Build:\n    steps: [make]\n  Deploy:\n    steps: [publish]\n'),
    },
  ];
}

describe('a hand-made repository, and the code host failing', () => {
  let mock: FairMock;
  const api = (p: string) => `${mock.base}${p}`;
  beforeAll(async () => {
    mock = await startFairMock();
    const reset = String(Math.floor(Date.now() / 1000) + 120);
    mock.route(
      // per owner, the first route for a path wins: the failing routes come before the repository's own
      {
        path: '/api.github.com/repos/limited/tool/contents/.github',
        status: 403,
        headers: { ...JSON_TYPE, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
        body: '{"message": "API rate limit exceeded"}',
      },
      { path: '/api.github.com/repos/throttled/tool', status: 429, headers: { ...JSON_TYPE, 'retry-after': '7' }, body: '{"message": "secondary rate limit"}' },
      { path: '/api.github.com/repos/broken/tool/contents/.github/workflows', status: 502, headers: JSON_TYPE, body: '{}' },
      { path: '/api.github.com/repos/slow/tool/contents/', headers: JSON_TYPE, body: '[]', delayMs: 1500 },
      { path: '/api.github.com/repos/private/tool/contents/.github', status: 403, headers: JSON_TYPE, body: '{"message": "Resource not accessible"}' },
      ...['good', 'limited', 'throttled', 'broken', 'slow', 'private'].flatMap((owner) => toolRepository(owner, api)),
    );
  });
  afterAll(async () => mock?.close());

  const run = (owner: string) =>
    assess(
      `${mock.base}/github.com/${owner}/tool`,
      { metricVersion: 'metrics_v0.7_software', upstreams: mock.upstreams(), deadlineMs: 5000 },
      { fetcher: fetcher() },
    );
  const outage = async (owner: string) => {
    try {
      await run(owner);
    } catch (error) {
      return error;
    }
    throw new Error(`expected ${owner}/tool to fail`);
  };
  const test = (result: AssessmentResult, id: string) => result.details.metrics.flatMap((m) => m.tests).find((t) => t.id === id)!;

  it('requirements.txt and a workflow that builds and deploys pass FRSM-13-R1-2; the README passes -1; no licence fails FRSM-15', async () => {
    const result = await run('good');
    expect(test(result, 'FRSM-13-R1-2').status, test(result, 'FRSM-13-R1-2').reason).toBe('pass');
    expect(test(result, 'FRSM-13-R1-1').reason).toBe('instructions found: "install" in "README.md"');
    expect(test(result, 'FRSM-15-R1.1-1').status).toBe('fail');
    expect(test(result, 'FRSM-15-R1.1-3').reason).toBe('GitHub did not recognise a licence in the repository');
    expect(result.details.evidence.codeHost?.files).toEqual([
      { kind: 'README', path: 'README.md', name: 'README.md', read: true, keywords: ['install'] },
      { kind: 'dependencies', path: 'requirements.txt', name: 'requirements.txt', read: false, keywords: [] },
      { kind: 'github_actions', path: '.github/workflows/release.yml', name: 'release.yml', read: true, keywords: ['build', 'deploy'] },
    ]);
  });

  it('GitHub 403 with X-RateLimit-Remaining 0: 503 of ours, Retry-After until the reset', async () => {
    const error = await outage('limited');
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    const e = error as UpstreamUnavailableError;
    expect(e.service).toBe(`the code host's API (${new URL(mock.base).host})`);
    expect(e.detail).toBe('its request limit for this server is used up (HTTP 403 Forbidden)');
    expect(e.retryAfterSeconds).toBeGreaterThanOrEqual(115);
    expect(e.retryAfterSeconds).toBeLessThanOrEqual(120);
  });

  it('GitHub 429 with Retry-After: 503 passing the wait on', async () => {
    const e = (await outage('throttled')) as UpstreamUnavailableError;
    expect(e).toBeInstanceOf(UpstreamUnavailableError);
    expect(e.retryAfterSeconds).toBe(7);
  });

  it('a 5xx on a listing or a listing that does not answer in time: 503, not a low score', async () => {
    expect(await outage('broken')).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', detail: 'it answered HTTP 502 Bad Gateway' });
    expect(await outage('slow')).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', detail: 'it did not answer in time' });
  });

  it('a plain 403 on one directory (no rate limit) is not an outage: scored, with a warning', async () => {
    const result = await run('private');
    expect(result.details.evidence.warnings).toContain('code host: listing .github answered 403');
    expect(test(result, 'FRSM-13-R1-2').reason).toBe('no Jenkinsfile or GitHub Actions workflow');
  });

  describe('over HTTP', () => {
    let h: FairApp;
    beforeAll(async () => {
      h = await fairApp({ ...fairMockEnv(mock), FAIR_CACHE_TTL_SECONDS: '0', FAIR_ANON_LIMIT: '3' }, { fetcher: fetcher() });
    });
    afterAll(async () => h?.close());
    const post = (owner: string) =>
      h.app.inject({
        method: 'POST',
        url: '/fair/api/v1/assess',
        headers: { 'content-type': 'application/json' },
        payload: assessBody(`${mock.base}/github.com/${owner}/tool`, { metric_version: 'metrics_v0.7_software' }),
        remoteAddress: '198.51.100.21',
      });

    it('a rate-limited code host is a 503 with Retry-After that does not count; a scored assessment does', async () => {
      for (let i = 0; i < 4; i++) {
        const res = await post('throttled');
        const body = expectError(res, 'UPSTREAM_UNAVAILABLE', 503);
        expect(res.headers['retry-after']).toBe('7');
        expect(res.headers['x-ratelimit-remaining']).toBe('3');
        expect(body.message).toContain("the code host's API");
      }
      const ok = await post('good');
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBe('2');
    });
  });
});
