/**
 * FAIR_BACKEND=fuji end to end: the route forwards to a mock F-UJI on 127.0.0.1 (test/helpers/fair-mock-fuji.ts)
 * with F-UJI's request body and basic auth, maps its hand-written FAIRResults onto our result shape, and turns
 * F-UJI's failures into ours (422, 502, 503). /health probes the F-UJI server.
 */
import { createHash } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fujiAssessmentResultSchema } from '../../../contracts/fair/responses.ts';
import { expectError } from '../../helpers/cohort.ts';
import { assessBody, fairApp, type FairApp } from '../../helpers/fair-app.ts';
import { FUJI_PASSWORD, FUJI_SUMMARY, FUJI_USER, startFujiMock, type FujiMock } from '../../helpers/fair-mock-fuji.ts';
import { freePort } from '../../helpers/net.ts';

let fuji: FujiMock;
let h: FairApp;
let ip = 0;

/** Each call comes from its own client address, so the anonymous limit never gets in the way. */
const assess = (app: FairApp, identifier: string, options?: unknown) =>
  app.app.inject({
    method: 'POST',
    url: '/fair/api/v1/assess',
    headers: { 'content-type': 'application/json' },
    payload: assessBody(identifier, options),
    remoteAddress: `192.0.2.${++ip}`,
  });

beforeAll(async () => {
  fuji = await startFujiMock();
  h = await fairApp({
    FAIR_BACKEND: 'fuji',
    FUJI_URL: fuji.base,
    FUJI_USERNAME: FUJI_USER,
    FUJI_PASSWORD,
    FUJI_TIMEOUT_MS: '1000',
    FAIR_CACHE_TTL_SECONDS: '0',
  });
});
afterAll(async () => {
  await h?.close();
  await fuji?.close();
});

describe('FAIR_BACKEND=fuji', () => {
  it('sends F-UJI its request body with basic auth and Accept application/json', async () => {
    const before = fuji.requests.length;
    const res = await assess(h, '10.1594/PANGAEA.902845', { use_registry: false, use_code_host: true, metric_version: '0.8' });
    expect(res.statusCode).toBe(200);
    const sent = fuji.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/fuji/api/v1/evaluate',
      authorization: `Basic ${Buffer.from('marvel:wonderwoman').toString('base64')}`,
      contentType: 'application/json',
      body: { object_identifier: '10.1594/PANGAEA.902845', test_debug: false, use_datacite: false, use_github: true, metric_version: 'metrics_v0.8' },
    });
  });

  it('asks F-UJI for its GitHub harvest with the software metrics, even without use_code_host', async () => {
    const before = fuji.requests.length;
    await assess(h, 'https://github.com/pangaea-data-publisher/fuji', { metric_version: '0.7_software' });
    expect(fuji.requests.slice(before)[0]?.body).toMatchObject({ use_github: true, metric_version: 'metrics_v0.7_software' });
    await assess(h, 'https://github.com/pangaea-data-publisher/fuji', { metric_version: '0.8' });
    expect(fuji.requests.slice(before)[1]?.body).toMatchObject({ use_github: false, metric_version: 'metrics_v0.8' });
  });

  it("maps F-UJI's FAIRResults onto the seed's result shape", async () => {
    const res = await assess(h, '10.1594/PANGAEA.902845');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-ratelimit-limit']).toBe('10');
    const body = fujiAssessmentResultSchema.parse(res.json());
    expect(body.objectIdentifier).toBe('10.1594/PANGAEA.902845');
    expect(body.resolvedUrl).toBe('https://doi.pangaea.de/10.1594/PANGAEA.902845');
    expect(body.metricVersion).toBe('metrics_v0.8');
    expect(body.summary).toEqual({
      scoreEarned: 24,
      scoreTotal: 26,
      scorePercent: 92.31,
      findability: 100,
      accessibility: 100,
      interoperability: 100,
      reusability: 66.67,
    });
    expect(body.metrics).toHaveLength(17);
    expect(body.metrics.map((m) => m.id).slice(0, 3)).toEqual(['FsF-F1-01MD', 'FsF-F1-02MD', 'FsF-F2-01M']);
    // F-UJI's own status is kept: F1-02MD earns its point yet F-UJI says fail (fair.md §1.3); indeterminate → fail.
    expect(body.metrics[1]).toEqual({
      id: 'FsF-F1-02MD',
      name: 'Data is assigned a persistent identifier.',
      principle: 'F',
      status: 'fail',
      scoreEarned: 1,
      scoreTotal: 1,
      maturity: 3,
    });
    expect(body.metrics.find((m) => m.id === 'FsF-A1.1-01MD')).toMatchObject({ principle: 'A', status: 'pass', scoreEarned: 2, scoreTotal: 2, maturity: 3 });
    expect(body.metrics.find((m) => m.id === 'FsF-R1.3-02D')).toMatchObject({ principle: 'R', status: 'fail', scoreEarned: 0, scoreTotal: 1, maturity: 0 });
    expect(body.metrics.find((m) => m.id === 'FsF-R1-01M')).toMatchObject({ status: 'pass', scoreEarned: 1, scoreTotal: 2, maturity: 1 });
    // details: F-UJI's full summary, tests and outputs
    expect(body.details.backend).toBe('fuji');
    expect(body.details.fuji).toEqual({ testId: createHash('sha1').update('10.1594/PANGAEA.902845').digest('hex'), softwareVersion: '3.5.1' });
    expect(body.details.startedAt).toBe('2026-11-21T10:00:00Z');
    expect(body.details.summary.FAIR).toEqual({ scoreEarned: 24, scoreTotal: 26, scorePercent: 92.31, maturity: 2.75, metrics: 17, metricsPassed: 15 });
    expect(body.details.summary.categories.R).toEqual({ scoreEarned: 4, scoreTotal: 6, scorePercent: 66.67, maturity: 2, metrics: 5, metricsPassed: 4 });
    expect(Object.keys(body.details.summary.principles).sort()).toEqual(
      Object.keys(FUJI_SUMMARY.score_earned)
        .filter((k) => /[0-9]/.test(k))
        .sort(),
    );
    expect(body.details.summary.principles['R1.3']).toMatchObject({ scorePercent: 50, maturity: 2, metrics: 2, metricsPassed: 1 });
    const r12 = body.details.metrics.find((m) => m.id === 'FsF-R1.2-01M')!;
    expect(r12.principle).toBe('R1.2');
    expect(r12.tests.map((t) => [t.id, t.status, t.scoreEarned, t.maturity])).toEqual([
      ['FsF-R1.2-01M-1', 'pass', 1, 2],
      ['FsF-R1.2-01M-2', 'fail', 0, 0],
    ]);
    expect(body.details.metrics.find((m) => m.id === 'FsF-R1.1-01M')!.output).toEqual([
      { license: 'https://creativecommons.org/licenses/by/4.0/', details_url: 'https://spdx.org/licenses/CC-BY-4.0.html', OSI_approved: false },
    ]);
  });

  it('the mapped result matches the OpenAPI document', async () => {
    const doc = (await h.app.inject('/fair/api/v1/openapi.json')).json();
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(
      doc.paths['/fair/api/v1/assess'].post.responses['200'].content['application/json'].schema,
    );
    const body = (await assess(h, 'https://doi.org/10.1594/PANGAEA.902845')).json();
    expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it("F-UJI's 4xx about the identifier is a 422 naming it", async () => {
    const body = expectError(await assess(h, 'fuji:bad'), 'RESOLUTION_FAILED', 422);
    expect(body.message).toContain('"fuji:bad"');
    expect(body.message).toContain("'object_identifier' is not valid");
  });

  it('an identifier F-UJI could not resolve ("not defined", no F1-02MD/A1-02MD points) is a 422', async () => {
    const body = expectError(await assess(h, 'fuji:unresolvable'), 'RESOLUTION_FAILED', 422);
    expect(body.message).toContain('"fuji:unresolvable"');
  });

  it('an F-UJI crash, or an answer that is not a FAIRResults, is a 502 ASSESSMENT_FAILED', async () => {
    expectError(await assess(h, 'fuji:crash'), 'ASSESSMENT_FAILED', 502);
    expectError(await assess(h, 'fuji:garbage'), 'ASSESSMENT_FAILED', 502);
  });

  it('an F-UJI that does not answer in FUJI_TIMEOUT_MS is a 503', async () => {
    const body = expectError(await assess(h, 'fuji:slow'), 'UPSTREAM_UNAVAILABLE', 503);
    expect(body.message).toMatch(/did not answer within 1 s/);
  });

  it('wrong credentials are our problem, not the caller’s: 503, never a 4xx', async () => {
    const wrong = await fairApp({ FAIR_BACKEND: 'fuji', FUJI_URL: fuji.base, FUJI_USERNAME: FUJI_USER, FUJI_PASSWORD: 'nope' });
    try {
      expectError(await assess(wrong, '10.1594/PANGAEA.902845'), 'UPSTREAM_UNAVAILABLE', 503);
    } finally {
      await wrong.close();
    }
  });

  it('/health probes F-UJI: true while it answers, false when nothing listens at FUJI_URL (503 for /assess)', async () => {
    const res = await h.app.inject('/fair/api/v1/health');
    expect(res.json()).toMatchObject({ status: 'healthy', service: 'fair-assessment', assessmentBackend: true });
    expect(fuji.requests.some((r) => r.method === 'GET' && r.path === '/fuji/api/v1/metrics/0.8' && r.authorization === null)).toBe(true);
    const down = await fairApp({ FAIR_BACKEND: 'fuji', FUJI_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      expect((await down.app.inject('/fair/api/v1/health')).json().assessmentBackend).toBe(false);
      const body = expectError(await assess(down, '10.1594/PANGAEA.902845'), 'UPSTREAM_UNAVAILABLE', 503);
      expect(body.message).toContain('cannot be reached');
    } finally {
      await down.close();
    }
  });

  it('FAIR_BACKEND=fuji without FUJI_URL stops the server at start', async () => {
    await expect(fairApp({ FAIR_BACKEND: 'fuji' })).rejects.toThrow(/FUJI_URL: required when FAIR_BACKEND=fuji/);
  });
});
