/**
 * Whose fault a failure is (issue 20 §1, docs/api-fair.md "Failures"), against the real SSRF-safe fetcher whose
 * name lookups the test scripts: every host name below resolves to 127.0.0.1 (a loopback mock), does not
 * exist (ENOTFOUND), or, with the name service down, fails temporarily (EAI_AGAIN), as on a machine whose DNS
 * does not answer, or says that no name exists (ENOTFOUND for every name), as on a machine that is offline. Refused connections are a closed loopback port; timeouts are a mock that answers late.
 *
 * The identifier's fault (422 RESOLUTION_FAILED, counted): its resolver does not know it, its landing host does
 * not exist, refuses, does not answer or answers an error. Ours (503 UPSTREAM_UNAVAILABLE with Retry-After,
 * never counted, in either tier): the resolver, DataCite's REST API or the code host cannot be reached, time
 * out or answer 5xx, or the name service fails (also when it denies names that exist: the DOI resolver's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assess } from '../../../api-dynamic/src/services/fair/engine/assess.ts';
import { ResolutionFailedError, UpstreamUnavailableError } from '../../../api-dynamic/src/services/fair/engine/errors.ts';
import type { AssessOptionsInput } from '../../../api-dynamic/src/services/fair/engine/options.ts';
import { generateApiKey, hashApiKey } from '../../../api-dynamic/src/services/fair/api-keys.ts';
import { createSafeFetcher, type Resolver } from '../../../api-dynamic/src/services/fair/safe-fetch.ts';
import { expectError } from '../../helpers/cohort.ts';
import { fairApp, type FairApp } from '../../helpers/fair-app.ts';
import { type FairMock, startFairMock } from '../../helpers/fair-mock-resolver.ts';
import { freePort } from '../../helpers/net.ts';

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const PAGE = `<html><head><title>A dataset</title></head><body><p>${'A landing page with enough words to read as a page. '.repeat(5)}</p></body></html>`;
const SOFTWARE = `<html><head><script type="application/ld+json">{"@context": "https://schema.org", "@type": "SoftwareSourceCode", "name": "x", "codeRepository": "https://github.com/example-org/example-repo"}</script></head><body><p>${'Software. '.repeat(30)}</p></body></html>`;

let mock: FairMock;
let port: number;
/** A loopback port where nothing listens: connections to it are refused. */
let closed: number;
/** The name service: up (names below resolve or are unknown) or down (every lookup fails temporarily). */
let dnsDown = false;
/** Offline: every lookup answers that the name does not exist. */
let offline = false;

const known = new Set(['doi.example', 'hdl.example', 'repo.example', 'closed.example', 'datacite.example', 'github.example']);
const lookup: Resolver = async (hostname) => {
  if (dnsDown) throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: 'EAI_AGAIN' });
  if (offline || !known.has(hostname)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 }];
};
const fetcher = createSafeFetcher({ allowPrivateAddresses: true, lookup, timeoutMs: 400 });

const upstreams = () => ({
  doi: `http://doi.example:${port}/doi.org`,
  handle: `http://hdl.example:${port}/hdl.handle.net`,
  ark: `http://doi.example:${port}/n2t.net`,
  nbn: `http://doi.example:${port}/nbn-resolving.org`,
  identifiersOrg: `http://doi.example:${port}/identifiers.org`,
  datacite: `http://datacite.example:${port}/api.datacite.org`,
  github: `http://github.example:${port}/api.github.com`,
});
const options = (extra: Partial<AssessOptionsInput> = {}): AssessOptionsInput => ({
  deadlineMs: 5000,
  ...extra,
  upstreams: { ...upstreams(), ...(extra.upstreams ?? {}) },
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the assessment to fail');
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;
const redirect = (path: string, location: string) => ({ path, status: 302, headers: { location } });

beforeAll(async () => {
  mock = await startFairMock();
  port = Number(new URL(mock.base).port);
  closed = await freePort();
  const repo = (path: string) => `http://repo.example:${port}/repo.example/${path}`;
  mock.route(
    redirect('/doi.org/10.1234/ok', repo('ok')),
    { path: '/repo.example/ok', headers: HTML, body: PAGE },
    redirect('/doi.org/10.1234/software', repo('software')),
    { path: '/repo.example/software', headers: HTML, body: SOFTWARE },
    redirect('/doi.org/10.1234/gone', 'http://gone.example/records/1'),
    redirect('/doi.org/10.1234/refused', `http://closed.example:${closed}/records/1`),
    redirect('/doi.org/10.1234/slow-landing', repo('slow')),
    { path: '/repo.example/slow', headers: HTML, body: PAGE, delayMs: 1500 },
    redirect('/doi.org/10.1234/landing-500', repo('broken')),
    { path: '/repo.example/broken', status: 500, headers: HTML, body: 'oops' },
    redirect('/doi.org/10.1234/metadata-address', 'http://169.254.169.254/latest/'),
    { path: '/doi.org/10.1234/resolver-slow', status: 302, headers: { location: repo('ok') }, delayMs: 1500 },
    { path: '/doi.org/10.1234/resolver-503', status: 503, headers: HTML, body: 'maintenance' },
    { path: '/hdl.handle.net/20.500.11811/missing', status: 404, headers: HTML, body: 'Handle not found' },
    { path: '/api.datacite.org/dois/10.1234/ok', status: 404, headers: { 'content-type': 'application/json' }, body: '{"errors":[{"status":"404"}]}' },
    { path: '/api.datacite.org/dois/10.1234/datacite-503', status: 503, headers: HTML, body: 'down' },
    redirect('/doi.org/10.1234/datacite-503', repo('ok')),
    redirect('/doi.org/10.9999/does-not-exist-here', 'https://doi.org/404'),
  );
});
afterAll(async () => mock?.close());

describe('the identifier is at fault: 422 RESOLUTION_FAILED, saying which step failed, the URL at most once', () => {
  it('the DOI resolver does not know the DOI (404)', async () => {
    const error = await failure(assess('10.1234/unknown', options(), { fetcher }));
    expect(error).toBeInstanceOf(ResolutionFailedError);
    expect(error).toMatchObject({ step: 'resolver', reason: 'status' });
    expect(error.message).toBe(
      `The identifier "10.1234/unknown" could not be resolved: the DOI resolver (doi.example:${port}) does not know it (HTTP 404 Not Found). Check the identifier for typos.`,
    );
  });

  it('the Handle resolver does not know the handle', async () => {
    const error = await failure(assess('hdl:20.500.11811/missing', options(), { fetcher }));
    expect(error).toMatchObject({ step: 'resolver', reason: 'status' });
    expect(error.message).toContain(`the Handle resolver (hdl.example:${port}) does not know it (HTTP 404 Not Found)`);
  });

  it('the landing host the resolver points to does not exist', async () => {
    const error = await failure(assess('10.1234/gone', options(), { fetcher }));
    expect(error).toMatchObject({ step: 'landing', reason: 'fetch' });
    expect(error.message).toBe(
      `The identifier "10.1234/gone" could not be resolved: the DOI resolver (doi.example:${port}) sends it to http://gone.example/records/1, but the host gone.example does not exist (it has no DNS entry). Check the identifier; if it is right, its landing page is offline or has moved.`,
    );
    expect(occurrences(error.message, 'http://gone.example/records/1')).toBe(1);
  });

  it('the landing host refuses connections', async () => {
    const error = await failure(assess('10.1234/refused', options(), { fetcher }));
    expect(error).toMatchObject({ step: 'landing', reason: 'fetch' });
    expect(error.message).toContain(`sends it to http://closed.example:${closed}/records/1, but closed.example:${closed} refuses connections.`);
    expect(occurrences(error.message, 'http://')).toBe(1);
  });

  it('the landing host does not answer in time', async () => {
    const error = await failure(assess('10.1234/slow-landing', options(), { fetcher }));
    expect(error).toMatchObject({ step: 'landing', reason: 'fetch' });
    expect(error.message).toContain(`repo.example:${port} did not answer in time`);
  });

  it('the landing page answers an HTTP error', async () => {
    const error = await failure(assess('10.1234/landing-500', options(), { fetcher }));
    expect(error).toMatchObject({ step: 'landing', reason: 'status' });
    expect(error.message).toContain(`sends it to http://repo.example:${port}/repo.example/broken, which answered HTTP 500 Internal Server Error.`);
  });

  it('the resolver points to an address this service never fetches', async () => {
    const error = await failure(assess('10.1234/metadata-address', options(), { fetcher }));
    expect(error).toMatchObject({ step: 'landing', reason: 'fetch' });
    expect(error.message).toContain('169.254.169.254 is a private or internal address, which this service does not fetch');
  });

  it('a URL whose host does not exist names the host, not the URL a second time', async () => {
    const error = await failure(assess('https://nowhere.example/data/1', options(), { fetcher }));
    expect(error.message).toBe(
      'The identifier "https://nowhere.example/data/1" could not be resolved: the host nowhere.example does not exist (it has no DNS entry). Check the identifier; if it is right, its landing page is offline or has moved.',
    );
  });
});

describe('a service we depend on is at fault: 503 UPSTREAM_UNAVAILABLE naming it', () => {
  it('the name service does not answer (EAI_AGAIN): the DOI resolver cannot be reached', async () => {
    dnsDown = true;
    try {
      const error = await failure(assess('10.5281/zenodo.8347772', options(), { fetcher }));
      expect(error).toBeInstanceOf(UpstreamUnavailableError);
      expect(error).toMatchObject({
        service: `the DOI resolver (doi.example:${port})`,
        detail: 'looking up its name failed (EAI_AGAIN)',
        retryAfterSeconds: 30,
      });
      expect(error.message).toMatch(/^This service cannot reach the DOI resolver .* not with the identifier.*not counted/);
      // A URL identifier: the lookup of its own host fails temporarily, which is the name service's fault.
      const url = await failure(assess('https://repo.example/records/1', options(), { fetcher }));
      expect(url).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', service: 'its name service (DNS)', detail: 'looking up repo.example failed (EAI_AGAIN)' });
    } finally {
      dnsDown = false;
    }
  });

  it('offline, every name "does not exist": a landing-page URL is ours too, since the DOI resolver\'s name fails as well', async () => {
    offline = true;
    try {
      const url = await failure(assess('https://zenodo.example/records/1', options(), { fetcher }));
      expect(url).toBeInstanceOf(UpstreamUnavailableError);
      expect(url).toMatchObject({ service: 'its name service (DNS)', detail: `it cannot look up zenodo.example, nor doi.example:${port}, which exists` });
      const doi = await failure(assess('10.5281/zenodo.8347772', options(), { fetcher }));
      expect(doi).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', service: `the DOI resolver (doi.example:${port})`, detail: 'its name does not resolve' });
    } finally {
      offline = false;
    }
  });

  it('the DOI resolver refuses connections, times out, or answers 503', async () => {
    const refused = await failure(assess('10.1234/ok', options({ upstreams: { doi: `http://doi.example:${closed}/doi.org` } }), { fetcher }));
    expect(refused).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      service: `the DOI resolver (doi.example:${closed})`,
      detail: 'the connection failed (ECONNREFUSED)',
    });
    const slow = await failure(assess('10.1234/resolver-slow', options(), { fetcher }));
    expect(slow).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', detail: 'it did not answer in time' });
    const busy = await failure(assess('10.1234/resolver-503', options(), { fetcher }));
    expect(busy).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', detail: 'it answered HTTP 503 Service Unavailable' });
  });

  it('the Handle resolver cannot be reached', async () => {
    const error = await failure(assess('hdl:20.500.11811/x', options({ upstreams: { handle: `http://hdl.example:${closed}/hdl.handle.net` } }), { fetcher }));
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', service: `the Handle resolver (hdl.example:${closed})` });
  });

  it("DataCite's REST API cannot be reached or answers 503 (asked only with use_registry)", async () => {
    const down = { upstreams: { datacite: `http://datacite.example:${closed}/api.datacite.org` } };
    const error = await failure(assess('10.1234/ok', options(down), { fetcher }));
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', service: `DataCite's REST API (datacite.example:${closed})`, detail: 'the connection failed' });
    const busy = await failure(assess('10.1234/datacite-503', options(), { fetcher }));
    expect(busy).toMatchObject({ service: `DataCite's REST API (datacite.example:${port})`, detail: 'it answered HTTP 503 Service Unavailable' });
    // Without the registry DataCite is not asked, so it being down changes nothing; a 404 from it is an answer.
    const without = await assess('10.1234/ok', options({ ...down, useRegistry: false }), { fetcher });
    expect(without.details.evidence.resolution.landingUrl).toBe(`http://repo.example:${port}/repo.example/ok`);
    expect((await assess('10.1234/ok', options(), { fetcher })).metricVersion).toBe('metrics_v0.8');
  });

  it('the code host cannot be reached (asked only with use_code_host)', async () => {
    const down = { upstreams: { github: `http://github.example:${closed}/api.github.com` } };
    const error = await failure(assess('10.1234/software', options({ ...down, useCodeHost: true }), { fetcher }));
    expect(error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', service: `the code host's API (github.example:${closed})` });
    await expect(assess('10.1234/software', options(down), { fetcher })).resolves.toMatchObject({ metricVersion: 'metrics_v0.8' });
  });
});

describe('over HTTP: the status, Retry-After, and what counts in each tier', () => {
  const key = generateApiKey();
  let h: FairApp;
  beforeAll(async () => {
    const u = upstreams();
    h = await fairApp(
      {
        FAIR_ALLOW_PRIVATE_ADDRESSES: 'true',
        FAIR_DOI_RESOLVER_URL: u.doi,
        FAIR_HANDLE_RESOLVER_URL: u.handle,
        FAIR_DATACITE_API_URL: u.datacite,
        FAIR_GITHUB_API_URL: u.github,
        FAIR_API_KEYS: `lab:${hashApiKey(key)}`,
        FAIR_ANON_LIMIT: '3',
        FAIR_AUTH_LIMIT: '4',
        FAIR_CACHE_TTL_SECONDS: '0',
      },
      { fetcher },
    );
  });
  afterAll(async () => h?.close());

  const post = (identifier: string, ip: string, headers: Record<string, string> = {}) =>
    h.app.inject({
      method: 'POST',
      url: '/fair/api/v1/assess',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ identifier }),
      remoteAddress: ip,
    });

  for (const tier of ['anonymous', 'keyed'] as const) {
    it(`${tier}: a 503 of ours never counts, however often; a 422 that asked the resolver does; a 200 does`, async () => {
      const ip = tier === 'anonymous' ? '203.0.113.7' : '203.0.113.8';
      const headers: Record<string, string> = tier === 'keyed' ? { authorization: `Bearer ${key}` } : {};
      const limit = tier === 'anonymous' ? '3' : '4';
      dnsDown = true;
      try {
        for (let i = 0; i < 6; i++) {
          const res = await post('10.5281/zenodo.8347772', ip, headers);
          const body = expectError(res, 'UPSTREAM_UNAVAILABLE', 503);
          expect(res.headers['retry-after']).toBe('30');
          expect(res.headers['x-ratelimit-limit']).toBe(limit);
          expect(res.headers['x-ratelimit-remaining']).toBe(limit);
          expect(body.message).toContain(`the DOI resolver (doi.example:${port})`);
          expect(body.details).toEqual([{ message: `the DOI resolver (doi.example:${port}): looking up its name failed (EAI_AGAIN)` }]);
        }
      } finally {
        dnsDown = false;
      }
      const missing = await post('10.1234/unknown', ip, headers);
      expectError(missing, 'RESOLUTION_FAILED', 422);
      expect(missing.headers['retry-after']).toBeUndefined();
      expect(missing.headers['x-ratelimit-remaining']).toBe(String(Number(limit) - 1));
      const ok = await post('10.1234/ok', ip, headers);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(Number(limit) - 2));
      const notAnId = await post('definitely not an identifier', ip, headers);
      expectError(notAnId, 'RESOLUTION_FAILED', 422);
      expect(notAnId.headers['x-ratelimit-remaining']).toBe(String(Number(limit) - 2));
    });
  }

  it('offline: a landing-page URL is 503 and never counted; the same URL with the name service up is a counted 422', async () => {
    const ip = '203.0.113.9';
    offline = true;
    try {
      for (let i = 0; i < 4; i++) {
        const res = await post('https://zenodo.example/records/1', ip);
        expectError(res, 'UPSTREAM_UNAVAILABLE', 503);
        expect(res.headers['x-ratelimit-remaining']).toBe('3');
      }
    } finally {
      offline = false;
    }
    const missing = await post('https://zenodo.example/records/1', ip);
    expect(expectError(missing, 'RESOLUTION_FAILED', 422).message).toContain('the host zenodo.example does not exist');
    expect(missing.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('/health is degraded (200) while the name service is down, healthy again once it answers', async () => {
    dnsDown = true;
    let down: FairApp | undefined;
    try {
      down = await fairApp({ FAIR_ALLOW_PRIVATE_ADDRESSES: 'true', FAIR_DOI_RESOLVER_URL: upstreams().doi }, { fetcher });
      const res = await down.app.inject('/fair/api/v1/health');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'degraded',
        assessmentBackend: false,
        reasons: [`the DOI resolver (doi.example:${port}) does not answer, so assessments fail with 503 until it does`],
      });
    } finally {
      dnsDown = false;
      await down?.close();
    }
    mock.route({ method: 'HEAD', path: '/doi.org/', status: 302, headers: { location: 'https://www.doi.org/' } });
    const res = await h.app.inject('/fair/api/v1/health');
    expect(res.json()).toMatchObject({ status: 'healthy', assessmentBackend: true, reasons: [] });
  });
});
