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
import type { FastifyInstance } from 'fastify';
import type { PermalinkView } from '../../../contracts/frame/responses.ts';
import type { BuildManifest } from '../../../contracts/common/build-manifest.ts';
import { ApiError, errorBody } from '../../../contracts/common/errors.ts';
import { API_PATH } from './http-conventions.ts';

type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  locals?: object,
) => void;

export interface SiteLocals {
  /** The manifest of the build being served, so server-rendered pages show what the API answers from. */
  manifest: BuildManifest;
  /** Resolves a cohort permalink on the build being served (the `/frame/q/<hash>` page). */
  permalink?: (hash: string) => Promise<PermalinkView | null>;
}

export default async function sitePlugin(
  app: FastifyInstance,
  opts: { siteDir: string; locals: () => SiteLocals },
) {
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
  });
  const handler: AstroHandler | null = existsSync(entry)
    ? ((await import(pathToFileURL(entry).href)) as { handler: AstroHandler }).handler
    : null;

  app.get('/*', async (request, reply) => {
    if (API_PATH.test(request.url))
      throw new ApiError('NOT_FOUND', `No resource at GET ${request.url.split('?')[0]}.`);
    // Astro's image endpoint fetches URLs it is given; the site uses no images, so it is not exposed.
    if (/^\/_image(\/|\?|$)/.test(request.url))
      throw new ApiError('NOT_FOUND', `No page at ${request.url.split('?')[0]}.`);
    if (!handler) throw new ApiError('NOT_FOUND', `No page at ${request.url.split('?')[0]}.`);
    reply.hijack();
    const res = reply.raw;
    for (const [k, v] of Object.entries(reply.getHeaders()))
      if (v !== undefined) res.setHeader(k, v as string);
    // onSend hooks do not run for hijacked replies: set the conventions' headers here.
    res.setHeader('X-Request-Id', request.id);
    const locals = opts.locals();
    res.setHeader('X-Snapshot', locals.manifest.snapshot.id);
    handler(
      request.raw,
      res,
      (err) => {
        if (res.headersSent) return res.end();
        res.statusCode = err ? 500 : 404;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.setHeader('Cache-Control', 'no-store');
        res.end(
          JSON.stringify(
            err
              ? errorBody('INTERNAL_ERROR', 'The page failed to render.')
              : errorBody('NOT_FOUND', `No page at ${request.url.split('?')[0]}.`),
          ),
        );
      },
      locals,
    );
  });
}
