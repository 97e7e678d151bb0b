import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApiError, ERROR_CODES, errorBody, errorBodySchema } from '../../contracts/common/errors.ts';
import { parseStrictQuery, queryEntries } from '../../contracts/common/query.ts';
import { stableStringify } from '../../contracts/common/stable-json.ts';

describe('error body', () => {
  it('has error, message and code for every code', () => {
    for (const code of ERROR_CODES) {
      const body = errorBody(code, 'something was wrong');
      expect(errorBodySchema.parse(body)).toEqual(body);
      expect(Object.keys(body)).toEqual(['error', 'message', 'code']);
    }
  });
});

describe('stableStringify', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(stableStringify({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
  });
});

describe('parseStrictQuery', () => {
  const schema = z.object({
    n: z.coerce.number().int().min(1).max(3).optional(),
    tag: z.array(z.string()).optional(),
  });
  const parse = (qs: string) => parseStrictQuery(schema, `/x?${qs}`, { multi: ['tag'] });
  const codeOf = (qs: string) => {
    try {
      parse(qs);
      return null;
    } catch (err) {
      return (err as ApiError).code;
    }
  };
  it('accepts known parameters and ignores _-prefixed ones', () => {
    expect(parse('n=2&_cachebust=7&tag=a&tag=b')).toEqual({ n: 2, tag: ['a', 'b'] });
  });
  it('rejects unknown, repeated and invalid parameters with the code that says which', () => {
    expect(codeOf('m=1')).toBe('UNKNOWN_PARAMETER');
    expect(codeOf('n=1&n=2')).toBe('INVALID_PARAMETER');
    expect(codeOf('n=9')).toBe('INVALID_PARAMETER');
  });
  it('names the parameter and the allowed list in the message', () => {
    try {
      parse('colour=red');
      expect.unreachable();
    } catch (err) {
      expect((err as ApiError).message).toContain('"colour"');
      expect((err as ApiError).message).toContain('n, tag');
      expect((err as ApiError).status).toBe(400);
    }
  });
});

describe('did you mean (issue 19)', () => {
  it('names the allowed parameter a misspelling is closest to, and nothing for a wild guess', async () => {
    const { didYouMean } = await import('../../contracts/common/errors.ts');
    const allowed = ['q', 'author', 'author_id', 'year_from', 'year_to', 'cited_min', 'lang', 'type', 'per_page'];
    expect(didYouMean('yer_from', allowed)).toBe('year_from');
    expect(didYouMean('year-to', allowed)).toBe('year_to');
    expect(didYouMean('YEAR_FROM', allowed)).toBe('year_from');
    expect(didYouMean('lnag', allowed)).toBe('lang');
    expect(didYouMean('perpage', allowed)).toBe('per_page');
    expect(didYouMean('citedmin', allowed)).toBe('cited_min');
    expect(didYouMean('test_debug', allowed)).toBeNull();
    expect(didYouMean('x', allowed)).toBeNull();
    expect(didYouMean('api_key', ['identifier', 'metric_version', 'use_registry', 'use_code_host'])).toBeNull();
  });

  it('is the message of an unknown parameter, with the full list kept in details', async () => {
    const { parseStrictQuery } = await import('../../contracts/common/query.ts');
    const { z } = await import('zod');
    const schema = z.object({ year_from: z.string().optional(), year_to: z.string().optional() }).strict();
    try {
      parseStrictQuery(schema, '/x?yer_from=2000');
      expect.unreachable();
    } catch (e) {
      const body = (e as { toBody(): { message: string; details: { did_you_mean?: string; allowed?: string[] }[] } }).toBody();
      expect(body.message).toBe('Unknown parameter "yer_from": did you mean "year_from"?');
      expect(body.details[0]).toMatchObject({ did_you_mean: 'year_from', allowed: ['year_from', 'year_to'] });
    }
  });
});

describe('queryEntries: percent-encoding read strictly', () => {
  /** Every string of these characters, up to a length, as query text: the oracle is URLSearchParams on the well-formed ones. */
  const ALPHABET = ['a', '+', '%', '2', 'B', 'E0', 'A4', 'C3', '&', '='];
  const texts = (n: number): string[] => (n === 0 ? [''] : texts(n - 1).flatMap((t) => ALPHABET.map((c) => t + c)));
  /** Well-formed: every % starts two hex digits, and every value decodes to UTF-8 text (TextDecoder fatal as the judge). */
  const wellFormed = (text: string) =>
    !/%(?![0-9A-Fa-f]{2})/.test(text) &&
    text.split(/[&=]/).every((part) => {
      try {
        decodeURIComponent(part.replace(/\+/g, ' '));
        return true;
      } catch {
        return false;
      }
    });

  it('agrees with URLSearchParams on every well-formed query, and is a 400 naming the parameter on every other', () => {
    let good = 0;
    let bad = 0;
    for (const text of texts(4)) {
      const qs = `k=${text}`;
      if (wellFormed(qs)) {
        expect(queryEntries(`/x?${qs}`), qs).toEqual([...new URLSearchParams(qs)]);
        good++;
      } else {
        let error: ApiError | null = null;
        try {
          queryEntries(`/x?${qs}`);
        } catch (err) {
          error = err as ApiError;
        }
        expect(error?.status, qs).toBe(400);
        expect(error?.code, qs).toBe('INVALID_PARAMETER');
        expect(error?.details?.[0]?.message, qs).toMatch(/percent-encoding/);
        bad++;
      }
    }
    expect(good).toBeGreaterThan(100);
    expect(bad).toBeGreaterThan(100);
  });

  it('q=%E0%A4%A (a truncated escape after a partial character) is a 400 on q, not a search for "a"', () => {
    expect(() => queryEntries('/x?q=%E0%A4%A')).toThrow(/"q": malformed percent-encoding/);
    expect(() => queryEntries('/x?%FF=1')).toThrow(/name for "%FF"/);
    expect(queryEntries('/x?q=%E0%A4%A4')).toEqual([['q', '\u0924']]);
    // Ignored parameters stay ignored however they are written.
    expect(queryEntries('/x?_=%ZZ&q=1')).toEqual([['q', '1']]);
  });
});
