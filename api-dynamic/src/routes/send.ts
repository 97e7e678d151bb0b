/**
 * Sending a JSON answer of a frozen build, for every service: snapshot header, strong ETag, cache headers and
 * 304 on If-None-Match (DECISIONS.md §3). One place, so the services cannot differ in how they cache.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Build } from '../services/build-store.ts';

export const FROZEN_CACHE = 'public, s-maxage=3600, stale-while-revalidate=86400';

/** Sends `body` with the given ETag, or 304 when the client already has it. */
export function sendJson(request: FastifyRequest, reply: FastifyReply, body: Buffer | string, etag: string, snapshotId: string, cache = FROZEN_CACHE) {
  reply.header('X-Snapshot', snapshotId).header('ETag', etag).header('Cache-Control', cache).header('Vary', 'Accept-Encoding');
  const inm = request.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * Sends a body computed from `build`, with a strong ETag of the snapshot and the bytes. The text is encoded to
 * UTF-8 once, for the hash and the socket alike (a cohort page is ~75 KB, made of 25 items' concatenated
 * strings: hashing the string and then writing it encoded it twice).
 */
export function sendBuilt(request: FastifyRequest, reply: FastifyReply, build: Build, body: string, cache = FROZEN_CACHE) {
  const bytes = Buffer.from(body, 'utf8');
  const etag = `"${build.snapshotId}.${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`;
  return sendJson(request, reply, bytes, etag, build.snapshotId, cache);
}
