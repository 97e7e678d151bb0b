/**
 * The one error body shared by all three services (DECISIONS.md §3):
 * `{ error, message, code }` plus optional `details`. Keys are only ever added, never renamed.
 */
import { z } from 'zod';
import { described } from './describe.ts';

export const ERROR_CODES = [
  'INVALID_PARAMETER',
  'UNKNOWN_PARAMETER',
  'MISSING_PARAMETER',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RESOLUTION_FAILED',
  'ASSESSMENT_FAILED',
  'RATE_LIMITED',
  'UPSTREAM_UNAVAILABLE',
  'INTERNAL_ERROR',
  'GONE',
  'MALFORMED_REQUEST',
  'REQUEST_TIMEOUT',
  'HEADERS_TOO_LARGE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Short human titles, one per code, so the same code always carries the same `error`. */
const TITLES: Record<ErrorCode, string> = {
  INVALID_PARAMETER: 'Invalid parameter',
  UNKNOWN_PARAMETER: 'Unknown parameter',
  MISSING_PARAMETER: 'Missing parameter',
  NOT_FOUND: 'Not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  RESOLUTION_FAILED: 'Resolution failed',
  ASSESSMENT_FAILED: 'Assessment failed',
  RATE_LIMITED: 'Too many requests',
  UPSTREAM_UNAVAILABLE: 'Upstream unavailable',
  INTERNAL_ERROR: 'Internal error',
  GONE: 'Gone',
  MALFORMED_REQUEST: 'Malformed request',
  REQUEST_TIMEOUT: 'Request timeout',
  HEADERS_TOO_LARGE: 'Request header fields too large',
};

/** HTTP status each code maps to; one place for the rule. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  INVALID_PARAMETER: 400,
  UNKNOWN_PARAMETER: 400,
  MISSING_PARAMETER: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RESOLUTION_FAILED: 422,
  ASSESSMENT_FAILED: 502,
  RATE_LIMITED: 429,
  UPSTREAM_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  GONE: 410,
  MALFORMED_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
};

export const errorDetailSchema = z.object(
  described(
    {
      parameter: z.string().optional(),
      message: z.string(),
      allowed: z.array(z.string()).optional(),
      did_you_mean: z.string().optional(),
    },
    {
      parameter: 'The parameter (or request body field, or path segment) the detail is about; absent when it is about the request as a whole.',
      message: 'What was wrong with it.',
      allowed: 'The names or values it may take, where they are a closed list.',
      did_you_mean: 'The allowed name or value closest to a misspelled one (yer_from → year_from), when one is close.',
    },
  ),
);
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** Counts of a cohort as cited: what a permalink recorded when it was minted. */
const citedCountsSchema = z.object(
  described(
    {
      hash: z.string(),
      url: z.string(),
      total: z.number().int().min(0),
      direct_labels_cover: z.number().int().min(0),
      predictions_cover: z.number().int().min(0),
      created_at: z.string(),
    },
    {
      hash: 'Hash of the permalink of the asked cohort on the gone snapshot.',
      url: 'Absolute URL of that permalink (it still resolves).',
      total: 'Works in the cohort as recorded when the permalink was minted.',
      direct_labels_cover: 'Works with a direct label as recorded when minted.',
      predictions_cover: 'Works with a prediction as recorded when minted.',
      created_at: 'When the permalink was minted (ISO 8601, UTC).',
    },
  ),
);

/**
 * What a 410 `GONE` says about the resource that is gone: a snapshot the service answered from once and no
 * longer keeps (the cohort service's `snapshot=`), when it was dropped if known, and the numbers a permalink of
 * the asked cohort recorded on it (null when none was minted).
 */
export const goneSchema = z.object(
  described(
    {
      snapshot: z.string(),
      dropped_at: z.string().nullable(),
      cited: citedCountsSchema.nullable(),
    },
    {
      snapshot: 'Id of the snapshot that is no longer kept.',
      dropped_at: 'When this server stopped keeping it (ISO 8601, UTC); null when unknown.',
      cited: 'The numbers a permalink of the asked cohort recorded on that snapshot; null when none was minted.',
    },
  ),
);
export type Gone = z.infer<typeof goneSchema>;

export const errorBodySchema = z.object(
  described(
    {
      error: z.string(),
      message: z.string(),
      code: z.enum(ERROR_CODES),
      details: z.array(errorDetailSchema).optional(),
      gone: goneSchema.optional(),
    },
    {
      error: 'Short title of the code (the same for every error of a code), e.g. Invalid parameter.',
      message: 'What went wrong and how to fix it, in plain words; it names the parameter and the values allowed, or the request id of a 500.',
      code: 'Stable machine-readable code; decides the HTTP status (INVALID_PARAMETER 400, NOT_FOUND 404, RATE_LIMITED 429, UPSTREAM_UNAVAILABLE 503…). Programs branch on it, never on message.',
      details: 'One entry per problem found, each naming its parameter; absent when there is nothing to add to message.',
      gone: 'Only on 410 GONE: the snapshot that is no longer kept and the numbers cited on it.',
    },
  ),
);
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Builds the error body; the only constructor of it in the repository. */
export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[], gone?: Gone): ErrorBody {
  const body: ErrorBody = { error: TITLES[code], message, code };
  if (details && details.length > 0) body.details = details;
  if (gone) body.gone = gone;
  return body;
}

/**
 * Seconds a 503 UPSTREAM_UNAVAILABLE asks the client to wait (its Retry-After header) unless the error names its
 * own: long enough for a dependency's bad minute to pass, short enough not to lose a user.
 */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** An error that knows its code; thrown by parsers and services, turned into a response in one place. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  /** Retry-After of a 503 (default DEFAULT_RETRY_AFTER_SECONDS); unused for other codes. */
  readonly retryAfterSeconds: number | undefined;
  /** What a 410 GONE says about the snapshot that is gone. */
  readonly gone: Gone | undefined;
  constructor(code: ErrorCode, message: string, details?: ErrorDetail[], options: { retryAfterSeconds?: number; gone?: Gone } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.gone = options.gone;
  }
  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.details, this.gone);
  }
}

/** Edit distance (insertions, deletions, substitutions and adjacent swaps) between two short strings. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/**
 * The allowed name closest to a misspelled one, for "did you mean …?": case and `-`/`_` ignored, at most a
 * third of the word's letters changed (at most three; none for a word under three letters), the nearest first (ties: the list's
 * order). Null when nothing is that close, so a wild guess is never offered.
 */
export function didYouMean(given: string, allowed: readonly string[]): string | null {
  const norm = (s: string) => s.toLowerCase().replace(/-/g, '_');
  const g = norm(given);
  const limit = Math.min(3, Math.floor(g.length / 3));
  let best: { name: string; distance: number } | null = null;
  for (const name of allowed) {
    const distance = editDistance(g, norm(name));
    if (distance <= limit && (best === null || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}
