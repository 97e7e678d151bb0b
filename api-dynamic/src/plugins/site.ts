/**
 * Serves the Astro site from the same process: its static files (`<SITE_DIR>/client`) and, for the pages it
 * renders per request, the node adapter's handler in middleware mode (`<SITE_DIR>/server/entry.mjs`). API
 * paths never reach Astro: an unknown API path gets the JSON 404.
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest, InjectOptions } from 'fastify';
import type { PermalinkView } from '../../../contracts/frame/responses.ts';
import type { BuildManifest } from '../../../contracts/common/build-manifest.ts';
import { ApiError, errorBody } from '../../../contracts/common/errors.ts';
import { API_PATH } from './http-conventions.ts';
import { ERROR_PAGE, type HttpErrorLocals, prefersHtml } from './html-pages.ts';
import { PAGE_SECURITY_HEADERS } from './page-security.ts';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, locals?: object) => void;

/** What an in-process API call answers: the status, the headers and the body (parsed when it is JSON). */
export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
}

export interface ApiCall {
  method?: 'GET' | 'POST';
  /** A request body (sent as JSON unless contentType says otherwise). */
  body?: string;
  contentType?: string;
  authorization?: string;
}

export interface SiteLocals {
  /** The manifest of the build being served, so server-rendered pages show what the API answers from. */
  manifest: BuildManifest;
  /**
   * Calls this process's own API (Fastify `inject`, no socket): a server-rendered page shows exactly what the
   * API answers for the same query string, through the same parser, validation and rate limits. The call
   * carries the reader's address, so the FAIR anonymous tier counts the reader, not the server.
   */
  api: <T = unknown>(path: string, call?: ApiCall) => Promise<ApiAnswer<T>>;
  /** Resolves a cohort permalink on the build being served (the `/frame/q/<hash>` page). */
  permalink?: (hash: string) => Promise<PermalinkView | null>;
  /** Which of these authors the collaboration network has (a work page links only those to it). */
  inNetwork?: (authorIds: readonly string[]) => Promise<ReadonlySet<string>>;
  /** Set when the page renders an error answer for a browser (the `/http-error` page; html-pages.ts). */
  httpError?: HttpErrorLocals;
}

/** Builds the locals of one page request (the reader's address is per request). */
export type SiteLocalsFor = (request: FastifyRequest) => SiteLocals;

/** The `api` function of SiteLocals over an app's `inject`. */
export function injectApi(
  inject: (options: InjectOptions) => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>,
  request: FastifyRequest,
): SiteLocals['api'] {
  return async <T>(path: string, call: ApiCall = {}) => {
    const headers: Record<string, string> = { 'x-request-id': request.id };
    if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
    if (call.authorization) headers.authorization = call.authorization;
    const r = await inject({
      method: call.method ?? 'GET',
      url: path,
      headers,
      remoteAddress: request.ip,
      ...(call.body !== undefined ? { payload: call.body } : {}),
    });
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
    const json = (flat['content-type'] ?? '').includes('json');
    return { status: r.statusCode, headers: flat, body: (json ? JSON.parse(r.body) : r.body) as T };
  };
}

export default async function sitePlugin(app: FastifyInstance, opts: { siteDir: string; locals: SiteLocalsFor }) {
  const client = join(opts.siteDir, 'client');
  const entry = join(opts.siteDir, 'server', 'entry.mjs');
  if (!existsSync(client)) {
    app.log.warn(`no site build at ${opts.siteDir}: run \`npm run build\`; serving the APIs only`);
    return;
  }
  await app.register(fastifyStatic, {
    root: client,
    wildcard: false,
    index: ['index.html'],
    redirect: false,
    cacheControl: true,
    maxAge: '5m',
    setHeaders: (reply) => {
      reply.headers(PAGE_SECURITY_HEADERS);
    },
  });
  const handler: AstroHandler | null = existsSync(entry) ? ((await import(pathToFileURL(entry).href)) as { handler: AstroHandler }).handler : null;

  /**
   * Hands the request to Astro as the page at `path` (the request's own path for a page, another for an error
   * or an index), the reply hijacked. onSend hooks do not run for hijacked replies, so the conventions'
   * headers are set here; headers already on the reply (Allow, Retry-After…) are kept.
   */
  const render = (request: FastifyRequest, reply: FastifyReply, path: string, extra: { httpError?: HttpErrorLocals } = {}) => {
    reply.hijack();
    const res = reply.raw;
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) res.setHeader(k, v as string);
    res.setHeader('X-Request-Id', request.id);
    for (const [k, v] of Object.entries(PAGE_SECURITY_HEADERS)) res.setHeader(k, v);
    const locals = { ...opts.locals(request), ...extra };
    res.setHeader('X-Snapshot', locals.manifest.snapshot.id);
    const asked = request.url.split('?')[0]!;
    if (path !== asked) request.raw.url = path;
    handler!(
      request.raw,
      res,
      (err) => {
        if (res.headersSent) return res.end();
        res.setHeader('Cache-Control', 'no-store');
        // No Astro page at this path: a browser gets the error page (once: never for the error page itself).
        if (!err && path !== ERROR_PAGE && prefersHtml(request.headers.accept)) {
          const body = errorBody('NOT_FOUND', `No page at ${asked}.`);
          request.raw.url = ERROR_PAGE;
          res.statusCode = 404;
          return handler!(request.raw, res, () => res.end(), { ...locals, httpError: { status: 404, body, path: asked } });
        }
        res.statusCode = err ? 500 : 404;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify(err ? errorBody('INTERNAL_ERROR', 'The page failed to render.') : errorBody('NOT_FOUND', `No page at ${asked}.`)));
      },
      locals,
    );
  };
  if (handler) app.htmlPages.render = render;

  app.get('/*', async (request, reply) => {
    if (API_PATH.test(request.url)) throw new ApiError('NOT_FOUND', `No resource at GET ${request.url.split('?')[0]}.`);
    // Astro's image endpoint fetches URLs it is given; the site uses no images, so it is not exposed.
    if (/^\/_image(\/|\?|$)/.test(request.url)) throw new ApiError('NOT_FOUND', `No page at ${request.url.split('?')[0]}.`);
    if (!handler) throw new ApiError('NOT_FOUND', `No page at ${request.url.split('?')[0]}.`);
    render(request, reply, request.url.split('?')[0]!);
  });
}
