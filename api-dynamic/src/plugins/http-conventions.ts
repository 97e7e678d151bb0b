/**
 * Cross-cutting HTTP rules for every service (DECISIONS.md §3): request ids, the snapshot header, CORS,
 * the one error body for every non-2xx answer (never a stack), and 404s in the same shape.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, DEFAULT_RETRY_AFTER_SECONDS, errorBody } from '../../../contracts/common/errors.ts';
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

async function httpConventions(app: FastifyInstance, opts: { store: BuildStore | null }) {
  // One object shared by every child context: the site plugin sets `render` on it.
  const pages: HtmlPages = { render: null };
  app.decorate('htmlPages', pages);
  /** Sends an error: a page in the site's layout for a browser, the JSON body for everyone else. */
  const sendError = (request: FastifyRequest, reply: FastifyReply, status: number, body: ReturnType<typeof errorBody>) => {
    reply.code(status).header('Cache-Control', 'no-store');
    if (wantsErrorPage(request, status, pages)) {
      pages.render!(request, reply, ERROR_PAGE, { httpError: { status, body, path: request.url.split('?')[0]! } });
      return reply;
    }
    return reply.type('application/json; charset=utf-8').send(body);
  };
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    // Handlers that answered from a particular build set it themselves (a reload may have happened since).
    if (opts.store && !reply.hasHeader('X-Snapshot'))
      reply.header('X-Snapshot', opts.store.current.snapshotId);
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
      body = errorBody(
        'INTERNAL_ERROR',
        `The server failed to answer this request; quote request id ${request.id} when reporting it.`,
      );
    }
    return sendError(request, reply, status, body);
  });

  app.setNotFoundHandler((request, reply) => sendError(request, reply, 404, errorBody('NOT_FOUND', `No resource at ${request.method} ${request.url.split('?')[0]}.`)));
}

export default fp(httpConventions, { name: 'http-conventions' });
