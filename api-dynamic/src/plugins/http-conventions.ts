/**
 * Cross-cutting HTTP rules for every service (DECISIONS.md §3): request ids, the snapshot header, CORS,
 * the one error body for every non-2xx answer (never a stack), and 404s in the same shape.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, DEFAULT_RETRY_AFTER_SECONDS, type ErrorCode, errorBody, ERROR_STATUS } from '../../../contracts/common/errors.ts';
import type { BuildStore } from '../services/build-store.ts';
import { ERROR_PAGE, type HtmlPages, wantsErrorPage } from './html-pages.ts';

export const API_PATH = /\/api\/v\d+(\/|$)/;

/**
 * Fastify's `frameworkErrors`: a URL it cannot decode (`%FF`) or a path parameter over `maxParamLength` is
 * answered before routing, without the hooks; this gives them the shared error body and headers too.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const body = errorBody(
    'INVALID_PARAMETER',
    tooLong ? 'A path parameter is too long (at most 200 characters).' : 'The URL cannot be decoded: check its percent-escapes.',
  );
  reply
    .code(400)
    .header('Cache-Control', 'no-store')
    .header('X-Request-Id', request.id)
    .header('Access-Control-Allow-Origin', '*')
    .type('application/json; charset=utf-8')
    .send(body);
}

/** Reason phrases of the statuses clientError answers (the status line needs one). */
const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Fastify's `clientErrorHandler` (Node's 'clientError' event): a request Node's parser refuses before any
 * route sees it (headers over the size limit, malformed HTTP, headers too slow) gets the shared error body and
 * the headers every answer carries (request id, snapshot, CORS, no-store), then `Connection: close` and a
 * clean end of the connection, since the rest of the stream cannot be parsed.
 */
export function clientErrorHandler(store: BuildStore | null, log: (err: Error, code: ErrorCode) => void) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    // A reset socket has nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    const [code, message]: [ErrorCode, string] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            'HEADERS_TOO_LARGE',
            'The request headers are larger than the server accepts (16 KiB in all); send fewer or shorter headers (large cookies are the usual cause).',
          ]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'HPE_HEADERS_TIMEOUT'
          ? ['REQUEST_TIMEOUT', 'The request was not received in time: its headers or body came too slowly.']
          : [
              'MALFORMED_REQUEST',
              `The request is not valid HTTP/1.1 (${err.code ?? 'parse error'}): check the request line, the header syntax and the body framing (Content-Length, Transfer-Encoding).`,
            ];
    log(err, code);
    const status = ERROR_STATUS[code];
    const body = JSON.stringify(errorBody(code, message));
    const headers = [
      `HTTP/1.1 ${status} ${REASONS[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      `X-Request-Id: ${randomUUID()}`,
      ...(store ? [`X-Snapshot: ${store.current.snapshotId}`] : []),
      'Access-Control-Allow-Origin: *',
      'Connection: close',
    ];
    const answer = () => {
      if (socket.destroyed || !socket.writable) return void socket.destroy();
      socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
    };
    // A request before the bad one (pipelined on this connection) is still being answered: that answer goes first.
    const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (pending && !pending.writableFinished) {
      pending.once('finish', answer);
      pending.once('close', () => {
        if (!pending.writableFinished) socket.destroy();
      });
    } else answer();
  };
}

async function httpConventions(app: FastifyInstance, opts: { store: BuildStore | null }) {
  // One object shared by every child context: the site plugin sets `render` on it.
  const pages: HtmlPages = { render: null };
  app.decorate('htmlPages', pages);
  /**
   * Sends an error: a page in the site's layout for a browser asking for a page, the JSON body for everyone
   * else. An API path answers JSON whatever Accept says: the documents promise JSON bodies.
   */
  const sendError = (request: FastifyRequest, reply: FastifyReply, status: number, body: ReturnType<typeof errorBody>) => {
    reply.code(status).header('Cache-Control', 'no-store');
    if (!API_PATH.test(request.url.split('?')[0]!) && wantsErrorPage(request, status, pages)) {
      pages.render!(request, reply, ERROR_PAGE, { httpError: { status, body, path: request.url.split('?')[0]! } });
      return reply;
    }
    return reply.type('application/json; charset=utf-8').send(body);
  };
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    // Handlers that answered from a particular build set it themselves (a reload may have happened since).
    if (opts.store && !reply.hasHeader('X-Snapshot')) reply.header('X-Snapshot', opts.store.current.snapshotId);
    if (API_PATH.test(request.url)) reply.header('Access-Control-Allow-Origin', '*');
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    let status: number;
    let body: ReturnType<typeof errorBody>;
    if (error instanceof ApiError) {
      status = error.status;
      body = error.toBody();
      // A dependency that is down: the client gets the public message, the log gets the cause.
      if (status >= 500) request.log.warn({ err: error.cause ?? error, internal: (error as { internal?: string }).internal }, error.message);
      // Every 503 says when trying again is worth it (RFC 9110 §10.2.3).
      if (error.code === 'UPSTREAM_UNAVAILABLE') reply.header('Retry-After', String(error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
    } else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      body = errorBody('PAYLOAD_TOO_LARGE', error.message);
    } else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      body = errorBody('UNSUPPORTED_MEDIA_TYPE', error.message);
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      body = errorBody(status === 404 ? 'NOT_FOUND' : 'INVALID_PARAMETER', error.message);
    } else {
      status = 500;
      request.log.error({ err: error }, 'unhandled error');
      body = errorBody('INTERNAL_ERROR', `The server failed to answer this request; quote request id ${request.id} when reporting it.`);
    }
    return sendError(request, reply, status, body);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, 404, errorBody('NOT_FOUND', `No resource at ${request.method} ${request.url.split('?')[0]}.`)),
  );
}

export default fp(httpConventions, { name: 'http-conventions' });
