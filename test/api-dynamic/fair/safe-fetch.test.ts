/**
 * The SSRF-safe fetcher and its address guard (DECISIONS.md §6), offline: only 127.0.0.1 mock servers and
 * injected resolvers.
 *
 * Refusals run with private addresses NOT allowed. A refusal that happens on a later hop (a redirect to
 * 127.0.0.1) needs a first hop that passes the guard, i.e. a public address, which a test cannot reach; so
 * the resolver makes `public.test` resolve to a public address (93.184.216.34) and the injected dialer, which
 * receives the addresses that passed the guard, routes that one connection to the loopback mock. The guard
 * itself runs exactly as in production, and the dialer's log shows which address each connection was for.
 * Everything else (normal GETs, limits, timeouts) talks to the mocks directly with private addresses allowed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as netConnect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAddress, checkHostname } from '../../../api-dynamic/src/services/fair/address-guard.ts';
import { FetchError, type FetchFailure } from '../../../api-dynamic/src/services/fair/fetcher.ts';
import { type DialTarget, type Resolver, SafeFetcher, type SafeFetcherOptions } from '../../../api-dynamic/src/services/fair/safe-fetch.ts';
import { needProgram, skipBecause } from '../../helpers/needs.ts';

const MB = 1024 * 1024;
const PUBLIC_IP = '93.184.216.34';

// ---- the mock upstream ----

let server: Server;
let other: Server;
let loris: NetServer;
let base = '';
let otherBase = '';
let lorisPort = 0;
/** Bytes the /huge handler managed to write before the client hung up. */
let hugeSent = 0;
let hugeClosed: Promise<void> = Promise.resolve();
const openSockets = new Set<Socket>();
const bomb = gzipSync(Buffer.alloc(64 * MB)); // ~64 KB on the wire, 64 MB decoded

function echo(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers }));
}

function handler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url!, 'http://mock');
  const path = url.pathname;
  if (path === '/echo') return echo(req, res);
  if (path === '/links') {
    res.setHeader('link', ['<https://doi.org/10.1/x>; rel="cite-as"', '<https://example.org/meta.json>; rel="describedby"']);
    return echo(req, res);
  }
  if (path === '/head') {
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '123456' });
    return void res.end(req.method === 'HEAD' ? undefined : Buffer.alloc(123456));
  }
  const hops = /^\/redirect\/(\d+)$/.exec(path);
  if (hops) {
    const n = Number(hops[1]);
    res.writeHead(302, { location: n === 0 ? '/echo' : `/redirect/${n - 1}` });
    return void res.end('moved');
  }
  if (path === '/to') {
    res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('u')! });
    return void res.end();
  }
  if (path === '/huge') {
    // 1 GB announced and served lazily: a chunk at a time, only as fast as the client reads.
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(1024 * MB) });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let stopped = false;
    hugeSent = 0;
    hugeClosed = new Promise((resolve) => res.once('close', () => ((stopped = true), resolve())));
    const pump = () => {
      while (!stopped && hugeSent < 1024 * MB) {
        hugeSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!stopped) res.end();
    };
    return pump();
  }
  if (path === '/trickle') {
    // Headers at once, then a byte every 100 ms, forever.
    res.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => res.write('x'), 100);
    return void res.once('close', () => clearInterval(timer));
  }
  if (path === '/bomb') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    return void res.end(bomb);
  }
  if (path === '/gzip') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    return void res.end(gzipSync(JSON.stringify({ hello: 'world' })));
  }
  res.writeHead(404).end();
}

function listen(s: Server | NetServer): Promise<number> {
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port)));
}

beforeAll(async () => {
  server = createHttpServer(handler);
  other = createHttpServer(echo);
  // Slow loris: a status line, then a header byte every 100 ms; the header block never ends.
  loris = createNetServer((socket) => {
    openSockets.add(socket);
    socket.on('error', () => {});
    socket.write('HTTP/1.1 200 OK\r\nx-slow: ');
    const timer = setInterval(() => socket.write('a'), 100);
    socket.once('close', () => (clearInterval(timer), openSockets.delete(socket)));
  });
  for (const s of [server, other]) s.on('connection', (socket) => (openSockets.add(socket), socket.once('close', () => openSockets.delete(socket))));
  base = `http://127.0.0.1:${await listen(server)}`;
  otherBase = `http://127.0.0.1:${await listen(other)}`;
  lorisPort = await listen(loris);
});

afterAll(async () => {
  for (const socket of openSockets) socket.destroy();
  await Promise.all([server, other, loris].map((s) => new Promise((resolve) => s.close(resolve))));
});

// ---- helpers ----

/** A fetcher for the mocks: private addresses allowed, as the engine's tests run it. */
const local = (options: SafeFetcherOptions = {}) => new SafeFetcher({ allowPrivateAddresses: true, ...options });

/** A resolver from a fixed table, counting its calls; a name not in the table does not resolve. */
function tableResolver(table: Record<string, string | string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return (Array.isArray(entry) ? entry : [entry]).map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolve, { calls });
}

/**
 * The guard as in production (private addresses refused), with `public.test` resolving to a public address
 * whose connections the dialer routes to the loopback mock. `dials` records each connection's checked target.
 */
function guarded(table: Record<string, string | string[]> = {}) {
  const dials: DialTarget[] = [];
  const lookup = tableResolver({ 'public.test': PUBLIC_IP, ...table });
  const mockPort = Number(new URL(base).port);
  const fetcher = new SafeFetcher({
    lookup,
    dial: (target) => {
      dials.push(target);
      if (target.addresses.some((a) => a.address !== PUBLIC_IP)) throw new Error(`test dialer asked for ${JSON.stringify(target.addresses)}`);
      return netConnect(mockPort, '127.0.0.1');
    },
  });
  return { fetcher, dials, lookup };
}

/** Awaits a rejection and checks it is a FetchError with the reason. */
async function refused(promise: Promise<unknown>, reason: FetchFailure): Promise<FetchError> {
  const err = await promise.then(
    () => expect.fail(`expected a FetchError (${reason}), got a response`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  expect((err as FetchError).reason, (err as Error).message).toBe(reason);
  return err as FetchError;
}

const json = (body: Buffer) => JSON.parse(body.toString('utf8'));

// ---- the guard's table ----

describe('address guard', () => {
  const strict = { allowPrivateAddresses: false };
  const lenient = { allowPrivateAddresses: true };

  it.each([
    ['93.184.216.34'],
    ['8.8.8.8'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:93.184.216.34'],
    ['2002:5db8:d822::1'], // 6to4 of 93.184.216.34
    ['64:ff9b::5db8:d822'], // NAT64 of 93.184.216.34
  ])('allows the public address %s', (address) => {
    expect(checkAddress(address, strict)).toEqual({ allowed: true });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.1.1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated
    ['64:ff9b::7f00:1', 'loopback'], // NAT64
    ['2002:7f00:1::', 'loopback'], // 6to4
    ['::7f00:1', 'outside 2000::/3'], // IPv4-compatible (deprecated)
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'teredo'],
  ])('refuses %s (%s)', (address, range) => {
    const verdict = checkAddress(address, strict);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.range).toContain(range);
  });

  it.each([['169.254.169.254'], ['169.254.170.2'], ['100.100.100.200'], ['192.0.0.192'], ['168.63.129.16'], ['fd00:ec2::254'], ['::ffff:169.254.169.254']])(
    'refuses the metadata address %s even with private addresses allowed',
    (address) => {
      for (const policy of [strict, lenient]) {
        const verdict = checkAddress(address, policy);
        expect(verdict.allowed ? '' : verdict.range).toMatch(/metadata/);
      }
    },
  );

  it('lets private ranges through only when allowed, and never unspecified, multicast or broadcast', () => {
    for (const address of ['127.0.0.1', '10.0.0.5', '100.64.0.1', '169.254.1.1', '::1', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1'])
      expect(checkAddress(address, lenient), address).toEqual({ allowed: true });
    for (const address of ['0.0.0.0', '::', '224.0.0.1', '255.255.255.255', 'ff02::1']) expect(checkAddress(address, lenient).allowed, address).toBe(false);
  });

  it('refuses local-only and metadata host names before resolution', () => {
    for (const name of ['localhost', 'LOCALHOST.', 'a.localhost', 'printer.local', 'db.internal', 'intranet'])
      expect(checkHostname(name, strict).allowed, name).toBe(false);
    for (const name of ['metadata.google.internal', 'metadata.google.internal.', 'metadata', 'metadata.goog']) {
      expect(checkHostname(name, strict).allowed, name).toBe(false);
      expect(checkHostname(name, lenient).allowed, name).toBe(false);
    }
    expect(checkHostname('doi.org', strict)).toEqual({ allowed: true });
    expect(checkHostname('localhost', lenient)).toEqual({ allowed: true });
  });
});

// ---- refusals ----

describe('refusals (private addresses not allowed)', () => {
  it('refuses file:, ftp: and other schemes without resolving anything', async () => {
    const { fetcher, dials, lookup } = guarded();
    for (const url of ['file:///etc/passwd', 'ftp://public.test/pub/file.txt', 'gopher://public.test/', 'data:text/plain,hi', 'javascript:alert(1)'])
      expect((await refused(fetcher.fetch({ url }), 'scheme')).message).toContain('only http and https');
    await refused(fetcher.fetch({ url: 'not a url' }), 'scheme');
    expect(lookup.calls).toEqual([]);
    expect(dials).toEqual([]);
  });

  it('refuses a DNS name that resolves to 10.x, before connecting', async () => {
    const { fetcher, dials, lookup } = guarded({ 'internal.test': '10.0.0.5' });
    const err = await refused(fetcher.fetch({ url: 'http://internal.test/secret' }), 'address');
    expect(err.message).toContain('internal.test resolves to 10.0.0.5 (private)');
    expect(lookup.calls).toEqual(['internal.test']);
    expect(dials).toEqual([]);
  });

  it('refuses a name whose answers mix a public and a private address', async () => {
    const { fetcher, dials } = guarded({ 'mixed.test': [PUBLIC_IP, '192.168.0.10'] });
    await refused(fetcher.fetch({ url: 'http://mixed.test/' }), 'address');
    expect(dials).toEqual([]);
  });

  it('refuses a redirect to 127.0.0.1 from an allowed first hop', async () => {
    const { fetcher, dials } = guarded();
    const target = `${base}/echo`;
    const err = await refused(fetcher.fetch({ url: `http://public.test/to?u=${encodeURIComponent(target)}` }), 'address');
    expect(err.message).toContain('127.0.0.1 (loopback)');
    // The first hop was connected (to the checked public address), the second never was.
    expect(dials.map((d) => d.addresses.map((a) => a.address))).toEqual([[PUBLIC_IP]]);
  });

  it('checks every redirect hop: a redirect to a name resolving to 10.x, to [::1], to the metadata address, to file:', async () => {
    const { fetcher, dials } = guarded({ 'internal.test': '10.0.0.5' });
    const via = (u: string) => `http://public.test/to?u=${encodeURIComponent(u)}`;
    await refused(fetcher.fetch({ url: via('http://internal.test/') }), 'address');
    await refused(fetcher.fetch({ url: via('http://[::1]/') }), 'address');
    await refused(fetcher.fetch({ url: via('http://169.254.169.254/latest/meta-data/') }), 'address');
    await refused(fetcher.fetch({ url: via('file:///etc/passwd') }), 'scheme');
    // A relative redirect through several allowed hops, then out to loopback, is refused at that hop.
    await refused(fetcher.fetch({ url: `http://public.test/to?u=${encodeURIComponent(`/to?u=${encodeURIComponent(`${base}/echo`)}`)}` }), 'address');
    expect(dials.every((d) => d.hostname === 'public.test')).toBe(true);
  });

  it.each([
    ['http://127.0.0.1/'],
    ['http://2130706433/'], // 127.0.0.1 as one number (the URL parser normalises it)
    ['http://0x7f.1/'],
    ['http://0177.0.0.1/'],
    ['http://0.0.0.0/'],
    ['http://[::1]/'],
    ['http://[::]/'],
    ['http://[::ffff:127.0.0.1]/'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/'],
    ['http://[::ffff:0:127.0.0.1]/'],
    ['http://[64:ff9b::127.0.0.1]/'],
    ['http://[fe80::1]/'],
    ['http://[fd00::1]/'],
    ['https://10.0.0.1/'],
    ['http://172.20.1.1:8080/'],
    ['http://192.168.0.1/'],
    ['http://100.64.1.1/'],
    ['http://224.0.0.251/'],
    ['http://255.255.255.255/'],
  ])('refuses the address literal %s', async (url) => {
    const { fetcher, dials, lookup } = guarded();
    await refused(fetcher.fetch({ url }), 'address');
    expect(lookup.calls).toEqual([]);
    expect(dials).toEqual([]);
  });

  it('refuses IPv6 loopback and IPv4-mapped answers from DNS', async () => {
    const { fetcher, dials } = guarded({ 'six.test': '::1', 'mapped.test': '::ffff:10.1.2.3', 'mapped-lo.test': '::ffff:127.0.0.1' });
    for (const host of ['six.test', 'mapped.test', 'mapped-lo.test']) await refused(fetcher.fetch({ url: `http://${host}/` }), 'address');
    expect(dials).toEqual([]);
  });

  it('refuses the cloud metadata endpoints, by address and by name, even with private addresses allowed', async () => {
    const lookup = tableResolver({ 'metadata.google.internal': '169.254.169.254', 'sneaky.test': '169.254.169.254' });
    for (const allowPrivateAddresses of [false, true]) {
      const fetcher = new SafeFetcher({ allowPrivateAddresses, lookup, dial: () => expect.fail('must not connect') });
      for (const url of [
        'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
        'http://[fd00:ec2::254]/latest/meta-data/',
        'http://[::ffff:169.254.169.254]/',
        'http://metadata.google.internal/computeMetadata/v1/',
        'http://sneaky.test/',
        'http://100.100.100.200/latest/meta-data/',
      ])
        expect((await refused(fetcher.fetch({ url }), 'address')).message).toContain('metadata');
    }
    // The metadata name is refused by name: no resolver is asked about it.
    expect(lookup.calls).toEqual(['sneaky.test', 'sneaky.test']);
  });

  it('refuses localhost by name without resolving it', async () => {
    const { fetcher, lookup } = guarded({ localhost: '127.0.0.1' });
    await refused(fetcher.fetch({ url: 'http://localhost:8080/' }), 'address');
    expect(lookup.calls).toEqual([]);
  });

  it('reports a name that does not resolve as dns', async () => {
    const { fetcher } = guarded();
    expect((await refused(fetcher.fetch({ url: 'http://nowhere.test/' }), 'dns')).message).toContain('nowhere.test does not resolve');
    const empty = new SafeFetcher({ lookup: async () => [] });
    await refused(empty.fetch({ url: 'http://empty.test/' }), 'dns');
  });

  it('connects to the address that was checked: a second, different DNS answer is never asked for or used', async () => {
    // A rebinding resolver: public at first, loopback afterwards. With private addresses allowed the
    // default (pinned) dialer would happily reach 127.0.0.1 too, so the test proves the socket used the
    // checked answer (127.0.0.1, where the mock is) and did not resolve again (127.0.0.2 has no mock).
    let calls = 0;
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    const fetcher = local({ lookup: rebinding });
    const port = new URL(base).port;
    const res = await fetcher.fetch({ url: `http://rebind.test:${port}/echo` });
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
    // Host header and URL keep the name, although the socket went to the IP.
    expect(json(res.body).headers.host).toBe(`rebind.test:${port}`);
  });
});

// ---- what it fetches ----

describe('fetching (private addresses allowed for the mocks)', () => {
  it('GETs with the default Accept and User-Agent, and sends a given Accept', async () => {
    const fetcher = local();
    const res = await fetcher.fetch({ url: `${base}/echo?x=1` });
    expect(res).toMatchObject({ requestedUrl: `${base}/echo?x=1`, url: `${base}/echo?x=1`, redirects: [], status: 200, truncated: false });
    const seen = json(res.body);
    expect(seen).toMatchObject({ method: 'GET', url: '/echo?x=1' });
    expect(seen.headers.accept).toBe('*/*');
    expect(seen.headers['user-agent']).toMatch(/^ori-fair-assessment\//);
    expect(res.headers['content-type']).toBe('application/json');
    const negotiated = await fetcher.fetch({
      url: `${base}/echo`,
      accept: 'application/vnd.datacite.datacite+json',
      headers: { 'X-Extra': 'yes', Host: 'evil.test' },
    });
    expect(json(negotiated.body).headers).toMatchObject({ accept: 'application/vnd.datacite.datacite+json', 'x-extra': 'yes', host: new URL(base).host });
  });

  it('HEADs without reading a body', async () => {
    const res = await local().fetch({ url: `${base}/head`, method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('123456');
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.body.length).toBe(0);
  });

  it('joins repeated Link headers into one list', async () => {
    const res = await local().fetch({ url: `${base}/links` });
    expect(res.headers.link).toBe('<https://doi.org/10.1/x>; rel="cite-as", <https://example.org/meta.json>; rel="describedby"');
  });

  it('follows redirects and records every URL visited before the final one', async () => {
    const res = await local().fetch({ url: `${base}/redirect/3` });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/echo`);
    expect(res.redirects).toEqual([`${base}/redirect/3`, `${base}/redirect/2`, `${base}/redirect/1`, `${base}/redirect/0`]);
    expect(res.requestedUrl).toBe(`${base}/redirect/3`);
  });

  it('follows 10 redirects and refuses the 11th', async () => {
    const fetcher = local();
    expect((await fetcher.fetch({ url: `${base}/redirect/9` })).redirects).toHaveLength(10);
    expect((await refused(fetcher.fetch({ url: `${base}/redirect/10` }), 'redirects')).message).toContain('more than 10 redirects');
    await refused(local({ maxRedirects: 2 }).fetch({ url: `${base}/redirect/2` }), 'redirects');
  });

  it('returns a redirect as is when asked not to follow', async () => {
    const res = await local().fetch({ url: `${base}/redirect/1`, followRedirects: false });
    expect(res).toMatchObject({ status: 302, url: `${base}/redirect/1`, redirects: [] });
    expect(res.headers.location).toBe('/redirect/0');
  });

  it('drops credentials on a redirect to another origin, keeps them on the same origin', async () => {
    const fetcher = local();
    const headers = { Authorization: 'token secret', Cookie: 'a=b' };
    const away = await fetcher.fetch({ url: `${base}/to?u=${encodeURIComponent(`${otherBase}/echo`)}`, headers });
    expect(away.url).toBe(`${otherBase}/echo`);
    expect(json(away.body).headers.authorization).toBeUndefined();
    expect(json(away.body).headers.cookie).toBeUndefined();
    const same = await fetcher.fetch({ url: `${base}/redirect/1`, headers });
    expect(json(same.body).headers.authorization).toBe('token secret');
  });

  it('turns a 303 after HEAD into HEAD and after GET into GET', async () => {
    const res = await local().fetch({ url: `${base}/to?status=303&u=%2Fecho`, method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });

  it('decodes a gzip body', async () => {
    const res = await local().fetch({ url: `${base}/gzip` });
    expect(json(res.body)).toEqual({ hello: 'world' });
    expect(json((await local().fetch({ url: `${base}/echo` })).body).headers['accept-encoding']).toBe('gzip, deflate, br');
    const ranged = await local().fetch({ url: `${base}/echo`, headers: { Range: 'bytes=0-99' } });
    expect(json(ranged.body).headers['accept-encoding']).toBe('identity');
  });

  it('honours the caller abort signal as a timeout', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const err = await refused(local().fetch({ url: `${base}/trickle` }, controller.signal), 'timeout');
    expect(err.message).toContain("caller's deadline");
    const aborted = AbortSignal.abort();
    await refused(local().fetch({ url: `${base}/echo` }, aborted), 'timeout');
  });

  it('fetches from an IPv6 literal, with brackets in the Host header', async (ctx) => {
    const v6 = createHttpServer(echo);
    const listening = await new Promise<boolean>((resolve) => {
      v6.once('error', () => resolve(false));
      v6.listen(0, '::1', () => resolve(true));
    });
    if (!listening) {
      skipBecause({ missing: 'an IPv6 loopback (::1)', remedy: 'a property of the machine', skipped: 'the IPv6 literal test' }, false);
      return ctx.skip();
    }
    const port = (v6.address() as { port: number }).port;
    try {
      const res = await local().fetch({ url: `http://[::1]:${port}/echo` });
      expect(res.status).toBe(200);
      expect(json(res.body).headers.host).toBe(`[::1]:${port}`);
      await refused(new SafeFetcher().fetch({ url: `http://[::1]:${port}/echo` }), 'address');
    } finally {
      await new Promise((resolve) => v6.close(resolve));
    }
  });

  it('reports a refused connection as network', async () => {
    const closed = createNetServer();
    const port = await listen(closed);
    await new Promise((r) => closed.close(r));
    await refused(local().fetch({ url: `http://127.0.0.1:${port}/` }), 'network');
  });
});

// ---- limits ----

describe('limits', () => {
  it('stops a 1 GB body at 5 MB without the rest being sent', async () => {
    const res = await local().fetch({ url: `${base}/huge` });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(5 * MB);
    expect(res.status).toBe(200);
    await hugeClosed; // the client hung up
    expect(hugeSent).toBeLessThan(64 * MB); // socket buffers hold a little more than the cap, not the gigabyte
  });

  it('caps by the request maxBytes, never above the fetcher cap', async () => {
    const small = await local().fetch({ url: `${base}/echo`, maxBytes: 10 });
    expect(small.truncated).toBe(true);
    expect(small.body.length).toBe(10);
    const big = await local({ maxBytes: 1000 }).fetch({ url: `${base}/huge`, maxBytes: 10 * MB });
    expect(big.body.length).toBe(1000);
  });

  it('cuts a gzip bomb at the cap on decoded bytes', async () => {
    const res = await local().fetch({ url: `${base}/bomb` });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(5 * MB);
  });

  it('cuts a slow-loris upstream that never finishes its headers at the deadline', async () => {
    const started = Date.now();
    const err = await refused(local({ timeoutMs: 1000 }).fetch({ url: `http://127.0.0.1:${lorisPort}/` }), 'timeout');
    const elapsed = Date.now() - started;
    expect(err.message).toContain('within 1000 ms');
    expect(elapsed).toBeGreaterThanOrEqual(950);
  });

  it('cuts a body that trickles forever at the deadline, although bytes keep arriving', async () => {
    await refused(local({ timeoutMs: 1000 }).fetch({ url: `${base}/trickle` }), 'timeout');
  });

  it('cuts a resolver that never answers at the deadline', async () => {
    const hanging = new SafeFetcher({ timeoutMs: 300, lookup: () => new Promise(() => {}) });
    await refused(hanging.fetch({ url: 'http://slow-dns.test/' }), 'timeout');
  });

  it('applies one deadline to the whole call, redirects included', async () => {
    // Each hop is quick, but the loris at the end of a redirect still ends the call at the deadline.
    await refused(local({ timeoutMs: 800 }).fetch({ url: `${base}/to?u=${encodeURIComponent(`http://127.0.0.1:${lorisPort}/`)}` }), 'timeout');
  });
});

// ---- https ----

/** A self-signed certificate for public.test from the openssl command, or null without it (needs.ts records why). */
function selfSigned(): { key: Buffer; cert: Buffer } | null {
  if (!needProgram('openssl', 'the https tests')) return null;
  const dir = mkdtempSync(join(tmpdir(), 'fair-safe-tls-'));
  try {
    const run = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=public.test',
        '-addext',
        'subjectAltName=DNS:public.test',
      ],
      { stdio: 'pipe' },
    );
    if (run.error || run.status !== 0) throw new Error(`openssl made no test certificate: ${run.error?.message ?? run.stderr.toString().trim()}`);
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tlsPair = selfSigned();

describe.skipIf(tlsPair === null)('https', () => {
  let tlsServer: ReturnType<typeof createHttpsServer>;
  let port = 0;
  const sni: (string | undefined)[] = [];

  beforeAll(async () => {
    tlsServer = createHttpsServer({ key: tlsPair!.key, cert: tlsPair!.cert }, echo);
    tlsServer.on('tlsClientError', () => {});
    // The SNI name of every completed handshake.
    tlsServer.on('secureConnection', (socket) => sni.push((socket as unknown as { servername?: string }).servername));
    port = await listen(tlsServer);
  });

  afterAll(() => new Promise((resolve) => tlsServer.close(resolve)));

  it('connects to the checked address, sends the host name as SNI and Host, and verifies the certificate against it', async () => {
    const lookup = tableResolver({ 'public.test': '127.0.0.1' });
    const fetcher = local({ lookup, ca: tlsPair!.cert });
    const res = await fetcher.fetch({ url: `https://public.test:${port}/echo` });
    expect(res.status).toBe(200);
    expect(json(res.body).headers.host).toBe(`public.test:${port}`);
    expect(sni.at(-1)).toBe('public.test');
    expect(lookup.calls).toEqual(['public.test']);
  });

  it('refuses a certificate it cannot verify: an unknown issuer, or a name the certificate is not for', async () => {
    const untrusted = local({ lookup: tableResolver({ 'public.test': '127.0.0.1' }) });
    expect((await refused(untrusted.fetch({ url: `https://public.test:${port}/echo` }), 'network')).message).toMatch(/self[- ]signed/);
    const wrongName = local({ lookup: tableResolver({ 'other.test': '127.0.0.1' }), ca: tlsPair!.cert });
    expect((await refused(wrongName.fetch({ url: `https://other.test:${port}/echo` }), 'network')).message).toMatch(/altnames|other\.test/);
  });
});
