/**
 * The FAIR HTTP surface end to end (docs/api-fair.md): the real app with SERVICES=fair, every upstream pointed
 * at the loopback mock replaying the recorded PANGAEA responses (../shared/reference/fair-fixtures; the tests
 * that assess it are skipped with a printed reason when the folder is absent). Each test speaks from its own
 * client address (`remoteAddress`) so that the anonymous limit is only met where a test means to meet it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assessmentResultSchema } from '../../../contracts/fair/assessment.ts';
import { FAIR_RESPONSES } from '../../../contracts/fair/responses.ts';
import { generateApiKey, hashApiKey, writeKeysFile } from '../../../api-dynamic/src/services/fair/api-keys.ts';
import { EmbeddedBackend } from '../../../api-dynamic/src/services/fair/embedded-backend.ts';
import { expectError } from '../../helpers/cohort.ts';
import { fairApp, type FairApp, fairMockEnv, PANGAEA_ZIP } from '../../helpers/fair-app.ts';
import { type FairMock, replayRoutes, startFairMock } from '../../helpers/fair-mock-resolver.ts';
import { freePort } from '../../helpers/net.ts';
import { needShared } from '../../helpers/needs.ts';

const haveFixtures = needShared('reference/fair-fixtures', 'the FAIR route tests that assess PANGAEA 902845');

const PANGAEA = '10.1594/PANGAEA.902845';
const URL_ASSESS = '/fair/api/v1/assess';
const envKey = generateApiKey();

let mock: FairMock;
let h: FairApp;
let keysFile: string;
let client = 0;
/** A new client address per call site (documentation range), so rate limits do not leak between tests. */
const newClient = () => `198.51.100.${++client}`;

interface PostOptions {
  ip?: string;
  headers?: Record<string, string>;
  url?: string;
  payload?: string;
}
const post = (app: FairApp, body: unknown, o: PostOptions = {}) =>
  app.app.inject({
    method: 'POST',
    url: o.url ?? URL_ASSESS,
    headers: { 'content-type': 'application/json', ...o.headers },
    payload: o.payload ?? (typeof body === 'string' ? body : JSON.stringify(body)),
    remoteAddress: o.ip ?? newClient(),
  });

const rateHeaders = (res: { headers: Record<string, unknown> }) => [
  res.headers['x-ratelimit-limit'],
  res.headers['x-ratelimit-remaining'],
  res.headers['x-ratelimit-reset'],
];

beforeAll(async () => {
  mock = await startFairMock();
  if (haveFixtures) mock.route(...replayRoutes('pangaea', mock.base), PANGAEA_ZIP);
  keysFile = join(mkdtempSync(join(tmpdir(), 'fair-keys-')), 'api-keys.json');
  h = await fairApp({ ...fairMockEnv(mock), FAIR_API_KEYS: `env-tester:${hashApiKey(envKey)}`, FAIR_KEYS_FILE: keysFile, FAIR_KEYS_REFRESH_MS: '0' });
});
afterAll(async () => {
  await h?.close();
  await mock?.close();
});

describe.skipIf(!haveFixtures)('POST /assess: a successful assessment', () => {
  let first: Awaited<ReturnType<typeof post>>;
  beforeAll(async () => {
    first = await post(h, { identifier: PANGAEA });
  });

  it('is 200 with the engine result (seed shape + details), no-store, rate-limit headers and CORS', () => {
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['access-control-allow-origin']).toBe('*');
    expect(first.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
    expect(rateHeaders(first)).toEqual(['10', '9', '3600']);
    const body = assessmentResultSchema.parse(first.json());
    expect(Object.keys(first.json())).toEqual(['id', 'objectIdentifier', 'resolvedUrl', 'metricVersion', 'summary', 'metrics', 'details']);
    expect(body.objectIdentifier).toBe(PANGAEA);
    expect(body.resolvedUrl).toBe(mock.url('https://doi.pangaea.de/10.1594/PANGAEA.902845'));
    expect(body.metricVersion).toBe('metrics_v0.8');
    expect(body.summary).toMatchObject({ scoreEarned: 25, scoreTotal: 26, scorePercent: 96.15 });
    expect(body.metrics).toHaveLength(17);
    expect(body.details.evidence.fetches.length).toBeGreaterThan(5);
  });

  it('matches the OpenAPI 200 schema, and the request matches the requestBody schema', async () => {
    const doc = (await h.app.inject('/fair/api/v1/openapi.json')).json();
    const op = doc.paths['/fair/api/v1/assess'].post;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(op.responses['200'].content['application/json'].schema);
    expect(validate(first.json()), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(FAIR_RESPONSES['/api/v1/assess'].safeParse(first.json()).success).toBe(true);
    const request = ajv.compile(op.requestBody.content['application/json'].schema);
    expect(request({ identifier: PANGAEA })).toBe(true);
    expect(request({ identifier: PANGAEA, options: { use_registry: false, use_code_host: true, metric_version: 'metrics_v0.5' } })).toBe(true);
    expect(request({ identifier: PANGAEA, bogus: 1 })).toBe(false);
    expect(request({ identifier: PANGAEA, options: { bogus: 1 } })).toBe(false);
    expect(request({ options: {} })).toBe(false);
  });

  it('is cached: the same canonical identifier and options are not assessed again, and echo their own spelling', async () => {
    const before = mock.requests.length;
    const again = await post(h, { identifier: `doi:${PANGAEA}`, options: { metric_version: '0.8', use_registry: true } });
    expect(again.statusCode).toBe(200);
    expect(mock.requests.length).toBe(before);
    expect(again.json().objectIdentifier).toBe(`doi:${PANGAEA}`);
    expect(again.json().id).toBe(first.json().id);
    // Other options are another assessment.
    const v05 = await post(h, { identifier: PANGAEA, options: { metric_version: 'metrics_v0.5' } });
    expect(v05.statusCode).toBe(200);
    expect(v05.json().metricVersion).toBe('metrics_v0.5');
    expect(mock.requests.length).toBeGreaterThan(before);
  });

  it('a cached answer costs its caller nothing (no work was done), also at the limit, and still carries the standing', async () => {
    const ip = newClient();
    for (let i = 0; i < 3; i++) expect(rateHeaders(await post(h, { identifier: PANGAEA }, { ip }))).toEqual(['10', '10', '3600']);
    for (let i = 0; i < 10; i++) await post(h, { identifier: `10.9999/spent-${i}` }, { ip });
    const atLimit = await post(h, { identifier: `doi:${PANGAEA}` }, { ip });
    expect(atLimit.statusCode).toBe(200);
    expect(atLimit.headers['x-ratelimit-remaining']).toBe('0');
    expectError(await post(h, { identifier: '10.9999/one-more' }, { ip }), 'RATE_LIMITED', 429);
  });
});

describe('POST /assess: 400 for every malformed request, with the headers and without counting', () => {
  const ip = '203.0.113.7';
  const cases: Array<[string, PostOptions & { body?: unknown }, string, RegExp]> = [
    ['missing identifier', { body: {} }, 'MISSING_PARAMETER', /no "identifier"/],
    ['options without identifier', { body: { options: { use_registry: true } } }, 'MISSING_PARAMETER', /identifier/],
    ['empty body', { payload: '' }, 'MISSING_PARAMETER', /body is empty/],
    ['malformed JSON', { payload: '{"identifier": "10.1/x",' }, 'INVALID_PARAMETER', /not valid JSON/],
    ['a JSON array', { body: [PANGAEA] }, 'INVALID_PARAMETER', /must be a JSON object/],
    [
      'wrong content type',
      { headers: { 'content-type': 'text/plain' }, body: { identifier: PANGAEA } },
      'INVALID_PARAMETER',
      /^Content-Type: "text\/plain" is not accepted/,
    ],
    [
      'form content type',
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'identifier=10.1%2Fx' },
      'INVALID_PARAMETER',
      /^Content-Type:/,
    ],
    [
      'unparseable content type',
      { headers: { 'content-type': 'json' }, body: { identifier: PANGAEA } },
      'INVALID_PARAMETER',
      /^Content-Type: "json" is not a valid media type/,
    ],
    ['non-UTF-8 charset', { headers: { 'content-type': 'application/json; charset=latin1' }, body: { identifier: PANGAEA } }, 'INVALID_PARAMETER', /charset/],
    [
      'unknown option',
      { body: { identifier: PANGAEA, options: { use_fuji: true } } },
      'UNKNOWN_PARAMETER',
      /Unknown option "use_fuji"\. Allowed options: use_registry, use_code_host, metric_version\./,
    ],
    [
      'unknown top-level field',
      { body: { identifier: PANGAEA, test_debug: true } },
      'UNKNOWN_PARAMETER',
      /Unknown field "test_debug" in the request body\. Allowed fields: identifier, options\./,
    ],
    [
      'unknown metric version',
      { body: { identifier: PANGAEA, options: { metric_version: 'metrics_v0.7' } } },
      'INVALID_PARAMETER',
      /Unknown metric_version "metrics_v0\.7"; accepted: metrics_v0\.8, metrics_v0\.5/,
    ],
    ['non-string identifier', { body: { identifier: 42 } }, 'INVALID_PARAMETER', /"identifier" must be a string/],
    ['null identifier', { body: { identifier: null } }, 'INVALID_PARAMETER', /"identifier" must be a string/],
    ['blank identifier', { body: { identifier: '   ' } }, 'INVALID_PARAMETER', /"identifier" is empty/],
    ['identifier over 2048 characters', { body: { identifier: `https://example.org/${'a'.repeat(2040)}` } }, 'INVALID_PARAMETER', /at most 2048/],
    [
      'non-boolean option',
      { body: { identifier: PANGAEA, options: { use_registry: 'yes' } } },
      'INVALID_PARAMETER',
      /"options\.use_registry" must be true or false/,
    ],
    ['options not an object', { body: { identifier: PANGAEA, options: ['use_registry'] } }, 'INVALID_PARAMETER', /"options" must be an object/],
    ['a query parameter', { url: `${URL_ASSESS}?identifier=${PANGAEA}`, body: { identifier: PANGAEA } }, 'UNKNOWN_PARAMETER', /takes no parameters/],
  ];

  it.each(cases)('%s', async (_name, o, code, message) => {
    const res = await post(h, o.body ?? {}, { ...o, ip });
    const body = expectError(res, code, 400);
    expect(body.message).toMatch(message);
    expect(rateHeaders(res)).toEqual(['10', '10', '3600']);
  });

  it('unknown fields and options list the allowed ones in details', async () => {
    const body = expectError(await post(h, { identifier: PANGAEA, options: { bogus: 1 } }, { ip }), 'UNKNOWN_PARAMETER');
    expect(body.details).toEqual([{ parameter: 'options.bogus', message: 'unknown option', allowed: ['use_registry', 'use_code_host', 'metric_version'] }]);
    const version = expectError(await post(h, { identifier: PANGAEA, options: { metric_version: 'x' } }, { ip }), 'INVALID_PARAMETER');
    expect(version.details![0]!.allowed).toEqual(['metrics_v0.8', 'metrics_v0.5', 'metrics_v0.7_software']);
  });

  it('parameters starting with _ are ignored (the request goes on to the engine)', async () => {
    const res = await post(h, { identifier: 'urn:example:nothing' }, { url: `${URL_ASSESS}?_=123`, ip: newClient() });
    expectError(res, 'RESOLUTION_FAILED', 422);
  });

  it('a body over 16 KiB is 413 PAYLOAD_TOO_LARGE, with the headers', async () => {
    const res = await post(h, { identifier: PANGAEA, options: { metric_version: 'x'.repeat(17 * 1024) } }, { ip });
    expectError(res, 'PAYLOAD_TOO_LARGE', 413);
    expect(rateHeaders(res)).toEqual(['10', '10', '3600']);
  });
});

describe('POST /assess: 422 and 500', () => {
  it('an unresolvable identifier is 422 RESOLUTION_FAILED quoting it; it counts only when the network was asked', async () => {
    const ip = newClient();
    const before = mock.requests.length;
    const urnRes = await post(h, { identifier: 'urn:example:nothing' }, { ip });
    const urn = expectError(urnRes, 'RESOLUTION_FAILED', 422);
    expect(urn.message).toContain('"urn:example:nothing"');
    expect(rateHeaders(urnRes)).toEqual(['10', '10', '3600']);
    const junk = await post(h, { identifier: 'not an identifier at all' }, { ip });
    expectError(junk, 'RESOLUTION_FAILED', 422);
    expect(rateHeaders(junk)).toEqual(['10', '10', '3600']);
    expect(mock.requests.length).toBe(before);
    const missing = await post(h, { identifier: '10.9999/does-not-exist' }, { ip });
    const body = expectError(missing, 'RESOLUTION_FAILED', 422);
    expect(body.message).toBe(
      `The identifier "10.9999/does-not-exist" could not be resolved: the DOI resolver (${new URL(mock.base).host}) does not know it (HTTP 404 Not Found). Check the identifier for typos.`,
    );
    expect(body.details).toEqual([{ parameter: 'identifier', message: 'resolver: status' }]);
    expect(rateHeaders(missing)).toEqual(['10', '9', '3600']);
    expect(mock.requests.some((r) => r.path === '/doi.org/10.9999/does-not-exist')).toBe(true);
  });

  it('an engine bug is a 500 with the shared body, never a stack', async () => {
    const spy = vi.spyOn(EmbeddedBackend.prototype, 'assess').mockRejectedValueOnce(new TypeError('Cannot read properties of undefined (at harvest.ts:42)'));
    try {
      const res = await post(h, { identifier: 'https://example.org/bug' });
      const body = expectError(res, 'INTERNAL_ERROR', 500);
      expect(res.body).not.toMatch(/harvest\.ts|TypeError|stack/);
      expect(body.message).toContain(String(res.headers['x-request-id']));
      // Our bug is not the caller's: the request is given back.
      expect(res.headers['x-ratelimit-remaining']).toBe('10');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('POST /assess: tiers and limits', () => {
  it('10 anonymous requests an hour, headers counting 9..0, then 429 with Retry-After (not counted)', async () => {
    const ip = newClient();
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await post(h, { identifier: `10.9999/missing-${i}` }, { ip });
      expect(res.statusCode).toBe(422);
      expect(res.headers['x-ratelimit-limit']).toBe('10');
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const refused = await post(h, { identifier: '10.9999/missing-10' }, { ip });
    const body = expectError(refused, 'RATE_LIMITED', 429);
    expect(body.message).toMatch(/10 assessments per 1 h in the anonymous tier.*API key/);
    expect(rateHeaders(refused)[1]).toBe('0');
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(3590);
    expect(reset).toBeLessThanOrEqual(3600);
    expect(refused.headers['retry-after']).toBe(String(reset));
    // Still refused, and a malformed request still gets the standing.
    expectError(await post(h, { identifier: '10.9999/missing-11' }, { ip }), 'RATE_LIMITED', 429);
    const malformed = await post(h, {}, { ip });
    expectError(malformed, 'MISSING_PARAMETER');
    expect(rateHeaders(malformed)[1]).toBe('0');
    // Another address is another caller.
    expect((await post(h, { identifier: '10.9999/missing-x' })).headers['x-ratelimit-remaining']).toBe('9');
  });

  it('a Bearer key from FAIR_API_KEYS gets 100, counted by key whatever the address', async () => {
    const auth = { authorization: `Bearer ${envKey}` };
    const a = await post(h, { identifier: '10.9999/missing-a' }, { headers: auth });
    expect(rateHeaders(a).slice(0, 2)).toEqual(['100', '99']);
    const b = await post(h, { identifier: '10.9999/missing-b' }, { headers: auth });
    expect(rateHeaders(b).slice(0, 2)).toEqual(['100', '98']);
  });

  it('a key added to the keys file is accepted without a restart; a revoked one is refused', async () => {
    const key = generateApiKey();
    await writeKeysFile(keysFile, [{ name: 'lab', sha256: hashApiKey(key), created: new Date().toISOString() }]);
    const res = await post(h, { identifier: '10.9999/missing-a' }, { headers: { authorization: `bearer ${key}` } });
    expect(rateHeaders(res).slice(0, 2)).toEqual(['100', '99']);
    await writeKeysFile(keysFile, []);
    expectError(await post(h, { identifier: '10.9999/missing-a' }, { headers: { authorization: `Bearer ${key}` } }), 'INVALID_PARAMETER');
  });

  it('a bad key or another scheme is 400 naming Authorization, costs nothing, and shows the anonymous standing', async () => {
    const ip = newClient();
    for (const authorization of [`Bearer fair_${'x'.repeat(43)}`, 'Basic bWFydmVsOndvbmRlcndvbWFu', 'Bearer']) {
      const res = await post(h, { identifier: PANGAEA }, { ip, headers: { authorization } });
      const body = expectError(res, 'INVALID_PARAMETER');
      expect(body.message).toMatch(/^Authorization: /);
      expect(rateHeaders(res)).toEqual(['10', '10', '3600']);
    }
  });

  it('with TRUST_PROXY the anonymous tier counts the X-Forwarded-For client; without it, the connection', async () => {
    const proxied = await fairApp({ ...fairMockEnv(mock), TRUST_PROXY: '127.0.0.1' });
    try {
      const via = (forwarded: string) => post(proxied, { identifier: '10.9999/missing-p' }, { ip: '127.0.0.1', headers: { 'x-forwarded-for': forwarded } });
      expect((await via('203.0.113.50')).headers['x-ratelimit-remaining']).toBe('9');
      expect((await via('203.0.113.51')).headers['x-ratelimit-remaining']).toBe('9');
      expect((await via('203.0.113.50')).headers['x-ratelimit-remaining']).toBe('8');
      // Not from the trusted proxy: the header is ignored.
      const direct = (forwarded: string) => post(h, { identifier: '10.9999/missing-p' }, { ip: '198.51.100.250', headers: { 'x-forwarded-for': forwarded } });
      expect((await direct('203.0.113.60')).headers['x-ratelimit-remaining']).toBe('9');
      expect((await direct('203.0.113.61')).headers['x-ratelimit-remaining']).toBe('8');
    } finally {
      await proxied.close();
    }
  });
});

describe('GET /health', () => {
  it('reports the fields, is not rate-limited, no-store, and reuses its probe for 30 s', async () => {
    const probes = () => mock.requests.filter((r) => r.method === 'HEAD' && r.path === '/doi.org/').length;
    const before = probes();
    const first = await h.app.inject({ url: '/fair/api/v1/health', remoteAddress: '198.51.100.200' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['x-ratelimit-limit']).toBeUndefined();
    const body = FAIR_RESPONSES['/api/v1/health'].parse(first.json());
    expect(body).toEqual({ status: 'healthy', service: 'fair-assessment', assessmentBackend: true, reasons: [], timestamp: body.timestamp });
    expect(Date.now() - Date.parse(body.timestamp)).toBeLessThan(60_000);
    for (let i = 0; i < 15; i++) {
      const again = await h.app.inject({ url: '/fair/api/v1/health', remoteAddress: '198.51.100.200' });
      expect(again.statusCode).toBe(200);
      expect(again.json().timestamp).toBe(body.timestamp);
    }
    expect(probes() - before).toBeLessThanOrEqual(1);
    const doc = (await h.app.inject('/fair/api/v1/openapi.json')).json();
    const ajv = new Ajv2020({ strict: false, formats: { 'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/ } });
    const validate = ajv.compile(doc.paths['/fair/api/v1/health'].get.responses['200'].content['application/json'].schema);
    expect(validate(first.json())).toBe(true);
  });

  it('is degraded (200) with the reason when the DOI resolver does not answer', async () => {
    const port = await freePort();
    const down = await fairApp({ FAIR_DOI_RESOLVER_URL: `http://127.0.0.1:${port}`, FAIR_ALLOW_PRIVATE_ADDRESSES: 'true' });
    try {
      const res = await down.app.inject('/fair/api/v1/health');
      expect(res.statusCode).toBe(200);
      expect(FAIR_RESPONSES['/api/v1/health'].parse(res.json())).toMatchObject({
        status: 'degraded',
        assessmentBackend: false,
        reasons: [`the DOI resolver (127.0.0.1:${port}) does not answer, so assessments fail with 503 until it does`],
      });
    } finally {
      await down.close();
    }
  });

  it('takes no query parameters except _', async () => {
    expectError(await h.app.inject('/fair/api/v1/health?verbose=1'), 'UNKNOWN_PARAMETER');
    expect((await h.app.inject('/fair/api/v1/health?_=1')).statusCode).toBe(200);
  });
});

describe('methods, CORS and the OpenAPI document', () => {
  it('405 with Allow for other methods; preflight allows Content-Type and Authorization', async () => {
    const get = await h.app.inject({ method: 'GET', url: URL_ASSESS });
    expectError(get, 'METHOD_NOT_ALLOWED', 405);
    expect(get.headers.allow).toBe('OPTIONS, POST');
    const put = await h.app.inject({ method: 'PUT', url: URL_ASSESS, headers: { 'content-type': 'text/plain' }, payload: 'x' });
    expectError(put, 'METHOD_NOT_ALLOWED', 405);
    const health = await h.app.inject({ method: 'POST', url: '/fair/api/v1/health', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expectError(health, 'METHOD_NOT_ALLOWED', 405);
    expect(health.headers.allow).toBe('GET, HEAD, OPTIONS');
    const pre = await h.app.inject({ method: 'OPTIONS', url: URL_ASSESS, headers: { origin: 'https://example.org', 'access-control-request-method': 'POST' } });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toBe('OPTIONS, POST');
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/Content-Type, Authorization/);
  });

  it('documents both operations with every status and the rate-limit headers', async () => {
    const res = await h.app.inject('/fair/api/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/fair/api/v1/assess', '/fair/api/v1/health']);
    const responses = doc.paths['/fair/api/v1/assess'].post.responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '400', '413', '422', '429', '500', '502', '503']);
    expect(Object.keys(responses['200'].headers)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
    expect(Object.keys(responses['429'].headers)).toContain('Retry-After');
    expect(doc.paths['/fair/api/v1/assess'].post.requestBody.content['application/json'].schema.required).toEqual(['identifier']);
  });
});

describe('server-side request forgery, end to end', () => {
  it('with private addresses refused, assessing a loopback URL is 422 and the target sees no request', async () => {
    const guarded = await fairApp({ ...fairMockEnv(mock), FAIR_ALLOW_PRIVATE_ADDRESSES: 'false' });
    try {
      const before = mock.requests.length;
      for (const identifier of [
        `${mock.base}/`,
        `http://localhost:${new URL(mock.base).port}/`,
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]/',
        'file:///etc/passwd',
      ]) {
        const body = expectError(await post(guarded, { identifier }), 'RESOLUTION_FAILED', 422);
        expect(body.message).toContain(`"${identifier}"`);
      }
      expect(mock.requests.length).toBe(before);
      // The DOI resolver on loopback is refused too, so the backend is reported unreachable.
      expect((await guarded.app.inject('/fair/api/v1/health')).json().assessmentBackend).toBe(false);
      expect(mock.requests.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});

describe.skipIf(!haveFixtures)('single-flight', () => {
  it('5 concurrent identical requests share one assessment (cache off): the upstream sees one set of requests', async () => {
    // The DOI resolver answers after 300 ms here, so the five requests surely arrive while the first runs.
    const slow = await startFairMock();
    slow.route(...replayRoutes('pangaea', slow.base).map((r) => (r.path.startsWith('/doi.org/') ? { ...r, delayMs: 300 } : r)), PANGAEA_ZIP);
    const app = await fairApp({ ...fairMockEnv(slow), FAIR_CACHE_TTL_SECONDS: '0' });
    try {
      let before = slow.requests.length;
      const one = await post(app, { identifier: PANGAEA });
      expect(one.statusCode).toBe(200);
      const perAssessment = slow.requests.length - before;
      expect(perAssessment).toBeGreaterThan(5);
      // Cache off: the same request again is a new assessment.
      before = slow.requests.length;
      expect((await post(app, { identifier: PANGAEA })).json().id).not.toBe(one.json().id);
      expect(slow.requests.length - before).toBe(perAssessment);
      before = slow.requests.length;
      const five = await Promise.all(
        [PANGAEA, PANGAEA, `doi:${PANGAEA}`, `https://doi.org/${PANGAEA}`, PANGAEA].map((identifier) => post(app, { identifier })),
      );
      expect(five.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(slow.requests.length - before).toBe(perAssessment);
      expect(new Set(five.map((r) => r.json().id)).size).toBe(1);
      expect(five.map((r) => r.json().objectIdentifier)).toEqual([PANGAEA, PANGAEA, `doi:${PANGAEA}`, `https://doi.org/${PANGAEA}`, PANGAEA]);
    } finally {
      await app.close();
      await slow.close();
    }
  });
});

describe('docs/api-fair.md', () => {
  it('has a heading per route, and names every status the OpenAPI document lists for /assess', async () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../docs/api-fair.md'), 'utf8');
    for (const heading of ['## POST /assess\n', '## GET /health\n', '## GET /openapi.json\n']) expect(doc).toContain(heading);
    const openapi = (await h.app.inject('/fair/api/v1/openapi.json')).json();
    for (const status of Object.keys(openapi.paths['/fair/api/v1/assess'].post.responses).filter((s) => s !== '200')) expect(doc).toContain(`| ${status} |`);
  });
});
