/** Assertions shared by the cohort endpoint tests. */
import { expect } from 'vitest';
import { errorBodySchema } from '../../contracts/common/errors.ts';
import type { appFor } from './app.ts';

type Res = Awaited<ReturnType<Awaited<ReturnType<typeof appFor>>['app']['inject']>>;

/** A 400 (unless told otherwise), not cached, with the documented error body and this code; returns the body. */
export function expectError(res: Res, code: string, status = 400) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['cache-control']).toBe('no-store');
  const body = errorBodySchema.parse(res.json());
  expect(body.code).toBe(code);
  return body;
}
