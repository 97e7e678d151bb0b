/**
 * Strict query-string parsing shared by every service (DECISIONS.md §3): parameters starting with `_` are
 * ignored; unknown parameters, repeated keys (unless documented as multi-valued) and invalid values are
 * errors that name the parameter and what it allows. Never silently widens a query.
 */
import { z } from 'zod';
import { ApiError, didYouMean } from './errors.ts';

/**
 * What a query-string value means, for the OpenAPI documents: every value arrives as text, but `7` in
 * `days=7` is an integer and `1` in `labeled=1` a boolean. The value helpers below register the JSON Schema
 * of the meaning (with its bounds), so the documents and the parsers cannot disagree.
 */
export const queryValueTypes = z.registry<Record<string, unknown>>();

/** A whole number from `min` through `max`, written in plain decimal digits; `message` says what is allowed. */
export function wholeNumber(min: number, max: number, message = `must be a whole number from ${min} through ${max}`) {
  const schema = z
    .string()
    .regex(/^(0|[1-9][0-9]{0,9})$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));
  queryValueTypes.add(schema, { type: 'integer', minimum: min, maximum: max });
  return schema;
}

/** A boolean: `1`/`true` or `0`/`false` (clients generated from the documents send `true`/`false`). */
export function queryFlag(message = 'must be 1 or 0 (true and false are accepted too)') {
  const schema = z.enum(['1', '0', 'true', 'false'], { error: message }).transform((v) => v === '1' || v === 'true');
  queryValueTypes.add(schema, { type: 'boolean' });
  return schema;
}

/** A switch that can only be turned on: `1` or `true`. */
export function queryOnlyTrue(message = 'takes only the value 1 (or true)') {
  const schema = z.enum(['1', 'true'], { error: message }).transform(() => true as const);
  queryValueTypes.add(schema, { type: 'boolean', enum: [true] });
  return schema;
}

/** The schema of an endpoint that takes no parameters (only `_`-prefixed ones, which are ignored). */
export const noParams = z.object({}).strict();

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * One name or value of a query string decoded as a form does (`+` is a space, `%XX` a byte) but strictly: a `%`
 * not followed by two hex digits, or escaped bytes that are not UTF-8 text, give null. (URLSearchParams keeps a
 * bad escape literally and turns bad bytes into U+FFFD, so `q=%E0%A4%A` would quietly search for "a".)
 */
function decodeComponent(text: string): string | null {
  const plus = text.replace(/\+/g, ' ');
  if (!plus.includes('%')) return plus;
  if (/%(?![0-9A-Fa-f]{2})/.test(plus)) return null;
  const bytes = Buffer.from(plus, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x25) {
      out.push(parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16));
      i += 2;
    } else out.push(bytes[i]!);
  }
  try {
    return UTF8.decode(Uint8Array.from(out));
  } catch {
    return null;
  }
}

/**
 * The key/value pairs of a URL's query string, in order, without the ignored `_…` ones. A malformed percent-escape is a 400 naming the
 * parameter (its name as written when the name itself is malformed), never a different question.
 */
export function queryEntries(url: string): [string, string][] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const out: [string, string][] = [];
  for (const pair of url.slice(q + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    // Ignored parameters (`_…`, cache busters) stay ignored, however they are written.
    if (rawKey.startsWith('_')) continue;
    const key = decodeComponent(rawKey);
    const value = decodeComponent(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === null || value === null) {
      const parameter = key ?? rawKey;
      const message = 'malformed percent-encoding: every % must start an escape of two hex digits (%25 for % itself), and the escaped bytes must be UTF-8 text';
      throw new ApiError('INVALID_PARAMETER', `Invalid ${key === null ? 'name' : 'value'} for "${parameter}": ${message}.`, [{ parameter, message }]);
    }
    out.push([key, value]);
  }
  return out;
}

export interface StrictQueryOptions {
  /** Parameters that may be repeated; their values arrive as arrays. */
  multi?: readonly string[];
  /**
   * An empty (or blank) value means the parameter was left out, as HTML forms send every field. Names and
   * repeats are still checked first, so `bogus=` or `lang=&lang=en` remain errors.
   */
  emptyIsAbsent?: boolean;
}

/** Parses the query string of `url` with a zod object schema whose keys are the allowed parameters. */
export function parseStrictQuery<S extends z.ZodObject>(schema: S, url: string, options: StrictQueryOptions = {}): z.infer<S> {
  const allowed = Object.keys(schema.shape);
  const multi = new Set(options.multi ?? []);
  const raw: Record<string, string | string[]> = {};
  const seen = new Set<string>();
  for (const [key, value] of queryEntries(url)) {
    if (key.startsWith('_')) continue;
    if (!allowed.includes(key)) {
      // A near miss names the one it probably meant, instead of the whole list (which stays in `details`).
      const guess = didYouMean(key, allowed);
      throw new ApiError(
        'UNKNOWN_PARAMETER',
        allowed.length === 0
          ? `Unknown parameter "${key}": this endpoint takes no parameters (parameters starting with _ are ignored).`
          : guess
            ? `Unknown parameter "${key}": did you mean "${guess}"?`
            : `Unknown parameter "${key}". Allowed parameters: ${allowed.join(', ')}.`,
        [
          {
            parameter: key,
            message: guess ? `unknown parameter; did you mean "${guess}"?` : 'unknown parameter',
            allowed,
            ...(guess ? { did_you_mean: guess } : {}),
          },
        ],
      );
    }
    if (seen.has(key) && !multi.has(key))
      throw new ApiError('INVALID_PARAMETER', `Parameter "${key}" may be given only once.`, [{ parameter: key, message: 'repeated' }]);
    seen.add(key);
    if (options.emptyIsAbsent && value.trim() === '') continue;
    const prev = raw[key];
    if (prev === undefined) raw[key] = multi.has(key) ? [value] : value;
    else if (Array.isArray(prev)) prev.push(value);
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const first = issues[0]!;
  const parameter = String(first.path[0] ?? '');
  throw new ApiError(
    'INVALID_PARAMETER',
    `Invalid value for "${parameter}": ${first.message}`,
    issues.map((i) => ({ parameter: String(i.path[0] ?? ''), message: i.message })),
  );
}
