/**
 * Requests Node's HTTP parser refuses before any route sees them (headers over the size limit, malformed HTTP)
 * get the shared error body over a raw socket: the code, the request id, the snapshot and CORS headers,
 * `Connection: close`, and a clean end of the connection (FIN, not a reset) after the whole body. And a query
 * string with malformed percent-encoding is a 400 naming the parameter on every service.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import { appFor } from '../helpers/app.ts';
import { fixtureBuild, fixtureSnapshot, tempDir } from '../helpers/fixture-build.ts';

const tmp = tempDir('client-errors');
let h: Awaited<ReturnType<typeof appFor>>;
let port = 0;

beforeAll(async () => {
  const snapshot = await fixtureSnapshot(tmp.path);
  await fixtureBuild(snapshot, join(tmp.path, 'out'), false);
  h = await appFor(join(tmp.path, 'out'));
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as { port: number }).port;
}, 180_000);
afterAll(async () => {
  await h?.close();
  tmp.remove();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** How the server left the connection: 'end' (FIN after the answer) or the socket error's code. */
  closed: string;
}

/** Writes `request` on a new connection and reads until the server closes it. */
function raw(request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = 'end';
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err: Error & { code?: string }) => (closed = err.code ?? err.message));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no complete answer (connection ${closed}): ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4), closed });
    });
    socket.write(request);
  });
}

/** The shared error answer: the body schema, its byte length, and the headers every answer carries. */
function expectSharedError(a: RawAnswer, status: number, code: string) {
  expect(a.status).toBe(status);
  expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
  const body = errorBodySchema.parse(JSON.parse(a.body));
  expect(body.code).toBe(code);
  expect(body.message.length).toBeGreaterThan(20);
  expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(a.headers['x-snapshot']).toBe(h.store.current.snapshotId);
  expect(a.headers['access-control-allow-origin']).toBe('*');
  expect(a.headers['cache-control']).toBe('no-store');
  expect(a.headers.connection).toBe('close');
  expect(a.closed).toBe('end');
}

it('a route error over the same raw socket has the same shape (the oracle for the checks below)', async () => {
  const a = await raw('GET /frame/api/v1/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expect(a.status).toBe(404);
  expect(errorBodySchema.parse(JSON.parse(a.body)).code).toBe('NOT_FOUND');
  for (const header of ['x-request-id', 'x-snapshot', 'access-control-allow-origin', 'cache-control']) expect(a.headers[header], header).toBeDefined();
});

it('headers over the limit: 431 HEADERS_TOO_LARGE, then Connection: close and a clean end', async () => {
  const big = 'x'.repeat(20 * 1024);
  expectSharedError(await raw(`GET /frame/api/v1/stats/summary HTTP/1.1\r\nHost: x\r\nCookie: ${big}\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
  // Many headers, each small, add up to the same limit.
  const many = Array.from({ length: 400 }, (_, i) => `X-Pad-${i}: ${'y'.repeat(60)}`).join('\r\n');
  expectSharedError(await raw(`GET /corpus/api/v1/stats HTTP/1.1\r\nHost: x\r\n${many}\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
});

it.each([
  ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
  ['a header line without a colon', 'GET /fair/api/v1/health HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n'],
  ['a bad Content-Length', 'POST /fair/api/v1/assess HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n'],
  ['both Content-Length and chunked', 'POST /fair/api/v1/assess HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
  ['an unknown HTTP version', 'GET /frame/api/v1/stats/summary HTTP/7.1\r\nHost: x\r\n\r\n'],
])('malformed HTTP (%s): 400 MALFORMED_REQUEST with the shared body', async (_name, request) => {
  expectSharedError(await raw(request), 400, 'MALFORMED_REQUEST');
});

it('the connection that got a good answer first, then a malformed request, gets both answers in order', async () => {
  const a = await raw('GET /frame/api/v1/nowhere HTTP/1.1\r\nHost: x\r\n\r\nHELLO\r\n\r\n');
  expect(a.status).toBe(404);
  const second = a.body.indexOf('HTTP/1.1 400 ');
  expect(second).toBeGreaterThan(0);
  const rest = a.body.slice(second);
  const split = rest.indexOf('\r\n\r\n');
  expect(errorBodySchema.parse(JSON.parse(rest.slice(split + 4))).code).toBe('MALFORMED_REQUEST');
});

it.each([
  ['/frame/api/v1/works?q=%E0%A4%A', 'q'],
  ['/frame/api/v1/cohort?lang=f%r', 'lang'],
  ['/corpus/api/v1/excerpts?q=%E0%A4%A', 'q'],
  ['/corpus/api/v1/excerpts?phr%E9se=x', 'phr%E9se'],
  ['/fair/api/v1/health?x=%C3', 'x'],
])('malformed percent-encoding in %s: 400 INVALID_PARAMETER naming %s', async (url, parameter) => {
  const res = await h.app.inject(url);
  expect(res.statusCode).toBe(400);
  const body = errorBodySchema.parse(res.json());
  expect(body.code).toBe('INVALID_PARAMETER');
  expect(body.details?.[0]?.parameter).toBe(parameter);
  expect(body.message).toContain(`"${parameter}"`);
});
